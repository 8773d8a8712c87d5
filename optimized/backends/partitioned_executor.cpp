#include "partitioned_executor.h"

#include "sonnx/errors.h"

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

// The step's model with the element types of undeclared inputs taken from the values met.
Model typed_subgraph(const Model& sub, const NamedValues& in) {
  Model m = sub;
  for (auto& vi : m.graph.inputs) {
    auto it = in.find(vi.name);
    if (it == in.end() || !it->second.is_tensor()) continue;
    if (vi.type.kind == TypeInfo::Kind::Unknown || vi.type.elem == DType::Undefined) {
      vi.type.kind = TypeInfo::Kind::Tensor;
      vi.type.elem = it->second.tensor.dtype();
      vi.type.shape.reset();
    }
  }
  return m;
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
    fallbacks_.push_back({k, backend.name(), phase, why, step_ops(plan_, st)});
    p->native.reset();
    p->native_failed = true;
  };
  if (!p->native && !p->native_failed) {
    try {
      p->native = backend.prepare(typed_subgraph(st.subgraph, in));
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
  if (!p->fallback) p->fallback = plan_.backends[static_cast<size_t>(plan_.fallback)]->prepare(typed_subgraph(st.subgraph, in));
  return p->fallback->execute(in);
}

NamedValues PartitionedExecutor::run(const NamedValues& inputs) {
  const Graph& g = plan_.model.graph;
  NamedValues env;
  for (const auto& [name, t] : g.initializers) env[name] = t;
  for (const auto& [name, v] : inputs) env[name] = v;
  for (const auto& vi : g.inputs)
    if (!env.count(vi.name)) throw Trap("missing input '" + vi.name + "'");
  for (size_t k = 0; k < plan_.steps.size(); ++k) {
    const PlanStep& st = plan_.steps[k];
    NamedValues in;
    for (const auto& vi : st.subgraph.graph.inputs) {
      auto it = env.find(vi.name);
      if (it == env.end()) throw InternalError("step " + std::to_string(k) + ": value '" + vi.name + "' is not defined");
      in[vi.name] = it->second;  // the copy at the boundary
    }
    NamedValues out = run_backend_step(k, in);
    for (auto& [name, v] : out) env[name] = std::move(v);
  }
  NamedValues result;
  for (const auto& vi : g.outputs) {
    auto it = env.find(vi.name);
    if (it == env.end()) throw Trap("output '" + vi.name + "' was not produced");
    result[vi.name] = it->second;
  }
  return result;
}

}  // namespace sonnx
