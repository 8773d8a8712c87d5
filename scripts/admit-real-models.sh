#!/usr/bin/env bash
# `sonnx admit` on the team's real models (conformance/data/make-admit-models.sh): each model admitted
# into the SONNX profile with the options below, the result checked with `sonnx check --profile
# sonnx`, and one line per model: admitted or not, profile errors before, the rewrites applied,
# comparison runs bitwise equal, seconds. Reports (JSON) go to WORK. Exits 1 when a model is not
# admitted or its result fails the check, 2 on setup errors.
#
#   scripts/admit-real-models.sh [--build DIR] [--models DIR] [--work DIR] [--only REGEX] [--samples K]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/build MODELS= WORK= ONLY= SAMPLES=3
while [[ $# -gt 0 ]]; do
  case $1 in
    --build) BUILD=$2; shift 2 ;;
    --models) MODELS=$2; shift 2 ;;
    --work) WORK=$2; shift 2 ;;
    --only) ONLY=$2; shift 2 ;;
    --samples) SAMPLES=$2; shift 2 ;;
    -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "admit-real-models: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
SONNX=$BUILD/cli/sonnx
[[ -x $SONNX ]] || { echo "admit-real-models: no $SONNX (build first)" >&2; exit 2; }
MODELS=${MODELS:-$BUILD/admit-models}
WORK=${WORK:-$BUILD/admit-models-out}
[[ -d $MODELS ]] || bash "$ROOT/conformance/data/make-admit-models.sh" "$MODELS"
mkdir -p "$WORK"

# The options each model needs: what its exporter left symbolic, the inputs fixed.
options() {
  case $1 in
    ppocr_cls) echo "--input-shape x=1,3,48,192" ;;
    ppocr_det) echo "--input-shape x=1,3,320,320" ;;
    ppocr_rec) echo "--input-shape x=1,3,48,320" ;;
    silero_vad_legacy) echo "--fix sr=16000 --input-shape input=1,512 --dim batch=1" ;;
    silero_vad_v5) echo "--fix sr=16000 --input-shape input=1,512 --input-shape state=2,1,128 --expose-unused" ;;
    tv_*_opset*) echo "--dim batch=1" ;;
    *) echo "" ;;
  esac
}

status=0
printf '%-26s %-9s %7s %7s %6s %s\n' model result before runs secs rewrites
for f in "$MODELS"/*.onnx; do
  name=$(basename "$f" .onnx)
  [[ -n $ONLY && ! $name =~ $ONLY ]] && continue
  out=$WORK/$name.sonnx.onnx report=$WORK/$name.admit.json
  rm -f "$out"
  # shellcheck disable=SC2046
  rc=0; "$SONNX" admit "$f" -o "$out" --samples "$SAMPLES" --report "$report" --quiet $(options "$name") >"$WORK/$name.log" 2>&1 || rc=$?
  if [[ $rc -eq 0 ]] && ! "$SONNX" check "$out" --profile sonnx --quiet >>"$WORK/$name.log" 2>&1; then rc=4; fi
  if [[ -s $report ]]; then
    /usr/bin/python3 - "$report" "$name" "$rc" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); rc = int(sys.argv[3])
result = {0: "admitted", 4: "CHECK-FAILS"}.get(rc, "refused")
runs = f"{sum(c['result'] == 'bitwise equal' for c in r['checks'])}/{len(r['checks'])}"
rw = " ".join(f"{k}={v}" for k, v in sorted(r["rewrites"].items()))
print(f"{sys.argv[2]:26} {result:9} {r['errors_before']:7} {runs:>7} {r['seconds']:6.1f} {rw}")
for why in r["refused"][:5]: print(f"{'':26}   refused: {why}")
PY
  else
    printf '%-26s %-9s (rc %d) %s\n' "$name" failed "$rc" "$(tail -1 "$WORK/$name.log")"
  fi
  [[ $rc -eq 0 ]] || status=1
done
exit $status
