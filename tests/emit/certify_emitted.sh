#!/usr/bin/env bash
# Certifies the C that `sonnx emit-c` writes, as a --backend-cmd runtime (scripts/emit-c-backend.sh):
# exact mode judged bitwise against the reference, fast mode by the admissible enclosure.
#
#   certify_emitted.sh SONNX exact|fast REPORT.json SUITE_DIR [TEST_LIST|all [lenient]]
#
# TEST_LIST: a file of test names, one per line (# comments; in fast mode only the lines whose
# second word is `fast`), to certify only those; `all`: every
# test of the suite. Fails (exit 1) when a test failed, crashed, timed out or errored, or, with a
# list or `all`, when a test did not pass (those are tests the C form must run: unsupported counts
# against them; `lenient`: only the list's selection, unsupported allowed). Exit 77 (skip) when
# SUITE_DIR does not exist (it needs ../shared/: the onnx 1.19.1 suite).
set -euo pipefail
sonnx=$1 mode=$2 report=$3 suite=$4 list=${5:-} strict=yes
[[ ${6:-} == lenient ]] && strict=
root=$(cd "$(dirname "$0")/../.." && pwd)
if [[ ! -d $suite ]]; then
  echo "certify_emitted: skipped: no suite at $suite (the onnx 1.19.1 suite comes from ../shared/)"
  exit 77
fi
judge=bitwise
[[ $mode == fast ]] && judge=enclosure
filter=()
if [[ -n $list && $list != all ]]; then
  # Fast mode: the lines marked `fast` only.
  names=$(grep -v '^[[:space:]]*\(#\|$\)' "$list" | awk -v mode="$mode" 'mode != "fast" || $2 == "fast" { print $1 }' | paste -sd '|')
  filter=(--filter "^($names)\$")
fi
rc=0
SONNX=$sonnx SONNX_EMIT_MODE=$mode "$sonnx" certify --backend-cmd "$root/scripts/emit-c-backend.sh" --judge "$judge" \
  --suite "$suite" "${filter[@]}" --no-localize --timeout 120 --report "$report" >/dev/null || rc=$?
/usr/bin/python3 - "$report" "$mode" "${list:+$strict}" <<'PY'
import collections, json, sys
report, mode, listed = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3] == "yes"
count = collections.Counter(t["status"] for t in report["tests"])
print(f"emit-c {mode}: {len(report['tests'])} tests: " + ", ".join(f"{n} {s}" for s, n in sorted(count.items())))
bad = [t for t in report["tests"] if t["status"] in ("failed", "crashed", "timeout", "errored")
       or (listed and t["status"] != "passed")]
for t in bad:
    print(f"  {t['name']}: {t['status']}: {t['message'][:300]}")
sys.exit(1 if bad or not report["tests"] else 0)
PY
