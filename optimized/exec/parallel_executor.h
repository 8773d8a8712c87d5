// Parallel: a Dataflow executor whose ready steps run on a pool of `threads` workers at the same
// time. A step that no other step can run beside (every other step is before or after it in every
// schedule) uses `threads` threads itself (its kernel as prepared for that count in a second
// compiled plan); every other step uses one thread. The memory plan never lets two steps that may
// run at the same time share bytes, and every step computes the same result whatever ran before
// it, so the results do not depend on the timing. Ready steps are taken longest remaining path
// first, with each step's time from the previous run (HEFT's upward rank); the first run takes
// them in schedule order.
//
// run_launched (Session::run_async; PyTorch Static Runtime's runAsync): the calling thread runs
// ready steps itself and hands the steps that become ready beside it to the caller's launcher as
// tasks instead of waking the pool. A task runs ready steps until none is left, then returns; the
// calling thread waits only while no step is ready and tasks are running, so it can finish the run
// alone when the launcher runs no task in time. A task may start after its run is over (even after
// the executor is gone): it holds only the run's Launched state and finds it closed.
#pragma once
#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "executor.h"

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
  struct Launched;
  void work();                                   // a pool worker
  void run_ready(std::unique_lock<std::mutex>& lock);  // runs one ready step (lock held, ready_ not empty)
  bool finished() const { return remaining_ == 0 || (error_ && running_ == 0); }
  static void help(const std::shared_ptr<Launched>& run);  // a launched task
  std::shared_ptr<const CompiledModel> wide_;  // the same model, kernels prepared for `threads` threads
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable work_ready_, run_done_;
  // Set by run_launched for its run (read without the lock: fixed while a run is on).
  const std::function<void(std::function<void()>)>* launch_ = nullptr;
  // State of the current run, guarded by mutex_.
  Frame* frame_ = nullptr;
  std::vector<int> waiting_;   // unfinished predecessors per step
  std::vector<int> ready_;     // a heap by priority_
  std::vector<double> priority_;   // per step: upward rank from the last run's step times
  std::vector<double> step_ms_;    // per step: time in the current run
  void push_ready(int step);
  int pop_ready();
  size_t remaining_ = 0;       // steps not yet finished
  size_t running_ = 0;         // steps being run by a worker
  std::exception_ptr error_;
  bool stop_ = false;
  std::shared_ptr<Launched> launched_;  // in a launched run: what its tasks share
  size_t pending_ = 0;                  // in a launched run: tasks launched but not yet started
};

}  // namespace sonnx
