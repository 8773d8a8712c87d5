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

# A case with no C template (MaxPool's Indices output) is refused by name: exit 1, nothing written.
cat >"$DIR/indices.onnxtxt" <<'M'
<ir_version: 8, opset_import: ["" : 25]>
g (float[1,1,4,4] x) => (float[1,1,2,2] y, int64[1,1,2,2] i) {
  y, i = MaxPool <kernel_shape = [2, 2], strides = [2, 2], auto_pad = "NOTSET", ceil_mode = 0, dilations = [1, 1], pads = [0, 0, 0, 0], storage_order = 0> (x)
}
M
expect 1 "$SONNX" emit-c "$DIR/indices.onnxtxt" -o "$DIR/indices"
grep -q "no C template for MaxPool-22" "$DIR/out" || fail "the refusal does not name the operator version: $(cat "$DIR/out")"
[[ ! -e $DIR/indices ]] || fail "files written for a refused model"

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
