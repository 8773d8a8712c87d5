#include "runner.h"

#include <unistd.h>

#include <chrono>
#include <iostream>

#include <nlohmann/json.hpp>

#include "isolate.h"
#include "report.h"
#include "optimized/exec/make_executor.h"
#include "reference/catalogue/catalogue.h"
#include "sonnx/errors.h"
#include "reference/model/loader.h"
#include "reference/ops/op_table.h"

namespace sonnx {

TestResult run_one(const TestCase& test, const RunOptions& options) {
  TestResult r;
  r.name = test.name;
  auto start = std::chrono::steady_clock::now();
  try {
    std::unique_ptr<LoadedModel> lm = load_model(test.model);
    const Model& model = lm->ir;
    r.loaded = true;
    r.op_types = op_versions_of(model);
    prepare_loaded_model(*lm, options.prepare, test.model.string());  // a model failing the check is not run
    Accuracy acc = model_accuracy(model);
    r.accuracy = accuracy_name(acc);
    Tolerance tol;
    if (const auto* t = find_tolerance(options.tolerances, test.name)) tol = t->tol;
    if (test.data_sets.empty()) throw LoadError("no test_data_set_N directory");
    std::unique_ptr<Executor> exec = make_executor(model, options.executor, options.executor_options);
    Comparison total;
    // Under --judge enclosure the enclosures of every data set come first: a test is judged one way
    // throughout (by enclosure where all its data sets have one, by the tolerance otherwise).
    std::vector<DataSet> data_sets;
    for (const auto& ds_dir : test.data_sets) data_sets.push_back(read_data_set(model, ds_dir));
    std::optional<TestEnclosures> enclosures;
    if (options.judge == Judge::Enclosure) enclosures = TestEnclosures::of(model, data_sets, r.judge_note);
    if (enclosures) r.judge = "enclosure";
    for (size_t d = 0; d < data_sets.size(); ++d) {
      const DataSet& ds = data_sets[d];
      std::string where = test.data_sets[d].filename().string();
      NamedValues out = exec->run(ds.inputs);
      for (const auto& [name, expected] : ds.expected) {
        auto it = out.find(name);
        if (it == out.end()) throw Trap("output '" + name + "' was not produced");
        Comparison c = compare_values(it->second, expected, tol);  // the error figures, under either judge
        if (enclosures) {
          EnclosureCheck e = enclosures->judge(d, name, it->second);
          c.ok = e.ok;
          c.message = e.message;
          EnclosureCheck suite = judge_by_enclosure(name, expected, enclosures->data_set(d).admissible.at(name));
          r.expected_ulps_outside = std::max(r.expected_ulps_outside, suite.ulps_outside);
        } else if (!c.ok && acc == Accuracy::Random) {
          c = compare_statistically(it->second, expected);  // a sampled result: judged by distribution
        }
        if (!c.ok) c.message = where + " output '" + name + "': " + c.message;
        total.merge(c);
      }
    }
    if (enclosures) r.enclosure = enclosures->checks();
    if (const auto* o = dynamic_cast<const OptimizedExecutor*>(exec.get())) r.kernels = o->kernels_run();
    r.status = total.ok ? "passed" : "failed";
    r.message = total.message;
    r.max_abs = total.max_abs;
    r.max_rel = total.max_rel;
    r.max_ulp = total.max_ulp;
  } catch (const CheckFailed& e) {
    r.status = "errored";  // never executed: nothing was computed that could mismatch
    r.message = std::string("check: ") + e.what() + "\n" + e.details();
  } catch (const Unsupported& e) {
    r.status = "errored";
    r.message = std::string("unsupported: ") + e.what();
  } catch (const Trap& e) {
    r.status = "errored";
    r.message = std::string("trap: ") + e.what();
  } catch (const LoadError& e) {
    r.status = "errored";
    r.message = std::string("load: ") + e.what();
  } catch (const std::exception& e) {
    r.status = "errored";
    r.message = std::string("internal: ") + e.what();
  }
  r.time_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return r;
}

RunReport run_conformance(const std::vector<TestCase>& tests, const RunOptions& options) {
  set_prefer_function_bodies(options.prefer_function_bodies);
  RunReport report;
  report.executor = options.executor;
  std::vector<const TestCase*> shard = select_tests(tests, options.filter, options.shard);
  catalogue::all();  // parsed once here, before the forks: otherwise every test's child parses it again

  // The tests run one after another in a child process (a crash or hang is that test's result).
  IsolatedWorker worker([&](size_t i) { return test_json(run_one(*shard[i], options)).dump(); });
  size_t done = 0;
  for (const TestCase* t : shard) {
    TestResult r;
    if (const SkipEntry* s = find_skip(options.skips, t->name)) {
      r.name = t->name;
      r.status = "skipped";
      r.message = s->reason;
    } else if (options.isolate) {
      IsolatedResult iso = worker.run(done, options.timeout_seconds);
      if (iso.status == IsolatedResult::Status::Ok) {
        try {
          r = test_from_json(nlohmann::json::parse(iso.output));
        } catch (const std::exception& e) {
          r.name = t->name;
          r.status = "errored";
          r.message = std::string("internal: unreadable result from the test process: ") + e.what();
        }
      } else {
        r.name = t->name;
        r.status = iso.status == IsolatedResult::Status::Timeout ? "timeout" : "crashed";
        r.message = iso.status == IsolatedResult::Status::Timeout
                        ? "no result within " + std::to_string(options.timeout_seconds) + " s"
                        : iso.detail;
      }
    } else {
      r = run_one(*t, options);
    }
    ++done;
    if (options.progress) {
      std::cerr << "\r[" << done << "/" << shard.size() << "] " << r.status << " " << r.name << "\033[K" << std::flush;
    }
    report.tests.push_back(std::move(r));
  }
  if (options.progress) std::cerr << "\r\033[K" << std::flush;

  for (const auto& r : report.tests) {
    ++report.summary.total;
    if (r.status == "passed") ++report.summary.passed;
    else if (r.status == "failed") ++report.summary.failed;
    else if (r.status == "skipped") ++report.summary.skipped;
    else ++report.summary.errored;  // errored, crashed, timeout
    for (const auto& op : r.op_types) {
      auto& c = report.operators[op];
      ++c.total;
      if (r.loaded) ++c.loaded;
      if (r.status == "passed") ++c.passed;
    }
  }
  return report;
}

}  // namespace sonnx
