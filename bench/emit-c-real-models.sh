#!/usr/bin/env bash
# `sonnx emit-c` on the admitted real models (docs/emit-c.md): for each model, the C of both modes
# compiled and run on a seeded random input beside the reference. Exact mode must give the bits of
# `sonnx run`; fast mode must lie in the admissible enclosure (`sonnx certify --judge enclosure`,
# which also reports it). Then speed, single-threaded and side by side in one run: the fast C's
# median (SONNX_REPEAT runs in one process, clock()) against `sonnx bench --executor linear
# --threads 1`'s median, and the exact C's; the peak memory (max RSS) of the linear executor's process
# and of the fast C's. Prints one line per model.
#
#   bench/emit-c-real-models.sh [--build DIR] [--linear-build DIR] [--models DIR] [--work DIR] [--runs N]
#                               [--only REGEX] [--no-enclosure]
#
# --linear-build DIR: the build whose linear executor is timed (default: --build's). Time a release
# build (SONNX_SANITIZE=OFF): a sanitizer build's executor runs several times slower, which would
# flatter the C.
# Models: BUILD/real-models (conformance/data/make-real-models.sh), admitted here with the options
# scripts/admit-real-models.sh uses. Each C is compiled with -O2 and the flags of its mode's
# generated Makefile (MODEFLAGS), the fast C also with -march=native.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/build LINEAR_BUILD= MODELS= WORK= RUNS=10 ONLY= ENCLOSURE=1
while [[ $# -gt 0 ]]; do
  case $1 in
    --build) BUILD=$2; shift 2 ;;
    --linear-build) LINEAR_BUILD=$2; shift 2 ;;
    --models) MODELS=$2; shift 2 ;;
    --work) WORK=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --only) ONLY=$2; shift 2 ;;
    --no-enclosure) ENCLOSURE=0; shift ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "emit-c-real-models: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
SONNX=$BUILD/cli/sonnx LINEAR=${LINEAR_BUILD:-$BUILD}/cli/sonnx
[[ -x $SONNX ]] || { echo "emit-c-real-models: no $SONNX (build first)" >&2; exit 2; }
[[ -x $LINEAR ]] || { echo "emit-c-real-models: no $LINEAR (build first)" >&2; exit 2; }
if grep -q '^SONNX_SANITIZE:BOOL=ON' "$(dirname "$(dirname "$LINEAR")")/CMakeCache.txt" 2>/dev/null; then
  echo "emit-c-real-models: warning: $LINEAR is a sanitizer build: its linear times are inflated (--linear-build)" >&2
fi
MODELS=${MODELS:-$BUILD/real-models} WORK=${WORK:-$BUILD/emit-c-real-models}
[[ -d $MODELS ]] || bash "$ROOT/conformance/data/make-real-models.sh" "$MODELS"
mkdir -p "$WORK"

admit_options() {
  case $1 in
    ppocr_cls) echo "--input-shape x=1,3,48,192" ;;
    ppocr_det) echo "--input-shape x=1,3,320,320" ;;
    ppocr_rec) echo "--input-shape x=1,3,48,320" ;;
    *) echo "" ;;
  esac
}

