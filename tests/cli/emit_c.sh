#!/usr/bin/env bash
# `sonnx emit-c` from the command line: check --profile sonnx → admit → emit-c → make → the program
# runs on the process protocol's files; and what emit-c refuses, with exit codes (1: outside the
# profile, with the admit suggestion, or a case without a C template; 2: unreadable model, bad
# option, unwritable directory), nothing written then.
#
#   tests/cli/emit_c.sh SONNX FIXTURE_DIR SCRATCH
set -euo pipefail
SONNX=$1 FIXTURES=$2 DIR=$3
rm -rf "$DIR" && mkdir -p "$DIR"
fail() { echo "emit_c: $*" >&2; exit 1; }
expect() {  # expect CODE CMD...: runs CMD, requires exit CODE, output in $DIR/out
  local want=$1; shift
  local rc=0; "$@" >"$DIR/out" 2>&1 || rc=$?
  [[ $rc -eq $want ]] || { cat "$DIR/out" >&2; fail "exit $rc, not $want: $*"; }
}

# Outside the profile: the check's diagnostics and how to admit the model; nothing written.
expect 1 "$SONNX" emit-c "$FIXTURES/classifier.onnxtxt" -o "$DIR/no"
grep -q "is not in the SONNX profile" "$DIR/out" || fail "no profile message: $(cat "$DIR/out")"
grep -q "sonnx admit" "$DIR/out" || fail "no admit suggestion: $(cat "$DIR/out")"
[[ ! -e $DIR/no ]] || fail "files written for a model outside the profile"

expect 0 "$SONNX" admit "$FIXTURES/classifier.onnxtxt" -o "$DIR/classifier.onnx" --dim N=1
expect 0 "$SONNX" emit-c "$DIR/classifier.onnx" -o "$DIR/c" --name classifier
for f in classifier.h classifier.c main.c Makefile CMakeLists.txt; do [[ -s $DIR/c/$f ]] || fail "no $f"; done
grep -q "#define CLASSIFIER_ARENA_BYTES [0-9]*u" "$DIR/c/classifier.h" || fail "no arena size in the header"
make -s -C "$DIR/c" >"$DIR/make.log" 2>&1 || { cat "$DIR/make.log"; fail "the generated Makefile fails"; }
[[ ! -s $DIR/make.log ]] || { cat "$DIR/make.log"; fail "the generated code compiles with warnings"; }
expect 0 "$DIR/c/classifier_main" --help
grep -q "input" "$DIR/out" || fail "the driver's --help lists no input"

# --weights file: the program finds classifier.weights beside itself, or says where it looked.
expect 0 "$SONNX" emit-c "$DIR/classifier.onnx" -o "$DIR/w" --name classifier --weights file --mode fast
[[ -s $DIR/w/classifier.weights ]] || fail "no weights file"
make -s -C "$DIR/w" >/dev/null 2>&1 || fail "the weights-file variant does not build"

# A case with no C template (ReduceSum's axes computed at run time) is refused by name, with the
# input it needs as a constant: exit 1, nothing written.
cat >"$DIR/axes.onnxtxt" <<'M'
<ir_version: 8, opset_import: ["" : 19]>
g (float[2,3] x, int64[1] a) => (float[2,1] y) {
  y = ReduceSum <keepdims = 1, noop_with_empty_axes = 0> (x, a)
}
M
expect 1 "$SONNX" emit-c "$DIR/axes.onnxtxt" -o "$DIR/axes"
grep -q "no C template for ReduceSum-13" "$DIR/out" || fail "the refusal does not name the operator version: $(cat "$DIR/out")"
grep -q "input 'a' is needed as a constant" "$DIR/out" || fail "the refusal does not name the input: $(cat "$DIR/out")"
[[ ! -e $DIR/axes ]] || fail "files written for a refused model"

# Indices read at run time (Gather): checked in the C before the copy. In range (negative ones
# count from the end) the program gives numpy's take; one out of range makes PREFIX_run fail, as
# the reference traps: the driver exits 1 and writes no output.
cat >"$DIR/gather.onnxtxt" <<'M'
<ir_version: 8, opset_import: ["" : 13]>
g (float[3,2] x, int64[2,2] i) => (float[2,2,2] y) {
  y = Gather <axis = 0> (x, i)
}
M
expect 0 "$SONNX" emit-c "$DIR/gather.onnxtxt" -o "$DIR/gather" --name gather
make -s -C "$DIR/gather" >/dev/null 2>&1 || fail "the run-time Gather does not build"
/usr/bin/python3 - "$DIR" <<'PY'
import os, sys
import numpy as np
from onnx import numpy_helper
d = sys.argv[1]
x = np.arange(6, dtype=np.float32).reshape(3, 2)
for name, idx in (("gather-good", [[0, -1], [2, 1]]), ("gather-bad", [[0, 3], [1, 1]])):
    os.makedirs(f"{d}/{name}", exist_ok=True)
    open(f"{d}/{name}/input_0.pb", "wb").write(numpy_helper.from_array(x, "x").SerializeToString())
    open(f"{d}/{name}/input_1.pb", "wb").write(numpy_helper.from_array(np.array(idx, np.int64), "i").SerializeToString())
