// What every executor is to its users: something that runs a model on named inputs and returns
// its named outputs (Executor). "reference" is the interpreter (reference_executor.h); "linear",
// "dataflow" and "parallel" are the optimized executors, which share OptimizedExecutor's frame
// (docs/design.md §2.6; Samsung ONE's ExecutorBase shape): run() binds the inputs, finds or makes the
// memory plan for this input-shape signature, sets up the arena and calls execute_impl, which each
// optimized executor implements with its own way of choosing the next step. One optimized executor
// instance per thread; many may share one CompiledModel. make_executor.h makes any of them by name.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "frame.h"
#include "optimized/plan/compiled_model.h"
#include "optimized/plan/memory_planner.h"
#include "sonnx/value.h"

namespace sonnx {

class Interpreter;

struct ExecutorOptions {
  int threads = 1;  // Linear/Dataflow: threads a kernel may use; Parallel: workers
  Planner planner = Planner::GreedyBySize;
  uint64_t seed = 0;  // random operators
  // The "run twice and compare" check: the run that makes a memory plan (on the heap) is repeated
  // in the planned arena and the two results must be bitwise equal (else InternalError); the
  // arena run's result is returned. Costs a second run per new input-shape signature, so it is off
  // for `run` and `bench` and on for the tests, `conform` and `fuzz`. No effect on "reference".
  bool verify_arena_run = false;
  // Test only (`sonnx fuzz --inject-fault`): after every step whose node (or a node fused into
  // it) has this op_type, add 1 to the first element of its first output — a planted kernel bug
  // the differential tests must find. Empty: no fault. Optimized executors only.
  std::string inject_fault;
  // Time every step of the main graph (OptimizedExecutor::profile; `sonnx bench --profile`).
  bool profile = false;
};

// Where the time of the runs went, per kind of step: its operators ("Conv+Relu" for a fused step)
// and the kernel that ran it.
struct ProfileEntry {
  std::string ops, kernel;
  double seconds = 0;
  int64_t steps = 0;  // step executions (steps of this kind times runs)
};

class Executor {
 public:
  virtual ~Executor() = default;
  // Runs the model: `inputs` binds graph inputs by name (an input with an initializer may be left
  // out); returns every graph output by name. Throws Trap for a run-time error (the executor can
  // run again) and Unsupported for an operator version it has no way to run.
  virtual NamedValues run(const NamedValues& inputs) = 0;
  // Like run, but work that can proceed beside the calling thread may be handed to `launch` as
  // tasks (Session::run_async); the calling thread takes part until the run is over. Only the
  // parallel executor launches anything: the others run everything inline.
  virtual NamedValues run_launched(const NamedValues& inputs, const std::function<void(std::function<void()>)>& /*launch*/) {
    return run(inputs);
  }
  virtual const char* name() const = 0;
};

class OptimizedExecutor : public Executor {
 public:
  OptimizedExecutor(std::shared_ptr<const CompiledModel> model, ExecutorOptions options);
  ~OptimizedExecutor() override;
  OptimizedExecutor(const OptimizedExecutor&) = delete;
  OptimizedExecutor& operator=(const OptimizedExecutor&) = delete;

  // Runs the model: like Interpreter::run (inputs by name, initializers as defaults). Final:
  // every optimized executor shares this frame, and differs only in execute_impl. With
  // ExecutorOptions::verify_arena_run, a run that makes a memory plan is repeated in the arena.
  NamedValues run(const NamedValues& inputs) final;

  const std::shared_ptr<const CompiledModel>& compiled() const { return model_; }
  const ExecutorOptions& options() const { return options_; }
  // The memory plan the last run used (null before the first run with a signature's plan).
  const MemoryPlan* plan() const { return plan_.get(); }
  int64_t arena_bytes() const { return static_cast<int64_t>(arena_size_); }
  // Which kernels ran the main graph's steps in the last run: kernel name ("onednn:conv", ...,
  // "reference" for a reference kernel, "reference:function" for a function body) -> steps.
  const std::map<std::string, int>& kernels_run() const { return kernels_run_; }
  // With ExecutorOptions::profile: the time of every run since the executor was made (or since
  // reset_profile), by kind of step, the most expensive first.
  std::vector<ProfileEntry> profile() const;
  void reset_profile() { profile_.clear(); }

 protected:
  // Runs every step of `frame` (all inputs bound) once, respecting dependencies.
  virtual void execute_impl(Frame& frame) = 0;
  // Whether the memory plan must be safe for any schedule (true unless steps run in plan order).
  virtual bool needs_concurrent_plan() const { return true; }

 private:
  // One run; sets `made_plan` when it ran on the heap and made this signature's plan.
  NamedValues run_once(const NamedValues& inputs, bool& made_plan);

  std::shared_ptr<const CompiledModel> model_;
  ExecutorOptions options_;
  std::unique_ptr<Interpreter> fallback_;  // runs nodes that have no kernel (context-dependent bodies)
  std::shared_ptr<const MemoryPlan> plan_;
  struct AlignedFree {
    void operator()(std::byte* p) const { ::operator delete[](p, std::align_val_t(kArenaAlignment)); }
  };
  std::unique_ptr<std::byte[], AlignedFree> arena_;
  size_t arena_size_ = 0;
  std::map<std::string, int> kernels_run_;
  std::map<std::pair<std::string, std::string>, ProfileEntry> profile_;
};

}  // namespace sonnx
