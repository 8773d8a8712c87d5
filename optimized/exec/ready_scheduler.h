// The one ready-step scheduler: runs every step of a DependencyGraph once, each after all the
// steps it waits for, on the threads that take part in the run. The parallel executor and the
// device-set executor (optimized/backends/partitioned_executor.h) both run their steps with it.
//
// Who takes part, for one run:
//  - given a launcher (Session::run_async; PyTorch Static Runtime's runAsync): the calling thread
//    runs ready steps itself and hands each other ready step to the launcher as a task. A task runs
//    ready steps until none is left, then returns; the calling thread waits only while no step is
//    ready and steps are running, so it can finish the run alone when the launcher runs no task in
//    time. A task may start after its run is over (even after the scheduler is gone): it holds only
//    the run's Launched state and finds it closed.
//  - else the scheduler's own pool of workers, while the calling thread waits;
//  - else (no pool) the calling thread alone.
// Ready steps are taken highest priority first; ties, and runs without priorities, lowest index
// first (so a graph numbered in a topological order runs in that order on one thread). After a
// step throws, no new step starts; the run ends when the running ones have, and rethrows the first
// error. One run at a time per scheduler.
#pragma once
#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "reference/model/dependencies.h"

namespace sonnx {

using TaskLauncher = std::function<void(std::function<void()>)>;

class ReadyScheduler {
 public:
  explicit ReadyScheduler(int workers = 0);  // workers: threads of its own pool (0: none)
  ~ReadyScheduler();
  ReadyScheduler(const ReadyScheduler&) = delete;
  ReadyScheduler& operator=(const ReadyScheduler&) = delete;

  // `run_step(i)` runs step i; it is called without the scheduler's lock, from any thread taking
  // part, for distinct steps at the same time. `priority` (may be null) has one entry per step.
  void run(const DependencyGraph& graph, const std::function<void(int)>& run_step, const std::vector<double>* priority = nullptr,
           const TaskLauncher* launch = nullptr);

 private:
  struct Launched;
  void work();                                             // a pool worker
  void run_ready(std::unique_lock<std::mutex>& lock);      // runs one ready step (lock held, ready_ not empty)
  static void help(const std::shared_ptr<Launched>& run);  // a launched task
  bool finished() const { return running_ == 0 && (remaining_ == 0 || error_ || ready_.empty()); }
  void push_ready(int step);
  int pop_ready();
  bool before(int a, int b) const;  // a is taken after b (the heap's order)

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable work_ready_, run_done_;
  // The current run, guarded by mutex_ (the pointers are fixed while a run is on).
  const DependencyGraph* graph_ = nullptr;
  const std::function<void(int)>* run_step_ = nullptr;
  const std::vector<double>* priority_ = nullptr;
  const TaskLauncher* launch_ = nullptr;
  std::vector<int> waiting_;  // unfinished predecessors per step
  std::vector<int> ready_;    // a heap
  size_t remaining_ = 0;      // steps not yet finished
  size_t running_ = 0;        // steps being run
  std::exception_ptr error_;
  bool stop_ = false;
  std::shared_ptr<Launched> launched_;  // in a launched run: what its tasks share
  size_t pending_ = 0;                  // in a launched run: tasks launched but not yet started
};

}  // namespace sonnx
