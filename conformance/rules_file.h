// Skip lists and tolerance overrides are data files with a reason on every line (DESIGN.md §2.9):
//   skips.txt:       <test-name regex>  <reason ...>
//   tolerances.txt:  <test-name regex>  rtol=<x> atol=<y>  <reason ...>
// Blank lines and lines starting with '#' are ignored; a line without a reason is an error.
#pragma once
#include <filesystem>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "compare.h"

namespace sonnx {

struct SkipRule {
  std::string pattern;
  std::regex re;
  std::string reason;
};
struct ToleranceRule {
  std::string pattern;
  std::regex re;
  Tolerance tol;
  std::string reason;
};

std::vector<SkipRule> read_skips(const std::filesystem::path& file);
std::vector<ToleranceRule> read_tolerances(const std::filesystem::path& file);
const SkipRule* find_skip(const std::vector<SkipRule>& rules, const std::string& test);
const ToleranceRule* find_tolerance(const std::vector<ToleranceRule>& rules, const std::string& test);

}  // namespace sonnx
