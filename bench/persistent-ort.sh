#!/usr/bin/env bash
# Throughput of `sonnx certify --backend-cmd` against onnxruntime-node (conformance/adapters/ort_adapter.js),
# one process per test against one persistent runtime (`--persistent`, docs/backends.md), on the
# first COUNT tests of the node suite. Prints tests/s for both and checks that every test got the
# same status either way (the protocols must not change a verdict).
#
#   bench/persistent-ort.sh [--build DIR] [--suite DIR] [--count N] [--timeout S] [--work DIR]
#
# Defaults: BUILD=build, SUITE=BUILD/tests/onnx-suite/node, COUNT=200, TIMEOUT=60, WORK=BUILD/persistent-ort.
# Needs node and onnxruntime-node 1.30.0 (`npm install --ignore-scripts` in bench/; NODE_PATH is
# set to bench/node_modules when unset).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/build SUITE='' COUNT=200 TIMEOUT=60 WORK=''
while [[ $# -gt 0 ]]; do
  case $1 in
    --build) BUILD=$2; shift 2 ;;
    --suite) SUITE=$2; shift 2 ;;
    --count) COUNT=$2; shift 2 ;;
    --timeout) TIMEOUT=$2; shift 2 ;;
    --work) WORK=$2; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "persistent-ort: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
SUITE=${SUITE:-$BUILD/tests/onnx-suite/node}
WORK=${WORK:-$BUILD/persistent-ort}
SONNX=$BUILD/cli/sonnx
export NODE_PATH=${NODE_PATH:-$ROOT/bench/node_modules}
[[ -x $SONNX ]] || { echo "persistent-ort: no $SONNX (build first)" >&2; exit 2; }
[[ -d $SUITE ]] || { echo "persistent-ort: no suite $SUITE" >&2; exit 2; }
command -v node >/dev/null || { echo "persistent-ort: node is not installed" >&2; exit 2; }
rm -rf "$WORK" && mkdir -p "$WORK"

# The first COUNT test directories, in name order, each as a --suite.
suites=()
while IFS= read -r dir; do suites+=(--suite "$dir"); done < <(find "$SUITE" -mindepth 1 -maxdepth 1 -type d -name 'test_*' | LC_ALL=C sort | head -n "$COUNT")
n=$((${#suites[@]} / 2))
[[ $n -gt 0 ]] || { echo "persistent-ort: no test directory in $SUITE" >&2; exit 2; }
adapter="node $(printf '%q' "$ROOT/conformance/adapters/ort_adapter.js")"

# Runs certify (exit 1 is a verdict, not a failure of the bench); prints the seconds it took.
timed_certify() {
  local report=$1
  shift
  local start end rc=0
  start=$(date +%s.%N)
  "$SONNX" certify --backend-cmd "$adapter" "$@" "${suites[@]}" --timeout "$TIMEOUT" --report "$report" >"$report.out" 2>&1 || rc=$?
  end=$(date +%s.%N)
  [[ $rc -le 1 ]] || { cat "$report.out" >&2; echo "persistent-ort: certify exited $rc" >&2; exit 1; }
  echo "$start $end" | awk '{ printf "%.3f", $2 - $1 }'
}

echo "persistent-ort: $n tests from $SUITE, onnxruntime-node, timeout $TIMEOUT s"
one_shot=$(timed_certify "$WORK/one-shot.json")
persistent=$(timed_certify "$WORK/persistent.json" --persistent)
awk -v n="$n" -v a="$one_shot" -v b="$persistent" 'BEGIN {
  printf "one process per test: %8.2f s  %7.1f tests/s\n", a, n / a
  printf "persistent runtime:   %8.2f s  %7.1f tests/s  (%.1fx)\n", b, n / b, a / b
}'
/usr/bin/python3 - "$WORK/one-shot.json" "$WORK/persistent.json" <<'PY'
import json, sys
a, b = ({t["name"]: t["status"] for t in json.load(open(f))["tests"]} for f in sys.argv[1:3])
differ = sorted(name for name in a if a[name] != b.get(name))
counts = {}
for status in a.values():
    counts[status] = counts.get(status, 0) + 1
print("statuses:", ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
if differ:
    print(f"{len(differ)} tests differ between the two runs:")
    for name in differ:
        print(f"  {name}: one-shot {a[name]}, persistent {b.get(name)}")
    sys.exit(1)
print("every test has the same status in both runs")
PY
