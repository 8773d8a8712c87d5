#!/usr/bin/env bash
# Runs a command and checks its exit code (and, optionally, that its stderr contains a text).
# Usage: expect_exit.sh CODE [--stderr TEXT] -- COMMAND...
set -u
want=$1; shift
text=""
if [ "$1" = "--stderr" ]; then text=$2; shift 2; fi
[ "$1" = "--" ] && shift
err=$(mktemp)
"$@" >/dev/null 2>"$err"
got=$?
if [ "$got" != "$want" ]; then echo "exit code $got, expected $want: $*"; cat "$err"; rm -f "$err"; exit 1; fi
if [ -n "$text" ] && ! grep -qF -- "$text" "$err"; then echo "stderr lacks '$text':"; cat "$err"; rm -f "$err"; exit 1; fi
rm -f "$err"
exit 0
