#!/usr/bin/env bash
# Regenerates the onnxruntime compliance certificate in docs/certificates/onnxruntime-1.30/
# (onnxruntime.md, onnxruntime.html, repros/): onnx 1.19.1's node and simple suites certified on
# onnxruntime-node through conformance/adapters/ort_adapter.js (persistent protocol), judged by the
# admissible enclosure. It runs from a scratch directory that links `conformance/` and the suite as
# `onnx-1.19.1/`, and the reports name paths relative to it: they carry no path of this machine.
#
#   scripts/certify-ort.sh [--build DIR] [--out DIR]
#
# Defaults: BUILD=build (with ctest's imported suite in BUILD/tests/onnx-suite-1.19.1: run
# `ctest --test-dir build -R import_onnx_suite_1_19_1` first), OUT=docs/certificates/onnxruntime-1.30.
# Needs node and onnxruntime-node 1.30.0 (`npm install --ignore-scripts` in bench/). Exit status:
# sonnx certify's (1 when a test failed, as it does for onnxruntime), 2 on a usage error.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/build OUT=$ROOT/docs/certificates/onnxruntime-1.30
while [[ $# -gt 0 ]]; do
  case $1 in
    --build) BUILD=$(cd "$2" && pwd) || exit 2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "certify-ort: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
SONNX=$BUILD/cli/sonnx SUITE=$BUILD/tests/onnx-suite-1.19.1
[[ -x $SONNX ]] || { echo "certify-ort: no $SONNX (build first)" >&2; exit 2; }
[[ -d $SUITE/node ]] || { echo "certify-ort: no $SUITE (ctest -R import_onnx_suite_1_19_1)" >&2; exit 2; }
[[ -d $ROOT/bench/node_modules/onnxruntime-node ]] ||
  { echo "certify-ort: no onnxruntime-node (npm install --ignore-scripts in bench/)" >&2; exit 2; }
export NODE_PATH=${NODE_PATH:-$ROOT/bench/node_modules}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ln -s "$ROOT/conformance" "$work/conformance"
ln -s "$SUITE" "$work/onnx-1.19.1"
cd "$work"
"$SONNX" certify --backend-cmd "node conformance/adapters/ort_adapter.js" --persistent \
  --suite onnx-1.19.1/node --suite onnx-1.19.1/simple --judge enclosure \
  --report onnxruntime.json --report onnxruntime.md --report onnxruntime.html --repro-dir repros
rc=$?
[[ -f onnxruntime.md ]] || { echo "certify-ort: certify wrote no report (exit $rc)" >&2; exit "$rc"; }
# certify records absolute paths (a report must locate its tests wherever it is read).
find onnxruntime.md onnxruntime.html repros -name '*.md' -o -name '*.html' | xargs sed -i -e "s|$work/||g" -e "s|$ROOT/||g"
mkdir -p "$OUT"
rm -rf "$OUT/repros"
cp onnxruntime.md onnxruntime.html "$OUT/"
[[ -d repros ]] && cp -r repros "$OUT/repros"
echo "certify-ort: wrote $OUT (certify exit $rc)"
exit "$rc"
