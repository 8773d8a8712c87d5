// Relies on execution.mlw Dataflow.confluence: two complete dataflow executions end with the same environment (determinism).
// Relies on execution.mlw Dataflow.progress: in an acyclic graph an incomplete execution can continue.
// Relies on memory_plan.mlw Concurrent.concurrent_run_is_sequential: the concurrent conflict relation is sufficient: on a plan valid for it, every run respecting the dependencies gives every value (and every read) its sequential contents.
#include <algorithm>
#include <chrono>

#include "optimized/kernels/scoped_threads.h"
#include "parallel_executor.h"

namespace sonnx {

ParallelExecutor::ParallelExecutor(std::shared_ptr<const CompiledModel> model, ExecutorOptions options)
    : OptimizedExecutor(model, options), scheduler_(options.threads < 1 ? 1 : options.threads) {
  if (options.threads > 1) {
    CompileOptions wide = model->options();
    wide.kernel_threads = options.threads;  // its kernels read this model's weights, held or plain, through the frame
    wide_ = std::make_shared<const CompiledModel>(model, wide);
  }
}

ParallelExecutor::~ParallelExecutor() = default;

void ParallelExecutor::run_one(Frame& frame, int i) {
  // A step that is alone in every schedule (all other steps are before or after it) may use
  // every thread. Deciding this from the graph, not from what happens to be running, keeps the
  // kernel of each step — and so its rounding — the same in every run.
  bool alone = wide_ && frame.cg.runs_alone(i);
  // Restored after: the thread may be the caller's or a launcher's.
  fast::ScopedThreads threads(alone ? options().threads : 1);
  auto t0 = std::chrono::steady_clock::now();
  run_step(frame, i, alone ? wide_->root().steps()[static_cast<size_t>(i)].fast.get() : nullptr);
  step_ms_[static_cast<size_t>(i)] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

NamedValues ParallelExecutor::run_launched(const NamedValues& inputs, const TaskLauncher& launch) {
  launch_ = &launch;
  struct Reset {
    const TaskLauncher*& launch;
    ~Reset() { launch = nullptr; }
  } reset{launch_};
  return run(inputs);
}

void ParallelExecutor::execute_impl(Frame& frame) {
  const std::vector<std::vector<int>>& successors = frame.cg.successors();
  size_t n = successors.size();
  if (priority_.size() != n) priority_.assign(n, 0.0);
  step_ms_.assign(n, 0.0);
  scheduler_.run(
      frame.cg.dependencies(), [&](int i) { run_one(frame, i); }, &priority_, launch_);
  // Ready steps are taken longest remaining path first (HEFT's upward rank): a step's time plus
  // the longest rank among its successors. Not reached after an error.
  for (size_t i = n; i-- > 0;) {
    double longest = 0;
    for (int s : successors[i]) longest = std::max(longest, priority_[static_cast<size_t>(s)]);
    priority_[i] = step_ms_[i] + longest;
  }
}

}  // namespace sonnx
