#include "differential.h"

#include <algorithm>
#include <exception>

#include "optimized/exec/make_executor.h"
#include "reference/check/prepare.h"

namespace sonnx::fuzz {

namespace {

// Compares an executor's outputs with the reference; "" when they agree.
std::string compare_outputs(const GeneratedCase& g, const NamedValues& ref, const NamedValues& out) {
  for (const auto& oc : g.outputs) {
    auto e = ref.find(oc.name);
    auto a = out.find(oc.name);
    if (a == out.end()) return "output '" + oc.name + "' missing";
    if (oc.exact) {
      if (!(a->second == e->second)) {
        Comparison c = compare_values(a->second, e->second, Tolerance{0, 0});
        return "output '" + oc.name + "' differs bitwise (exact operators): " + c.message;
      }
    } else {
      Comparison c = compare_values(a->second, e->second, oc.tol);
      if (!c.ok) return "output '" + oc.name + "': " + c.message;
    }
  }
  return "";
}

DiffResult fail(std::string kind, std::string executor, std::string message) {
  DiffResult r;
  r.ok = false;
  r.kind = std::move(kind);
  r.executor = std::move(executor);
  r.message = std::move(message);
  return r;
}

}  // namespace

DiffResult run_differential(const GeneratedCase& g, const DiffOptions& options) {
  // Prepared as every command prepares a model: checked (profile onnx), then types inferred.
  LoadedModel lm{g.proto, g.model};
  PrepareOptions prepare;
  prepare.check = options.validate;
  try {
    prepare_loaded_model(lm, prepare, "generated graph");
  } catch (const CheckFailed& e) {
    std::string errors;
    for (const auto& d : e.diagnostics())
      if (d.severity == Severity::Error) errors += (errors.empty() ? "" : "; ") + d.message;
    return fail("validator", "", "the validator rejects a generated graph: " + errors);
  }
  const Model& model = lm.ir;
  NamedValues ref;
  try {
    ref = make_executor(model, "reference")->run(g.inputs);
  } catch (const std::exception& e) {
    return fail("reference-error", "reference", e.what());
  }
  auto failed = [&ref](std::string kind, std::string who, std::string message) {
    DiffResult r = fail(std::move(kind), std::move(who), std::move(message));
    r.reference = ref;
    return r;
  };
  const auto& names = options.executors.empty() ? optimized_executor_names() : options.executors;
  for (const auto& name : names) {
    std::shared_ptr<const CompiledModel> cm;  // compiled once per executor, shared by its planners
    for (Planner planner : options.planners) {
      std::string who = name + "/" + planner_name(planner);
      try {
        ExecutorOptions eo;
        // Parallel needs at least two workers to run steps concurrently.
        eo.threads = name == "parallel" ? std::max(2, options.threads) : options.threads;
        eo.planner = planner;
        // The arena run is compared with the reference below (stronger than verify_arena_run).
        if (!options.inject_fault.empty() && name == options.fault_executor) eo.inject_fault = options.inject_fault;
        auto ex = cm ? make_optimized_executor(cm, name, eo) : make_optimized_executor(model, name, eo);
        cm = ex->compiled();
        NamedValues first = ex->run(g.inputs);  // on the heap; makes the memory plan
        if (std::string m = compare_outputs(g, ref, first); !m.empty()) return failed("mismatch", who, "planning run: " + m);
        if (!ex->plan()) return failed("memory-plan", who, "no memory plan after the first run");
        if (std::string m = check_memory_plan(cm->root(), *ex->plan()); !m.empty()) return failed("memory-plan", who, m);
        NamedValues second = ex->run(g.inputs);  // in the planned arena
        if (std::string m = compare_outputs(g, ref, second); !m.empty()) return failed("mismatch", who, "arena run: " + m);
        if (name == "parallel") {
          NamedValues third = ex->run(g.inputs);
          if (third != second) return failed("nondeterministic", who, "a repeated parallel run differs bit for bit");
        }
      } catch (const std::exception& e) {
        return failed("executor-error", who, e.what());
      }
    }
  }
  DiffResult ok;
  ok.reference = std::move(ref);
  return ok;
}

}  // namespace sonnx::fuzz
