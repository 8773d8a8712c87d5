#!/usr/bin/env bash
# The long "check accepts => run executes" run (issue 14): N generated graphs (default 10,000), each
# with every validator mutation and near miss; a model the validator accepts (profile onnx) must
# run on the reference interpreter. Prints the JSON report (counts, seconds, findings); findings'
# models go to OUT. Exit 0 when nothing was found, 1 when something was.
# Usage: scripts/accepts-runs.sh [GRAPHS] [SEED] [OUT]   (BUILD=build by default)
set -euo pipefail
graphs=${1:-10000}
seed=${2:-1}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}
out=${3:-$build/accepts-runs}
cmake --build "$build" --target sonnx_accepts_runs -j1 >/dev/null
exec "$build/tests/property/sonnx_accepts_runs" --graphs "$graphs" --seed "$seed" --out "$out"
