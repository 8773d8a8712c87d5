#!/usr/bin/python3
"""The enclosure judge on a suite: the reference passes every test it judges by enclosure, and
enough tests are judged that way; with a planted fault, the executor fails tests that the judge
encloses.

  enclosure_judged.py REPORT.json MIN_ENCLOSED [--faulty FAULTY_REPORT.json]

REPORT.json is a `sonnx conform --judge enclosure --report` JSON of the reference. Exit 1, listing
the tests, when a test judged by enclosure did not pass, when fewer than MIN_ENCLOSED tests were
judged by enclosure, or when FAULTY_REPORT.json (an executor run with --inject-fault) has no test
that failed under the enclosure judge.
"""
import json
import sys


def main():
    args = sys.argv[1:]
    faulty = None
    if "--faulty" in args:
        i = args.index("--faulty")
        faulty = args[i + 1]
        del args[i : i + 2]
    if len(args) != 2:
        sys.exit(__doc__.strip())
    with open(args[0]) as f:
        report = json.load(f)
    enclosed = [t for t in report["tests"] if t.get("judge") == "enclosure"]
    bad = [f"{t['name']} {t['status']}: {t['message'][:300]}" for t in enclosed if t["status"] != "passed"]
    bad += [f"{t['name']} failed: {t['message'][:300]}" for t in report["tests"] if t["status"] == "failed" and t not in enclosed]
    print(f"{len(enclosed)} tests judged by enclosure, {len(bad)} not passed")
    ok = not bad and len(enclosed) >= int(args[1])
    for line in bad:
        print("  " + line)
    if len(enclosed) < int(args[1]):
        print(f"fewer than {args[1]} tests judged by enclosure")
    if faulty:
        with open(faulty) as f:
            caught = [t["name"] for t in json.load(f)["tests"] if t.get("judge") == "enclosure" and t["status"] == "failed"]
        print(f"planted fault: {len(caught)} tests fail under the enclosure judge")
        ok = ok and len(caught) > 0
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
