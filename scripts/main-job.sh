#!/usr/bin/env bash
# The main job: install dependencies, build (Release), generate the ONNX backend test suite with
# Debian's onnx 1.12, validate every model in it plus the bundled examples, run the conformance
# suite with the reference interpreter, print a summary and write reports to out/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --target sonnx -j"$(nproc)"
mkdir -p out
suite=out/onnx-suite
[ -d "$suite/node" ] || /usr/bin/python3 conformance/data/generate-onnx-suite.py "$suite" >/dev/null 2>&1
/usr/bin/python3 tests/fixtures/make_rule_fixtures.py out/examples >/dev/null
echo "== sonnx check (profile onnx): generated node + simple suites and the bundled good examples"
build/cli/sonnx check --quiet "$suite"/node/*/model.onnx "$suite"/simple/*/model.onnx out/examples/good_*.onnx
echo "== sonnx check (profile sonnx): the bundled SONNX example"
build/cli/sonnx check --profile sonnx out/examples/good_sonnx_mlp.onnx
echo "== sonnx conform (executor reference): node + simple suites"
set +e
build/cli/sonnx conform "$suite/node" "$suite/simple" --report out/conformance-report.json \
  --report out/conformance-report.md --report out/conformance-report.xml | tail -n 1
set -e
echo "reports: out/conformance-report.{json,md,xml}"
