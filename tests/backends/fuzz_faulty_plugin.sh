#!/usr/bin/env bash
# `sonnx fuzz --backend PLUGIN`: the faulty plugin (faulty_plugin.c) has three planted faults. A
# bounded campaign must find each of them as its own defect group (Tanh-13 outside its enclosure,
# Sub-14 with unequal shapes, Sigmoid-13 giving NaN), each localized to a one-node repro (at most 3
# nodes), and must blame none of the seven correct operators; each repro replays the failure under
# `sonnx certify` on the plugin and passes on the reference backend.
# Usage: fuzz_faulty_plugin.sh SONNX PLUGIN WORK_DIR
set -u
sonnx=$1 plugin=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAILED: $1"; exit 1; }
"$sonnx" fuzz --backend "$plugin" --opset 17 --seed 1 --graphs 1500 --seconds 0 --max-groups 3 \
  --out "$work/repros" --report "$work/campaign.json" > "$work/campaign.txt"
rc=$?
cat "$work/campaign.txt"
[ $rc -eq 1 ] || fail "fuzz exits 1 when it finds defects (got $rc)"
/usr/bin/python3 - "$work" <<'PY' || exit 1
import json, sys
c = json.load(open(f"{sys.argv[1]}/campaign.json"))
assert c["kind"] == "fuzz-campaign", c.get("kind")
groups = c["defect_groups"]
found = {(g["op"].split("-")[0], g["deviation"]) for g in groups}
planted = {("Tanh", "outside-enclosure"), ("Sub", "outside-enclosure"), ("Sigmoid", "nan")}
assert planted <= found, f"planted faults not all found: {sorted(planted - found)} (found {sorted(found)})"
correct = {"Add", "Mul", "Div", "Relu", "Abs", "Neg", "Exp"}
for g in groups:
    op = g["op"].split("-")[0]
    assert op not in correct and not g["op"].startswith("graph:"), f"blamed a correct operator or a whole graph: {g}"
    assert g["repro_nodes"] <= 3, f"repro not shrunk: {g}"
sub = [g for g in groups if g["op"].startswith("Sub")][0]
assert "unequal shapes" in sub["pattern"], sub["pattern"]
assert c["graphs"] == c["passed"] + c["failed"] + c["skipped"], c
print("groups:", sorted(found))
PY
# Each repro is an ONNX test directory: it fails on the plugin again and passes on the reference.
for d in "$work"/repros/defect-*; do
  [ -f "$d/model.onnx" ] && [ -f "$d/test_data_set_0/input_0.pb" ] && [ -f "$d/admissible_lo_0.pb" ] ||
    fail "$d lacks model.onnx, inputs or its enclosure"
  "$sonnx" certify --backend "$plugin" --judge enclosure --suite "$d" --report "$d/replay.json" >/dev/null &&
    fail "$d passes on the faulty plugin"
  "$sonnx" certify --backend reference --judge enclosure --suite "$d" >/dev/null || fail "$d fails on the reference"
done
echo "fuzz_faulty_plugin: ok"
