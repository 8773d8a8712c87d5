#!/usr/bin/env bash
# Runs `sonnx certify ARGS... --report REPORT.json`, checks its exit code, then the report.
# Usage: certify_and_check.sh EXIT_CODE REPORT.json -- CERTIFY_ARGS... -- CHECK_EXPRESSIONS...
set -u
want=$1 report=$2; shift 2
[ "$1" = "--" ] && shift
args=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do args+=("$1"); shift; done
[ $# -gt 0 ] && shift
rm -f "$report"
"${args[@]}" --report "$report"
got=$?
if [ "$got" != "$want" ]; then echo "certify exited $got, expected $want"; exit 1; fi
exec /usr/bin/python3 "$(dirname "$0")/check_report.py" "$report" "$@"
