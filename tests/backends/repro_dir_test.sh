#!/usr/bin/env bash
# Every failure explained, with a repro directory (docs/certify-failures.md), on the localize suite
# (make_localize_suite.py: y = Mul(Add(Relu(Conv(x, W, B)), c), d)):
#  1. a runtime command giving wrong values (wrong_backend.sh writes the input c as y), not
#     localized (--no-localize: the whole model is explained): the JSON
#     failure block names the first wrong element (checked against y computed here with numpy), the
#     Markdown has it, the repro directory holds the model, inputs, reference and runtime outputs and
#     a README, its rerun command fails again the same way, and the reference backend passes it;
#  2. the same under --judge enclosure: the enclosure's float64 bounds hold the reference and not the
#     runtime's value;
#  3. without --report the repros go to certify-repros/ in the current directory; a hostile test
#     name stays inside --repro-dir and its rerun command still works;
#  4. with PLUGIN (the sample plugin, SONNX_SAMPLE_FAULT=1: its Relu is off): the localized Relu is
#     reproduced by that node alone.
# Usage: repro_dir_test.sh SONNX LOCALIZE_SUITE WORK_DIR [PLUGIN]
set -u
sonnx=$1 suite=$2 work=$3 plugin=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
wrong="sh $here/wrong_backend.sh"
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAILED: $1"; exit 1; }

# certify_expect EXIT ARGS...: runs sonnx certify ARGS..., checks its exit status.
certify_expect() {
  local want=$1
  shift
  "$sonnx" certify "$@" >"$work/last.out" 2>&1
  local got=$?
  [ "$got" = "$want" ] || { cat "$work/last.out"; fail "certify $* exited $got, expected $want"; }
}

# rerun REPORT.json TEST EXIT [EXTRA ARGS]: runs the failure's own rerun command (its "sonnx" the
# sonnx under test; its own repros under WORK/reruns), checks its exit status.
rerun() {
  local cmd
  cmd=$(/usr/bin/python3 -c 'import json,sys; t=[t for t in json.load(open(sys.argv[1]))["tests"] if t["name"]==sys.argv[2]][0]; print(t["failure"]["rerun"])' "$1" "$2") ||
    fail "no rerun command for $2 in $1"
  case "$cmd" in "sonnx certify "*) ;; *) fail "the rerun command does not start with 'sonnx certify': $cmd" ;; esac
  local want=$3
  shift 3
  eval "\"\$sonnx\" ${cmd#sonnx } --repro-dir \"\$work/reruns\" $* >\"\$work/last.out\" 2>&1"
  local got=$?
  [ "$got" = "$want" ] || { cat "$work/last.out"; fail "rerun '$cmd' exited $got, expected $want"; }
}

# 1. The tolerance judge.
certify_expect 1 --backend-cmd "$wrong" --no-localize --suite "$suite" --timeout 10 --report "$work/wrong.json" --report "$work/wrong.md"
repro="$work/wrong-repros/test_localize"
# check_failure.py REPORT TEST_DIR REPRO_DIR JUDGE: the failure block and the repro directory.
cat >"$work/check_failure.py" <<'PY'
import json, os, sys
import numpy as np
import onnx
from onnx import numpy_helper

report, test, repro, judge = sys.argv[1:]
t = {t["name"]: t for t in json.load(open(report))["tests"]}["test_localize"]
assert t["status"] == "failed", t
f = t["failure"]

# y computed here, in float64, from the test's own files.
model = onnx.load(os.path.join(test, "model.onnx"))
w = {i.name: numpy_helper.to_array(i).astype(np.float64) for i in model.graph.initializer}
def tensor(path):
    p = onnx.TensorProto()
    p.ParseFromString(open(path, "rb").read())
    return numpy_helper.to_array(p)
x, c, d = (tensor(os.path.join(test, "test_data_set_0", f"input_{k}.pb")) for k in range(3))
x64 = x.astype(np.float64)
W, B = w["W"], w["B"]
conv = np.zeros((1, 4, 6, 6))
for i in range(6):
    for j in range(6):
        conv[:, :, i, j] = np.einsum("nchw,ochw->no", x64[:, :, i:i + 3, j:j + 3], W)
