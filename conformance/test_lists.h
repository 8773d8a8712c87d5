// Test lists: which conformance tests are skipped and which compare with other tolerances, as
// data files with a reason on every line (docs/design.md §2.9). (Validator rules are reference/check.)
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

struct SkipEntry {
  std::string pattern;
  std::regex re;
  std::string reason;
};
struct ToleranceEntry {
  std::string pattern;
  std::regex re;
  Tolerance tol;
  std::string reason;
};

std::vector<SkipEntry> read_skips(const std::filesystem::path& file);
std::vector<ToleranceEntry> read_tolerances(const std::filesystem::path& file);
const SkipEntry* find_skip(const std::vector<SkipEntry>& entries, const std::string& test);
const ToleranceEntry* find_tolerance(const std::vector<ToleranceEntry>& entries, const std::string& test);

}  // namespace sonnx
