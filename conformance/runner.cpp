#include "runner.h"

#include <unistd.h>

#include <chrono>
#include <iostream>
#include <regex>
#include <set>

#include <nlohmann/json.hpp>

#include "isolate.h"
#include "reference/interp/inliner.h"
#include "reference/model/errors.h"
#include "reference/model/loader.h"
#include "reference/ops/registry.h"

namespace sonnx {

namespace {

void collect_ops(const Graph& g, std::set<std::string>& ops) {
  for (const auto& n : g.nodes) {
    ops.insert(n.domain.empty() ? n.op_type : n.domain + "." + n.op_type);
    for (const auto& a : n.attributes) {
      if (a.g) collect_ops(*a.g, ops);
      for (const auto& sg : a.graphs) collect_ops(*sg, ops);
    }
  }
}


nlohmann::json to_json(const TestResult& r) {
  return {{"name", r.name},       {"status", r.status},   {"op_types", r.op_types}, {"accuracy", r.accuracy},
          {"max_abs_error", r.max_abs}, {"max_rel_error", r.max_rel}, {"max_ulp_error", r.max_ulp},
          {"time_ms", r.time_ms}, {"message", r.message}, {"loaded", r.loaded}};
}

TestResult from_json(const nlohmann::json& j) {
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
  return r;
}

}  // namespace

// The loosest accuracy class among the model's operators: random > rounding > exact.
Accuracy model_accuracy(const Model& m, const Graph& g, Accuracy acc) {
  for (const auto& n : g.nodes) {
    ResolvedOp r = resolve_op(m, n, m.opset(n.domain));
    const KernelEntry* k = r.has_schema ? OpRegistry::instance().find(canonical_domain(n.domain), n.op_type, r.version) : nullptr;
    Accuracy a = k ? k->accuracy : Accuracy::Rounding;
    if (a == Accuracy::Random || (a == Accuracy::Rounding && acc == Accuracy::Exact)) acc = a;
    for (const auto& at : n.attributes) {
      if (at.g) acc = model_accuracy(m, *at.g, acc);
      for (const auto& sg : at.graphs) acc = model_accuracy(m, *sg, acc);
    }
  }
  return acc;
}

TestResult run_one(const TestCase& test, const ExecuteFn& exec, const RunOptions& options) {
  TestResult r;
  r.name = test.name;
  auto start = std::chrono::steady_clock::now();
  try {
    auto lm = load_model(test.model);
    const Model& model = lm->ir;
    r.loaded = true;
    std::set<std::string> ops;
    collect_ops(model.graph, ops);
    r.op_types.assign(ops.begin(), ops.end());
    Accuracy acc = model_accuracy(model, model.graph);
    r.accuracy = accuracy_name(acc);
    Tolerance tol;
    if (const auto* t = find_tolerance(options.tolerances, test.name)) tol = t->tol;
    if (test.data_sets.empty()) throw LoadError("no test_data_set_N directory");
    Comparison total;
    for (const auto& ds_dir : test.data_sets) {
      DataSet ds = read_data_set(model, ds_dir);
      NamedValues out = exec(model, ds.inputs);
      for (const auto& [name, expected] : ds.expected) {
        auto it = out.find(name);
        if (it == out.end()) throw Trap("output '" + name + "' was not produced");
        Comparison c = compare_values(it->second, expected, tol);
        // A sampled result cannot match bit for bit; judge it by distribution instead.
        if (!c.ok && acc == Accuracy::Random) c = compare_statistically(it->second, expected);
        if (!c.ok) c.message = ds_dir.filename().string() + " output '" + name + "': " + c.message;
        total.merge(c);
      }
    }
    r.status = total.ok ? "passed" : "failed";
    r.message = total.message;
    r.max_abs = total.max_abs;
    r.max_rel = total.max_rel;
    r.max_ulp = total.max_ulp;
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

RunReport run_conformance(const std::vector<TestCase>& tests, const ExecuteFn& exec, const std::string& executor_name,
                          const RunOptions& options) {
  RunReport report;
  report.executor = executor_name;
  std::regex filter(options.filter.empty() ? ".*" : options.filter);
  std::vector<const TestCase*> selected;
  for (const auto& t : tests)
    if (std::regex_search(t.name, filter)) selected.push_back(&t);
  std::vector<const TestCase*> shard;
  for (size_t i = 0; i < selected.size(); ++i)
    if (static_cast<int>(i % static_cast<size_t>(options.shard_count)) == options.shard_index) shard.push_back(selected[i]);

  size_t done = 0;
  for (const TestCase* t : shard) {
    TestResult r;
    if (const SkipRule* s = find_skip(options.skips, t->name)) {
      r.name = t->name;
      r.status = "skipped";
      r.message = s->reason;
    } else if (options.isolate) {
      IsolatedResult iso = run_isolated([&] { return to_json(run_one(*t, exec, options)).dump(); }, options.timeout_seconds);
      if (iso.status == IsolatedResult::Status::Ok) {
        try {
          r = from_json(nlohmann::json::parse(iso.output));
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
      r = run_one(*t, exec, options);
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
