#!/usr/bin/env bash
# Side-by-side latency of sonnx and onnxruntime-node on the real models, in one run on one machine.
# For each model and thread count, sonnx (Linear, and Parallel) and onnxruntime run in alternating
# rounds (so a noisy neighbour hurts both alike); each round is one process doing 1 warm-up run and
# RUNS timed runs. Reports the median over rounds of each round's median, the ratio
# sonnx/onnxruntime (below 1: sonnx is faster), the peak memory of each process (max RSS), sonnx's
# arena against its lower bound, and the geometric mean of the ratios.
#
#   bench/compare-ort.sh [--build DIR] [--models DIR] [--runs N] [--rounds K] [--threads "1 2"] [--only REGEX]
#
# Models: conformance/data/make-real-models.sh makes them (default: BUILD/real-models).
# Needs node and `npm install --ignore-scripts` in bench/ (onnxruntime-node 1.30.0).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/build MODELS= RUNS=20 ROUNDS=3 THREADS="1 2" ONLY=
while [[ $# -gt 0 ]]; do
  case $1 in
    --build) BUILD=$2; shift 2 ;;
    --models) MODELS=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --threads) THREADS=$2; shift 2 ;;
    --only) ONLY=$2; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "compare-ort: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
MODELS=${MODELS:-$BUILD/real-models}
SONNX=$BUILD/cli/sonnx
[[ -x $SONNX ]] || { echo "compare-ort: no $SONNX (build first)" >&2; exit 2; }
[[ -d $ROOT/bench/node_modules/onnxruntime-node ]] || (cd "$ROOT/bench" && npm install --ignore-scripts --no-audit --no-fund >/dev/null)
[[ -d $MODELS ]] || bash "$ROOT/conformance/data/make-real-models.sh" "$MODELS"

# model file, input shape, sonnx --dim bindings for the dynamic dimensions
MODEL_TABLE="tv_resnet18 1,3,224,224 -
tv_mobilenet_v2 1,3,224,224 -
tv_squeezenet1_1 1,3,224,224 -
tv_googlenet 1,3,224,224 -
ppocr_cls 1,3,48,192 p2o.DynamicDimension.0=1,p2o.DynamicDimension.1=48,p2o.DynamicDimension.2=192
ppocr_det 1,3,640,640 p2o.DynamicDimension.0=1,p2o.DynamicDimension.1=640,p2o.DynamicDimension.2=640
tv_efficientnet_b0 1,3,224,224 -
tv_shufflenet_v2_x1_0 1,3,224,224 -
tv_vit_b_16 1,3,224,224 -
ppocr_rec 1,3,48,320 p2o.DynamicDimension.0=1,p2o.DynamicDimension.1=320"

lscpu | awk -F: '/Model name/ {gsub(/^ +/, "", $2); print "machine: " $2}'
echo "cores: $(nproc); runs per round: $RUNS; rounds: $ROUNDS; onnxruntime-node $(node -p "require('$ROOT/bench/node_modules/onnxruntime-node/package.json').version")"
exec /usr/bin/python3 - "$SONNX" "$ROOT/bench/ort_bench.js" "$MODELS" "$RUNS" "$ROUNDS" "$THREADS" "$ONLY" <<'PY' "$MODEL_TABLE"
import json, math, re, statistics, subprocess, sys
sonnx, ort, models, runs, rounds, threads, only = sys.argv[1:8]
table = [l.split() for l in sys.argv[8].splitlines()]
def run(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)
def sonnx_cmd(model, dims, executor, t):
    cmd = [sonnx, "bench", model, "--executor", executor, "--threads", str(t), "--runs", runs, "--format", "json"]
    if dims != "-":
        for d in dims.split(","): cmd += ["--dim", d]
    return cmd
def plan(model, dims, planner):
    cmd = [sonnx, "plan", model, "--planner", planner, "--format", "json"]
    if dims != "-":
        for d in dims.split(","): cmd += ["--dim", d]
    j = run(cmd)
    return j["peak_arena_bytes"], j["lower_bound_bytes"]
ratios = {}
print(f"{'model':18} {'thr':>3} {'executor':9} {'sonnx ms':>9} {'ort ms':>8} {'ratio':>6} {'sonnx MiB':>9} {'ort MiB':>8}")
for name, shape, dims in table:
    if only and not re.search(only, name): continue
    model = f"{models}/{name}.onnx"
    for t in map(int, threads.split()):
        execs = ["linear"] + (["parallel"] if t > 1 else [])
        samples = {e: [] for e in execs + ["ort"]}
        rss = {e: 0 for e in samples}
        for _ in range(int(rounds)):
            for e in execs:
                j = run(sonnx_cmd(model, dims, e, t)); samples[e].append(j["median_ms"]); rss[e] = max(rss[e], j["max_rss_bytes"])
            j = run(["node", ort, model, "--shape", shape, "--threads", str(t), "--runs", runs])
            samples["ort"].append(j["median_ms"]); rss["ort"] = max(rss["ort"], j["max_rss_bytes"])
        o = statistics.median(samples["ort"])
        for e in execs:
            s = statistics.median(samples[e])
            ratios.setdefault((e, t), []).append(s / o)
            print(f"{name:18} {t:>3} {e:9} {s:9.2f} {o:8.2f} {s/o:6.2f} {rss[e]/2**20:9.0f} {rss['ort']/2**20:8.0f}")
    g, ff = plan(model, dims, "greedy"), plan(model, dims, "first-fit")
    print(f"{name:18} arena/lower bound: greedy {g[0]/2**20:.2f}/{g[1]/2**20:.2f} MiB ({g[0]/g[1]:.3f}), "
          f"first-fit {ff[0]/2**20:.2f}/{ff[1]/2**20:.2f} MiB ({ff[0]/ff[1]:.3f})")
for (e, t), r in sorted(ratios.items()):
    print(f"geometric mean ratio, {e}, {t} thread(s): {math.exp(sum(map(math.log, r)) / len(r)):.2f} over {len(r)} models")
PY