PY
mkdir -p "$DIR/gather-good-out" "$DIR/gather-bad-out"
expect 0 "$DIR/gather/gather_main" "$DIR/gather-good" "$DIR/gather-good-out"
/usr/bin/python3 - "$DIR" <<'PY' || fail "the run-time Gather's output is not numpy's take"
import sys
import numpy as np
from onnx import TensorProto, numpy_helper
d = sys.argv[1]
t = TensorProto()
t.ParseFromString(open(f"{d}/gather-good-out/output_0.pb", "rb").read())
want = np.take(np.arange(6, dtype=np.float32).reshape(3, 2), np.array([[0, -1], [2, 1]]), axis=0)
sys.exit(0 if np.array_equal(numpy_helper.to_array(t), want) else 1)
PY
expect 1 "$DIR/gather/gather_main" "$DIR/gather-bad" "$DIR/gather-bad-out"
[[ ! -e $DIR/gather-bad-out/output_0.pb ]] || fail "an output written though an index was out of range"
expect 1 "$SONNX" run "$DIR/gather.onnxtxt" --input "x=$DIR/gather-bad/input_0.pb" --input "i=$DIR/gather-bad/input_1.pb"
grep -qi "index" "$DIR/out" || fail "the reference does not trap on the index: $(cat "$DIR/out")"

# An integer divisor read at run time: 0 makes the node fail as the reference traps (exit 1, no
# output); a non-zero one divides as C99 does, toward zero (numpy's trunc of the quotient).
cat >"$DIR/div.onnxtxt" <<'M'
<ir_version: 8, opset_import: ["" : 14]>
g (int32[3] a, int32[3] b) => (int32[3] q) {
  q = Div (a, b)
}
M
expect 0 "$SONNX" emit-c "$DIR/div.onnxtxt" -o "$DIR/div" --name div
make -s -C "$DIR/div" >/dev/null 2>&1 || fail "the integer Div does not build"
/usr/bin/python3 - "$DIR" <<'PY'
import os, sys
import numpy as np
from onnx import numpy_helper
d = sys.argv[1]
for name, b in (("div-good", [2, -3, 5]), ("div-bad", [2, 0, 5])):
    os.makedirs(f"{d}/{name}-out", exist_ok=True)
    os.makedirs(f"{d}/{name}", exist_ok=True)
    open(f"{d}/{name}/input_0.pb", "wb").write(numpy_helper.from_array(np.array([7, 7, -7], np.int32), "a").SerializeToString())
    open(f"{d}/{name}/input_1.pb", "wb").write(numpy_helper.from_array(np.array(b, np.int32), "b").SerializeToString())
PY
expect 0 "$DIR/div/div_main" "$DIR/div-good" "$DIR/div-good-out"
/usr/bin/python3 - "$DIR" <<'PY' || fail "the integer Div's output is not the quotient truncated toward zero"
import sys
import numpy as np
from onnx import TensorProto, numpy_helper
t = TensorProto()
t.ParseFromString(open(f"{sys.argv[1]}/div-good-out/output_0.pb", "rb").read())
sys.exit(0 if numpy_helper.to_array(t).tolist() == [3, -2, -1] else 1)
PY
expect 1 "$DIR/div/div_main" "$DIR/div-bad" "$DIR/div-bad-out"
[[ ! -e $DIR/div-bad-out/output_0.pb ]] || fail "an output written though the divisor held 0"
expect 1 "$SONNX" run "$DIR/div.onnxtxt" --input "a=$DIR/div-bad/input_0.pb" --input "b=$DIR/div-bad/input_1.pb"

# Refusals: bad options and paths are usage errors (2), nothing written.
expect 2 "$SONNX" emit-c "$DIR/classifier.onnx" -o "$DIR/bad" --name "9lives"
[[ ! -e $DIR/bad ]] || fail "files written for a bad --name"
expect 2 "$SONNX" emit-c "$DIR/classifier.onnx" -o "$DIR/bad" --mode turbo
expect 2 "$SONNX" emit-c "$DIR/missing.onnx" -o "$DIR/bad"
printf 'not a model' >"$DIR/garbage.onnx"
expect 2 "$SONNX" emit-c "$DIR/garbage.onnx" -o "$DIR/bad"
: >"$DIR/file"
expect 2 "$SONNX" emit-c "$DIR/classifier.onnx" -o "$DIR/file/sub"
expect 0 "$SONNX" emit-c --help
echo "emit_c: ok"
