#include "partitioned_executor.h"

#include <condition_variable>
#include <deque>
#include <map>
#include <set>

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
  const size_t n = plan_.steps.size();
  prepared_.resize(n);
  // Step k waits for the steps that make what it reads.
  std::map<std::string, size_t> made_by;
  for (size_t k = 0; k < n; ++k)
    for (const auto& s : plan_.steps[k].outputs) made_by[s] = k;
  step_successors_.resize(n);
  step_predecessors_.assign(n, 0);
  for (size_t k = 0; k < n; ++k) {
    std::set<size_t> from;
    for (const auto& s : plan_.steps[k].inputs)
      if (auto it = made_by.find(s); it != made_by.end() && it->second != k) from.insert(it->second);
    for (size_t p : from) step_successors_[p].push_back(k);
    step_predecessors_[k] = static_cast<int>(from.size());
  }
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

NamedValues PartitionedExecutor::run(const NamedValues& inputs) {
  NamedValues env = bind(inputs);
  for (size_t k = 0; k < plan_.steps.size(); ++k)
    for (auto& [name, v] : run_backend_step(k, step_inputs(k, env))) env[name] = std::move(v);
  return outputs(env);
}

// One launched run. Tasks hold it by shared_ptr: one that starts after the run sees `over` and
// never touches the executor, which is only used while a step is counted in `running` (the
// caller waits for that count to drop to 0).
struct PartitionedExecutor::RunState {
  std::mutex mutex;
  std::condition_variable changed;
  NamedValues env;
  std::vector<int> waiting;
  std::deque<size_t> ready;
  size_t remaining = 0;
  size_t pending = 0;  // tasks launched that have not started
  int running = 0;
  std::exception_ptr error;
  bool over = false;
};

void PartitionedExecutor::drain(PartitionedExecutor* self, RunState& st, bool caller, const std::function<void(std::function<void()>)>& launch,
                                const std::shared_ptr<RunState>& keep) {
  std::unique_lock lock(st.mutex);
  if (!caller && st.pending > 0) --st.pending;
  for (;;) {
    if (st.over) return;
    if (!st.ready.empty() && !st.error) {
      size_t k = st.ready.front();
      st.ready.pop_front();
      ++st.running;
      std::exception_ptr error;
      NamedValues out;
      try {
        NamedValues in = self->step_inputs(k, st.env);
        lock.unlock();
        out = self->run_backend_step(k, in);
      } catch (...) {
        error = std::current_exception();
      }
      if (!lock.owns_lock()) lock.lock();
      size_t launches = 0;
      if (error) {
        if (!st.error) st.error = error;
      } else {
        for (auto& [name, v] : out) st.env[name] = std::move(v);
        --st.remaining;
        for (size_t s : self->step_successors_[k])
          if (--st.waiting[s] == 0) st.ready.push_back(s);
        // This thread takes one of the ready steps; the launcher gets a task for each other one
        // that no launched task is on its way for.
        launches = st.ready.size() > st.pending + 1 ? st.ready.size() - st.pending - 1 : 0;
        st.pending += launches;
      }
      if (launches) {
        // Still counted as running: the run cannot end (and run_async return) before the launches.
        lock.unlock();  // a launcher may run the task at once, on this thread
        for (size_t t = 0; t < launches; ++t)
          launch([self, keep, launch] { drain(self, *keep, false, launch, keep); });
        lock.lock();
      }
      --st.running;
      st.changed.notify_all();
      continue;
    }
    if (!caller) return;  // nothing ready: a task leaves
    if ((st.remaining == 0 || st.error) && st.running == 0) {
      st.over = true;
      return;
    }
    st.changed.wait(lock);
  }
}

NamedValues PartitionedExecutor::run(const NamedValues& inputs, const std::function<void(std::function<void()>)>& launch) {
  auto st = std::make_shared<RunState>();
  st->env = bind(inputs);
  st->waiting = step_predecessors_;
  st->remaining = plan_.steps.size();
  for (size_t k = 0; k < plan_.steps.size(); ++k)
    if (st->waiting[k] == 0) st->ready.push_back(k);
  size_t first = st->ready.size() > 1 ? st->ready.size() - 1 : 0;
  st->pending = first;
  for (size_t t = 0; t < first; ++t) launch([this, st, launch] { drain(this, *st, false, launch, st); });
  drain(this, *st, true, launch, st);
  if (st->error) std::rethrow_exception(st->error);
  return outputs(st->env);
}

}  // namespace sonnx
