// How a certificate says it judged (cert_report.h): the judge, how many tests it judged, and under
// the enclosure judge the tests that fell back to the strict tolerances, grouped by reason.
#include <algorithm>
#include <sstream>

#include "cert_report.h"

namespace sonnx {

const char* const kStrictTolerances =
    "float32 abs 1e-6 / rel 1e-5 / 2 ULP, float64 1e-12 / 2 ULP, float16 and bfloat16 1e-3 / 2 ULP, exact operators bitwise, "
    "random operators statistically";

namespace {

std::vector<FallbackReason> by_frequency(const std::map<std::string, std::vector<std::string>>& groups) {
  std::vector<FallbackReason> out;
  for (const auto& [reason, tests] : groups) out.push_back({reason, tests});
  std::stable_sort(out.begin(), out.end(),
                   [](const FallbackReason& a, const FallbackReason& b) { return a.tests.size() > b.tests.size(); });
  return out;
}

std::string tests_word(int n) { return std::to_string(n) + (n == 1 ? " test" : " tests"); }

std::string tolerance_statement(const JudgeSummary& s) {
  return "Judge: the strict tolerances. The outputs of the " + tests_word(s.compared) +
         " compared were judged against the sonnx reference interpreter's outputs under the strict tolerances (" +
         kStrictTolerances + ").";
}

std::string enclosure_statement(const JudgeSummary& s) {
  std::string text = "Judge: the admissible enclosure (spec/accuracy.md). Of the " + tests_word(s.compared) + " compared, " +
                     std::to_string(s.by_enclosure) +
                     " were judged by the reference's admissible enclosure: every float output element must lie in the "
                     "interval that holds every result an implementation meeting each operator's accuracy allowance may "
                     "produce, and every integer or boolean output must equal the value the enclosure determines.";
  if (s.by_tolerance == 0) return text + " None fell back to a tolerance.";
  return text + " " + std::to_string(s.by_tolerance) + " fell back to the strict tolerances against the reference " +
         "interpreter's outputs (" + kStrictTolerances + ") because their model has no enclosure, for " +
         std::to_string(s.fallback.size()) + (s.fallback.size() == 1 ? " reason." : " distinct reasons.");
}

std::string bitwise_statement(const JudgeSummary& s) {
  return "Judge: the reference's bits. Every output of the " + tests_word(s.compared) +
         " compared had to equal the sonnx reference interpreter's output bit for bit (NaN equals NaN).";
}

}  // namespace

JudgeSummary judge_summary(const CertReport& r) {
  JudgeSummary s;
  s.judge = r.judge;
  std::map<std::string, std::vector<std::string>> groups;
  for (const auto& t : r.tests) {
    if (judged_under(t).empty()) continue;  // outputs not compared
    ++s.compared;
    if (t.judge == "enclosure") {
      ++s.by_enclosure;
      continue;
    }
    ++s.by_tolerance;
    if (r.judge == "enclosure") groups[t.judge_note.empty() ? "no reason recorded" : t.judge_note].push_back(t.name);
  }
  s.fallback = by_frequency(groups);
  return s;
}

std::string judge_statement(const CertReport& r) {
  JudgeSummary s = judge_summary(r);
  if (s.judge == "bitwise") return bitwise_statement(s);
  return s.judge == "enclosure" ? enclosure_statement(s) : tolerance_statement(s);
}

std::string judge_text(const CertReport& r) {
  std::ostringstream os;
  os << judge_statement(r) << "\n";
  for (const auto& f : judge_summary(r).fallback) os << "  " << f.tests.size() << "  " << f.reason << "\n";
  return os.str();
}

}  // namespace sonnx
