#!/usr/bin/env bash
# `sonnx fuzz --shard auto` under each scheduler's variables (Slurm array, Kubernetes indexed Job,
# GitLab CI, SONNX_SHARD_*), and `sonnx report merge` of the shards' campaigns: the shards together
# run every graph once, and the merged campaign has the counts of the shards added up and each
# defect group once (hits summed). A scheduler's variables that do not add up are a usage error (2).
# Usage: fuzz_shard_schedulers.sh SONNX PLUGIN WORK_DIR
set -u
sonnx=$1 plugin=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAILED: $1"; exit 1; }
clean() { env -u SLURM_ARRAY_TASK_ID -u SLURM_ARRAY_TASK_COUNT -u SLURM_ARRAY_TASK_MIN -u SLURM_ARRAY_TASK_STEP \
  -u JOB_COMPLETION_INDEX -u SONNX_SHARD_COUNT -u SONNX_SHARD_INDEX -u CI_NODE_INDEX -u CI_NODE_TOTAL \
  -u CIRCLE_NODE_INDEX -u CIRCLE_NODE_TOTAL -u BUILDKITE_PARALLEL_JOB -u BUILDKITE_PARALLEL_JOB_COUNT \
  -u GTEST_SHARD_INDEX -u GTEST_TOTAL_SHARDS "$@"; }
run() {  # run NAME VAR=VALUE...: one shard of 24 graphs (8 per shard of 3)
  local name=$1; shift
  clean "$@" "$sonnx" fuzz --backend "$plugin" --opset 17 --seed 7 --graphs 8 --seconds 0 --shard auto \
    --out "$work/$name-repros" --report "$work/$name.json" >/dev/null
  [ $? -le 1 ] || fail "$name: fuzz failed"
}
for k in 0 1 2; do
  run slurm$k SLURM_ARRAY_TASK_ID=$((k * 2 + 1)) SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_STEP=2 SLURM_ARRAY_TASK_COUNT=3
  run k8s$k JOB_COMPLETION_INDEX=$k SONNX_SHARD_COUNT=3
  run gitlab$k CI_NODE_INDEX=$((k + 1)) CI_NODE_TOTAL=3
  run matrix$k SONNX_SHARD_INDEX=$k SONNX_SHARD_COUNT=3
done
clean "$sonnx" fuzz --backend "$plugin" --opset 17 --seed 7 --graphs 24 --seconds 0 --out "$work/whole-repros" \
  --report "$work/whole.json" >/dev/null
for scheme in slurm k8s gitlab matrix; do
  "$sonnx" report merge "$work/$scheme-merged.json" "$work/${scheme}0.json" "$work/${scheme}1.json" "$work/${scheme}2.json" \
    >/dev/null
  [ $? -le 1 ] || fail "$scheme: report merge failed"
done
/usr/bin/python3 - "$work" <<'PY' || exit 1
import json, sys
w = sys.argv[1]
whole = json.load(open(f"{w}/whole.json"))
key = lambda g: (g["op"], g["pattern"], g["deviation"])
for scheme in ["slurm", "k8s", "gitlab", "matrix"]:
    shards = [json.load(open(f"{w}/{scheme}{k}.json")) for k in range(3)]
    assert [s["graphs"] for s in shards] == [8, 8, 8], (scheme, [s["graphs"] for s in shards])
    assert [s["shards"][0].split(" ")[0] for s in shards] == ["0/3", "1/3", "2/3"], (scheme, [s["shards"] for s in shards])
    m = json.load(open(f"{w}/{scheme}-merged.json"))
    for f in ["graphs", "passed", "failed", "skipped"]:
        assert m[f] == whole[f], (scheme, f, m[f], whole[f])
    assert sorted(map(key, m["defect_groups"])) == sorted(map(key, whole["defect_groups"])), scheme
    hits = {key(g): g["hits"] for g in whole["defect_groups"]}
    assert {key(g): g["hits"] for g in m["defect_groups"]} == hits, scheme
print("shards: ok")
PY
clean SLURM_ARRAY_TASK_ID=5 SLURM_ARRAY_TASK_COUNT=3 "$sonnx" fuzz --backend "$plugin" --graphs 1 --shard auto \
  --out "$work/bad" > /dev/null 2> "$work/bad.err"
[ $? -eq 2 ] || fail "an index outside the Slurm array is a usage error"
grep -q "Slurm" "$work/bad.err" || fail "the error names the scheduler: $(cat "$work/bad.err")"
clean "$sonnx" fuzz --backend "$plugin" --graphs 1 --shard auto --out "$work/bad" > /dev/null 2> "$work/none.err"
[ $? -eq 2 ] || fail "--shard auto without a scheduler is a usage error"
echo "fuzz_shard_schedulers: ok"
