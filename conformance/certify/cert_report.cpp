#include "cert_report.h"

#include <algorithm>
#include <fstream>
#include <set>

#include "sonnx/errors.h"

namespace sonnx {

bool CertTest::ran_on_backend(const std::string& op) const {
  return std::find(unsupported_ops.begin(), unsupported_ops.end(), op) == unsupported_ops.end() &&
         std::find(fallback_ops.begin(), fallback_ops.end(), op) == fallback_ops.end();
}

bool is_failure_status(const std::string& s) { return s == "failed" || s == "crashed" || s == "timeout" || s == "errored"; }

void aggregate(CertReport& r) {
  std::map<std::string, CertTest> by_name;
  for (auto& t : r.tests) by_name[t.name] = std::move(t);  // a later result for a name wins
  r.tests.clear();
  for (auto& [n, t] : by_name) r.tests.push_back(std::move(t));

  r.summary.clear();
  for (const char* k : {"total", "passed", "failed", "unsupported", "crashed", "timeout", "errored", "skipped", "fallback"})
    r.summary[k] = 0;
  std::map<std::string, CertOperator> ops;
  for (const auto& t : r.tests) {
    ++r.summary["total"];
    ++r.summary[t.status];
    if (!t.unsupported_ops.empty() || !t.fallback_ops.empty()) ++r.summary["fallback"];
    bool ran = t.status != "skipped";
    bool any_native = false;
    for (const auto& op : t.op_types) any_native = any_native || t.ran_on_backend(op);
    for (const auto& op : t.op_types) {
      auto& o = ops[op];
      o.op_type = op;
      if (!ran) continue;
      ++o.tests;
      bool native = t.status != "unsupported" && t.ran_on_backend(op);
      if (native) ++o.native;
      if (t.status == "passed") ++o.passed;
      if (is_failure_status(t.status) && (native || !any_native)) ++o.failed;
    }
  }
  r.operators.clear();
  for (const char* k : {"operators_certified", "operators_failed", "operators_unsupported", "operators_untested"})
    r.summary[k] = 0;
  for (auto& [name, o] : ops) {
    if (o.failed > 0) o.verdict = "failed";
    else if (o.native > 0 && o.passed > 0) o.verdict = "certified";
    else if (o.tests > 0) o.verdict = "unsupported";
    else o.verdict = "untested";
    ++r.summary["operators_" + o.verdict];
    r.operators.push_back(o);
  }
  int bad = r.summary["failed"] + r.summary["crashed"] + r.summary["timeout"] + r.summary["errored"];
  r.verdict = bad == 0 && r.summary["operators_certified"] > 0 ? "certified" : "failed";
}

nlohmann::json cert_test_json(const CertTest& t) {
  nlohmann::json j = {{"name", t.name},
                      {"status", t.status},
                      {"op_types", t.op_types},
                      {"unsupported_ops", t.unsupported_ops},
                      {"fallback_ops", t.fallback_ops},
                      {"fallback", t.fallback_notes},
                      {"accuracy", t.accuracy},
                      {"max_abs_error", t.max_abs},
                      {"max_rel_error", t.max_rel},
                      {"max_ulp_error", t.max_ulp},
                      {"time_ms", t.time_ms},
                      {"message", t.message},
                      {"dir", t.dir},
                      {"repro", t.repro},
                      {"judge", t.judge}};
  if (!t.judge_note.empty()) j["judge_note"] = t.judge_note;
  if (t.judge == "enclosure") j["enclosure"] = enclosure_json(t.enclosure);
  if (!t.localized.empty()) j["localized"] = t.localized;
  return j;
}

CertTest cert_test_from_json(const nlohmann::json& j) {
  CertTest t;
  t.name = j.at("name");
  t.status = j.at("status");
  auto strings = [&](const char* k) {
    return j.contains(k) ? j.at(k).get<std::vector<std::string>>() : std::vector<std::string>{};
  };
  auto text = [&](const char* k) { return j.contains(k) ? j.at(k).get<std::string>() : std::string(); };
  auto number = [&](const char* k) { return j.contains(k) ? j.at(k).get<double>() : 0.0; };
  t.op_types = strings("op_types");
  t.unsupported_ops = strings("unsupported_ops");
  t.fallback_ops = strings("fallback_ops");
  t.fallback_notes = strings("fallback");
  t.accuracy = text("accuracy");
  t.max_abs = number("max_abs_error");
  t.max_rel = number("max_rel_error");
  t.max_ulp = number("max_ulp_error");
  t.time_ms = number("time_ms");
  t.message = text("message");
  t.dir = text("dir");
  t.repro = text("repro");
  if (j.contains("judge")) t.judge = j.at("judge");
  t.judge_note = text("judge_note");
  if (j.contains("enclosure")) t.enclosure = enclosure_from_json(j.at("enclosure"));
  t.localized = text("localized");
  return t;
}

nlohmann::json cert_report_json(const CertReport& r) {
  nlohmann::json ops = nlohmann::json::array();
  for (const auto& o : r.operators)
    ops.push_back({{"op_type", o.op_type},
                   {"verdict", o.verdict},
                   {"tests", o.tests},
                   {"passed", o.passed},
                   {"failed", o.failed},
                   {"native", o.native}});
  nlohmann::json tests = nlohmann::json::array();
  for (const auto& t : r.tests) tests.push_back(cert_test_json(t));
  return {{"backend", r.backend}, {"backend_version", r.backend_version},
          {"suites", r.suites},   {"verdict", r.verdict},
          {"summary", r.summary}, {"operators", ops},
          {"tests", tests}};
}

CertReport cert_report_from_json(const nlohmann::json& j) {
  CertReport r;
  r.backend = j.at("backend");
  if (j.contains("backend_version")) r.backend_version = j.at("backend_version");
  if (j.contains("suites")) r.suites = j.at("suites").get<std::vector<std::string>>();
  for (const auto& t : j.at("tests")) r.tests.push_back(cert_test_from_json(t));
  aggregate(r);
  return r;
}

void write_cert_report(const CertReport& r, const std::filesystem::path& file) {
  std::string ext = file.extension().string();
  std::string text;
  if (ext == ".json") text = cert_report_json(r).dump(2) + "\n";
  else if (ext == ".md") text = cert_report_markdown(r);
  else if (ext == ".xml") text = cert_report_junit(r);
  else if (ext == ".html") text = cert_report_html(r);
  else throw LoadError("report '" + file.string() + "': use .json, .md, .xml or .html");
  std::ofstream out(file, std::ios::binary);
  if (!out) throw LoadError("cannot write report '" + file.string() + "'");
  out << text;
}

}  // namespace sonnx
