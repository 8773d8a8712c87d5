// Parallel: a Dataflow executor whose ready steps run on a pool of `threads` workers at the same
// time. A step that no other step can run beside (every other step is before or after it in every
// schedule) uses `threads` threads itself (its kernel as prepared for that count in a second
// compiled plan); every other step uses one thread. The memory plan never lets two steps that may
// run at the same time share bytes, and every step computes the same result whatever ran before
// it, so the results do not depend on the timing. Ready steps are taken longest remaining path
// first, with each step's time from the previous run (HEFT's upward rank); the first run takes
// them in schedule order.
//
// Its steps run on the one ready-step scheduler (ready_scheduler.h): a pool of `threads` workers,
// or with run_launched (Session::run_async) the calling thread and the caller's launched tasks.
#pragma once
#include <functional>
#include <memory>
#include <vector>

#include "executor.h"
#include "ready_scheduler.h"

namespace sonnx {

class ParallelExecutor final : public OptimizedExecutor {
 public:
  ParallelExecutor(std::shared_ptr<const CompiledModel> model, ExecutorOptions options);
  ~ParallelExecutor() override;
  const char* name() const override { return "parallel"; }
  NamedValues run_launched(const NamedValues& inputs, const std::function<void(std::function<void()>)>& launch) override;

 protected:
  void execute_impl(Frame& frame) override;

 private:
  void run_one(Frame& frame, int i);           // step i, on as many threads as it may use; times it
  std::shared_ptr<const CompiledModel> wide_;  // the same model, kernels prepared for `threads` threads
  ReadyScheduler scheduler_;
  // Set by run_launched for its run.
  const TaskLauncher* launch_ = nullptr;
  std::vector<double> priority_;  // per step: upward rank from the last run's step times
  std::vector<double> step_ms_;   // per step: time in the current run (distinct steps, distinct elements)
};

}  // namespace sonnx
