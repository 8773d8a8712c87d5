#!/usr/bin/env bash
# Checks that every tracked C/C++ source file (or each FILE given) is formatted per .clang-format
# (clang-format 14).
#   scripts/check-format.sh [FILE...]         exit 1 listing the unformatted files, 0 if all are formatted
#   scripts/check-format.sh --fix [FILE...]   format them in place
# Exits 77 (skip) when clang-format-14 is not installed or, without FILEs, outside a git checkout.
# CLANG_FORMAT overrides the binary.
set -euo pipefail

cf=${CLANG_FORMAT:-clang-format-14}
if ! "$cf" --version 2>/dev/null | grep -q 'version 14\.'; then
  echo "check-format: $cf (clang-format 14) not found; install clang-format-14. Skipping." >&2
  exit 77
fi
fix=false
if [[ "${1:-}" == --fix ]]; then fix=true; shift; fi
case "${1:-}" in
  -*) echo "usage: $0 [--fix] [FILE...]" >&2; exit 2 ;;
esac

if [[ $# -gt 0 ]]; then
  files=()
  for f in "$@"; do  # clang-format would reflow Markdown or Python as if it were C++
    case "$f" in
      *.cpp | *.h | *.hpp | *.c) files+=("$f") ;;
      *) echo "check-format: $f is not a C or C++ source; left alone" >&2 ;;
    esac
  done
else
  root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel 2>/dev/null) || {
    echo "check-format: not a git checkout (no list of tracked files). Skipping." >&2
    exit 77
  }
  cd "$root"
  [[ -f .clang-format ]] || { echo "check-format: no .clang-format in $PWD" >&2; exit 2; }
  mapfile -t files < <(git ls-files '*.cpp' '*.h' '*.hpp' '*.c')
fi

if $fix; then
  printf '%s\0' "${files[@]}" | xargs -0 -r -n 50 "$cf" -i --style=file
  echo "check-format: ${#files[@]} files formatted"
  exit 0
fi

# One warning per unformatted spot: "FILE:LINE:COL: error: code should be clang-formatted".
rc=0
out=$(printf '%s\0' "${files[@]}" | xargs -0 -r -n 50 "$cf" --dry-run --Werror --style=file 2>&1) || rc=$?
mapfile -t bad < <(sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' <<<"$out" | sort -u)
if [[ $rc -ne 0 && ${#bad[@]} -eq 0 ]]; then
  echo "$out" >&2
  echo "check-format: $cf failed" >&2
  exit 2
fi
for f in "${bad[@]}"; do echo "unformatted: $f"; done
echo "check-format: ${#files[@]} files checked, ${#bad[@]} unformatted"
[[ ${#bad[@]} -eq 0 ]] || { echo "run scripts/check-format.sh --fix to format them" >&2; exit 1; }