lscpu | awk -F: '/Model name/ {gsub(/^ +/, "", $2); print "machine: " $2}'
echo "cores: $(nproc); threads: 1; runs: $RUNS; $(cc --version | head -1)"
printf '%-18s %-6s %-10s %9s %9s %9s %8s %10s %9s\n' model nodes agree "linear ms" "fast ms" "exact ms" fast/lin "linear MiB" "fast MiB"
status=0
for f in "$MODELS"/*.onnx; do
  name=$(basename "$f" .onnx)
  [[ -n $ONLY && ! $name =~ $ONLY ]] && continue
  dir=$WORK/$name
  mkdir -p "$dir"
  # shellcheck disable=SC2046
  if ! "$SONNX" admit "$f" -o "$dir/model.onnx" --samples 1 --quiet $(admit_options "$name") >"$dir/admit.log" 2>&1; then
    printf '%-18s not admitted: %s\n' "$name" "$(tail -n 1 "$dir/admit.log")"; status=1; continue
  fi
  # The test directory certify reads: the admitted model, a seeded input, the reference's output.
  /usr/bin/python3 - "$SONNX" "$dir" <<'PY'
import os, subprocess, sys, tempfile
import numpy as np, onnx
from onnx import numpy_helper
sonnx, d = sys.argv[1:]
m = onnx.load(os.path.join(d, "model.onnx"), load_external_data=False)
inits = {i.name for i in m.graph.initializer}
ds = os.path.join(d, "test", "test_data_set_0")
os.makedirs(ds, exist_ok=True)
os.replace(os.path.join(d, "model.onnx"), os.path.join(d, "test", "model.onnx"))
rng, args = np.random.default_rng(0), []
for k, v in enumerate(i for i in m.graph.input if i.name not in inits):
    shape = [x.dim_value for x in v.type.tensor_type.shape.dim]
    path = os.path.join(ds, f"input_{k}.pb")
    open(path, "wb").write(numpy_helper.from_array(rng.uniform(0, 1, shape).astype(np.float32), v.name).SerializeToString())
    args += ["-i", f"{v.name}={path}"]
with tempfile.TemporaryDirectory() as tmp:
    subprocess.run([sonnx, "run", os.path.join(d, "test", "model.onnx"), *args, "-o", tmp], check=True, stdout=subprocess.DEVNULL)
    for k, v in enumerate(m.graph.output):
        os.replace(os.path.join(tmp, v.name + ".pb"), os.path.join(ds, f"output_{k}.pb"))
PY
  model=$dir/test/model.onnx
  nodes=$(/usr/bin/python3 -c "import onnx,sys; print(len(onnx.load(sys.argv[1], load_external_data=False).graph.node))" "$model")
  # Agreement: exact bitwise; fast within the admissible enclosure (or skipped with --no-enclosure).
  agree=exact
  SONNX=$SONNX SONNX_EMIT_MODE=exact "$SONNX" certify --backend-cmd "$ROOT/scripts/emit-c-backend.sh" --judge bitwise \
    --suite "$dir/test" --no-localize --timeout 1200 --report "$dir/exact.json" >/dev/null 2>&1 || { agree="EXACT-FAILS"; status=1; }
  if [[ $ENCLOSURE == 1 ]]; then
    SONNX=$SONNX SONNX_EMIT_MODE=fast "$SONNX" certify --backend-cmd "$ROOT/scripts/emit-c-backend.sh" --judge enclosure \
      --suite "$dir/test" --no-localize --timeout 3600 --report "$dir/fast.json" >/dev/null 2>&1 && agree+="+fast" ||
      { agree+="+FAST-FAILS"; status=1; }
  fi
  # Speed: the linear executor, then the C of each mode, one after the other on the same input.
  read -r lin lin_mib < <("$LINEAR" bench "$model" --executor linear --threads 1 --runs "$RUNS" --format json |
    /usr/bin/python3 -c "import json,sys; j=json.load(sys.stdin); print(j['median_ms'], j['max_rss_bytes'] / 2**20)")
  for mode in fast exact; do
    "$SONNX" emit-c "$model" -o "$dir/$mode" --name net --mode "$mode" --weights file >/dev/null
    read -r -a flags <<<"-O2 $(sed -n 's/^MODEFLAGS = //p' "$dir/$mode/Makefile")"
    [[ $mode == fast ]] && flags+=(-march=native)
    cc -std=c99 "${flags[@]}" -o "$dir/$mode/net_main" "$dir/$mode"/net.c "$dir/$mode"/net_weights.c "$dir/$mode"/main.c -lm
    mkdir -p "$dir/$mode/out"
    # The program's peak memory (max RSS, KiB) as its parent sees it.
    SONNX_REPEAT=$RUNS /usr/bin/python3 -c "import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True, stderr=open(sys.argv[1] + '.time', 'w'))
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)" "$dir/$mode/net_main" "$dir/test/test_data_set_0" "$dir/$mode/out" >"$dir/$mode/rss.txt"
    mv "$dir/$mode/net_main.time" "$dir/$mode/time.txt"
    declare "${mode}_ms=$(sed -n 's/.*median \([0-9.]*\) ms.*/\1/p' "$dir/$mode/time.txt")"
  done
  # shellcheck disable=SC2154
  printf '%-18s %-6s %-10s %9.1f %9.1f %9.1f %8.2f %10.0f %9.0f\n' "$name" "$nodes" "$agree" "$lin" "$fast_ms" "$exact_ms" \
    "$(/usr/bin/python3 -c "print($fast_ms / $lin)")" "$lin_mib" "$(( $(cat "$dir/fast/rss.txt") / 1024 ))"
done
exit $status
