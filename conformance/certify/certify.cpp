#include "certify.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/time.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include "conformance/isolate.h"
#include "optimized/exec/make_executor.h"
#include "reference/check/prepare.h"
#include "reference/catalogue/catalogue.h"
#include "sonnx/errors.h"
#include "reference/ops/op_table.h"
#include "cert_failure.h"
#include "localize.h"
#include "strict_compare.h"

namespace sonnx {

namespace {

void arm_alarm(double seconds) {
  itimerval tv{};
  if (seconds > 0) {
    tv.it_value.tv_sec = static_cast<time_t>(seconds);
    tv.it_value.tv_usec = static_cast<suseconds_t>((seconds - static_cast<double>(tv.it_value.tv_sec)) * 1e6);
    if (tv.it_value.tv_sec == 0 && tv.it_value.tv_usec == 0) tv.it_value.tv_usec = 1;
  }
  setitimer(ITIMER_REAL, &tv, nullptr);
}

void add_unique(std::vector<std::string>& to, const std::vector<std::string>& from) {
  for (const auto& s : from)
    if (std::find(to.begin(), to.end(), s) == to.end()) to.push_back(s);
}

// The directory every test's child makes its scratch directories in (TMPDIR; target_stage.h,
// command_target.cpp), removed by the parent at the end: a child killed on its timeout or by a
// crash cannot clean up after itself.
class ChildScratch {
 public:
  ChildScratch() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "sonnx-certify-run-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw LoadError(std::string("cannot make a scratch directory: ") + std::strerror(errno));
    dir_ = tmpl;
  }
  ~ChildScratch() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  ChildScratch(const ChildScratch&) = delete;
  ChildScratch& operator=(const ChildScratch&) = delete;
  // In the child: its scratch directories go here.
  void enter() const { setenv("TMPDIR", dir_.c_str(), 1); }

