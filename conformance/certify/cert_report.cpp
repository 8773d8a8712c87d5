#include "cert_report.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>

#include "sonnx/errors.h"

namespace sonnx {

namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

std::string listed(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// Why a failing test that is not localized to an operator has no localization.
std::string not_localized_reason(const CertTest& t) {
  if (t.localized.rfind("not localized", 0) == 0) return t.localized;
  if (t.status != "failed")
    return "not localized: the test " + t.status + " (only a wrong output is localized), and its model has " +
           std::to_string(t.op_types.size()) + " operator types (" + listed(t.op_types) + ")";
  return "not localized: no node-by-node run, and its model has " + std::to_string(t.op_types.size()) + " operator types (" +
         listed(t.op_types) + ")";
}

// The blame rule (cert_report.h): the localized operator, else the only operator, if it ran on the backend.
void assign_blame(CertTest& t) {
  t.blamed_op.clear();
  t.blame.clear();
  if (!is_failure_status(t.status)) return;
  std::string candidate, how;
  if (!t.localized_op.empty() && contains(t.op_types, t.localized_op)) {
    candidate = t.localized_op;
    how = "the first node whose output leaves its enclosure";
  } else if (t.op_types.size() == 1) {
    candidate = t.op_types.front();
    how = "the only operator of its model";
  }
  if (candidate.empty()) {
    t.blame = !t.localized_op.empty() ? "not localized: the node named (" + t.localized_op +
                                            ") comes from an inlined function body, not an operator of the model"
                                      : not_localized_reason(t);
  } else if (!t.ran_on_backend(candidate)) {
    t.blame = "not localized: " + candidate + " (" + how + ") ran on the cpu fallback, not on the backend";
  } else {
    t.blamed_op = candidate;
    t.blame = candidate + ": " + how;
  }
}

// Per operator, what the verdict is computed from; `native_passed`: passed tests in which it ran on the backend.
struct OperatorTally {
  CertOperator o;
  int native_passed = 0;
};

void tally_test(const CertTest& t, std::map<std::string, OperatorTally>& ops) {
  for (const auto& op : t.op_types) {
    auto& tally = ops[op];
    tally.o.op_type = op;
    if (t.status == "skipped") continue;
    ++tally.o.tests;
    bool native = t.status != "unsupported" && t.ran_on_backend(op);
    if (native) ++tally.o.native;
    if (t.status == "passed") ++tally.o.passed;
    if (t.status == "passed" && native) ++tally.native_passed;
    if (t.blamed_op == op) ++tally.o.failed;
  }
}

std::string operator_verdict(const OperatorTally& t) {
  if (t.o.failed > 0) return "failed";
  if (t.native_passed > 0) return "certified";
  if (t.o.native > 0) return "inconclusive";  // ran on the backend only in failing tests that blame another cause
  if (t.o.tests > 0) return "unsupported";
  return "untested";
}

std::string run_verdict(const CertReport& r) {
  auto s = [&](const char* k) { return r.summary.at(k); };
  if (s("failed") + s("crashed") + s("timeout") + s("errored") > 0) return "failed";
  if (s("operators_certified") > 0) return "certified";
  return s("total") > s("skipped") ? "unsupported" : "untested";
}

// A failure's figure in JSON, which has neither NaN nor infinity: absent when not applicable (NaN),
// "inf" or "-inf" when unbounded, else the number.
void put_figure(nlohmann::json& j, const char* key, double x) {
  if (std::isnan(x)) return;
  if (std::isinf(x)) j[key] = x > 0 ? "inf" : "-inf";
  else j[key] = x;
}

double get_figure(const nlohmann::json& j, const char* key) {
  if (!j.contains(key)) return CertFailure::kNotApplicable;
  const auto& v = j.at(key);
  if (v.is_string()) return (v.get<std::string>() == "-inf" ? -1 : 1) * std::numeric_limits<double>::infinity();
  return v.get<double>();
}

nlohmann::json input_range_json(const CertInputRange& in) {
  nlohmann::json j = {{"name", in.name}, {"type", in.type}, {"shape", in.shape}};
  if (!in.min.empty()) j["min"] = in.min;
  if (!in.max.empty()) j["max"] = in.max;
  if (in.nan) j["nan"] = in.nan;
  if (in.pos_inf) j["pos_inf"] = in.pos_inf;
  if (in.neg_inf) j["neg_inf"] = in.neg_inf;
  return j;
}

CertInputRange input_range_from_json(const nlohmann::json& j) {
  CertInputRange in;
  in.name = j.at("name");
  in.type = j.value("type", "");
  in.shape = j.value("shape", std::vector<int64_t>{});
  in.min = j.value("min", "");
  in.max = j.value("max", "");
  in.nan = j.value("nan", int64_t{0});
  in.pos_inf = j.value("pos_inf", int64_t{0});
  in.neg_inf = j.value("neg_inf", int64_t{0});
  return in;
}

// The judge of a report written before reports stated it: enclosure if any test ran under it.
std::string inferred_judge(const std::vector<CertTest>& tests) {
  for (const auto& t : tests)
    if (t.judge == "enclosure" || !t.judge_note.empty()) return "enclosure";
  return "tolerance";
}

}  // namespace

bool CertTest::ran_on_backend(const std::string& op) const {
  return !contains(unsupported_ops, op) && !contains(fallback_ops, op);
}

bool is_failure_status(const std::string& s) { return s == "failed" || s == "crashed" || s == "timeout" || s == "errored"; }

std::string judged_under(const CertTest& t) {
  if (t.status != "passed" && t.status != "failed") return "";
  return t.judge == "enclosure" || !t.judge_note.empty() ? "enclosure" : "tolerance";
}

void aggregate(CertReport& r) {
  std::map<std::string, CertTest> by_name;
  for (auto& t : r.tests) by_name[t.name] = std::move(t);  // a later result for a name wins
  r.tests.clear();
  for (auto& [n, t] : by_name) r.tests.push_back(std::move(t));

  r.summary.clear();
  for (const char* k :
       {"total", "passed", "failed", "unsupported", "crashed", "timeout", "errored", "skipped", "fallback", "unattributed"})
    r.summary[k] = 0;
  std::map<std::string, OperatorTally> ops;
  for (auto& t : r.tests) {
    assign_blame(t);
    ++r.summary["total"];
    ++r.summary[t.status];
    if (!t.unsupported_ops.empty() || !t.fallback_ops.empty()) ++r.summary["fallback"];
    if (is_failure_status(t.status) && t.blamed_op.empty()) ++r.summary["unattributed"];
    tally_test(t, ops);
  }
  r.operators.clear();
  for (const char* k :
       {"operators_certified", "operators_failed", "operators_inconclusive", "operators_unsupported", "operators_untested"})
    r.summary[k] = 0;
  for (auto& [name, tally] : ops) {
    tally.o.verdict = operator_verdict(tally);
    ++r.summary["operators_" + tally.o.verdict];
    r.operators.push_back(tally.o);
  }
  r.verdict = run_verdict(r);
}

void merge_cert_report(CertReport& merged, CertReport part, const std::string& source) {
  if (merged.backend.empty()) {
    merged.backend = part.backend;
    merged.backend_version = part.backend_version;
    merged.judge = part.judge;
  } else if (merged.backend != part.backend) {
    throw LoadError("'" + source + "' certifies " + part.backend + ", not " + merged.backend);
  } else if (merged.judge != part.judge) {
    throw LoadError("'" + source + "' was judged by " + part.judge + ", the reports before it by " + merged.judge +
                    ": a certificate states one judge, so certify the shards again under the same --judge");
  }
  for (const auto& s : part.suites)
    if (!contains(merged.suites, s)) merged.suites.push_back(s);
  for (auto& t : part.tests) merged.tests.push_back(std::move(t));
}

nlohmann::json cert_failure_json(const CertFailure& f) {
  nlohmann::json inputs = nlohmann::json::array();
  for (const auto& in : f.inputs) inputs.push_back(input_range_json(in));
  nlohmann::json j = {{"data_set", f.data_set}, {"localized", f.localized}, {"inputs", inputs},
                      {"output", f.output},     {"wrong", f.wrong},         {"elements", f.elements}};
  auto text = [&](const char* key, const std::string& v) {
    if (!v.empty()) j[key] = v;
  };
  text("node", f.node);
  text("op_version", f.op_version);
  text("attributes", f.attributes);
  text("not_localized", f.not_localized);
  text("judged_by", f.judged_by);
  if (f.index >= 0) {
    j["index"] = f.index;
    j["multi_index"] = f.multi_index;
  }
  text("runtime", f.runtime);
  text("reference", f.reference);
  text("lo", f.lo);
  text("hi", f.hi);
  put_figure(j, "ulps_outside", f.ulps_outside);
  put_figure(j, "ulp_error", f.ulp_error);
  text("tolerance", f.tolerance);
  text("note", f.note);
  text("repro_dir", f.repro_dir);
  text("rerun", f.rerun);
  return j;
}

CertFailure cert_failure_from_json(const nlohmann::json& j) {
  CertFailure f;
  auto text = [&](const char* key) { return j.value(key, std::string()); };
  f.data_set = text("data_set");
  f.localized = j.value("localized", false);
  f.node = text("node");
  f.op_version = text("op_version");
  f.attributes = text("attributes");
  f.not_localized = text("not_localized");
  if (j.contains("inputs"))
    for (const auto& in : j.at("inputs")) f.inputs.push_back(input_range_from_json(in));
  f.output = text("output");
  f.judged_by = text("judged_by");
  f.index = j.value("index", int64_t{-1});
  f.multi_index = j.value("multi_index", std::vector<int64_t>{});
  f.wrong = j.value("wrong", int64_t{0});
  f.elements = j.value("elements", int64_t{0});
  f.runtime = text("runtime");
  f.reference = text("reference");
  f.lo = text("lo");
  f.hi = text("hi");
  f.ulps_outside = get_figure(j, "ulps_outside");
  f.ulp_error = get_figure(j, "ulp_error");
  f.tolerance = text("tolerance");
  f.note = text("note");
  f.repro_dir = text("repro_dir");
  f.rerun = text("rerun");
  return f;
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
  if (!t.localized_op.empty()) j["localized_op"] = t.localized_op;
  if (!t.blamed_op.empty()) j["blamed_op"] = t.blamed_op;
  if (!t.blame.empty()) j["blame"] = t.blame;
  if (t.failure) j["failure"] = cert_failure_json(*t.failure);
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
  t.localized_op = text("localized_op");
  if (j.contains("failure")) t.failure = cert_failure_from_json(j.at("failure"));
  return t;  // blamed_op and blame are aggregate()'s
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
          {"suites", r.suites},   {"judge", r.judge},
          {"verdict", r.verdict}, {"summary", r.summary},
          {"operators", ops},     {"tests", tests}};
}

CertReport cert_report_from_json(const nlohmann::json& j) {
  CertReport r;
  r.backend = j.at("backend");
  if (j.contains("backend_version")) r.backend_version = j.at("backend_version");
  if (j.contains("suites")) r.suites = j.at("suites").get<std::vector<std::string>>();
  for (const auto& t : j.at("tests")) r.tests.push_back(cert_test_from_json(t));
  r.judge = j.contains("judge") ? j.at("judge").get<std::string>() : inferred_judge(r.tests);
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