conv += B[None, :, None, None]
y = (np.maximum(conv, 0) + c) * d

assert f["localized"] is False and "node" not in f, f
assert f["not_localized"] == "not localized: localization is off (--no-localize)", f
assert [i["name"] for i in f["inputs"]] == ["x", "c", "d"], f["inputs"]
for i, v in zip(f["inputs"], (x, c, d)):
    assert i["type"] == "float" and i["shape"] == list(v.shape), i
    assert np.float32(i["min"]) == v.min() and np.float32(i["max"]) == v.max(), (i, v.min(), v.max())
assert f["output"] == "y" and f["judged_by"] == judge, f
assert f["elements"] == y.size, f
flat_c, flat_y = c.reshape(-1).astype(np.float64), y.reshape(-1)
if judge == "tolerance":
    # float32: wrong when off by more than 2 ulps and more than 1e-6 + 1e-5 |y|.
    off = np.abs(flat_c - flat_y)
    wrong = (off > 1e-6 + 1e-5 * np.abs(flat_y)) & (off > 2 * np.spacing(np.abs(flat_y).astype(np.float32)))
    first = int(np.argmax(wrong))
    assert f["index"] == first and f["wrong"] == int(wrong.sum()), (f, first, int(wrong.sum()))
    assert "2 ulps" in f["tolerance"], f
    assert "lo" not in f and not os.path.exists(os.path.join(repro, "expected_lo_0.pb"))
else:
    lo, hi = tensor(os.path.join(repro, "expected_lo_0.pb")), tensor(os.path.join(repro, "expected_hi_0.pb"))
    assert lo.dtype == np.float64 and hi.dtype == np.float64 and lo.shape == y.shape, (lo.dtype, lo.shape)
    ref = tensor(os.path.join(repro, "test_data_set_0", "output_0.pb"))
    assert np.all(lo <= ref) and np.all(ref <= hi), "the reference lies outside its enclosure"
    assert np.all(np.abs(lo - y) <= 1e-4) and np.all(np.abs(hi - y) <= 1e-4), "an enclosure far from y"
    outside = (flat_c < lo.reshape(-1)) | (flat_c > hi.reshape(-1))
    first = int(np.argmax(outside))
    assert f["index"] == first and f["wrong"] == int(outside.sum()), (f, first, int(outside.sum()))
    assert float(f["lo"]) == lo.reshape(-1)[first] and float(f["hi"]) == hi.reshape(-1)[first], f
    assert f["ulps_outside"] == "inf" or f["ulps_outside"] > 0, f
k = f["index"]
assert f["multi_index"] == list(np.unravel_index(k, y.shape)), f
assert np.float32(f["runtime"]) == c.reshape(-1)[k], (f["runtime"], c.reshape(-1)[k])
assert abs(float(f["reference"]) - flat_y[k]) <= 1e-5 * max(1, abs(flat_y[k])), (f["reference"], flat_y[k])

# The repro directory: an ONNX test directory with the evidence beside it.
assert f["repro_dir"] == repro, (f["repro_dir"], repro)
assert open(os.path.join(repro, "model.onnx"), "rb").read() == open(os.path.join(test, "model.onnx"), "rb").read()
for k, v in enumerate((x, c, d)):
    assert np.array_equal(tensor(os.path.join(repro, "test_data_set_0", f"input_{k}.pb")), v), k
ref = tensor(os.path.join(repro, "test_data_set_0", "output_0.pb"))
assert np.all(np.abs(ref - y) <= 1e-4), "the reference output is not y"
assert np.array_equal(tensor(os.path.join(repro, "runtime_output_0.pb")), c), "the runtime output is not c"
readme = open(os.path.join(repro, "README.md")).read()
assert f["rerun"] in readme and "- **output**: y: element " in readme, readme
print(f"failure block ({judge}): ok")
PY
/usr/bin/python3 "$work/check_failure.py" "$work/wrong.json" "$suite/test_localize" "$repro" tolerance ||
  fail "the failure block (tolerance)"
