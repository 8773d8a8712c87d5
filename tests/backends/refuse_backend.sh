#!/bin/sh
# A runtime that declines every model the way the process protocol says (exit 3, the reason as the
# last line printed), after a line of log output: every test must be `unsupported` with that reason,
# blaming no operator.
# Usage (process protocol): refuse_backend.sh MODEL INPUT_DIR OUTPUT_DIR
echo "refuse_backend: loading $1"
echo "unsupported opset: this runtime implements ai.onnx opsets 1 to 6 only"
exit 3
