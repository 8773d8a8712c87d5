#!/bin/sh
# A runtime that answers with wrong numbers of the right type and shape on the localize suite
# (make_localize_suite.py): its second input, c, has the shape of the output y, and is written as y.
# Usage (process protocol): wrong_backend.sh MODEL INPUT_DIR OUTPUT_DIR
cp "$2/input_1.pb" "$3/output_0.pb"
