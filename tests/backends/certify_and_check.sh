#!/usr/bin/env bash
# Runs `sonnx certify ARGS... --report REPORT.json`, checks its exit code, then the report.
# Usage: certify_and_check.sh EXIT_CODE REPORT.json -- CERTIFY_ARGS... -- CHECK_EXPRESSIONS...
# With SONNX_TEST_TMPDIR set, certify runs with that fresh directory as TMPDIR, which it must leave
# empty (every scratch directory removed, a killed or crashed test's included).
set -u
want=$1 report=$2; shift 2
[ "$1" = "--" ] && shift
args=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do args+=("$1"); shift; done
[ $# -gt 0 ] && shift
rm -f "$report"
if [ -n "${SONNX_TEST_TMPDIR:-}" ]; then
  rm -rf "$SONNX_TEST_TMPDIR" && mkdir -p "$SONNX_TEST_TMPDIR" && export TMPDIR=$SONNX_TEST_TMPDIR
fi
"${args[@]}" --report "$report"
got=$?
if [ -n "${SONNX_TEST_TMPDIR:-}" ] && [ -n "$(ls -A "$SONNX_TEST_TMPDIR")" ]; then
  echo "certify left in TMPDIR: $(ls -A "$SONNX_TEST_TMPDIR")"; exit 1
fi
if [ "$got" != "$want" ]; then echo "certify exited $got, expected $want"; exit 1; fi
exec /usr/bin/python3 "$(dirname "$0")/check_report.py" "$report" "$@"
