#!/usr/bin/env bash
# Builds the libFuzzer target for load + check (clang, ASan/UBSan) in build-fuzz/ and runs it for
# a bounded time on a generated seed corpus: the coverage-guided campaign (ctest fuzz_load_check is
# a bounded mutation run without coverage guidance). Exit 0 when the fuzzer finds nothing.
# Usage: scripts/run-fuzz.sh [SECONDS] (default 60)
set -euo pipefail
seconds=${1:-60}
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build-fuzz"
cmake -S "$root" -B "$build" -DSONNX_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSONNX_UNITY_BUILD=ON >/dev/null
cmake --build "$build" --target load_check_fuzz -j"$(nproc)" >/dev/null
corpus="$build/corpus"
mkdir -p "$corpus"
/usr/bin/python3 "$root/tests/fuzz/seeds.py" "$corpus"
cd "$build"
# -rss_limit_mb bounds memory per input; absurd shapes must be refused, not allocated.
ASAN_OPTIONS=detect_leaks=0 ./tests/fuzz/load_check_fuzz -max_total_time="$seconds" -rss_limit_mb=2048 \
  -timeout=30 -print_final_stats=1 "$corpus" 2>&1 | tail -n 15
