#!/usr/bin/python3
"""Function bodies agree with the suite: every test that uses an operator version with a body of
ours passes when the bodies run instead of the kernels.

  bodies_agree.py REPORT.json BODIES_DIR

REPORT.json is a `sonnx conform --prefer-function-bodies --report` JSON; BODIES_DIR holds the
body files (spec/functions/<Op>-<version>.onnxtxt). Exit 1, listing the tests, when such a test is
not passed (or skipped with a reason in conformance/skips.txt), or when any test failed.
"""
import json
import os
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip())
    with open(sys.argv[1]) as f:
        report = json.load(f)
    bodies = {name[: -len(".onnxtxt")] for name in os.listdir(sys.argv[2]) if name.endswith(".onnxtxt")}
    bad, used, exercised = [], set(), 0
    for t in report["tests"]:
        ops = bodies.intersection(t["op_types"])
        if t["status"] == "failed" or (ops and t["status"] not in ("passed", "skipped")):
            bad.append(f"{t['name']} ({', '.join(sorted(ops)) or 'no body'}) {t['status']}: {t['message'][:300]}")
        if ops and t["status"] == "passed":
            exercised += 1
            used |= ops
    print(f"{exercised} tests passed with function bodies preferred; {len(used)} of {len(bodies)} bodies exercised")
    unused = sorted(bodies - used)
    if unused:
        print("bodies no test of this suite uses: " + " ".join(unused))
    if bad:
        print(f"{len(bad)} test(s) of operators with a function body do not pass with the bodies:")
        print("\n".join(bad))
        sys.exit(1)


if __name__ == "__main__":
    main()
