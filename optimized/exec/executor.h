// The optimized executors (DESIGN.md §1; Samsung ONE's ExecutorBase shape): run() binds the
// inputs, finds or makes the memory plan for this input-shape signature, sets up the arena and
// calls execute_impl, which each executor implements with its own way of choosing the next step.
// One executor instance per thread; many may share one CompiledModel.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "frame.h"
#include "optimized/plan/compiled_model.h"
#include "reference/interp/interpreter.h"

namespace sonnx {

struct ExecutorOptions {
  int threads = 1;                          // Linear/Dataflow: threads a kernel may use; Parallel: workers
  Planner planner = Planner::GreedyBySize;
  uint64_t seed = 0;                        // random operators
  // Test only (`sonnx fuzz --inject-fault`): after every step whose node (or a node fused into
  // it) has this op_type, add 1 to the first element of its first output — a planted kernel bug
  // the differential tests must find. Empty: no fault.
  std::string inject_fault;
};

class Executor {
 public:
  Executor(std::shared_ptr<const CompiledModel> model, ExecutorOptions options);
  virtual ~Executor();
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;

  // Runs the model: like Interpreter::run (inputs by name, initializers as defaults). Not virtual:
  // every executor shares this frame, and differs only in execute_impl.
  NamedValues run(const NamedValues& inputs);

  virtual const char* name() const = 0;
  // The memory plan the last run used (null before the first run with a signature's plan).
  const MemoryPlan* plan() const { return plan_.get(); }
  int64_t arena_bytes() const { return static_cast<int64_t>(arena_size_); }

 protected:
  // Runs every step of `frame` (all inputs bound) once, respecting dependencies.
  virtual void execute_impl(Frame& frame) = 0;
  // Whether the memory plan must be safe for any schedule (true unless steps run in plan order).
  virtual bool needs_concurrent_plan() const { return true; }
  const ExecutorOptions& options() const { return options_; }

 private:
  std::shared_ptr<const CompiledModel> model_;
  ExecutorOptions options_;
  Interpreter fallback_;
  std::shared_ptr<const MemoryPlan> plan_;
  struct AlignedFree {
    void operator()(std::byte* p) const { ::operator delete[](p, std::align_val_t(kArenaAlignment)); }
  };
  std::unique_ptr<std::byte[], AlignedFree> arena_;
  size_t arena_size_ = 0;
};

// "linear", "dataflow" or "parallel"; throws std::invalid_argument for another name.
std::unique_ptr<Executor> make_executor(const std::string& name, std::shared_ptr<const CompiledModel> model,
                                        ExecutorOptions options = {});
const std::vector<std::string>& optimized_executor_names();
// How to compile a model for this executor and thread count (Parallel's kernels get one thread each).
CompileOptions compile_options_for(const std::string& executor, int threads);

}  // namespace sonnx
