#!/usr/bin/env bash
# Checks that every tracked C/C++ source file is formatted per .clang-format (clang-format 14).
#   scripts/check-format.sh         exit 1 and list the unformatted files, 0 if all are formatted
#   scripts/check-format.sh --fix   format them in place
# Exits 77 (skip) when clang-format-14 is not installed. CLANG_FORMAT overrides the binary.
set -euo pipefail

cf=${CLANG_FORMAT:-clang-format-14}
if ! command -v "$cf" >/dev/null 2>&1; then
  echo "check-format: $cf not found; install clang-format-14 (apt-get install clang-format-14). Skipping." >&2
  exit 77
fi
case "${1:-}" in
  "" | --fix) ;;
  *) echo "usage: $0 [--fix]" >&2; exit 2 ;;
esac

cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
[[ -f .clang-format ]] || { echo "check-format: no .clang-format at $(pwd)" >&2; exit 2; }
mapfile -t files < <(git ls-files '*.cpp' '*.h' '*.hpp' '*.c')

if [[ "${1:-}" == --fix ]]; then
  printf '%s\0' "${files[@]}" | xargs -0 -r -n 50 "$cf" -i --style=file
  echo "check-format: ${#files[@]} files formatted"
  exit 0
fi

bad=()
for f in "${files[@]}"; do
  "$cf" --dry-run --Werror --style=file "$f" >/dev/null 2>&1 || bad+=("$f")
done
for f in "${bad[@]}"; do echo "unformatted: $f (fix: $cf -i $f)"; done
echo "check-format: ${#files[@]} files checked, ${#bad[@]} unformatted"
[[ ${#bad[@]} -eq 0 ]]