grep -q '^## Failures$' "$work/wrong.md" || fail "no Failures section in the Markdown"
grep -q '^### test_localize$' "$work/wrong.md" || fail "no block for test_localize in the Markdown"
grep -q '^- \*\*rerun\*\*: `sonnx certify --backend-cmd ' "$work/wrong.md" || fail "no rerun line in the Markdown"
# The same failure again from its own command; the reference passes.
rerun "$work/wrong.json" test_localize 1 --report "$work/rerun.json"
/usr/bin/python3 - "$work/wrong.json" "$work/rerun.json" <<'PY' || fail "the rerun does not fail the same way"
import json, sys
a, b = ({t["name"]: t for t in json.load(open(p))["tests"]} for p in sys.argv[1:])
fa, fb = a["test_localize"]["failure"], b["test_localize"]["failure"]
for k in ("output", "index", "multi_index", "wrong", "runtime", "reference", "judged_by"):
    assert fa[k] == fb[k], (k, fa[k], fb[k])
print("rerun: the same failure")
PY
certify_expect 0 --backend reference --suite "$repro" --timeout 10 --report "$work/reference.json"

# 2. The enclosure judge.
certify_expect 1 --backend-cmd "$wrong" --no-localize --suite "$suite" --timeout 10 --judge enclosure --report "$work/enc.json"
/usr/bin/python3 "$work/check_failure.py" "$work/enc.json" "$suite/test_localize" "$work/enc-repros/test_localize" enclosure ||
  fail "the failure block (enclosure)"
rerun "$work/enc.json" test_localize 1 --report "$work/enc-rerun.json"
grep -q '"judged_by": "enclosure"' "$work/enc-rerun.json" || fail "the enclosure rerun was not judged by enclosure"
certify_expect 0 --backend reference --suite "$work/enc-repros/test_localize" --judge enclosure --timeout 10

# 3. No report: certify-repros/ here. A hostile name stays inside --repro-dir.
mkdir -p "$work/cwd"
(cd "$work/cwd" && "$sonnx" certify --backend-cmd "$wrong" --suite "$suite" --timeout 10 >/dev/null 2>&1)
[ -f "$work/cwd/certify-repros/test_localize/README.md" ] || fail "no certify-repros/ in the current directory"
hostile="test loc'al \$x"
mkdir -p "$work/hostile-suite"
cp -r "$suite/test_localize" "$work/hostile-suite/$hostile"
certify_expect 1 --backend-cmd "$wrong" --suite "$work/hostile-suite" --timeout 10 --repro-dir "$work/hostile/repros" \
  --report "$work/hostile.json"
[ "$(ls "$work/hostile")" = "repros" ] || fail "something was written beside --repro-dir: $(ls "$work/hostile")"
[ "$(ls "$work/hostile/repros" | wc -l)" = 1 ] || fail "not one repro directory: $(ls "$work/hostile/repros")"
case "$(ls "$work/hostile/repros")" in *[!A-Za-z0-9._-]*) fail "an unsafe directory name: $(ls "$work/hostile/repros")" ;; esac
rerun "$work/hostile.json" "$hostile" 1

# 4. A localized failure, reproduced by its node alone.
if [ -n "$plugin" ]; then
  export SONNX_SAMPLE_FAULT=1
  certify_expect 1 --backend "$plugin" --suite "$suite" --timeout 30 --report "$work/plugin.json"
  /usr/bin/python3 - "$work/plugin.json" <<'PY' || fail "the localized failure"
import json, os, sys
import onnx
t = {t["name"]: t for t in json.load(open(sys.argv[1]))["tests"]}["test_localize"]
f = t["failure"]
assert f["localized"] is True and f["node"] == "relu (Relu)" and f["op_version"] == "Relu-14", f
assert f["output"] == "relu" and f["judged_by"] == "enclosure" and f["lo"] == f["hi"], f
assert [i["name"] for i in f["inputs"]] == ["conv"], f["inputs"]
assert " --judge enclosure --suite " in f["rerun"], f["rerun"]
m = onnx.load(os.path.join(f["repro_dir"], "model.onnx"))
assert [n.op_type for n in m.graph.node] == ["Relu"], m.graph.node
print("localized: ok")
PY
  rerun "$work/plugin.json" test_localize 1
  certify_expect 0 --backend reference --suite "$work/plugin-repros/test_localize" --judge enclosure --timeout 10
  unset SONNX_SAMPLE_FAULT
fi
echo "repro_dir_test: ok"
