#!/usr/bin/env bash
# The properties of the generated code (docs/emit-c.md) on every model of the emit-c suite, in both
# modes: exact with embedded weights, fast with the weights in a file. Each generated directory
# goes through scripts/emit-c-check.py (compiles warning-free with gcc and clang, no allocator, no
# writable data, no recursion, literal loop bounds, no cppcheck MISRA error); the MISRA findings of
# all of them are summed by rule into OUT/misra.md.
#
#   properties.sh SONNX SUITE_DIR OUT_DIR
set -euo pipefail
sonnx=$1 suite=$2 out=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$out" && mkdir -p "$out"
failed=0
for t in "$suite"/test_*; do
  name=$(basename "$t")
  "$sonnx" admit "$t/model.onnx" -o "$out/$name.onnx" --samples 0 -q >/dev/null
  for variant in "exact embedded" "fast file"; do
    read -r mode weights <<<"$variant"
    dir=$out/$name-$mode
    "$sonnx" emit-c "$out/$name.onnx" -o "$dir" --mode "$mode" --weights "$weights" >/dev/null
    if ! /usr/bin/python3 "$root/scripts/emit-c-check.py" "$dir" --report "$dir/checks.json" >"$dir/checks.txt"; then
      echo "properties: $name ($mode) FAILED:"; cat "$dir/checks.txt"; failed=1
    fi
  done
done
/usr/bin/python3 - "$out" <<'PY'
import collections, glob, json, os, sys
out = sys.argv[1]
total, files = collections.Counter(), 0
for f in sorted(glob.glob(os.path.join(out, "*", "checks.json"))):
    files += 1
    total.update(json.load(open(f)).get("misra_findings_by_rule", {}))
rules = sorted(total, key=lambda r: [int(x) for x in r.split(".")])
lines = ["# MISRA C 2012 findings on the generated code", "",
         f"cppcheck's MISRA addon over {files} generated model sources (no error-severity finding: those fail the check).",
         "", "| rule | findings |", "|---|---|"] + [f"| {r} | {total[r]} |" for r in rules]
open(os.path.join(out, "misra.md"), "w").write("\n".join(lines) + "\n")
print(f"properties: {files} generated sources checked; MISRA findings by rule: " + ", ".join(f"{r}: {total[r]}" for r in rules))
PY
exit $failed
