#!/usr/bin/env bash
# Runs real models (conformance/data/make-real-models.sh) under `sonnx run` and under onnxruntime
# (bench/ort_run.js, onnxruntime-node, CPU, 1 thread) on the same deterministic random input and
# compares every output. One line per model; exits 1 if any model mismatches, 2 on setup errors.
#
#   scripts/compare-real-models.sh [--build DIR] [--models DIR] [--work DIR] [--rtol R] [--atol A]
#                                  [--det-size N] [--only REGEX] [--executor E]
#
#   --build DIR    build tree holding cli/sonnx (default: build)
#   --models DIR   where the real models are / are made (default: BUILD/real-models)
#   --work DIR     inputs and outputs (default: BUILD/real-models-run)
#   --rtol/--atol  pass when |a - e| <= atol + rtol * |e| for every element (default 1e-3 / 1e-4),
#                  a = sonnx, e = onnxruntime
#   --det-size N   PP-OCR det input is 1x3xNxN (default 320; N must be a multiple of 32)
#   --only REGEX   only models whose file name matches
#   --executor E   sonnx executor: reference (default), linear, dataflow or parallel
#
# Inputs: numpy default_rng seeded with crc32(model name); float32 uniform in [-1, 1), except
# ppocr_det which gets a synthetic page with dark text-like blocks (noise gives an all-zero map). Dynamic
# dimensions get fixed sizes: ppocr_cls 1x3x48x192, ppocr_rec 1x3x48x320, ppocr_det 1x3xNxN, tv_* 1x3x224x224, any other
# dynamic dimension 1. Needs /usr/bin/python3 with numpy and onnx, node and npm.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/build
MODELS= WORK= RTOL=1e-3 ATOL=1e-4 DET_SIZE=320 ONLY= EXECUTOR=reference
while [[ $# -gt 0 ]]; do
  case $1 in
    --build) BUILD=$2; shift 2 ;;
    --models) MODELS=$2; shift 2 ;;
    --work) WORK=$2; shift 2 ;;
    --rtol) RTOL=$2; shift 2 ;;
    --atol) ATOL=$2; shift 2 ;;
    --det-size) DET_SIZE=$2; shift 2 ;;
    --only) ONLY=$2; shift 2 ;;
    --executor) EXECUTOR=$2; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "compare-real-models: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[[ -d $BUILD ]] || { echo "compare-real-models: no build directory $BUILD" >&2; exit 2; }
BUILD=$(cd "$BUILD" && pwd)
MODELS=${MODELS:-$BUILD/real-models}
WORK=${WORK:-$BUILD/real-models-run}
SONNX=$BUILD/cli/sonnx
PY=/usr/bin/python3
[[ -x $SONNX ]] || { echo "compare-real-models: no $SONNX (build first)" >&2; exit 2; }

# onnxruntime-node (the binary ships inside the npm package; no install scripts are run)
if [[ ! -d $ROOT/bench/node_modules/onnxruntime-node ]]; then
  (cd "$ROOT/bench" && npm install --ignore-scripts --no-audit --no-fund >/dev/null) ||
    { echo "compare-real-models: npm install in bench/ failed" >&2; exit 2; }
fi

