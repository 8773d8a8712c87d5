#include "report.h"

#include <fstream>
#include <sstream>

#include "reference/model/errors.h"

namespace sonnx {

nlohmann::json report_json(const RunReport& r) {
  nlohmann::json tests = nlohmann::json::array();
  for (const auto& t : r.tests)
    tests.push_back({{"name", t.name},       {"status", t.status},   {"op_types", t.op_types},
                     {"accuracy", t.accuracy}, {"max_abs_error", t.max_abs}, {"max_rel_error", t.max_rel},
                     {"max_ulp_error", t.max_ulp}, {"time_ms", t.time_ms}, {"message", t.message},
                     {"kernels", t.kernels}});
  nlohmann::json ops = nlohmann::json::array();
  for (const auto& [op, c] : r.operators)
    ops.push_back({{"operator", op}, {"passed", c.passed}, {"loaded", c.loaded}, {"total", c.total}});
  return {{"executor", r.executor},
          {"summary",
           {{"total", r.summary.total},
            {"passed", r.summary.passed},
            {"failed", r.summary.failed},
            {"errored", r.summary.errored},
            {"skipped", r.summary.skipped}}},
          {"operators", ops},
          {"tests", tests}};
}

namespace {
std::string escape_md(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

}  // namespace

std::string escape_xml(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') out += ' ';
        else out += c;
    }
  }
  return out;
}

std::string report_markdown(const RunReport& r) {
  std::ostringstream md;
  const Summary& s = r.summary;
  md << "# Conformance report (executor: " << r.executor << ")\n\n"
     << "| total | passed | failed | errored | skipped |\n|---|---|---|---|---|\n"
     << "| " << s.total << " | " << s.passed << " | " << s.failed << " | " << s.errored << " | " << s.skipped << " |\n\n"
     << "## Operator versions\n\n| operator version | passed | loaded | total |\n|---|---|---|---|\n";
  for (const auto& [op, c] : r.operators) md << "| " << op << " | " << c.passed << " | " << c.loaded << " | " << c.total << " |\n";
  md << "\n## Tests not passed\n\n| test | status | message |\n|---|---|---|\n";
  for (const auto& t : r.tests)
    if (t.status != "passed") md << "| " << t.name << " | " << t.status << " | " << escape_md(t.message) << " |\n";
  return md.str();
}

std::string report_junit(const RunReport& r) {
  std::ostringstream x;
  double total_ms = 0;
  for (const auto& t : r.tests) total_ms += t.time_ms;
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    << "<testsuite name=\"sonnx-conform-" << escape_xml(r.executor) << "\" tests=\"" << r.summary.total << "\" failures=\""
    << r.summary.failed << "\" errors=\"" << r.summary.errored << "\" skipped=\"" << r.summary.skipped << "\" time=\""
    << total_ms / 1000 << "\">\n";
  for (const auto& t : r.tests) {
    x << "  <testcase classname=\"onnx\" name=\"" << escape_xml(t.name) << "\" time=\"" << t.time_ms / 1000 << "\"";
    if (t.status == "passed") {
      x << "/>\n";
      continue;
    }
    x << ">\n";
    if (t.status == "failed") x << "    <failure message=\"" << escape_xml(t.message) << "\"/>\n";
    else if (t.status == "skipped") x << "    <skipped message=\"" << escape_xml(t.message) << "\"/>\n";
    else x << "    <error type=\"" << t.status << "\" message=\"" << escape_xml(t.message) << "\"/>\n";
    x << "  </testcase>\n";
  }
  x << "</testsuite>\n";
  return x.str();
}

void write_report(const RunReport& r, const std::filesystem::path& file) {
  std::string ext = file.extension().string();
  std::string text;
  if (ext == ".json") text = report_json(r).dump(2) + "\n";
  else if (ext == ".md") text = report_markdown(r);
  else if (ext == ".xml") text = report_junit(r);
  else throw LoadError("report '" + file.string() + "': unknown format (use .json, .md or .xml)");
  std::ofstream out(file);
  out << text;
  if (!out) throw LoadError("cannot write report '" + file.string() + "'");
}

}  // namespace sonnx
