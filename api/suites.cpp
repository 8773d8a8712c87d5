// The C++ API's conformance runs and certifications (include/sonnx/sonnx.hpp): the runner and the
// certifier of conformance/, with the options and data files `sonnx conform` and `sonnx certify` use.
#include <algorithm>
#include <cstdio>
#include <fstream>

#include "conformance/certify/certify.h"
#include "conformance/certify/command_runner.h"
#include "conformance/report.h"
#include "conformance/runner.h"
#include "optimized/exec/make_executor.h"
#include "reference/model/data_dir.h"
#include "sonnx/sonnx.hpp"

namespace sonnx {

namespace {

Judge judge_named(const std::string& name) {
  if (name == "tolerance") return Judge::Tolerance;
  if (name == "enclosure") return Judge::Enclosure;
  if (name == "bitwise") return Judge::Bitwise;
  throw LoadError("unknown judge '" + name + "' (tolerance, enclosure or bitwise)");
}

std::vector<TestCase> find_tests(const std::vector<std::filesystem::path>& dirs) {
  if (dirs.empty()) throw LoadError("no test directory given");
  for (const auto& d : dirs)
    if (!std::filesystem::is_directory(d)) throw LoadError("no test directory '" + d.string() + "'");
  auto tests = discover_tests(dirs);
  if (tests.empty()) throw LoadError("no test directories (model.onnx + test_data_set_N) found");
  return tests;
}

template <class T>
TestOutcome outcome(const T& t) {
  return {t.name, t.status, t.op_types, t.max_abs, t.max_rel, t.max_ulp, t.time_ms, t.message, t.judge, "", "", "", ""};
}

RunOptions conform_run_options(const ConformOptions& o) {
  const auto& names = executor_names();
  if (std::find(names.begin(), names.end(), o.executor) == names.end())
    throw LoadError("unknown executor '" + o.executor + "' (reference, linear, dataflow, parallel)");
  RunOptions opt;
  opt.executor = o.executor;
  opt.executor_options.threads = o.threads;
  opt.executor_options.verify_arena_run = true;
  opt.filter = o.filter;
  opt.judge = judge_named(o.judge);
  if (opt.judge == Judge::Bitwise)
    throw LoadError("the bitwise judge compares with the reference: it is certify's, not conform's");
  opt.isolate = o.isolate;
  opt.timeout_seconds = o.timeout_seconds;
  opt.progress = o.progress;
  opt.prepare.check = o.check;
  if (o.check) opt.prepare.profile = std::make_shared<const Profile>(load_profile("onnx"));  // once, before forking
  if (!o.skips.empty() && !std::filesystem::exists(o.skips)) throw LoadError("no skip list '" + o.skips.string() + "'");
  if (!o.tolerances.empty() && !std::filesystem::exists(o.tolerances))
    throw LoadError("no tolerance file '" + o.tolerances.string() + "'");
  auto skips = o.skips.empty() ? data_dir() / "conformance" / "skips.txt" : o.skips;
  auto tolerances = o.tolerances.empty() ? data_dir() / "conformance" / "tolerances.txt" : o.tolerances;
  if (std::filesystem::exists(skips)) opt.skips = read_skips(skips);
  if (std::filesystem::exists(tolerances)) opt.tolerances = read_tolerances(tolerances);
  opt.shard = parse_shard(o.shard);
  opt.prefer_function_bodies = o.prefer_function_bodies;
  if (!o.inject_fault.empty() && o.executor == "reference")
    throw LoadError("inject_fault needs an optimized executor (linear, dataflow or parallel)");
  opt.executor_options.inject_fault = o.inject_fault;
  return opt;
}

// The public certificate of the certifier's full report, which it keeps for write.
Certificate certificate_of(std::shared_ptr<const CertReport> full) {
  Certificate c;
  c.backend = full->backend;
  c.backend_version = full->backend_version;
  c.verdict = full->verdict;
  c.judge = full->judge;
  c.judge_statement = judge_text(*full);
  c.summary = full->summary;
  for (const auto& o : full->operators) c.operators.push_back({o.op_type, o.verdict, o.tests, o.passed, o.failed});
  for (const auto& t : full->tests) {
    TestOutcome o = outcome(t);
    o.repro = t.repro;
    o.localized = t.localized;
    o.blame = t.blame;
    if (t.failure) o.explanation = cert_failure_text(*t.failure);
    c.tests.push_back(std::move(o));
  }
  c.json = cert_report_json(*full).dump(2);
  c.detail = std::move(full);
  return c;
}

}  // namespace

ConformReport conform(const std::vector<std::filesystem::path>& dirs, const ConformOptions& options) {
  RunOptions opt = conform_run_options(options);
  auto full = std::make_shared<RunReport>(run_conformance(find_tests(dirs), opt));
  ConformReport r;
  r.executor = full->executor;
  r.total = full->summary.total;
  r.passed = full->summary.passed;
  r.failed = full->summary.failed;
  r.errored = full->summary.errored;
  r.skipped = full->summary.skipped;
  for (const auto& t : full->tests) r.tests.push_back(outcome(t));
  r.json = report_json(*full).dump(2);
  r.detail = full;
  return r;
}

void ConformReport::write(const std::filesystem::path& file) const {
  if (!detail) throw LoadError("this report has no results to write");
  write_report(*static_cast<const RunReport*>(detail.get()), file);
}

Certificate certify(const std::vector<std::filesystem::path>& suites, const CertificationOptions& options) {
  const bool command = !options.backend_command.empty();
  if (command && !options.devices.empty()) throw LoadError("give a backend command or a device set, not both");
  if (options.persistent_command && !command) throw LoadError("persistent_command needs a backend_command");
  CertifyOptions opt;
  opt.filter = options.filter;
  opt.timeout_seconds = options.timeout_seconds;
  opt.judge = judge_named(options.judge);
  opt.localize = options.localize;
  opt.progress = options.progress;
  opt.shard = parse_shard(options.shard);
  opt.resume_file = options.resume;
  opt.repro_dir = options.repro_dir;
  if (!options.skips.empty()) opt.skips = read_skips(options.skips);
  char timeout[32];
  std::snprintf(timeout, sizeof timeout, "%g", options.timeout_seconds);
  std::string device_args;
  if (!options.devices.empty()) {
    std::string list;
    for (const auto& d : options.devices) list += (list.empty() ? "" : ",") + d;
    device_args = "--devices " + shell_quote(list);
    for (const auto& p : options.plugins) device_args += " --plugin " + shell_quote(p);
    if (options.assign != "first") device_args += " --assign " + shell_quote(options.assign);
  }
  std::string command_args = "--backend-cmd " + shell_quote(options.backend_command) +
                             (options.persistent_command ? " --persistent" : "");
  opt.repro_command = "sonnx certify " +
                      (command ? command_args
                       : !device_args.empty()
                           ? device_args
                           : "--backend " + shell_quote(options.backend) + (options.fallback ? "" : " --no-fallback")) +
                      " --timeout " + timeout + (options.judge != "tolerance" ? " --judge " + options.judge : "") +
                      (options.localize ? "" : " --no-localize");
  auto tests = find_tests(suites);
  if (options.assign != "first" && options.assign != "profile")
    throw LoadError("assign is first or profile, not '" + options.assign + "'");
  auto target = command ? make_command_target(options.backend_command, options.timeout_seconds, options.persistent_command)
                : !options.devices.empty()
                    ? make_device_set_target(options.devices, options.plugins, options.assign == "profile")
                    : make_backend_target(options.backend, options.fallback);
  auto full = std::make_shared<CertReport>(certify(tests, *target, opt));
  for (const auto& s : suites) full->suites.push_back(std::filesystem::absolute(s).lexically_normal().string());
  return certificate_of(std::move(full));
}

Certificate merge_certificates(const std::vector<std::filesystem::path>& files) {
  if (files.empty()) throw LoadError("no certificate to merge");
  auto merged = std::make_shared<CertReport>();
  for (const auto& file : files) {
    std::ifstream in(file);
    if (!in) throw LoadError("cannot read '" + file.string() + "'");
    CertReport part;
    try {
      part = cert_report_from_json(nlohmann::json::parse(in));
    } catch (const nlohmann::json::exception& e) {
      throw LoadError("'" + file.string() + "' is not a certify JSON report: " + e.what());
    }
    merge_cert_report(*merged, std::move(part), file.string());  // one backend, one judge
  }
  aggregate(*merged);  // the verdicts from the union of the tests
  return certificate_of(std::move(merged));
}

void Certificate::write(const std::filesystem::path& file) const {
  if (!detail) throw LoadError("this certificate has no results to write");
  write_cert_report(*static_cast<const CertReport*>(detail.get()), file);
}

}  // namespace sonnx
