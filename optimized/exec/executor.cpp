// Relies on memory_plan.mlw Arena.arena_is_heap: under a valid plan, executing in the arena computes what executing on the heap computes: live values keep their heap contents, every kernel reading the arena computes the heap contents.
#include "executor.h"

#include <omp.h>

#include <algorithm>
#include <set>
#include <stdexcept>

#include "reference/interp/interpreter.h"
#include "sonnx/errors.h"

namespace sonnx {

namespace {

// The input-shape signature a memory plan is valid for: each input's kind, type and shape.
std::string signature(const std::vector<const Value*>& inputs) {
  std::string sig;
  for (const Value* v : inputs) {
    if (!v) sig += "-;";
    else if (v->is_tensor()) sig += std::string(dtype_name(v->tensor.dtype())) + shape_str(v->tensor.shape()) + ";";
    else sig += "other;";  // sequences, optionals and maps are never in the arena
  }
  return sig;
}

// ExecutorOptions::inject_fault: after each step that runs (or fuses) a node of that op_type, in
// any graph, the first element of its first output is off by one — a planted kernel bug the
// differential tests must find.
class FaultPlanter final : public StepObserver {
 public:
  explicit FaultPlanter(std::string op) : op_(std::move(op)) {}
  void step_done(Frame& f, int i, const FastKernel*, double) override {
    const Step& step = f.cg.steps()[static_cast<size_t>(i)];
    bool hit = step.node->op_type == op_;
    for (const Node* n : step.fused) hit = hit || n->op_type == op_;
    if (!hit || step.outputs.empty() || step.outputs[0] < 0) return;
    Value& v = f.own[static_cast<size_t>(step.outputs[0])];
    if (!v.is_tensor() || v.tensor.size() == 0) return;
    Tensor& t = v.tensor;
    visit_dtype(t.dtype(), [&]<class T>() {
      if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) t.data<T>()[0] = static_cast<T>(t.data<T>()[0] + 1);
      else if constexpr (std::is_same_v<T, bool>) t.data<bool>()[0] = !t.data<bool>()[0];
    });
  }

 private:
  std::string op_;
};

// What ran each step of the main graph and how long it took; passes each step on to `also`.
struct RunRecord final : public StepObserver {
  RunRecord(size_t steps, StepObserver* also_told) : ran(steps, nullptr), seconds(steps, 0.0), also(also_told) {}
  void step_done(Frame& f, int i, const FastKernel* kernel, double s) override {
    ran[static_cast<size_t>(i)] = kernel;  // distinct steps, distinct elements
    seconds[static_cast<size_t>(i)] = s;
    if (also) also->step_done(f, i, kernel, s);
  }
  std::vector<const FastKernel*> ran;
  std::vector<double> seconds;
  StepObserver* also;
};

}  // namespace

OptimizedExecutor::OptimizedExecutor(std::shared_ptr<const CompiledModel> model, ExecutorOptions options)
    : model_(std::move(model)),
      options_(std::move(options)),
      fallback_(std::make_unique<Interpreter>(model_->model(), options_.seed)) {}

OptimizedExecutor::~OptimizedExecutor() = default;

NamedValues OptimizedExecutor::run(const NamedValues& inputs) {
  bool made_plan = false;
  NamedValues out = run_once(inputs, made_plan);
  if (!options_.verify_arena_run || !made_plan) return out;
  bool again = false;
  NamedValues in_arena = run_once(inputs, again);
  if (in_arena != out)
    throw InternalError(std::string(name()) + " executor: the run in the planned arena differs from the planning run");
  return in_arena;
}

NamedValues OptimizedExecutor::run_once(const NamedValues& inputs, bool& made_plan) {
  const CompiledGraph& g = model_->root();
  const Graph& graph = g.graph();
  std::set<std::string> declared;
  std::vector<const Value*> bound;
  for (const auto& in : graph.inputs) {
    declared.insert(in.name);
    auto it = inputs.find(in.name);
    if (it != inputs.end()) {
      check_given_input(in, it->second);
      bound.push_back(&it->second);
      continue;
    }
    bool has_default = false;
    for (const auto& [name, t] : graph.initializers) has_default = has_default || name == in.name;
    if (!has_default) throw Trap("graph input '" + in.name + "' was not given");
    bound.push_back(nullptr);
  }
  for (const auto& [name, v] : inputs)
    if (!declared.count(name)) throw Trap("'" + name + "' is not an input of the graph");

  omp_set_num_threads(options_.threads);  // threads the kernels of this thread may use
  CompiledModel::PlanKey key{signature(bound), options_.planner, needs_concurrent_plan()};
  plan_ = model_->find_plan(key);
  Frame frame(g, nullptr, options_.seed);
  frame.fallback = fallback_.get();
  FaultPlanter fault(options_.inject_fault);
  RunRecord record(g.steps().size(), options_.inject_fault.empty() ? nullptr : &fault);
  frame.observer = &record;
  frame.timed = options_.profile;
  frame.subgraph_observer = record.also;
  std::vector<int64_t> measured;
  std::vector<std::shared_ptr<const FoldedStep>> folded;
  if (plan_) {
    if (arena_size_ < static_cast<size_t>(plan_->arena_bytes)) {
      arena_size_ = static_cast<size_t>(plan_->arena_bytes);
      arena_.reset(static_cast<std::byte*>(::operator new[](arena_size_, std::align_val_t(kArenaAlignment))));
    }
    frame.arena = arena_.get();
    frame.plan = plan_.get();
  } else {
    // First run with this signature: run on the heap and measure every tensor, then plan.
    measured.assign(g.num_slots(), -1);
    frame.measure = &measured;
    folded.resize(g.steps().size());
    frame.fold_record = &folded;
  }
  frame.bind(bound);
  execute_impl(frame);
  if (!plan_) {
    auto plan = std::make_shared<MemoryPlan>(make_memory_plan(g, measured, options_.planner, needs_concurrent_plan()));
    plan->folded = std::move(folded);
    // add_plan checks it (check_memory_plan) before any executor may use it.
    plan_ = model_->add_plan(key, std::move(plan));
    made_plan = true;
  }
  kernels_run_.clear();
  for (size_t i = 0; i < record.ran.size(); ++i) {
    const Step& step = g.steps()[i];
    const FastKernel* ran = record.ran[i];
    std::string kernel = ran ? ran->name() : step.kernel ? "reference" : "reference:function";
    ++kernels_run_[kernel];
    if (!options_.profile) continue;
    std::string ops = step.node->op_type;
    if (step.folded) ops += "+" + step.folded->op_type;
    for (const Node* n : step.fused) ops += "+" + n->op_type;
    ProfileEntry& e = profile_[{ops, kernel}];
    e.ops = ops;
    e.kernel = kernel;
    e.seconds += record.seconds[i];
    ++e.steps;
  }
  NamedValues out;
  for (int s : g.output_slots()) {
    const Value* v = frame.at[static_cast<size_t>(s)];
    if (!v) throw Trap("graph output '" + g.slot_name(s) + "' was never computed");
    out[g.slot_name(s)] = *v;
  }
  return out;
}

std::vector<ProfileEntry> OptimizedExecutor::profile() const {
  std::vector<ProfileEntry> out;
  for (const auto& [key, e] : profile_) out.push_back(e);
  std::sort(out.begin(), out.end(), [](const ProfileEntry& a, const ProfileEntry& b) { return a.seconds > b.seconds; });
  return out;
}

}  // namespace sonnx
