#include "test_lists.h"

#include <fstream>
#include <sstream>

#include "sonnx/errors.h"

namespace sonnx {

namespace {
// Calls f(line_number, words) for each meaningful line.
template <class F>
void read_lines(const std::filesystem::path& file, F f) {
  std::ifstream in(file);
  if (!in) throw LoadError("cannot read '" + file.string() + "'");
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    std::istringstream ss(line);
    std::vector<std::string> words;
    for (std::string w; ss >> w;) words.push_back(w);
    if (words.empty() || words[0][0] == '#') continue;
    f(n, words);
  }
}

std::string join_from(const std::vector<std::string>& w, size_t i) {
  std::string s;
  for (; i < w.size(); ++i) s += (s.empty() ? "" : " ") + w[i];
  return s;
}

std::regex compile(const std::string& pattern, const std::filesystem::path& file, int line) {
  try {
    return std::regex(pattern);
  } catch (const std::regex_error&) {
    throw LoadError(file.string() + ":" + std::to_string(line) + ": bad regular expression '" + pattern + "'");
  }
}
}  // namespace

std::vector<SkipEntry> read_skips(const std::filesystem::path& file) {
  std::vector<SkipEntry> out;
  read_lines(file, [&](int line, const std::vector<std::string>& w) {
    if (w.size() < 2) throw LoadError(file.string() + ":" + std::to_string(line) + ": a skip needs a reason");
    out.push_back({w[0], compile(w[0], file, line), join_from(w, 1)});
  });
  return out;
}

std::vector<ToleranceEntry> read_tolerances(const std::filesystem::path& file) {
  std::vector<ToleranceEntry> out;
  read_lines(file, [&](int line, const std::vector<std::string>& w) {
    ToleranceEntry r{w[0], compile(w[0], file, line), {}, ""};
    size_t i = 1;
    for (; i < w.size(); ++i) {
      try {
        if (w[i].rfind("rtol=", 0) == 0) r.tol.rtol = std::stod(w[i].substr(5));
        else if (w[i].rfind("atol=", 0) == 0) r.tol.atol = std::stod(w[i].substr(5));
        else break;
      } catch (const std::exception&) {
        throw LoadError(file.string() + ":" + std::to_string(line) + ": bad number in '" + w[i] + "'");
      }
    }
    r.reason = join_from(w, i);
    if (r.reason.empty()) throw LoadError(file.string() + ":" + std::to_string(line) + ": a tolerance needs a reason");
    out.push_back(std::move(r));
  });
  return out;
}

const SkipEntry* find_skip(const std::vector<SkipEntry>& entries, const std::string& test) {
  for (const auto& r : entries)
    if (std::regex_match(test, r.re)) return &r;
  return nullptr;
}

const ToleranceEntry* find_tolerance(const std::vector<ToleranceEntry>& entries, const std::string& test) {
  for (const auto& r : entries)
    if (std::regex_match(test, r.re)) return &r;
  return nullptr;
}

}  // namespace sonnx
