#!/usr/bin/python3
"""Checks a `sonnx certify` JSON report: every argument after the file is a Python expression that
must be true, over r (the report), s (its summary), ops ({op_type: verdict}) and tests ({name: test}).
Usage: check_report.py REPORT.json EXPR..."""
import json
import sys

r = json.load(open(sys.argv[1]))
s = r["summary"]
ops = {o["op_type"]: o["verdict"] for o in r["operators"]}
tests = {t["name"]: t for t in r["tests"]}
failed = 0
for expr in sys.argv[2:]:
    if not eval(expr):  # noqa: S307 (test expressions written in CMakeLists.txt)
        print(f"check failed: {expr}")
        failed += 1
if failed:
    print("summary:", json.dumps(s))
    sys.exit(1)
print(f"{len(sys.argv) - 2} checks passed")