 private:
  std::filesystem::path dir_;
};

std::string quote(const std::string& s) {
  if (s.find_first_of(" '\"$\\") == std::string::npos) return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// For a failing test of several operators that was not run node by node.
std::string why_not_localized(const CertifyOptions& options) {
  if (!options.localize) return "not localized: localization is off (--no-localize)";
  return "not localized: the backend did not produce every output";
}

// The operator types of a test whose child process gave no result (crashed, timed out), for blame.
std::vector<std::string> op_types_of_test(const TestCase& tc) {
  try {
    return op_types_of(load_model(tc.model)->ir.graph);
  } catch (const std::exception&) {
    return {};
  }
}

// What the first failure of a test showed, kept to explain it once the test is judged.
struct FirstFailure {
  size_t data_set = 0;
  NamedValues outputs;                // the backend's outputs on that data set
  std::string note;                   // an output that could not be read
  std::optional<LocalizedNode> node;  // the localized node, with what it was judged on
};

// The test's values for the explanation: the localized node alone on its inputs, else the whole model.
FailureEvidence evidence_of(const TestCase& test, const Model& model, const DataSet& ds, const NamedValues& reference,
                            const OutputEnclosures* enclosures, const FirstFailure& first) {
  FailureEvidence e;
  e.data_set = test.data_sets.at(first.data_set).filename().string();
  e.note = first.note;
  if (first.node) {
    e.model = &first.node->model;
    e.node_label = first.node->label;
    e.inputs = first.node->inputs;
    e.reference = first.node->reference;
    e.runtime = first.node->backend;
    e.bounds = &first.node->bounds.admissible;  // localization judges a node by its enclosure, under either judge
    return e;
  }
  e.model = &model;
  e.model_file = test.model;
  e.inputs = ds.inputs;
  e.reference = reference;
  e.runtime = first.outputs;
  e.accuracy = model_accuracy(model);
  if (enclosures) e.bounds = &enclosures->admissible;
  return e;
}

// The explanation of a failed test, and its repro directory when options ask for one.
CertFailure explain(const FailureEvidence& e, const TestCase& test, const CertifyOptions& options) {
  CertFailure f;
  try {
    f = explain_failure(e);
  } catch (const std::exception& x) {
    f.note = std::string("the failure could not be explained: ") + x.what();
    return f;
  }
  if (options.repro_dir.empty()) return f;
  // A node localized under the tolerance judge was found by its enclosure: the rerun judges it so.
  std::string command = options.repro_command;
  if (f.judged_by == "enclosure" && options.judge == Judge::Tolerance) command += " --judge enclosure";
  try {
    write_repro_dir(options.repro_dir, test.name, e, command, f);
  } catch (const std::exception& x) {
    f.repro_dir.clear();
    f.rerun.clear();
    f.note += std::string(f.note.empty() ? "" : "; ") + "the repro directory could not be written: " + x.what();
  }
  return f;
}

// A result kept from the resume file counts only if its outputs were judged the way this run judges.
bool judged_alike(const CertTest& t, Judge judge) {
  std::string under = judged_under(t);
  return under.empty() || under == judge_name(judge);
}

}  // namespace

CertTest certify_one(const TestCase& test, CertTarget& target, const CertifyOptions& options) {
  CertTest t;
  t.name = test.name;
  t.dir = std::filesystem::absolute(test.dir).lexically_normal().string();
  t.repro = options.repro_command + " --suite " + quote(t.dir);
  auto start = std::chrono::steady_clock::now();
  auto finish = [&](const std::string& status, const std::string& message) {
    t.status = status;
    t.message = message;
    t.time_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return t;
  };
  std::unique_ptr<LoadedModel> lm;
  try {
    lm = load_model(test.model);
    t.op_types = op_types_of(lm->ir.graph);
    prepare_loaded_model(*lm, {}, test.model.string());
  } catch (const CheckFailed& e) {
    return finish("skipped", std::string("the model fails the check: ") + e.what() + "\n" + e.details());
  } catch (const std::exception& e) {
    return finish("skipped", std::string("the reference cannot load the model: ") + e.what());
  }
  const Model& model = lm->ir;
  Accuracy acc = model_accuracy(model);
  t.accuracy = accuracy_name(acc);
  if (test.data_sets.empty()) return finish("skipped", "no test_data_set_N directory");
  std::vector<DataSet> data_sets;
  std::vector<NamedValues> references;
  for (const auto& ds_dir : test.data_sets) {
    try {
      data_sets.push_back(read_data_set(model, ds_dir));
      references.push_back(make_executor(model, "reference")->run(data_sets.back().inputs));
    } catch (const std::exception& e) {
      return finish("skipped", std::string("the reference cannot run it: ") + e.what());
    }
  }
  std::optional<TestEnclosures> enclosures;
  if (options.judge == Judge::Enclosure) enclosures = TestEnclosures::of(model, data_sets, t.judge_note);
  if (enclosures) t.judge = "enclosure";
  if (options.judge == Judge::Bitwise) t.judge = "bitwise";
  std::optional<FirstFailure> first;
  // A failed test's result, with its explanation (the time measured without it).
  auto failed = [&](const std::string& message) {
    CertTest result = finish("failed", message);
    size_t d = first->data_set;
    FailureEvidence e = evidence_of(test, model, data_sets[d], references[d], enclosures ? &enclosures->data_set(d) : nullptr,
                                    *first);
    if (!first->node)
      e.not_localized = t.localized.rfind("not localized", 0) == 0 ? t.localized
                        : first->note.empty()                      ? why_not_localized(options)
                                                                   : "not localized: the output could not be read";
    result.failure = explain(e, test, options);
    return result;
  };
  Comparison total;
  for (size_t d = 0; d < data_sets.size(); ++d) {
    const auto& ds_dir = test.data_sets[d];
    if (!target.enforces_timeout()) arm_alarm(options.timeout_seconds);
    TargetResult r = target.run(model, test, ds_dir, data_sets[d].inputs);
    if (!target.enforces_timeout()) arm_alarm(0);
    add_unique(t.unsupported_ops, r.unsupported_ops);
    add_unique(t.fallback_ops, r.fallback_ops);
    add_unique(t.fallback_notes, r.fallback_notes);
    if (r.status == "garbage") {
      if (t.op_types.size() > 1) t.localized = "not localized: the output could not be read";
      if (!first) first = FirstFailure{d, {}, "the backend's output could not be read: " + r.message, std::nullopt};
      return failed("garbage output: " + r.message);
    }
    if (r.status != "ok") return finish(r.status, r.message);
    for (const auto& vi : model.graph.outputs) {
      auto ref = references[d].find(vi.name);
      auto got = r.outputs.find(vi.name);
      if (ref == references[d].end()) continue;
      if (got == r.outputs.end()) {
        if (!first) first = FirstFailure{d, r.outputs, "", std::nullopt};
        total.ok = false;
        if (total.message.empty()) total.message = ds_dir.filename().string() + " output '" + vi.name + "' was not produced";
        continue;
      }
      // The error figures under every judge; the bitwise judge takes every output as exact.
      Comparison c = strict_compare(got->second, ref->second, options.judge == Judge::Bitwise ? Accuracy::Exact : acc);
      if (enclosures) {
        EnclosureCheck e = enclosures->judge(d, vi.name, got->second);
        c.ok = e.ok;
        c.message = e.message;
      }
      if (!c.ok) c.message = ds_dir.filename().string() + " output '" + vi.name + "': " + c.message;
      total.merge(c);
      if (!c.ok && !first) first = FirstFailure{d, r.outputs, "", std::nullopt};
      if (!c.ok && t.localized.empty() && options.localize) {
        TargetStage stage(target);
        Localization l = localize_error(model, stage, data_sets[d].inputs);
        t.localized = l.sentence;
        t.localized_op = l.op_type;
        if (l.node && first->data_set == d) first->node = std::move(l.node);
      }
    }
  }
  if (!total.ok && t.localized.empty() && t.op_types.size() > 1) t.localized = why_not_localized(options);
  if (enclosures) t.enclosure = enclosures->checks();
  t.max_abs = total.max_abs;
  t.max_rel = total.max_rel;
  t.max_ulp = total.max_ulp;
  if (!total.ok && first) return failed(total.message);
  return finish(total.ok ? "passed" : "failed", total.message);
}

std::vector<CertTest> read_resume_file(const std::filesystem::path& file) {
  std::vector<CertTest> out;
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    try {
      out.push_back(cert_test_from_json(nlohmann::json::parse(line)));
    } catch (const std::exception&) {
      // a line torn by an interrupted run: that test runs again
    }
  }
  return out;
}

