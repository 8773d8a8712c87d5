#!/usr/bin/env bash
# The resume file and sharding of `sonnx certify`, and `sonnx report merge`:
#  1. a resume file holding one finished test (and a line torn by an interrupted run) is honoured:
#     that test is not run again, the others are, and their results are appended;
#  2. two shards (--shard and GTEST_* variables) cover the selection, and merging their JSON
#     reports gives one report with every test once.
# Usage: resume_shard_test.sh SONNX SUITE_DIR WORK_DIR
set -u
sonnx=$1 suite=$2 work=$3
filter='^test_(abs|neg|relu|sigmoid|exp)$'
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAILED: $1"; exit 1; }
printf '%s\n' '{"name":"test_abs","status":"passed","op_types":["Abs"],"message":"seeded by the test"}' '{"name":"test_ne' > "$work/resume.jsonl"
"$sonnx" certify --backend reference --suite "$suite" --filter "$filter" --resume "$work/resume.jsonl" --report "$work/all.json" >/dev/null ||
  fail "certify with --resume"
/usr/bin/python3 - "$work" <<'PY' || exit 1
import json, sys
w = sys.argv[1]
r = json.load(open(f"{w}/all.json"))
names = sorted(t["name"] for t in r["tests"])
assert names == ["test_abs", "test_exp", "test_neg", "test_relu", "test_sigmoid"], names
abs_t = [t for t in r["tests"] if t["name"] == "test_abs"][0]
assert abs_t["message"] == "seeded by the test", "test_abs was run again"
lines = [l for l in open(f"{w}/resume.jsonl").read().splitlines() if l.strip()]
done = set()
for l in lines:
    try: done.add(json.loads(l)["name"])
    except ValueError: pass
assert done == set(names), done
print("resume: ok")
PY
"$sonnx" certify --backend reference --suite "$suite" --filter "$filter" --shard 0/2 --report "$work/s0.json" >/dev/null || fail "shard 0"
GTEST_SHARD_INDEX=1 GTEST_TOTAL_SHARDS=2 "$sonnx" certify --backend reference --suite "$suite" --filter "$filter" --report "$work/s1.json" >/dev/null ||
  fail "shard 1"
"$sonnx" report merge "$work/merged.json" "$work/s0.json" "$work/s1.json" || fail "merge"
/usr/bin/python3 - "$work" <<'PY' || exit 1
import json, sys
w = sys.argv[1]
s0, s1, m = (json.load(open(f"{w}/{f}.json")) for f in ("s0", "s1", "merged"))
a = {t["name"] for t in s0["tests"]}
b = {t["name"] for t in s1["tests"]}
assert a and b and not (a & b), (a, b)
assert sorted(t["name"] for t in m["tests"]) == sorted(a | b) and len(a | b) == 5
assert m["summary"]["total"] == 5 and m["summary"]["passed"] == 5 and m["verdict"] == "certified", m["summary"]
print("shards + merge: ok")
PY
