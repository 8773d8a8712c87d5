#!/usr/bin/env bash
# The whole test suite: install dependencies, build with AddressSanitizer + UndefinedBehaviorSanitizer
# in build-test/, and run every ctest label (unit, conformance, proofs, fuzz).
# Pass ctest arguments to select a part, e.g. scripts/test.sh -L unit
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/install-deps.sh
# -g1: line tables are all a sanitizer report needs, and compile ~30 % faster than full debug info.
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
  -DSONNX_SANITIZE=ON -DSONNX_UNITY_BUILD=ON >/dev/null
cmake --build build-test -j"$(nproc)"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir build-test --output-on-failure -j"$(nproc)" "$@"
