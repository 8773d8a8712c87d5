#!/usr/bin/env bash
# The main job: install dependencies, build (Release), take the newest ONNX backend test suite
# available (onnx 1.19.1's from ../shared, else Debian's onnx 1.12 one, generated), validate every
# model in it plus the bundled examples, run the conformance suite with the reference interpreter,
# print a summary and write reports to out/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DSONNX_UNITY_BUILD=ON >/dev/null
cmake --build build --target sonnx -j"$(nproc)"
mkdir -p out
# The newest suite available: onnx 1.19.1's (opsets 1-24) from the team's shared archive, imported
# with our own script; else the Debian onnx 1.12 suite, generated here (needs nothing).
archive=${SONNX_SUITE_ARCHIVE:-$root/../shared/onnx/onnx-1.19.1-backend-test-data.tar.xz}
if [ -f "$archive" ]; then
  suite=out/onnx-suite-1.19.1
  [ -d "$suite/node" ] || /usr/bin/python3 conformance/data/import-onnx-suite.py "$archive" "$suite"
  name="onnx 1.19.1 node + simple suites ($archive)"
else
  suite=out/onnx-suite
  [ -d "$suite/node" ] || /usr/bin/python3 conformance/data/generate-onnx-suite.py "$suite" >/dev/null 2>&1
  name="Debian onnx 1.12 node + simple suites (generated)"
fi
/usr/bin/python3 tests/fixtures/make_rule_fixtures.py out/examples >/dev/null
# A model the check refuses (e.g. an operator version sonnx does not run yet) is reported, not fatal.
set +e
echo "== sonnx check (profile onnx): $name and the bundled good examples"
build/cli/sonnx check --quiet "$suite"/node/*/model.onnx "$suite"/simple/*/model.onnx out/examples/good_*.onnx
echo "== sonnx check (profile sonnx): the bundled SONNX example"
build/cli/sonnx check --profile sonnx out/examples/good_sonnx_mlp.onnx
echo "== sonnx conform (executor reference): $name"
build/cli/sonnx conform "$suite/node" "$suite/simple" --report out/conformance-report.json \
  --report out/conformance-report.md --report out/conformance-report.xml | tail -n 1
set -e
echo "reports: out/conformance-report.{json,md,xml}"
