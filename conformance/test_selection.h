// Which part of a run this process takes: `--shard K/N` (or ctest's GTEST_SHARD_INDEX and
// GTEST_TOTAL_SHARDS) and, for suites, the `--filter` regular expression on test names. Used by
// `conform`, `certify` and `fuzz` alike.
#pragma once
#include <string>
#include <vector>

#include "suite.h"

namespace sonnx {

struct Shard {
  int index = 0, count = 1;  // this is shard `index` of `count` (0-based)
  std::string source;        // with --shard auto: the scheduler it was read from
  bool takes(size_t i) const { return static_cast<int>(i % static_cast<size_t>(count)) == index; }
};

// "K/N" with 0 <= K < N; an empty text reads GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS when both are
// set, else the whole run (0/1). "auto" reads the first scheduler's variables that are set: a
// Slurm job array (SLURM_ARRAY_TASK_ID, _COUNT, _MIN, _STEP), a Kubernetes indexed Job
// (JOB_COMPLETION_INDEX with SONNX_SHARD_COUNT), GitLab CI, CircleCI or Buildkite parallel jobs,
// SONNX_SHARD_INDEX/SONNX_SHARD_COUNT (any CI matrix), ctest's variables. Throws LoadError (a usage
// error) on anything else.
Shard parse_shard(const std::string& text);

// The tests whose name matches `filter` (std::regex_search; empty: all), then every count-th of
// them from index (in the given order). Throws LoadError on a bad regular expression.
std::vector<const TestCase*> select_tests(const std::vector<TestCase>& tests, const std::string& filter, const Shard& shard);

}  // namespace sonnx
