#!/usr/bin/env bash
# Devices and profile-guided assignment (docs/backends.md): `sonnx devices` lists the built-ins and
# the plugins (from --plugin and SONNX_PLUGIN_PATH) with type, version and a cached calibration
# figure, and says node by node which device runs what and why not; `--devices` compiles for
# exactly a set; `--assign profile` follows the measurements of two simulated accelerators —
# convfast (slow at Add) and addfast (slow at Conv) — and its predicted critical path beats each
# device alone.
# Usage: devices_test.sh SONNX SAMPLE CONVFAST ADDFAST MIXED CONV_ADD WORKDIR
set -u
sonnx=$1 sample=$2 convfast=$3 addfast=$4 mixed=$5 conv_add=$6 work=$7
rm -rf "$work" && mkdir -p "$work/plugins"
export SONNX_CACHE_DIR=$work/cache
fail() { echo "FAILED: $1"; exit 1; }
check() {  # check FILE PYTHON-CONDITION... (j is the JSON)
  local file=$1; shift
  for cond in "$@"; do
    /usr/bin/python3 -c "import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if ($cond) else 1)" "$file" ||
      { cat "$file"; fail "$cond"; }
  done
}

# Discovery: built-ins, a --plugin, and a folder on SONNX_PLUGIN_PATH (a non-plugin .so there is skipped).
cp "$addfast" "$work/plugins/" && cp /lib/x86_64-linux-gnu/libm.so.6 "$work/plugins/libm.so"
SONNX_PLUGIN_PATH=$work/plugins "$sonnx" devices --plugin "$convfast" --format json >"$work/devices.json" || fail "sonnx devices"
check "$work/devices.json" \
  "[d['name'] for d in j['devices']] == ['cpu', 'reference', 'convfast', 'addfast']" \
  "[d['type'] for d in j['devices']] == ['cpu', 'reference', 'accelerator', 'accelerator']" \
  "j['devices'][2]['version'] == '1.0' and j['devices'][2]['source'].endswith('.so')" \
  "j['devices'][0]['figure'] == 1.0 and all(d['figure'] > 0 for d in j['devices'])" \
  "not any(d['figure_cached'] for d in j['devices'])" \
  "len(j['skipped']) == 1 and 'libm.so' in j['skipped'][0]"
# The figures are cached per machine: the second listing measures nothing.
SONNX_PLUGIN_PATH=$work/plugins "$sonnx" devices --plugin "$convfast" --format json >"$work/devices2.json" || fail "sonnx devices (cached)"
check "$work/devices2.json" "all(d['figure_cached'] for d in j['devices'])"
"$sonnx" devices --plugin "$convfast" --plugin "$work/plugins/$(basename "$addfast")" --no-calibrate | grep -q '^addfast  *accelerator' ||
  fail "text listing lacks addfast"

# Node by node: the sample plugin runs Add, Relu, Mul, not Abs or Sub (and says why).
"$sonnx" devices --plugin "$sample" --model "$mixed" --no-calibrate --format json >"$work/mixed.json" || fail "devices --model"
check "$work/mixed.json" \
  "[n['op_type'] for n in j['nodes'] if 'sample' in n['devices']] == ['Add', 'Relu', 'Mul', 'Add']" \
  "all(n['not']['sample'] == 'no capability for ' + n['op_type'] for n in j['nodes'] if n['op_type'] in ('Abs', 'Sub'))" \
  "all(n['devices'][:2] == ['cpu', 'reference'] for n in j['nodes'])" \
  "[d['nodes_supported'] for d in j['devices']] == [6, 6, 4]"

# Profile-guided assignment follows the measurements, whatever the order of the set.
for set in convfast,addfast addfast,convfast; do
  "$sonnx" partition "$conv_add" --plugin "$convfast" --plugin "$addfast" --devices $set --assign profile --run --format json \
    >"$work/assign-$set.json" || { cat "$work/assign-$set.json"; fail "partition --assign profile ($set)"; }
  check "$work/assign-$set.json" \
    "all(n['device'] == ('convfast' if n['op_type'] == 'Conv' else 'addfast') for n in j['assignment']['nodes'])" \
    "all(n['measured_ms']['convfast'] < n['measured_ms']['addfast'] for n in j['assignment']['nodes'] if n['op_type'] == 'Conv')" \
    "all(n['measured_ms']['addfast'] < n['measured_ms']['convfast'] for n in j['assignment']['nodes'] if n['op_type'] == 'Add')" \
    "j['assignment']['predicted_ms'] < min(j['assignment']['alone_ms']['convfast'], j['assignment']['alone_ms']['addfast'])" \
    "len(j['steps']) == 6 and j['fallback'] is None and j['matches_reference']"
done
check "$work/assign-addfast,convfast.json" "j['assignment']['from_cache'] is False"
# The profile is cached by model: the same compilation again measures nothing.
"$sonnx" partition "$conv_add" --plugin "$convfast" --plugin "$addfast" --devices convfast,addfast --assign profile --format json \
  >"$work/assign-cached.json" || fail "cached profile"
check "$work/assign-cached.json" "j['assignment']['from_cache'] is True" \
  "all(n['device'] == ('convfast' if n['op_type'] == 'Conv' else 'addfast') for n in j['assignment']['nodes'])"
# `first` keeps the preference order: everything on the first device of the set.
"$sonnx" partition "$conv_add" --plugin "$convfast" --plugin "$addfast" --devices addfast,convfast --format json >"$work/first.json" ||
  fail "--assign first"
check "$work/first.json" "len(j['steps']) == 1 and j['steps'][0]['backend'] == 'addfast' and 'assignment' not in j"
# sonnx plan shows where each node landed and the measured costs that put it there.
"$sonnx" plan "$conv_add" --plugin "$convfast" --plugin "$addfast" --devices convfast,addfast --assign profile >"$work/plan.txt" ||
  fail "plan --devices"
grep -q '^step 0 on convfast: .*(Conv)' "$work/plan.txt" || { cat "$work/plan.txt"; fail "plan: Conv not first on convfast"; }
grep -q 'measured: convfast .* ms, addfast .* ms; predicted' "$work/plan.txt" || { cat "$work/plan.txt"; fail "plan: no measured costs"; }
grep -q 'predicted critical path .*; convfast alone .*; addfast alone' "$work/plan.txt" || { cat "$work/plan.txt"; fail "plan: no prediction"; }
# bench on a device set.
"$sonnx" bench "$conv_add" --plugin "$convfast" --plugin "$addfast" --devices convfast,addfast --assign profile --runs 2 --format json \
  >"$work/bench.json" || fail "bench --devices"
check "$work/bench.json" "j['steps'] == 6 and j['fallbacks'] == 0 and j['median_ms'] > 0"
echo "devices_test: ok"
