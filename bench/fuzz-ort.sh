#!/usr/bin/env bash
# Fuzzing throughput against onnxruntime-node (conformance/adapters/ort_adapter.js): the same
# seeds for SECONDS each, one process per graph and one persistent runtime (`--persistent`),
# side by side. Prints graphs/s (every graph generated and judged, skipped ones included), target
# runs/s (graphs the runtime was given: passed, failed and the ones it declined), the peak RSS of
# sonnx and the defect groups found; the campaigns' JSON are kept in WORK.
#
#   bench/fuzz-ort.sh [--build DIR] [--seconds S] [--opset 17|27|mixed] [--work DIR]
#
# Defaults: BUILD=build, SECONDS=60, opset mixed, WORK=BUILD/fuzz-ort. Needs node and
# onnxruntime-node 1.30.0 (`npm install --ignore-scripts` in bench/; NODE_PATH is set to
# bench/node_modules when unset) and GNU time (/usr/bin/time).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/build SECS=60 OPSET=mixed WORK=''
while [[ $# -gt 0 ]]; do
  case $1 in
    --build) BUILD=$2; shift 2 ;;
    --seconds) SECS=$2; shift 2 ;;
    --opset) OPSET=$2; shift 2 ;;
    --work) WORK=$2; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "fuzz-ort: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
WORK=${WORK:-$BUILD/fuzz-ort}
SONNX=$BUILD/cli/sonnx
export NODE_PATH=${NODE_PATH:-$ROOT/bench/node_modules}
[[ -x $SONNX ]] || { echo "fuzz-ort: no $SONNX (build first)" >&2; exit 2; }
command -v node >/dev/null || { echo "fuzz-ort: node is not installed" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "fuzz-ort: GNU time is not installed (apt install time)" >&2; exit 2; }
rm -rf "$WORK" && mkdir -p "$WORK"
adapter="node $(printf '%q' "$ROOT/conformance/adapters/ort_adapter.js")"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); onnxruntime-node $(node -p "require('onnxruntime-node/package.json').version" 2>/dev/null || echo '?'), 1 intra-op thread"
for mode in oneshot persistent; do
  flags=()
  [[ $mode == persistent ]] && flags=(--persistent)
  /usr/bin/time -f '%M' -o "$WORK/$mode.rss" "$SONNX" fuzz --backend-cmd "$adapter" "${flags[@]}" --seconds "$SECS" \
    --opset "$OPSET" --seed 1 --out "$WORK/$mode-repros" --report "$WORK/$mode.json" >/dev/null || true
  /usr/bin/python3 - "$WORK/$mode.json" "$WORK/$mode.rss" "$mode" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
rss = int(open(sys.argv[2]).read().split()[-1]) / 1024
declined = sum(n for why, n in c["skip_reasons"].items() if why.startswith("unsupported:"))
runs = c["passed"] + c["failed"] + declined
s = c["seconds"]
print(f"{sys.argv[3]:>10}: {c['graphs']} graphs in {s:.1f} s = {c['graphs'] / s:.1f} graphs/s; "
      f"{runs} on the runtime = {runs / s:.1f} runs/s; {len(c['defect_groups'])} defect groups; sonnx peak RSS {rss:.0f} MB")
PY
done
