#include "report.h"

#include <fstream>
#include <sstream>

#include "sonnx/errors.h"

namespace sonnx {

nlohmann::json test_json(const TestResult& t) {
  nlohmann::json j = {{"name", t.name},
                      {"status", t.status},
                      {"op_types", t.op_types},
                      {"accuracy", t.accuracy},
                      {"max_abs_error", t.max_abs},
                      {"max_rel_error", t.max_rel},
                      {"max_ulp_error", t.max_ulp},
                      {"time_ms", t.time_ms},
                      {"message", t.message},
                      {"loaded", t.loaded},
                      {"kernels", t.kernels},
                      {"judge", t.judge}};
  if (!t.judge_note.empty()) j["judge_note"] = t.judge_note;
  if (t.judge == "enclosure") {
    j["enclosure"] = enclosure_json(t.enclosure);
    j["expected_ulps_outside"] = number_or_null(t.expected_ulps_outside);
  }
  return j;
}

TestResult test_from_json(const nlohmann::json& j) {
  TestResult r;
  r.name = j.at("name");
  r.status = j.at("status");
  r.op_types = j.at("op_types").get<std::vector<std::string>>();
  r.accuracy = j.at("accuracy");
  r.max_abs = j.at("max_abs_error");
  r.max_rel = j.at("max_rel_error");
  r.max_ulp = j.at("max_ulp_error");
  r.time_ms = j.at("time_ms");
  r.message = j.at("message");
  r.loaded = j.at("loaded");
  r.kernels = j.at("kernels").get<std::map<std::string, int>>();
  r.judge = j.at("judge");
  r.judge_note = j.value("judge_note", "");
  if (j.contains("enclosure")) r.enclosure = enclosure_from_json(j.at("enclosure"));
  if (j.contains("expected_ulps_outside")) r.expected_ulps_outside = number_or_inf(j.at("expected_ulps_outside"));
  return r;
}

nlohmann::json report_json(const RunReport& r) {
  nlohmann::json tests = nlohmann::json::array();
  for (const auto& t : r.tests) tests.push_back(test_json(t));
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

// The tests judged by enclosure: how wide their enclosures are (the widest output of each test, in
// ulps of its type) and which outputs lay outside.
std::string enclosure_markdown(const RunReport& r) {
  const double limits[] = {1, 2, 4, 16, 1024};
  const size_t bins = std::size(limits) + 1;
  auto bin = [&](double w) {
    size_t k = 0;
    while (k < std::size(limits) && w > limits[k]) ++k;
    return k;
  };
  std::vector<int> admissible(bins, 0), real(bins, 0);
  std::ostringstream outside;
  int enclosed = 0, suite_outside = 0, undefined = 0;
  for (const auto& t : r.tests) {
    if (t.judge != "enclosure") continue;
    ++enclosed;
    suite_outside += t.expected_ulps_outside > 0;
    double widest = 0, widest_real = 0;
    bool any_undefined = false;
    for (const auto& e : t.enclosure) {
      any_undefined = any_undefined || e.undefined > 0;
      widest = std::max(widest, e.width_ulps);
      widest_real = std::max(widest_real, e.real_width_ulps);
      if (e.outside)
        outside << "| " << t.name << " | " << e.output << " | " << e.outside << " | " << e.ulps_outside << " | " << e.width_ulps
                << " |\n";
    }
    undefined += any_undefined;
    ++admissible[bin(widest)];
    ++real[bin(widest_real)];
  }
  if (enclosed == 0) return "";
  std::ostringstream md;
  md << "\n## Judged by enclosure\n\n"
     << enclosed << " tests judged against their admissible enclosures; the suite's own expected "
     << "output lies outside in " << suite_outside << ". Each test counts once, by its widest output element; " << undefined
     << " tests have elements without a real value (a NaN input, ∞ − ∞), which have no width and admit anything.\n\n"
     << "| widest enclosure (ulps of the output's type) | admissible | real |\n|---|---|---|\n";
  for (size_t k = 0; k < bins; ++k)
    md << "| " << (k < std::size(limits) ? "≤ " + std::to_string(static_cast<int>(limits[k])) : "> 1024 or unbounded") << " | "
       << admissible[k] << " | " << real[k] << " |\n";
  std::string rows = outside.str();
  if (!rows.empty())
    md << "\n| test | output | elements outside | ulps outside | width (ulps) |\n|---|---|---|---|---|\n" << rows;
  return md.str();
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
  for (const auto& [op, c] : r.operators)
    md << "| " << op << " | " << c.passed << " | " << c.loaded << " | " << c.total << " |\n";
  md << enclosure_markdown(r);
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
