#!/usr/bin/python3
"""Generates the ONNX backend test data (node + simple + ... suites) with Debian's python3-onnx.

onnx 1.12's generators still use numpy aliases that numpy 1.24 removed (np.float, np.int, ...);
we put them back before importing the generators. Usage: generate-onnx-suite.py OUT_DIR
"""
import sys

import numpy as np

for alias, target in (("float", float), ("int", int), ("bool", bool), ("object", object),
                      ("complex", complex), ("str", str)):
    if alias not in np.__dict__:
        setattr(np, alias, target)

from onnx.backend.test.cmd_tools import main  # noqa: E402  (after the aliases on purpose)

if len(sys.argv) != 2:
    sys.exit("usage: generate-onnx-suite.py OUT_DIR")
sys.argv = [sys.argv[0], "generate-data", "-o", sys.argv[1]]
main()
