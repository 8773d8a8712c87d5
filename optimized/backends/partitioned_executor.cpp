#include "partitioned_executor.h"

#include "sonnx/errors.h"
#include "step_timing.h"

namespace sonnx {

struct PartitionedExecutor::Prepared {
  std::string signature;                   // element types it was compiled for
  std::unique_ptr<CompiledStep> native;    // on the step's backend (null once it failed)
  std::unique_ptr<CompiledStep> fallback;  // on the fallback backend, made when needed
  bool native_failed = false;
};

namespace {

std::string type_signature(const Model& sub, const NamedValues& in) {
  std::string sig;
  for (const auto& vi : sub.graph.inputs) {
    auto it = in.find(vi.name);
    sig += it != in.end() && it->second.is_tensor() ? std::string(dtype_name(it->second.tensor.dtype())) : "?";
    sig += ",";
  }
  return sig;
}

std::vector<std::string> step_ops(const ExecutionPlan& plan, const PlanStep& st) {
  std::vector<std::string> ops;
  for (size_t i : st.nodes) {
    const Node& n = plan.model.graph.nodes[i];
    std::string d = canonical_domain(n.domain);
    ops.push_back(d.empty() ? n.op_type : d + "." + n.op_type);
  }
  return ops;
}

}  // namespace

PartitionedExecutor::PartitionedExecutor(ExecutionPlan plan) : plan_(std::move(plan)) {
  prepared_.resize(plan_.steps.size());
  std::vector<std::vector<std::string>> writes, reads;
  for (const PlanStep& st : plan_.steps) {
    writes.push_back(st.outputs);
    reads.push_back(st.inputs);
  }
  dependencies_ = DependencyGraph(writes, reads);
}

PartitionedExecutor::~PartitionedExecutor() = default;

NamedValues PartitionedExecutor::run_backend_step(size_t k, const NamedValues& in) {
  const PlanStep& st = plan_.steps[k];
  Backend& backend = *plan_.backends[st.backend];
  bool is_fallback = static_cast<int>(st.backend) == plan_.fallback;
  auto& p = prepared_[k];
  std::string sig = type_signature(st.subgraph, in);
  if (!p || p->signature != sig) {
    p = std::make_unique<Prepared>();
    p->signature = sig;
  }
  auto fall_back = [&](const char* phase, const std::string& why) {
    if (is_fallback || plan_.fallback < 0)
      throw BackendError("step " + std::to_string(k) + " on " + backend.name() + " failed to " + phase + ": " + why);
    {
      std::lock_guard lock(fallbacks_mutex_);
      fallbacks_.push_back({k, backend.name(), phase, why, step_ops(plan_, st)});
    }
    p->native.reset();
    p->native_failed = true;
  };
  if (!p->native && !p->native_failed) {
    try {
      p->native = backend.prepare(typed_step(st.subgraph, in));
    } catch (const std::exception& e) {
      if (is_fallback) throw;  // the fallback's own errors (Unsupported, Trap) are the answer
      fall_back("prepare", e.what());
    }
  }
  if (p->native) {
    try {
      NamedValues out = p->native->execute(in);
      for (const auto& vi : st.subgraph.graph.outputs)
        if (!out.count(vi.name)) throw BackendError("output '" + vi.name + "' was not produced");
      return out;
    } catch (const std::exception& e) {
      if (is_fallback) throw;
      fall_back("execute", e.what());
    }
  }
  if (!p->fallback) p->fallback = plan_.backends[static_cast<size_t>(plan_.fallback)]->prepare(typed_step(st.subgraph, in));
  return p->fallback->execute(in);
}

NamedValues PartitionedExecutor::bind(const NamedValues& inputs) const {
  const Graph& g = plan_.model.graph;
  NamedValues env;
  for (const auto& [name, t] : g.initializers) env[name] = t;
  for (const auto& [name, v] : inputs) env[name] = v;
  for (const auto& vi : g.inputs)
    if (!env.count(vi.name)) throw Trap("missing input '" + vi.name + "'");
  return env;
}

NamedValues PartitionedExecutor::step_inputs(size_t k, const NamedValues& env) const {
  NamedValues in;
  for (const auto& vi : plan_.steps[k].subgraph.graph.inputs) {
    auto it = env.find(vi.name);
    if (it == env.end()) throw InternalError("step " + std::to_string(k) + ": value '" + vi.name + "' is not defined");
    in[vi.name] = it->second;  // the copy at the boundary
  }
  return in;
}

NamedValues PartitionedExecutor::outputs(const NamedValues& env) const {
  NamedValues result;
  for (const auto& vi : plan_.model.graph.outputs) {
    auto it = env.find(vi.name);
    if (it == env.end()) throw Trap("output '" + vi.name + "' was not produced");
    result[vi.name] = it->second;
  }
  return result;
}

NamedValues PartitionedExecutor::run(const NamedValues& inputs) { return run_steps(inputs, nullptr); }

NamedValues PartitionedExecutor::run(const NamedValues& inputs, const TaskLauncher& launch) {
  return run_steps(inputs, &launch);
}

NamedValues PartitionedExecutor::run_steps(const NamedValues& inputs, const TaskLauncher* launch) {
  NamedValues env = bind(inputs);
  std::mutex env_mutex;  // steps running at once read and extend env
  scheduler_.run(
      dependencies_,
      [&](int i) {
        auto k = static_cast<size_t>(i);
        NamedValues in;
        {
          std::lock_guard lock(env_mutex);
          in = step_inputs(k, env);
        }
        NamedValues out = run_backend_step(k, in);
        std::lock_guard lock(env_mutex);
        for (auto& [name, v] : out) env[name] = std::move(v);
      },
      nullptr, launch);
  return outputs(env);
}

}  // namespace sonnx
