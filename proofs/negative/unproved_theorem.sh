#!/bin/sh
# The traceability check must fail on a theorem the last proof run did not prove: copy the results
# of the last run, mark one obligation of Dataflow.confluence as timed out, and check again.
# Usage: unproved_theorem.sh make-traceability.py RESULTS_DIR SCRATCH_DIR
set -u
trace=$1 results=$2 scratch=$3
rm -rf "$scratch" && mkdir -p "$scratch" && cp "$results"/*.tsv "$scratch"/ || exit 2
awk -F '\t' 'BEGIN { OFS = "\t" }
  !done && ($1 == "Dataflow.confluence" || $1 == "Dataflow.confluence'"'"'vc") { $2 = "Timeout"; done = 1 }
  { print }' "$results/execution.tsv" >"$scratch/execution.tsv" || exit 2
/usr/bin/python3 "$trace" --check --proofs "$scratch"
test $? -eq 1
