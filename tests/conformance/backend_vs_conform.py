#!/usr/bin/python3
"""onnx's backend test runner over sonnx.backend passes what `sonnx conform` passes, on the same
data, but for the differences tests/conformance/backend_differences.txt explains.

  backend_vs_conform.py SONNX DATA_DIR OUT.json [--executor E]

SONNX is the sonnx executable, DATA_DIR a folder with node/ and simple/ (onnx's backend test
data). Runs `sonnx conform DATA_DIR/node DATA_DIR/simple --format json` and
scripts/backend-test.py on the same folders (the Python package must be importable: PYTHONPATH),
and writes both summaries and every test on which the two disagree to OUT.json. Exit 1, listing
them, when a test conform passes does not pass under the runner and no line of
backend_differences.txt explains it, or when either run did not finish.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BACKEND_TEST = os.path.join(HERE, "..", "..", "scripts", "backend-test.py")
DIFFERENCES = os.path.join(HERE, "backend_differences.txt")


def explanations(path):
    """[(compiled regex, reason)] of the differences file."""
    out = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                pattern, _, reason = line.partition(" ")
                out.append((re.compile(pattern), reason.strip()))
    return out


def conform_report(sonnx, dirs, executor):
    r = subprocess.run([sonnx, "conform", *dirs, "--executor", executor, "--format", "json"], capture_output=True,
                       text=True)
    if r.returncode not in (0, 1):  # 1: some test failed or errored; the report is still complete
        sys.exit("sonnx conform exited %d: %s" % (r.returncode, r.stderr.strip()[-2000:]))
    return json.loads(r.stdout)


def backend_report(data_dir, executor):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "backend.json")
        r = subprocess.run([sys.executable, BACKEND_TEST, data_dir, "--executor", executor, "--report", path],
                           capture_output=True, text=True)
        if r.returncode not in (0, 1) or not os.path.exists(path):
            sys.exit("backend-test.py exited %d without a report: %s" %
                     (r.returncode, (r.stdout + r.stderr).strip()[-3000:]))
        with open(path) as f:
            return json.load(f)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sonnx")
    ap.add_argument("data_dir")
    ap.add_argument("out")
    ap.add_argument("--executor", default="reference")
    args = ap.parse_args()
    dirs = [os.path.join(args.data_dir, k) for k in ("node", "simple") if os.path.isdir(os.path.join(args.data_dir, k))]
    if not dirs:
        sys.exit("%s has neither node/ nor simple/" % args.data_dir)

    conform = conform_report(args.sonnx, dirs, args.executor)
    backend = backend_report(args.data_dir, args.executor)
    by_conform = {t["name"]: t for t in conform["tests"]}
    by_backend = {t["name"]: t for t in backend["tests"]}
    reasons = explanations(DIFFERENCES)

    def reason_for(name):
        return next((reason for pattern, reason in reasons if pattern.search(name)), "")

    def entry(name):
        b = by_backend.get(name, {"status": "missing", "message": ""})
        c = by_conform.get(name, {"status": "missing", "message": ""})
        return {"name": name, "backend": b["status"], "backend_message": b["message"][:1000], "conform": c["status"],
                "conform_message": c["message"][:1000], "reason": reason_for(name)}

    names = sorted(set(by_conform) | set(by_backend))
    conform_only = [entry(n) for n in names
                    if by_conform.get(n, {}).get("status") == "passed" and by_backend.get(n, {}).get("status") != "passed"]
    backend_only = [entry(n) for n in names
                    if by_backend.get(n, {}).get("status") == "passed" and by_conform.get(n, {}).get("status") != "passed"]
    unexplained = [e for e in conform_only if not e["reason"]]
    result = {"data_dir": os.path.abspath(args.data_dir), "executor": args.executor,
              "conform": conform["summary"], "backend": backend["summary"],
              "conform_passes_backend_does_not": conform_only, "backend_passes_conform_does_not": backend_only,
              "unexplained": [e["name"] for e in unexplained]}
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")

    cp, bp = conform["summary"]["passed"], backend["summary"]["passed"]
    print("%d tests: sonnx conform passed %d, onnx's runner over sonnx.backend passed %d (%s)" %
          (len(names), cp, bp, "at least as many" if bp >= cp else "%d fewer" % (cp - bp)))
    for e in conform_only:
        print("  conform only: %s (runner: %s) %s" % (e["name"], e["backend"], e["reason"][:100] or "UNEXPLAINED"))
    for e in backend_only:
        print("  runner only: %s (conform: %s)" % (e["name"], e["conform"]))
    if unexplained:
        print("%d difference(s) that tests/conformance/backend_differences.txt does not explain:" % len(unexplained))
        for e in unexplained:
            print("  %s: runner %s: %s" % (e["name"], e["backend"], e["backend_message"].strip()[:300]))
        return 1
    print("every test conform passes and the runner does not is explained (%d); details in %s" %
          (len(conform_only), args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
