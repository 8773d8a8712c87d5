// Relies on execution.mlw Dataflow.confluence: two complete dataflow executions end with the same environment (determinism).
// Relies on execution.mlw Dataflow.progress: in an acyclic graph an incomplete execution can continue.
#include "ready_scheduler.h"

#include <algorithm>

#include "sonnx/errors.h"

namespace sonnx {

ReadyScheduler::ReadyScheduler(int workers) {
  for (int t = 0; t < workers; ++t) workers_.emplace_back([this] { work(); });
}

ReadyScheduler::~ReadyScheduler() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  work_ready_.notify_all();
  for (auto& w : workers_) w.join();
}

bool ReadyScheduler::before(int a, int b) const {
  if (priority_) {
    double pa = (*priority_)[static_cast<size_t>(a)], pb = (*priority_)[static_cast<size_t>(b)];
    if (pa != pb) return pa < pb;
  }
  return a > b;
}

void ReadyScheduler::push_ready(int step) {
  ready_.push_back(step);
  std::push_heap(ready_.begin(), ready_.end(), [this](int a, int b) { return before(a, b); });
}

int ReadyScheduler::pop_ready() {
  std::pop_heap(ready_.begin(), ready_.end(), [this](int a, int b) { return before(a, b); });
  int i = ready_.back();
  ready_.pop_back();
  return i;
}

// What the tasks of one launched run share with it. A task enters only while `sched` is set; the
// run clears `sched` and waits for the tasks inside to leave before it returns.
struct ReadyScheduler::Launched {
  std::mutex mutex;
  std::condition_variable left;
  ReadyScheduler* sched = nullptr;  // null once the run is over
  int inside = 0;                   // tasks that entered and have not left
};

void ReadyScheduler::work() {
  std::unique_lock lock(mutex_);
  for (;;) {
    // A launched run's steps are for its calling thread and its tasks, not for the pool.
    work_ready_.wait(lock, [this] { return stop_ || (!ready_.empty() && !launched_); });
    if (stop_) return;
    run_ready(lock);
  }
}

void ReadyScheduler::help(const std::shared_ptr<Launched>& run) {
  ReadyScheduler* s;
  {
    std::lock_guard lock(run->mutex);
    if (!run->sched) return;
    ++run->inside;
    s = run->sched;
  }
  {
    std::unique_lock lock(s->mutex_);
    --s->pending_;
    while (!s->ready_.empty()) s->run_ready(lock);
  }
  std::lock_guard lock(run->mutex);
  if (--run->inside == 0) run->left.notify_all();
}

// Claims the first ready step, runs it with the lock released and makes its successors ready.
void ReadyScheduler::run_ready(std::unique_lock<std::mutex>& lock) {
  int i = pop_ready();
  ++running_;  // counted until its successors are ready: the run cannot end before its launches
  // A launched run: one task per ready step no task is on its way for yet.
  std::shared_ptr<Launched> launched = launched_;
  size_t launches = launched && !error_ && ready_.size() > pending_ ? ready_.size() - pending_ : 0;
  pending_ += launches;
  lock.unlock();
  std::exception_ptr error;
  try {
    for (size_t k = 0; k < launches; ++k) (*launch_)([launched] { help(launched); });
    (*run_step_)(i);
  } catch (...) {
    error = std::current_exception();
  }
  lock.lock();
  --running_;
  --remaining_;
  if (error && !error_) error_ = error;
  if (error_) ready_.clear();  // start nothing new; the run ends when the running steps do
  else
    for (int s : graph_->successors()[static_cast<size_t>(i)])
      if (--waiting_[static_cast<size_t>(s)] == 0) push_ready(s);
  if (!ready_.empty() && !launched) work_ready_.notify_all();
  if (finished() || (launched && !ready_.empty())) run_done_.notify_all();  // a launched run's caller may take them
}

void ReadyScheduler::run(const DependencyGraph& graph, const std::function<void(int)>& run_step,
                         const std::vector<double>* priority, const TaskLauncher* launch) {
  std::unique_lock lock(mutex_);
  graph_ = &graph;
  run_step_ = &run_step;
  priority_ = priority;
  launch_ = launch;
  waiting_ = graph.num_predecessors();
  remaining_ = waiting_.size();
  running_ = 0;
  error_ = nullptr;
  ready_.clear();
  for (size_t i = 0; i < waiting_.size(); ++i)
    if (waiting_[i] == 0) push_ready(static_cast<int>(i));
  if (launch) {
    launched_ = std::make_shared<Launched>();
    launched_->sched = this;
    pending_ = 0;
    for (;;) {  // the calling thread runs steps too, and waits only while none is ready
      if (!ready_.empty()) run_ready(lock);
      else if (finished()) break;
      else run_done_.wait(lock);
    }
    std::shared_ptr<Launched> launched = std::exchange(launched_, nullptr);
    lock.unlock();
    {
      std::unique_lock closing(launched->mutex);
      launched->sched = nullptr;
      launched->left.wait(closing, [&] { return launched->inside == 0; });
    }
    lock.lock();
  } else if (!workers_.empty()) {
    work_ready_.notify_all();
    run_done_.wait(lock, [this] { return finished(); });
  } else {
    while (!ready_.empty()) run_ready(lock);
  }
  graph_ = nullptr;
  run_step_ = nullptr;
  priority_ = nullptr;
  launch_ = nullptr;
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  if (remaining_ != 0) throw InternalError("the scheduler found no ready step: the step graph has a cycle");
}

}  // namespace sonnx
