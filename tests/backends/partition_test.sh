#!/usr/bin/env bash
# `sonnx partition` with the sample plugin first: Add, Relu and Mul go to the plugin, Abs and Sub
# to cpu; the step holding a broadcast Add fails on the plugin at run time and falls back to cpu;
# the outputs still match the reference. With --no-fallback the same run must fail.
# Usage: partition_test.sh SONNX PLUGIN MODEL
set -u
sonnx=$1 plugin=$2 model=$3
out=$("$sonnx" partition "$model" --backends "$plugin" --run 2>&1)
rc=$?
echo "$out"
fail() { echo "FAILED: $1"; exit 1; }
[ $rc = 0 ] || fail "exit code $rc"
grep -q '^step 0 on sample:.*(Add)' <<<"$out" || fail "Add is not on the plugin"
grep -q '^step 1 on cpu:.*(Abs)' <<<"$out" || fail "Abs is not on cpu"
grep -q '^step 2 on sample:.*(Relu).*(Mul).*(Add)' <<<"$out" || fail "Relu, Mul, Add are not one plugin step"
grep -q '^step 3 on cpu:.*(Sub)' <<<"$out" || fail "Sub is not on cpu"
grep -q '^fallback: step 2 on sample failed to execute' <<<"$out" || fail "the broadcast step did not fall back"
grep -q 'outputs match the reference' <<<"$out" || fail "outputs differ from the reference"
SONNX_SAMPLE_FAIL_PREPARE=1 "$sonnx" partition "$model" --backends "$plugin" --run | grep -q 'step 0 on sample failed to prepare' ||
  fail "a failed prepare did not fall back"
"$sonnx" partition "$model" --backends "$plugin" --no-fallback >/dev/null 2>&1 && fail "--no-fallback accepted nodes no backend runs"
# cpu in the list takes Abs and Sub, but the plugin step that fails at run time may not move.
"$sonnx" partition "$model" --backends "$plugin,cpu" --no-fallback --run 2>&1 | grep -q 'step 2 on sample failed to execute' ||
  fail "plugin,cpu without fallback must fail at step 2"
"$sonnx" partition "$model" --backends "$plugin,cpu" --no-fallback --run >/dev/null 2>&1
[ $? = 1 ] || fail "plugin,cpu without fallback must exit 1"
echo "partition_test: ok"