CertReport certify(const std::vector<TestCase>& tests, CertTarget& target, const CertifyOptions& options) {
  CertReport report;
  report.backend = target.name();
  report.backend_version = target.version();
  report.judge = judge_name(options.judge);
  std::vector<const TestCase*> shard = select_tests(tests, options.filter, options.shard);

  std::map<std::string, CertTest> done;
  std::ofstream resume;
  if (!options.resume_file.empty()) {
    for (auto& t : read_resume_file(options.resume_file))
      if (judged_alike(t, options.judge)) done[t.name] = std::move(t);
    resume.open(options.resume_file, std::ios::app);
    if (!resume) throw LoadError("cannot write the resume file '" + options.resume_file.string() + "'");
  }
  // The alarm that bounds an in-process target kills the child; the parent's own limit is a
  // backstop that also covers the reference's run.
  double backstop = options.timeout_seconds > 0 ? options.timeout_seconds * 2 + 300 : 0;
  size_t n = 0;
  catalogue::all();  // parsed once here, before the forks: otherwise every test's child parses it again
  ChildScratch scratch;
  for (const TestCase* tc : shard) {
    ++n;
    if (auto it = done.find(tc->name); it != done.end()) {
      report.tests.push_back(it->second);
      continue;
    }
    CertTest t;
    if (const SkipEntry* s = find_skip(options.skips, tc->name)) {
      t.name = tc->name;
      t.dir = tc->dir.string();
      t.status = "skipped";
      t.message = s->reason;
    } else {
      IsolatedResult iso = run_isolated(
          [&] {
            scratch.enter();
            return cert_test_json(certify_one(*tc, target, options)).dump();
          },
          backstop);
      bool parsed = false;
      if (iso.status == IsolatedResult::Status::Ok) {
        try {
          t = cert_test_from_json(nlohmann::json::parse(iso.output));
          parsed = true;
        } catch (const std::exception& e) {
          iso.detail = std::string("unreadable result from the test process: ") + e.what();
        }
      }
      if (!parsed) {
        t.name = tc->name;
        t.dir = std::filesystem::absolute(tc->dir).lexically_normal().string();
        t.repro = options.repro_command + " --suite " + quote(t.dir);
        t.op_types = op_types_of_test(*tc);
        bool alarm = iso.detail.find("signal " + std::to_string(SIGALRM) + " ") != std::string::npos;
        if (iso.status == IsolatedResult::Status::Timeout || alarm) {
          t.status = "timeout";
          t.message = "no result within " + std::to_string(options.timeout_seconds) + " s";
        } else {
          t.status = "crashed";
          t.message = iso.detail;
        }
      }
    }
    if (resume.is_open()) {
      resume << cert_test_json(t).dump() << "\n";
      resume.flush();
    }
    if (options.progress)
      std::cerr << "\r[" << n << "/" << shard.size() << "] " << t.status << " " << t.name << "\033[K" << std::flush;
    report.tests.push_back(std::move(t));
  }
  if (options.progress) std::cerr << "\r\033[K" << std::flush;
  aggregate(report);
  return report;
}

}  // namespace sonnx
