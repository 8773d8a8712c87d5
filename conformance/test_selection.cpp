#include "test_selection.h"

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

}  // namespace

Shard parse_shard(const std::string& text) {
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
