#include "test_selection.h"

#include <algorithm>
#include <cstdlib>
#include <regex>

#include "sonnx/errors.h"

namespace sonnx {

namespace {

int parse_count(const std::string& s) {
  size_t used = 0;
  int v = std::stoi(s, &used);
  if (used != s.size()) throw std::invalid_argument("trailing characters");
  return v;
}

const char* env(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}

// A shard from variables a scheduler sets: index and count as read, or a LoadError naming them.
Shard shard_from(const std::string& source, const std::string& index, const std::string& count, int index_base) {
  Shard s;
  s.source = source;
  try {
    s.index = parse_count(index) - index_base;
    s.count = parse_count(count);
  } catch (const std::exception&) {
    throw LoadError("--shard auto: " + source + " gives index '" + index + "' of '" + count + "', not numbers");
  }
  if (s.count < 1 || s.index < 0 || s.index >= s.count)
    throw LoadError("--shard auto: " + source + " gives shard " + std::to_string(s.index) + " of " + std::to_string(s.count) +
                    ", outside 0.." + std::to_string(s.count - 1));
  return s;
}

// --shard auto: the first scheduler whose variables are set. A Kubernetes indexed Job (and a CI
// matrix without a parallelism variable of its own) gives no total: SONNX_SHARD_COUNT does.
Shard auto_shard() {
  const char* total = env("SONNX_SHARD_COUNT");
  if (env("SLURM_ARRAY_TASK_ID")) {
    const char* count = env("SLURM_ARRAY_TASK_COUNT");
    if (!count) throw LoadError("--shard auto: SLURM_ARRAY_TASK_ID is set but not SLURM_ARRAY_TASK_COUNT");
    // --array=MIN-MAX[:STEP]: the task IDs are MIN, MIN+STEP, ...
    auto number = [](const char* name, int absent) {
      if (!env(name)) return absent;
      try {
        return parse_count(env(name));
      } catch (const std::exception&) {
        throw LoadError(std::string("--shard auto: ") + name + " is '" + env(name) + "', not a number");
      }
    };
    int min = number("SLURM_ARRAY_TASK_MIN", 0), step = std::max(1, number("SLURM_ARRAY_TASK_STEP", 1));
    int offset = number("SLURM_ARRAY_TASK_ID", 0) - min;
    if (offset % step != 0) throw LoadError("--shard auto: SLURM_ARRAY_TASK_ID is not MIN + k·STEP");
    return shard_from("Slurm array (SLURM_ARRAY_TASK_ID)", std::to_string(offset / step), count, 0);
  }
  if (const char* id = env("JOB_COMPLETION_INDEX")) {
    if (!total)
      throw LoadError("--shard auto: a Kubernetes indexed Job (JOB_COMPLETION_INDEX) needs SONNX_SHARD_COUNT, its completions");
    return shard_from("Kubernetes indexed Job (JOB_COMPLETION_INDEX)", id, total, 0);
  }
  if (env("CI_NODE_INDEX") && env("CI_NODE_TOTAL"))  // GitLab CI `parallel`: 1-based
    return shard_from("GitLab CI parallel (CI_NODE_INDEX)", env("CI_NODE_INDEX"), env("CI_NODE_TOTAL"), 1);
  if (env("CIRCLE_NODE_INDEX") && env("CIRCLE_NODE_TOTAL"))
    return shard_from("CircleCI parallelism (CIRCLE_NODE_INDEX)", env("CIRCLE_NODE_INDEX"), env("CIRCLE_NODE_TOTAL"), 0);
  if (env("BUILDKITE_PARALLEL_JOB") && env("BUILDKITE_PARALLEL_JOB_COUNT"))
    return shard_from("Buildkite parallelism (BUILDKITE_PARALLEL_JOB)", env("BUILDKITE_PARALLEL_JOB"),
                      env("BUILDKITE_PARALLEL_JOB_COUNT"), 0);
  if (const char* id = env("SONNX_SHARD_INDEX")) {  // a CI matrix (GitHub Actions: set from the matrix)
    if (!total) throw LoadError("--shard auto: SONNX_SHARD_INDEX is set but not SONNX_SHARD_COUNT");
    return shard_from("SONNX_SHARD_INDEX", id, total, 0);
  }
  if (env("GTEST_SHARD_INDEX") && env("GTEST_TOTAL_SHARDS"))
    return shard_from("ctest (GTEST_SHARD_INDEX)", env("GTEST_SHARD_INDEX"), env("GTEST_TOTAL_SHARDS"), 0);
  throw LoadError("--shard auto: no scheduler's variables are set (SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX, CI_NODE_INDEX, "
                  "CIRCLE_NODE_INDEX, BUILDKITE_PARALLEL_JOB, SONNX_SHARD_INDEX or GTEST_SHARD_INDEX)");
}

}  // namespace

Shard parse_shard(const std::string& text) {
  if (text == "auto") return auto_shard();
  std::string spec = text;
  const char* index = std::getenv("GTEST_SHARD_INDEX");
  const char* total = std::getenv("GTEST_TOTAL_SHARDS");
  if (spec.empty() && index && total) spec = std::string(index) + "/" + total;
  if (spec.empty()) return {};
  Shard s;
  auto slash = spec.find('/');
  try {
    if (slash == std::string::npos) throw std::invalid_argument("no slash");
    s.index = parse_count(spec.substr(0, slash));
    s.count = parse_count(spec.substr(slash + 1));
  } catch (const std::exception&) {
    throw LoadError("--shard takes K/N, not '" + spec + "'");
  }
  if (s.count < 1 || s.index < 0 || s.index >= s.count) throw LoadError("--shard takes K/N with 0 <= K < N, not '" + spec + "'");
  return s;
}

std::vector<const TestCase*> select_tests(const std::vector<TestCase>& tests, const std::string& filter, const Shard& shard) {
  std::regex re;
  try {
    re = std::regex(filter.empty() ? ".*" : filter);
  } catch (const std::regex_error& e) {
    throw LoadError("--filter: bad regular expression '" + filter + "': " + e.what());
  }
  std::vector<const TestCase*> matching;
  for (const auto& t : tests)
    if (std::regex_search(t.name, re)) matching.push_back(&t);
  std::vector<const TestCase*> out;
  for (size_t i = 0; i < matching.size(); ++i)
    if (shard.takes(i)) out.push_back(matching[i]);
  return out;
}

}  // namespace sonnx
