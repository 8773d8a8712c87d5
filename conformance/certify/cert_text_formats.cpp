// Markdown (the committed certificates in docs/certificates) and JUnit XML (CI systems) renderings.
#include <sstream>

#include "cert_report.h"
#include "conformance/report.h"

namespace sonnx {

namespace {

std::string md_cell(std::string s) {
  for (auto& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  if (out.size() > 300) out = out.substr(0, 300) + "...";
  return out;
}

}  // namespace

std::string cert_report_markdown(const CertReport& r) {
  std::ostringstream os;
  auto s = [&](const char* k) { return r.summary.count(k) ? r.summary.at(k) : 0; };
  os << "# Certificate: " << md_cell(r.backend) << "\n\n";
  os << "**Verdict: " << r.verdict << "**";
  if (!r.backend_version.empty()) os << " — backend version: " << md_cell(r.backend_version);
  os << "\n\nCompared with the sonnx reference interpreter under the strict tolerances (float32 abs 1e-6 / rel 1e-5 / "
        "2 ULP, float64 1e-12, exact operators bitwise, random operators statistically).";
  if (!r.suites.empty()) {
    os << " Suites:";
    for (const auto& d : r.suites) os << " `" << md_cell(d) << "`";
  }
  os << "\n\n| tests | passed | failed | unsupported | crashed | timeout | errored | skipped | with fallback |\n"
        "|---|---|---|---|---|---|---|---|---|\n";
  os << "| " << s("total") << " | " << s("passed") << " | " << s("failed") << " | " << s("unsupported") << " | " << s("crashed")
     << " | " << s("timeout") << " | " << s("errored") << " | " << s("skipped") << " | " << s("fallback") << " |\n\n";
  os << "Operators: " << s("operators_certified") << " certified, " << s("operators_failed") << " failed, "
     << s("operators_unsupported") << " unsupported, " << s("operators_untested") << " untested.\n\n";

  os << "## Operators\n\n| operator | verdict | tests | passed | failed | on the backend |\n|---|---|---|---|---|---|\n";
  for (const auto& o : r.operators)
    os << "| " << md_cell(o.op_type) << " | " << o.verdict << " | " << o.tests << " | " << o.passed << " | " << o.failed << " | "
       << o.native << " |\n";

  bool any = false;
  for (const auto& t : r.tests) {
    if (t.status == "passed" || t.status == "skipped") continue;
    if (!any) os << "\n## Tests that did not pass\n\n| test | status | message | repro |\n|---|---|---|---|\n";
    any = true;
    os << "| " << md_cell(t.name) << " | " << t.status << " | " << md_cell(t.message) << " | `" << md_cell(t.repro) << "` |\n";
  }
  any = false;
  for (const auto& t : r.tests) {
    if (t.unsupported_ops.empty() && t.fallback_notes.empty()) continue;
    if (!any) os << "\n## Fallback to cpu\n\n| test | status | unsupported operators | fallback events |\n|---|---|---|---|\n";
    any = true;
    std::string ops, notes;
    for (const auto& o : t.unsupported_ops) ops += (ops.empty() ? "" : ", ") + o;
    for (const auto& n : t.fallback_notes) notes += (notes.empty() ? "" : "; ") + n;
    os << "| " << md_cell(t.name) << " | " << t.status << " | " << md_cell(ops) << " | " << md_cell(notes) << " |\n";
  }
  any = false;
  for (const auto& t : r.tests) {
    if (t.status != "skipped") continue;
    if (!any) os << "\n## Skipped (the reference cannot run them)\n\n| test | reason |\n|---|---|\n";
    any = true;
    os << "| " << md_cell(t.name) << " | " << md_cell(t.message) << " |\n";
  }
  return os.str();
}

std::string cert_report_junit(const CertReport& r) {
  std::ostringstream os;
  auto s = [&](const char* k) { return r.summary.count(k) ? r.summary.at(k) : 0; };
  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  os << "<testsuites name=\"sonnx certify\">\n";
  os << "  <testsuite name=\"certify " << escape_xml(r.backend) << "\" tests=\"" << s("total") << "\" failures=\"" << s("failed")
     << "\" errors=\"" << (s("crashed") + s("timeout") + s("errored")) << "\" skipped=\"" << (s("skipped") + s("unsupported"))
     << "\">\n";
  for (const auto& t : r.tests) {
    os << "    <testcase classname=\"certify." << escape_xml(r.backend) << "\" name=\"" << escape_xml(t.name) << "\" time=\""
       << t.time_ms / 1000 << "\">";
    std::string body = escape_xml(t.message + (t.repro.empty() ? "" : "\nrepro: " + t.repro));
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