shopt -s nullglob
models=("$MODELS"/*.onnx)
if [[ ${#models[@]} -eq 0 ]]; then
  bash "$ROOT/conformance/data/make-real-models.sh" "$MODELS" >&2
  models=("$MODELS"/*.onnx)
fi
[[ ${#models[@]} -gt 0 ]] || { echo "compare-real-models: no models in $MODELS" >&2; exit 2; }
mkdir -p "$WORK"

HELPER=$WORK/compare_helper.py
cat > "$HELPER" <<'PY'
import json, re, sys, zlib
import numpy as np

def sanitize(name):
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)

def text_like_image(rng, shape):
    # Noise alone gives a detection map of ~0 everywhere, which proves little; a light page with
    # rows of dark glyph-like blocks, normalized as PP-OCR does (ImageNet mean/std), lights it up.
    n, c, h, w = shape
    img = np.ones((h, w, 3), np.float32) * rng.uniform(0.8, 1.0)
    for _ in range(max(1, h // 40)):
        bh = int(rng.integers(10, 24)); y = int(rng.integers(0, max(1, h - bh))); x = int(rng.integers(0, w // 2))
        while x < w - 10 and rng.uniform() < 0.95:
            bw = int(rng.integers(3, bh)); img[y:y + bh, x:x + bw, :] = rng.uniform(0, 0.3); x += bw + int(rng.integers(2, 6))
    img += rng.normal(0, 0.03, img.shape).astype(np.float32)
    mean = np.array([0.485, 0.456, 0.406], np.float32); std = np.array([0.229, 0.224, 0.225], np.float32)
    return np.broadcast_to(((img - mean) / std).transpose(2, 0, 1)[None], shape)

def make_inputs(model_path, stem, in_dir, det_size):
    import onnx
    m = onnx.load(model_path, load_external_data=False)
    inits = {i.name for i in m.graph.initializer}
    rng = np.random.default_rng(zlib.crc32(stem.encode()))
    specs = []
    for vi in m.graph.input:
        if vi.name in inits:
            continue
        tt = vi.type.tensor_type
        dims = [d.dim_value if d.HasField("dim_value") else None for d in tt.shape.dim]
        if stem.startswith("ppocr_cls") and len(dims) == 4:
            fixed = [1, 3, 48, 192]
        elif stem.startswith("ppocr_rec") and len(dims) == 4:
            fixed = [1, 3, 48, 320]
        elif stem.startswith("ppocr_det") and len(dims) == 4:
            fixed = [1, 3, det_size, det_size]
        elif stem.startswith("tv_") and len(dims) == 4:
            fixed = [1, 3, 224, 224]
        else:
            fixed = [d if d is not None else 1 for d in dims]
        fixed = [f if d is None else d for f, d in zip(fixed, dims)]  # never override a static dim
        if hasattr(onnx.helper, "tensor_dtype_to_np_dtype"):
            np_type = onnx.helper.tensor_dtype_to_np_dtype(tt.elem_type)
        else:  # older onnx (Debian 12 ships 1.13)
            np_type = onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[tt.elem_type]
        if stem.startswith("ppocr_det") and len(fixed) == 4 and fixed[1] == 3:
            x = text_like_image(rng, fixed).astype(np_type)
        elif np.issubdtype(np_type, np.floating):
            x = rng.uniform(-1.0, 1.0, size=fixed).astype(np_type)
        elif np_type == np.bool_:
            x = rng.integers(0, 2, size=fixed).astype(np.bool_)
        else:
            x = rng.integers(0, 10, size=fixed).astype(np_type)
        f = f"{in_dir}/{sanitize(vi.name)}.npy"
        np.save(f, x)
        specs.append(f"{vi.name}={f}")
        print("x".join(map(str, fixed)), file=sys.stderr)
    print("\n".join(specs))

def compare(sonnx_dir, ort_dir, output_names, rtol, atol):
    res = {"outputs": [], "max_abs": 0.0, "max_rel": 0.0, "pass": True, "why": []}
    for name in output_names:
        fn = sanitize(name) + ".npy"
        try:
            a = np.load(f"{sonnx_dir}/{fn}")
        except Exception as e:
            res["pass"] = False; res["why"].append(f"{name}: sonnx output missing ({e})"); continue
        e = np.load(f"{ort_dir}/{fn}")
        res["outputs"].append(f"{name}[{'x'.join(map(str, e.shape))}]")
        if a.shape != e.shape or a.dtype != e.dtype:
            res["pass"] = False
            res["why"].append(f"{name}: sonnx {a.dtype}{list(a.shape)} vs ort {e.dtype}{list(e.shape)}")
            continue
        if a.size == 0:
            continue
        a64, e64 = a.astype(np.float64), e.astype(np.float64)
        both_nan = np.isnan(a64) & np.isnan(e64)
        diff = np.where(both_nan, 0.0, np.abs(a64 - e64))
        diff = np.where(np.isnan(diff), np.inf, diff)
        res["max_abs"] = max(res["max_abs"], float(diff.max()))
        big = np.abs(e64) > atol
        if big.any():
            res["max_rel"] = max(res["max_rel"], float((diff[big] / np.abs(e64[big])).max()))
        bad = diff > atol + rtol * np.abs(e64)
        if bad.any():
            res["pass"] = False
            i = np.unravel_index(int(np.argmax(np.where(bad, diff, -1))), a.shape)
            res["why"].append(f"{name}: {int(bad.sum())}/{a.size} elements out of tolerance, worst at {list(i)}: "
                              f"sonnx {a64[i]!r} ort {e64[i]!r}")
    print(json.dumps(res))

if __name__ == "__main__":
    if sys.argv[1] == "inputs":
        make_inputs(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
    else:
        compare(sys.argv[2], sys.argv[3], json.loads(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6]))
PY

now_ms() { date +%s%3N; }
echo "tolerance: |sonnx - ort| <= atol + rtol*|ort| elementwise, rtol=$RTOL atol=$ATOL; max rel err over |ort| > atol"
echo "sonnx_ms: wall time of 'sonnx run' (load + run + write); ort_ms: session.run only (wall incl. node start in parentheses)"
printf '%-18s %-16s %-28s %-11s %-11s %-8s %10s %16s\n' model input outputs max_abs_err max_rel_err verdict sonnx_ms ort_ms
failed=0
for model in "${models[@]}"; do
  stem=$(basename "$model" .onnx)
  [[ -n $ONLY && ! $stem =~ $ONLY ]] && continue
  d=$WORK/$stem
  rm -rf "$d"; mkdir -p "$d/in" "$d/sonnx" "$d/ort"
  mapfile -t specs < <("$PY" "$HELPER" inputs "$model" "$stem" "$d/in" "$DET_SIZE" 2>"$d/input-shape.txt")
  if [[ ${#specs[@]} -eq 0 ]]; then
    echo "compare-real-models: cannot make inputs for $stem:" >&2; cat "$d/input-shape.txt" >&2; exit 2
  fi
  shape=$(paste -sd, "$d/input-shape.txt")
  args=()
  for s in "${specs[@]}"; do args+=(--input "$s"); done

  t0=$(now_ms)
  if ! "$SONNX" run "$model" "${args[@]}" --executor "$EXECUTOR" --output-dir "$d/sonnx" --output-format npy >"$d/sonnx.log" 2>&1; then
    printf '%-18s %-16s %-28s %-11s %-11s %-8s %10s %16s\n' "$stem" "$shape" - - - ERROR - -
    sed 's/^/    sonnx: /' "$d/sonnx.log" | tail -5
    failed=1; continue
  fi
  sonnx_ms=$(( $(now_ms) - t0 ))

  t0=$(now_ms)
  if ! node "$ROOT/bench/ort_run.js" "$model" "$d/in" "$d/ort" >"$d/ort.json" 2>"$d/ort.log"; then
    printf '%-18s %-16s %-28s %-11s %-11s %-8s %10s %16s\n' "$stem" "$shape" - - - ERROR "$sonnx_ms" -
    sed 's/^/    ort: /' "$d/ort.log" | tail -5
    failed=1; continue
  fi
  ort_wall_ms=$(( $(now_ms) - t0 ))
  IFS=$'\t' read -r ort_ms names < <("$PY" -c 'import json,sys; r=json.load(open(sys.argv[1])); print(round(r["time_ms"]), json.dumps([o["name"] for o in r["outputs"]]), sep="\t")' "$d/ort.json")

  "$PY" "$HELPER" compare "$d/sonnx" "$d/ort" "$names" "$RTOL" "$ATOL" >"$d/compare.json"
  IFS=$'\t' read -r outs max_abs max_rel verdict < <("$PY" -c '
import json,sys; r=json.load(open(sys.argv[1]))
print(",".join(r["outputs"]) or "-", "%.3g" % r["max_abs"], "%.3g" % r["max_rel"], "PASS" if r["pass"] else "MISMATCH", sep="\t")' "$d/compare.json")
  printf '%-18s %-16s %-28s %-11s %-11s %-8s %10s %16s\n' "$stem" "$shape" "$outs" "$max_abs" "$max_rel" "$verdict" "$sonnx_ms" "$ort_ms ($ort_wall_ms)"
  if [[ $verdict != PASS ]]; then
    failed=1
    "$PY" -c 'import json,sys; [print("    " + w) for w in json.load(open(sys.argv[1]))["why"]]' "$d/compare.json"
  fi
done
[[ $failed -eq 0 ]] && echo "all models match" || echo "some models did not match (details under $WORK)"
exit $failed
