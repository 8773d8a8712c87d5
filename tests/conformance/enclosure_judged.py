#!/usr/bin/python3
"""The enclosure judge on a suite: the reference passes every test it judges by enclosure, and
enough tests are judged that way; with a planted fault, the executor fails tests that the judge
encloses.

  enclosure_judged.py REPORT.json MIN_ENCLOSED [--faulty FAULTY_REPORT.json] [--profile SONNX.json]

REPORT.json is a `sonnx conform --judge enclosure --report` JSON of the reference. Exit 1, listing
the tests, when a test judged by enclosure did not pass, when fewer than MIN_ENCLOSED tests were
judged by enclosure, or when FAULTY_REPORT.json (an executor run with --inject-fault) has no test
that failed under the enclosure judge. With --profile (spec/profiles/sonnx.json), also when a test
made only of the profile's operators has a real enclosure wider than MAX_REAL_ULPS ulps of its type
(the model's exact value is known that closely).
"""
import json
import sys

MAX_REAL_ULPS = 4


def too_wide(report, profile_path):
    with open(profile_path) as f:
        ops = {o.rsplit("-", 1)[0] for o in json.load(f)["operators"]}
    wide = []
    for t in report["tests"]:
        used = {o.rsplit("-", 1)[0] for o in t.get("op_types", [])}
        if t.get("judge") != "enclosure" or not used or not used <= ops:
            continue
        widths = [e["real_width_ulps"] for e in t["enclosure"]]
        if any(w is None or w > MAX_REAL_ULPS for w in widths):
            wide.append(f"{t['name']}: real enclosure {max(w if w is not None else float('inf') for w in widths)} ulps wide")
    return wide


def main():
    args = sys.argv[1:]
    faulty = profile = None
    if "--faulty" in args:
        i = args.index("--faulty")
        faulty = args[i + 1]
        del args[i : i + 2]
    if "--profile" in args:
        i = args.index("--profile")
        profile = args[i + 1]
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
    if profile:
        wide = too_wide(report, profile)
        print(f"tests of the profile's operators with a real enclosure over {MAX_REAL_ULPS} ulps: {len(wide)}")
        for line in wide:
            print("  " + line)
        ok = ok and not wide
    if faulty:
        with open(faulty) as f:
            caught = [t["name"] for t in json.load(f)["tests"] if t.get("judge") == "enclosure" and t["status"] == "failed"]
        print(f"planted fault: {len(caught)} tests fail under the enclosure judge")
        ok = ok and len(caught) > 0
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
