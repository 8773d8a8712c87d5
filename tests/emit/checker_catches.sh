#!/usr/bin/env bash
# scripts/emit-c-check.py can fail: C with each forbidden construct planted (an allocation, recursion,
# writable global state, a loop bound that is not a literal, a VLA, a warning, an error cppcheck finds) fails the property
# that forbids it, and the clean file passes.
#
#   checker_catches.sh WORK_DIR
set -euo pipefail
work=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$work" && mkdir -p "$work"
clean='#include <stdint.h>
static void f(const float* x, float* y) {
  for (int64_t i = 0; i < 4; ++i) {
    y[i] = x[i] + 1.0f;
  }
}
int model_run(const float* x, float* y) {
  f(x, y);
  return 0;
}'
declare -A planted=(
  [symbols-malloc]='#include <stdlib.h>
int model_run(float* y) { float* t = (float*)malloc(4u); if (t != NULL) { y[0] = t[0]; free(t); } return 0; }'
  [recursion]='static int g(int n) { return n > 0 ? g(n - 1) : 0; }
int model_run(int n) { return g(n); }'
  [symbols-state]='static int calls;
int model_run(void) { calls = calls + 1; return calls; }'
  [loops]='#include <stdint.h>
int model_run(const float* x, float* y, int64_t n) { for (int64_t i = 0; i < n; ++i) { y[i] = x[i]; } return 0; }'
  [compile-vla]='int model_run(int n) { float t[n]; t[0] = 1.0f; return (int)t[0]; }'
  [compile-warning]='int model_run(double d) { float f = d; return (int)f; }'
  [misra-error]='int model_run(void) { int a[2]; a[0] = 0; a[1] = 1; return a[2]; }'
)
check() {  # DIR [PROPERTY]: runs the checker (without cppcheck unless PROPERTY is misra: it is slow)
  mkdir -p "$1" && printf 'int main(void) { return 0; }\n' >"$1/main.c"
  local misra=--no-misra
  [[ ${2:-} == misra ]] && misra=
  /usr/bin/python3 "$root/scripts/emit-c-check.py" "$1" $misra
}
mkdir -p "$work/clean" && printf '%s\n' "$clean" >"$work/clean/model.c"
check "$work/clean" >"$work/clean.txt" || { echo "checker_catches: the clean file fails:"; cat "$work/clean.txt"; exit 1; }
failed=0
for name in "${!planted[@]}"; do
  property=${name%%-*}
  mkdir -p "$work/$name" && printf '%s\n' "${planted[$name]}" >"$work/$name/model.c"
  if check "$work/$name" "$property" >"$work/$name.txt"; then
    echo "checker_catches: $name passed the check"; failed=1
  elif ! grep -q "^$property: FAILED" "$work/$name.txt"; then
    echo "checker_catches: $name did not fail '$property':"; cat "$work/$name.txt"; failed=1
  else
    echo "checker_catches: $name fails '$property'"
  fi
done
exit $failed
