#!/usr/bin/python3
"""Run onnx's backend test runner (onnx.backend.test.BackendTest) over sonnx.backend on a folder
of ONNX backend test data.

  backend-test.py DATA_DIR [--executor E] [--report FILE.json] [-k PATTERN] [-v]

DATA_DIR holds the suites as onnx lays them out: node/ and simple/ (test_x/model.onnx and
test_data_set_N/); the model tests of both run, in this process, on the CPU device ("real" model
tests download their data and are not run; the CUDA variants the runner makes are not run either:
sonnx.backend supports "CPU" only). -k keeps the tests whose name (test_x, without the device
suffix) matches the regular expression. Prints "passed N failed M errors E skipped S" and, with
--report, writes each test's outcome as JSON: {"data_dir", "executor", "summary": {"total",
"passed", "failed", "errored", "skipped"}, "tests": [{"name", "kind", "status", "message",
"time_ms"}]} with the status names of `sonnx conform`. Exit 0 when every test run passed, 1
otherwise, 2 on a usage error.

onnx 1.12's runner reads its data from its own package directory (Debian's python3-onnx ships
none); the runner is given DATA_DIR by replacing its loader for the time BackendTest collects the
tests (onnx.backend.test.runner.load_model_tests, called with a kind only).
"""
import argparse
import json
import os
import re
import sys
import time
import unittest

import numpy as np

# onnx 1.12's runner compares string outputs under `np.object`, an alias numpy 1.24 removed
# (conformance/data/generate-onnx-suite.py puts back the ones its generators use).
if "object" not in np.__dict__:
    np.object = object

import onnx.backend.test  # noqa: E402  (after the alias on purpose)
import onnx.backend.test.runner as onnx_runner  # noqa: E402

import sonnx.backend  # noqa: E402

KINDS = {"node": "Node", "simple": "Simple"}  # suite folder: the runner's category prefix
DEVICE_SUFFIX = "_cpu"


def backend_for(executor):
    """sonnx.backend's Backend with the executor bound (the runner calls prepare(model, device))."""
    if executor == "reference":
        return sonnx.backend.SonnxBackend
    return type("SonnxBackend_" + executor, (sonnx.backend.SonnxBackend,), {"session_options": {"executor": executor}})


def backend_test(backend, data_dir):
    """onnx's BackendTest over backend, with the model tests of data_dir's node/ and simple/."""
    load_from_package = onnx_runner.load_model_tests

    def load_from_data_dir(data_dir_unused=None, kind=None):
        if kind not in KINDS or not os.path.isdir(os.path.join(data_dir, kind)):
            return []
        return load_from_package(data_dir=data_dir, kind=kind)

    onnx_runner.load_model_tests = load_from_data_dir
    try:
        return onnx.backend.test.BackendTest(backend, __name__)
    finally:
        onnx_runner.load_model_tests = load_from_package


def selected_tests(runner, pattern):
    """[(name, kind, unittest test)] of the CPU tests whose name matches pattern, by name."""
    kind_of = {KINDS[k] + "ModelTest": k for k in KINDS}
    out = []
    for case in runner.test_cases.values():
        category = case.__name__[len("OnnxBackend"):]
        for test in unittest.defaultTestLoader.loadTestsFromTestCase(case):
            method = test._testMethodName
            if not method.endswith(DEVICE_SUFFIX):
                continue
            name = method[:-len(DEVICE_SUFFIX)]
            if pattern is None or re.search(pattern, name):
                out.append((name, kind_of.get(category, category), test))
    return sorted(out, key=lambda t: (t[1], t[0]))


class OutcomeResult(unittest.TestResult):
    """Keeps the status and message of the one test it is given."""

    def __init__(self):
        super().__init__()
        self.status, self.message = "passed", ""

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.status, self.message = "failed", self._text(err)

    def addError(self, test, err):
        super().addError(test, err)
        self.status, self.message = "errored", self._text(err)

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.status, self.message = "skipped", reason

    @staticmethod
    def _text(err):
        kind, value, _ = err
        return "%s: %s" % (kind.__name__, value)


def run_tests(tests, verbose):
    outcomes = []
    for name, kind, test in tests:
        result = OutcomeResult()
        start = time.perf_counter()
        test.run(result)
        ms = (time.perf_counter() - start) * 1000
        outcomes.append({"name": name, "kind": kind, "status": result.status, "message": result.message,
                         "time_ms": round(ms, 3)})
        if verbose or result.status in ("failed", "errored"):
            first_line = result.message.strip().splitlines()[0] if result.message.strip() else ""
            print("%-8s %s  %s" % (result.status, name, first_line[:200]), flush=True)
    return outcomes


def summary(outcomes):
    counts = {s: sum(o["status"] == s for o in outcomes) for s in ("passed", "failed", "errored", "skipped")}
    return {"total": len(outcomes), **counts}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data_dir", help="folder with node/ and simple/ (onnx's backend test data)")
    ap.add_argument("--executor", default="reference", help="reference (default), linear, dataflow or parallel")
    ap.add_argument("--report", help="write each test's outcome to this JSON file")
    ap.add_argument("-k", dest="pattern", help="run only the tests whose name matches this regular expression")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every test's outcome")
    args = ap.parse_args(argv)
    if not any(os.path.isdir(os.path.join(args.data_dir, k)) for k in KINDS):
        ap.error("%s has neither node/ nor simple/" % args.data_dir)

    tests = selected_tests(backend_test(backend_for(args.executor), args.data_dir), args.pattern)
    outcomes = run_tests(tests, args.verbose)
    counts = summary(outcomes)
    print("passed %d failed %d errors %d skipped %d" %
          (counts["passed"], counts["failed"], counts["errored"], counts["skipped"]))
    if args.report:
        with open(args.report, "w") as f:
            json.dump({"data_dir": os.path.abspath(args.data_dir), "executor": args.executor, "summary": counts,
                       "tests": outcomes}, f, indent=1)
            f.write("\n")
    return 0 if counts["failed"] + counts["errored"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
