#!/usr/bin/env bash
# ThreadSanitizer run of the concurrent parts: the ready-step scheduler and the Parallel executor (a thread pool running steps
# side by side), several executors sharing one compiled model, and fast kernels called from
# several threads. Builds in build-tsan/ (separate from the ASan tree). Exits non-zero on a race.
#
#   scripts/test-tsan.sh [--repeat N]     (default 3 repetitions of each test)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
repeat=3
[[ ${1:-} == --repeat ]] && repeat=$2
cmake -S "$root" -B "$root/build-tsan" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSONNX_TSAN=ON -DSONNX_UNITY_BUILD=ON >/dev/null
cmake --build "$root/build-tsan" --target sonnx_unit_tests sonnx_api_tests sonnx_device_api_tests -j"$(nproc)"
# halt_on_error: the first race fails the run. oneDNN and libgomp are not instrumented: their
# memory accesses are invisible to TSan, and the fork and join of our own OpenMP regions are
# declared to it (optimized/kernels/omp_sync.h); scripts/tsan.supp says what is still suppressed.
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$root/scripts/tsan.supp ${TSAN_OPTIONS:-}"
"$root/build-tsan/tests/sonnx_unit_tests" --gtest_repeat="$repeat" \
  --gtest_filter='ReadyScheduler.*:ParallelExecutor.*:OptimizedExecutors.*:DataflowExecutor.*:FastKernelConv.SafeFromSeveralThreads:FastMovement.LargeCopiesOnTwoThreadsMatchTheReferenceBitwise:FastUnary.LargeTensorsSplitOverThreadsAlike:FastPadWhereSplit.OneKernelRunsOnSeveralThreadsAtOnce:Views.*:FoldedShapes.*:FastAttention.*:FastFloat16.*:HeldWeights.*'
# One API Session run from several threads at once (libsonnx.so, the executor pool), and
# Session::run_async handing steps to a launcher's threads (GoogLeNet, made with the test program).
/usr/bin/python3 "$root/tests/fixtures/make_rule_fixtures.py" "$root/build-tsan/tests/rule-fixtures" >/dev/null
SONNX_RULE_FIXTURES="$root/build-tsan/tests/rule-fixtures" SONNX_GOOGLENET="$root/build-tsan/tests/googlenet.onnx" \
  "$root/build-tsan/tests/sonnx_api_tests" --gtest_repeat="$repeat" \
  --gtest_filter='CppApi.OneSessionRunsFromManyThreads:RunAsync.*'
# Sessions on device sets: steps of the partitioned executor run on a launcher's threads.
SONNX_CACHE_DIR="$root/build-tsan/tests/device-cache" "$root/build-tsan/tests/backends/sonnx_device_api_tests" --gtest_repeat="$repeat" \
  --gtest_filter='DeviceSession.*'
