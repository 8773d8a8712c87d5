#!/usr/bin/env bash
# How long `sonnx enclose` takes on resnet18 (1×3×224×224, one thread) and how wide the enclosure of
# its logits is, under both semantics: wall time, peak RSS, widest interval in ulps of float.
#
#   bench/enclose-resnet18.sh [--build DIR] [--models DIR]
#
# Models: conformance/data/make-real-models.sh makes them (default: BUILD/real-models). The input is
# uniform in [-1, 1) from numpy's default_rng(0).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/build MODELS=
while [[ $# -gt 0 ]]; do
  case $1 in
    --build) BUILD=$2; shift 2 ;;
    --models) MODELS=$2; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "enclose-resnet18: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
MODELS=${MODELS:-$BUILD/real-models}
SONNX=$BUILD/cli/sonnx
[[ -x $SONNX ]] || { echo "enclose-resnet18: no $SONNX (build first)" >&2; exit 2; }
[[ -s $MODELS/tv_resnet18.onnx ]] || bash "$ROOT/conformance/data/make-real-models.sh" "$MODELS"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
/usr/bin/python3 -c "import numpy as np; np.save('$TMP/x.npy', np.random.default_rng(0).uniform(-1, 1, (1, 3, 224, 224)).astype(np.float32))"
lscpu | awk -F: '/Model name/ {gsub(/^ +/, "", $2); print "machine: " $2 "; threads: 1"}'
for semantics in real admissible; do
  OMP_NUM_THREADS=1 /usr/bin/time -f "%e %M" -o "$TMP/time" "$SONNX" enclose "$MODELS/tv_resnet18.onnx" --input "input=$TMP/x.npy" \
    --semantics $semantics --format json > "$TMP/out.json"
  read -r seconds kib < "$TMP/time"
  widest=$(/usr/bin/python3 -c "import json; o = json.load(open('$TMP/out.json'))[0]; print(o['widest'], o['widest_ulps'])")
  echo "resnet18 enclose --semantics $semantics: $seconds s, peak RSS $((kib / 1024)) MiB, widest logit interval (abs, ulps of float): $widest"
done
