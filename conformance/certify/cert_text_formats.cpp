// Markdown (the committed certificates in docs/certificates) and JUnit XML (CI systems) renderings,
// and the lines of a failure's explanation that every format renders.
#include <cmath>
#include <cstdio>
#include <sstream>

#include "cert_report.h"
#include "conformance/report.h"

namespace sonnx {

namespace {

std::string md_cell(std::string s, size_t limit = 300) {
  for (auto& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  if (out.size() > limit) out = out.substr(0, limit) + "...";
  return out;
}

std::string joined(const std::vector<std::string>& v, const char* sep) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}

int count(const CertReport& r, const char* k) { return r.summary.count(k) ? r.summary.at(k) : 0; }

void markdown_counts(const CertReport& r, std::ostringstream& os) {
  auto s = [&](const char* k) { return count(r, k); };
  os << "| tests | passed | failed | unsupported | crashed | timeout | errored | skipped | with fallback |\n"
        "|---|---|---|---|---|---|---|---|---|\n";
  os << "| " << s("total") << " | " << s("passed") << " | " << s("failed") << " | " << s("unsupported") << " | " << s("crashed")
     << " | " << s("timeout") << " | " << s("errored") << " | " << s("skipped") << " | " << s("fallback") << " |\n\n";
  os << "Operators: " << s("operators_certified") << " certified, " << s("operators_failed") << " failed, "
     << s("operators_inconclusive") << " inconclusive, " << s("operators_unsupported") << " unsupported, "
     << s("operators_untested") << " untested. An operator is failed only by a test localized to it (its first node "
     << "leaving its enclosure) or whose model has no other operator; " << s("unattributed")
     << " failing tests blame no operator (see their blame below).\n\n";
}

// Under the enclosure judge: the tests judged by the strict tolerances instead, by reason.
void markdown_fallbacks(const CertReport& r, std::ostringstream& os) {
  JudgeSummary js = judge_summary(r);
  if (js.fallback.empty()) return;
  os << "\n## Judged by the strict tolerances instead of an enclosure\n\n| reason | tests | which |\n|---|---|---|\n";
  for (const auto& f : js.fallback)
    os << "| " << md_cell(f.reason) << " | " << f.tests.size() << " | " << md_cell(joined(f.tests, ", "), 100000) << " |\n";
}

void markdown_failures(const CertReport& r, std::ostringstream& os) {
  bool any = false;
  for (const auto& t : r.tests) {
    if (t.status == "passed" || t.status == "skipped") continue;
    if (!any) os << "\n## Tests that did not pass\n\n| test | status | blame | message | repro |\n|---|---|---|---|---|\n";
    any = true;
    std::string blame = t.blame.empty() ? "none (" + t.status + ")" : t.blame;
    os << "| " << md_cell(t.name) << " | " << t.status << " | " << md_cell(blame) << " | " << md_cell(t.message) << " | `"
       << md_cell(t.repro) << "` |\n";
  }
}

// A failure's text inside a Markdown list item: one line.
std::string md_line(std::string s) {
  for (auto& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

void markdown_explanations(const CertReport& r, std::ostringstream& os) {
  bool any = false;
  for (const auto& t : r.tests) {
    if (!t.failure) continue;
    if (!any)
      os << "\n## Failures\n\nEvery failed test explained: the node, its inputs, the first wrong element, and a repro "
            "directory to attach to a bug report (docs/certify-failures.md).\n";
    any = true;
    os << "\n### " << md_line(t.name) << "\n\n";
    for (const auto& [label, text] : cert_failure_lines(*t.failure)) {
      bool code = label == "rerun" || label == "repro directory";
      os << "- **" << label << "**: " << (code ? "`" : "") << md_line(text) << (code ? "`" : "") << "\n";
    }
  }
}

void markdown_cpu_fallback(const CertReport& r, std::ostringstream& os) {
  bool any = false;
  for (const auto& t : r.tests) {
    if (t.unsupported_ops.empty() && t.fallback_notes.empty()) continue;
    if (!any) os << "\n## Fallback to cpu\n\n| test | status | unsupported operators | fallback events |\n|---|---|---|---|\n";
    any = true;
    os << "| " << md_cell(t.name) << " | " << t.status << " | " << md_cell(joined(t.unsupported_ops, ", ")) << " | "
       << md_cell(joined(t.fallback_notes, "; ")) << " |\n";
  }
}

void markdown_skipped(const CertReport& r, std::ostringstream& os) {
  bool any = false;
  for (const auto& t : r.tests) {
    if (t.status != "skipped") continue;
    if (!any) os << "\n## Skipped (the reference cannot run them)\n\n| test | reason |\n|---|---|\n";
    any = true;
    os << "| " << md_cell(t.name) << " | " << md_cell(t.message) << " |\n";
  }
}

void junit_properties(const CertReport& r, std::ostringstream& os) {
  JudgeSummary js = judge_summary(r);
  auto property = [&](const std::string& name, const std::string& value) {
    os << "      <property name=\"" << escape_xml(name) << "\" value=\"" << escape_xml(value) << "\"/>\n";
  };
  os << "    <properties>\n";
  property("judge", js.judge);
  property("judge_statement", judge_statement(r));
  property("compared", std::to_string(js.compared));
  property("judged_by_enclosure", std::to_string(js.by_enclosure));
  property("judged_by_tolerance", std::to_string(js.by_tolerance));
  for (const auto& f : js.fallback)
    property("fallback_reason", std::to_string(f.tests.size()) + (f.tests.size() == 1 ? " test: " : " tests: ") + f.reason);
  property("unattributed_failures", std::to_string(count(r, "unattributed")));
  os << "    </properties>\n";
}

std::string figure_text(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", x);
  return buf;
}

std::string range_text(const CertInputRange& in) {
  if (in.type == "sequence" || in.type == "optional" || in.type == "none") return in.type;
  std::string s = in.type + " " + shape_str(in.shape);
  if (!in.min.empty()) s += " in [" + in.min + ", " + in.max + "]";
  std::vector<std::string> special;
  if (in.nan) special.push_back(std::to_string(in.nan) + " NaN");
  if (in.pos_inf) special.push_back(std::to_string(in.pos_inf) + " +inf");
  if (in.neg_inf) special.push_back(std::to_string(in.neg_inf) + " -inf");
  if (!special.empty()) s += "; " + joined(special, ", ");
  return s;
}

std::string node_text(const CertFailure& f) {
  if (f.node.empty()) return "none named (the whole model)" + (f.not_localized.empty() ? "" : "; " + f.not_localized);
  std::string s = f.node;
  if (!f.op_version.empty()) s += ", " + f.op_version;
  s += f.attributes.empty() ? ", no attributes" : ", " + f.attributes;
  if (f.localized) return s + "; the first node whose output leaves its enclosure, run alone on the values the backend gave it";
  return s + "; the model's only node" + (f.not_localized.empty() ? "" : "; " + f.not_localized);
}

std::string output_text(const CertFailure& f) {
  std::string s = f.output;
  std::string of = std::to_string(f.wrong) + " wrong of " + std::to_string(f.elements);
  if (f.index >= 0) s += ": element " + shape_str(f.multi_index) + " (flat " + std::to_string(f.index) + "), the first of " + of;
  else if (f.wrong > 0) s += ": " + of;
  if (f.judged_by == "enclosure") s += ", judged by its admissible enclosure";
  if (f.judged_by == "tolerance") s += ", judged by the strict tolerances";
  return s;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> cert_failure_lines(const CertFailure& f) {
  std::vector<std::pair<std::string, std::string>> out{{"node", node_text(f)}};
  if (!f.data_set.empty()) out.emplace_back("data set", f.data_set);
  for (const auto& in : f.inputs) out.emplace_back("input " + in.name, range_text(in));
  if (!f.output.empty()) out.emplace_back("output", output_text(f));
  if (!f.lo.empty()) out.emplace_back("enclosure", "[" + f.lo + ", " + f.hi + "]");
  if (!f.reference.empty()) out.emplace_back("reference", f.reference);
  if (!f.runtime.empty()) out.emplace_back("runtime", f.runtime);
  if (!std::isnan(f.ulps_outside)) out.emplace_back("ulps outside", figure_text(f.ulps_outside));
  if (!std::isnan(f.ulp_error)) out.emplace_back("ulp error", figure_text(f.ulp_error) + " (from the reference)");
  if (!f.tolerance.empty()) out.emplace_back("tolerance", f.tolerance);
  if (!f.note.empty()) out.emplace_back("note", f.note);
  if (!f.repro_dir.empty()) out.emplace_back("repro directory", f.repro_dir);
  if (!f.rerun.empty()) out.emplace_back("rerun", f.rerun);
  return out;
}

std::string cert_failure_text(const CertFailure& f, const std::string& indent) {
  std::string s;
  for (const auto& [label, text] : cert_failure_lines(f)) s += indent + label + ": " + text + "\n";
  return s;
}

std::string cert_report_markdown(const CertReport& r) {
  std::ostringstream os;
  os << "# Certificate: " << md_cell(r.backend) << "\n\n";
  os << "**Verdict: " << r.verdict << "**";
  if (!r.backend_version.empty()) os << " — backend version: " << md_cell(r.backend_version);
  os << "\n\n" << judge_statement(r);
  if (!r.suites.empty()) {
    os << " Suites:";
    for (const auto& d : r.suites) os << " `" << md_cell(d) << "`";
  }
  os << "\n\n";
  markdown_counts(r, os);
  os << "## Operators\n\n| operator | verdict | tests | passed | failed | on the backend |\n|---|---|---|---|---|---|\n";
  for (const auto& o : r.operators)
    os << "| " << md_cell(o.op_type) << " | " << o.verdict << " | " << o.tests << " | " << o.passed << " | " << o.failed << " | "
       << o.native << " |\n";
  markdown_failures(r, os);
  markdown_explanations(r, os);
  markdown_fallbacks(r, os);
  markdown_cpu_fallback(r, os);
  markdown_skipped(r, os);
  return os.str();
}

std::string cert_report_junit(const CertReport& r) {
  std::ostringstream os;
  auto s = [&](const char* k) { return count(r, k); };
  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  os << "<testsuites name=\"sonnx certify\">\n";
  os << "  <testsuite name=\"certify " << escape_xml(r.backend) << "\" tests=\"" << s("total") << "\" failures=\"" << s("failed")
     << "\" errors=\"" << (s("crashed") + s("timeout") + s("errored")) << "\" skipped=\"" << (s("skipped") + s("unsupported"))
     << "\">\n";
  junit_properties(r, os);
  for (const auto& t : r.tests) {
    os << "    <testcase classname=\"certify." << escape_xml(r.backend) << "\" name=\"" << escape_xml(t.name) << "\" time=\""
       << t.time_ms / 1000 << "\">";
    std::string judged = judged_under(t).empty()  ? ""
                         : t.judge == "enclosure" ? "\njudged by: the admissible enclosure"
                         : t.judge == "bitwise"   ? "\njudged by: the reference's bits"
                                                  : "\njudged by: the strict tolerances" +
                                                      (t.judge_note.empty() ? "" : " (no enclosure: " + t.judge_note + ")");
    std::string body = escape_xml(t.message + judged + (t.blame.empty() ? "" : "\nblame: " + t.blame) +
                                  (t.repro.empty() ? "" : "\nrepro: " + t.repro) +
                                  (t.failure ? "\n" + cert_failure_text(*t.failure) : ""));
    if (t.status == "failed") os << "<failure message=\"" << escape_xml(t.message) << "\">" << body << "</failure>";
    else if (is_failure_status(t.status))
      os << "<error type=\"" << t.status << "\" message=\"" << escape_xml(t.message) << "\">" << body << "</error>";
    else if (t.status == "skipped" || t.status == "unsupported")
      os << "<skipped message=\"" << t.status << ": " << escape_xml(t.message) << "\"/>";
    os << "</testcase>\n";
  }
  os << "  </testsuite>\n</testsuites>\n";
  return os.str();
}

}  // namespace sonnx
