#!/bin/sh
# A backend command that exits 0 but writes bytes that are no TensorProto as every output.
# Usage (process protocol): garbage_backend.sh MODEL INPUT_DIR OUTPUT_DIR
for i in 0 1 2 3; do printf '\377\377\377not a tensor' > "$3/output_$i.pb"; done
