#!/usr/bin/env bash
# The generated C certified on every test of the onnx 1.19.1 suite whose operators are all in the
# SONNX profile: exact mode judged bitwise, fast mode by the admissible enclosure (docs/emit-c.md).
# Takes about 20 minutes per mode on two cores; the ctests run the bounded list
# tests/emit/onnx_profile_tests.txt.
#
#   scripts/emit-c-certify.sh [--build DIR] [--suite DIR] [--out DIR] [--modes "exact fast"] [--fuzz-graphs N]
#
# --fuzz-graphs N: also `sonnx fuzz --profile sonnx` against the C of each mode, N random graphs of
# the profile's operators (default 0: none), judged by the admissible enclosures.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/build SUITE= OUT= MODES="exact fast" FUZZ=0
while [[ $# -gt 0 ]]; do
  case $1 in
    --build) BUILD=$2; shift 2 ;;
    --suite) SUITE=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --modes) MODES=$2; shift 2 ;;
    --fuzz-graphs) FUZZ=$2; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "emit-c-certify: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
SUITE=${SUITE:-$BUILD/tests/onnx-suite-1.19.1/node} OUT=${OUT:-$BUILD/emit-c-certify}
SONNX=$BUILD/cli/sonnx
[[ -x $SONNX ]] || { echo "emit-c-certify: no $SONNX (build first)" >&2; exit 2; }
[[ -d $SUITE ]] || { echo "emit-c-certify: no suite at $SUITE (ctest -R import_onnx_suite_1_19_1 imports it)" >&2; exit 2; }
mkdir -p "$OUT"
# The tests whose every operator is in spec/profiles/sonnx.json (at any version: admit upgrades).
/usr/bin/python3 - "$ROOT/spec/profiles/sonnx.json" "$SUITE" >"$OUT/tests.txt" <<'PY'
import json, os, sys
import onnx
ops = {o.rsplit("-", 1)[0] for o in json.load(open(sys.argv[1]))["operators"]}
for name in sorted(os.listdir(sys.argv[2])):
    path = os.path.join(sys.argv[2], name, "model.onnx")
    try:
        graph = onnx.load(path, load_external_data=False).graph
    except Exception:
        continue
    used = {n.op_type for n in graph.node if n.domain in ("", "ai.onnx")}
    if used and used <= ops and all(n.domain in ("", "ai.onnx") for n in graph.node):
        print(name, "fast")  # marked: fast mode runs every test too (certify_emitted.sh)
PY
echo "emit-c-certify: $(wc -l <"$OUT/tests.txt") tests whose operators are all in the profile"
rc=0
for mode in $MODES; do
  bash "$ROOT/tests/emit/certify_emitted.sh" "$SONNX" "$mode" "$OUT/$mode.json" "$SUITE" "$OUT/tests.txt" lenient || rc=1
  if [[ $FUZZ -gt 0 ]]; then
    SONNX=$SONNX SONNX_EMIT_MODE=$mode "$SONNX" fuzz --backend-cmd "$ROOT/scripts/emit-c-backend.sh" --profile sonnx \
      --graphs "$FUZZ" --seconds 0 --timeout 120 --out "$OUT/fuzz-$mode" --report "$OUT/fuzz-$mode.json" || rc=1
  fi
done
exit $rc
