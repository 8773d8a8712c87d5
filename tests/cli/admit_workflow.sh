#!/usr/bin/env bash
# The README's workflow on exporter-style models (tests/fixtures/admit/: opset 11, a symbolic batch,
# an Identity; exported.onnxtxt also a shape computation, an If on the sample rate and a
# HardSigmoid): check says admit removes every error (not when an If needs an input fixed) → admit
# → check passes → admitting the result again copies it byte for byte; and what admit refuses,
# with exit codes.
#
#   tests/cli/admit_workflow.sh SONNX FIXTURE_DIR SCRATCH
set -euo pipefail
SONNX=$1 FIXTURES=$2 DIR=$3
MODEL=$FIXTURES/exported.onnxtxt
rm -rf "$DIR" && mkdir -p "$DIR"
fail() { echo "admit_workflow: $*" >&2; exit 1; }
expect() {  # expect CODE CMD...: runs CMD, requires exit CODE, output in $DIR/out
  local want=$1; shift
  local rc=0; "$@" >"$DIR/out" 2>&1 || rc=$?
  [[ $rc -eq $want ]] || { cat "$DIR/out" >&2; fail "exit $rc, not $want: $*"; }
}

expect 1 "$SONNX" check --profile sonnx "$FIXTURES/classifier.onnxtxt" --quiet
grep -q "all [0-9]* errors are removable: sonnx admit .*classifier.onnxtxt -o .*classifier.sonnx.onnx --dim N=" "$DIR/out" ||
  fail "check does not suggest admit: $(cat "$DIR/out")"
expect 0 "$SONNX" admit "$FIXTURES/classifier.onnxtxt" -o "$DIR/classifier.onnx" --dim N=1
expect 0 "$SONNX" check --profile sonnx "$DIR/classifier.onnx"
expect 1 "$SONNX" check --profile sonnx "$MODEL" --quiet
! grep -q "removable" "$DIR/out" || fail "check suggests admit for a model whose If needs an input fixed"

# Not fixed: the batch and the sample rate. Nothing written, and why.
expect 1 "$SONNX" admit "$MODEL" -o "$DIR/a.onnx"
[[ ! -e $DIR/a.onnx ]] || fail "a model that is not admitted was written"
grep -q -- "--dim N=" "$DIR/out" || fail "the refusal does not say how to fix N"
grep -q "NO-CONTROL-FLOW\|If" "$DIR/out" || fail "the refusal does not name the If"

expect 0 "$SONNX" admit "$MODEL" -o "$DIR/a.onnx" --dim N=2 --fix sr=16000 --report "$DIR/report.json" --samples 2
grep -q "admitted into profile sonnx" "$DIR/out" || fail "no summary: $(cat "$DIR/out")"
/usr/bin/python3 - "$DIR/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["admitted"] and r["opset"]["from"] == 11 and r["errors_after"] == 0, r
assert [c["result"] for c in r["checks"]] == ["bitwise equal"] * 2, r["checks"]
for kind in ["upgrade", "fold", "specialise", "remove-copy", "fix-input", "fix-dimension", "explicit-attributes"]:
    assert r["rewrites"].get(kind, 0) > 0, (kind, r["rewrites"])
PY
expect 0 "$SONNX" check --profile sonnx "$DIR/a.onnx"
expect 0 "$SONNX" bench "$DIR/a.onnx" --runs 1  # the optimized executor runs it

# The else branch's HardSigmoid is decomposed when it is the branch taken.
expect 0 "$SONNX" admit "$MODEL" -o "$DIR/b.onnx" --dim N=1 --fix sr=8000 --report "$DIR/b.md"
grep -q "| decompose | 1 |" "$DIR/b.md" || fail "no decomposition in the report: $(cat "$DIR/b.md")"

# Already in the profile: the file comes back as it is.
expect 0 "$SONNX" admit "$DIR/a.onnx" -o "$DIR/again.onnx"
cmp -s "$DIR/a.onnx" "$DIR/again.onnx" || fail "a model in the profile was not copied unchanged"
grep -q "already in profile" "$DIR/out" || fail "no 'already in profile' line"

# Bad input: exit 2, nothing written.
expect 2 "$SONNX" admit "$DIR/missing.onnx" -o "$DIR/x.onnx"
expect 2 "$SONNX" admit "$MODEL" -o "$DIR/x.onnx" --dim M=1
expect 2 "$SONNX" admit "$MODEL" -o "$DIR/x.onnx" --fix nosuch=1
expect 2 "$SONNX" admit "$MODEL" -o "$DIR/x.onnx" --dim N=two
expect 2 "$SONNX" admit "$MODEL" -o "$DIR/x.onnx" --input-shape X=1,2,5
expect 2 "$SONNX" admit "$MODEL" -o "$DIR/x.onnx" --fix sr=16000.5 --dim N=1
expect 2 "$SONNX" admit "$MODEL" -o "$DIR/no/such/dir/x.onnx" --dim N=1 --fix sr=16000
[[ ! -e $DIR/x.onnx ]] || fail "a bad option still wrote a model"
echo "admit_workflow: ok"
