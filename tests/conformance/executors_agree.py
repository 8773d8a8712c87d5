#!/usr/bin/python3
"""Every optimized executor passes what the reference passes, and no test fails with wrong values.

  executors_agree.py REFERENCE.json OTHER.json...

Each file is a `sonnx conform --report` JSON of one suite. Exit 1 (listing the tests) when a test
the reference passes does not pass under another executor, or when any report has a `failed` test
(wrong values; a test that cannot run yet is `errored`, refused by name).
"""
import json
import sys


def load(path):
    with open(path) as f:
        r = json.load(f)
    return r["executor"], {t["name"]: t for t in r["tests"]}


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.strip())
    ref_name, ref = load(sys.argv[1])
    bad = []
    reports = [(ref_name, ref)] + [load(p) for p in sys.argv[2:]]
    for name, tests in reports:
        for t in tests.values():
            if t["status"] == "failed":
                bad.append(f"{name}: {t['name']} failed: {t['message'][:300]}")
    for name, tests in reports[1:]:
        for tname, t in ref.items():
            if t["status"] == "passed" and tests.get(tname, {}).get("status") != "passed":
                got = tests.get(tname, {"status": "missing", "message": ""})
                bad.append(f"{name}: {tname} passes under {ref_name} but is {got['status']}: {got['message'][:300]}")
    passed = sum(t["status"] == "passed" for t in ref.values())
    summary = ", ".join(f"{n} {sum(t['status'] == 'passed' for t in ts.values())}" for n, ts in reports)
    print(f"{len(ref)} tests; passed: {summary}")
    if bad:
        print("\n".join(bad))
        return 1
    print(f"every executor passes the {passed} tests the reference passes; no test failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
