#!/usr/bin/env bash
# Runs a command and checks its exit code and, optionally, that its stderr or stdout contains a
# text and that a path does not exist afterwards (the command wrote nothing there).
# Usage: expect_exit.sh CODE [--stderr TEXT] [--stdout TEXT] [--absent PATH] -- COMMAND...
set -u
want=$1; shift
text=""; out_text=""; absent=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  case "$1" in
    --stderr) text=$2; shift 2 ;;
    --stdout) out_text=$2; shift 2 ;;
    --absent) absent=$2; shift 2 ;;
    *) echo "expect_exit.sh: unknown option $1"; exit 2 ;;
  esac
done
[ $# -gt 0 ] && shift
[ -n "$absent" ] && rm -rf "$absent"
err=$(mktemp); out=$(mktemp)
"$@" >"$out" 2>"$err"
got=$?
# 77 is a test's skip (the data it needs is absent): pass it on, with what the command said.
if [ "$got" = 77 ] && [ "$want" != 77 ]; then cat "$out" "$err"; rm -f "$err" "$out"; exit 77; fi
fail() { echo "$1"; echo "--- stdout"; cat "$out"; echo "--- stderr"; cat "$err"; rm -f "$err" "$out"; exit 1; }
[ "$got" = "$want" ] || fail "exit code $got, expected $want: $*"
if [ -n "$text" ] && ! grep -qF -- "$text" "$err"; then fail "stderr lacks '$text'"; fi
if [ -n "$out_text" ] && ! grep -qF -- "$out_text" "$out"; then fail "stdout lacks '$out_text'"; fi
if [ -n "$absent" ] && [ -e "$absent" ]; then fail "'$absent' exists: the command wrote it"; fi
rm -f "$err" "$out"
exit 0
