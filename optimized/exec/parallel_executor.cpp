// Relies on execution.mlw Dataflow.confluence: two complete dataflow executions end with the same environment (determinism).
// Relies on execution.mlw Dataflow.progress: in an acyclic graph an incomplete execution can continue.
// Relies on memory_plan.mlw Concurrent.concurrent_run_is_sequential: the concurrent conflict relation is sufficient: on a plan valid for it, every run respecting the dependencies gives every value (and every read) its sequential contents.
#include <omp.h>

#include <algorithm>
#include <chrono>

#include "parallel_executor.h"

namespace sonnx {

ParallelExecutor::ParallelExecutor(std::shared_ptr<const CompiledModel> model, ExecutorOptions options)
    : OptimizedExecutor(model, options) {
  int n = options.threads < 1 ? 1 : options.threads;
  if (n > 1) {
    CompileOptions wide = model->options();
    wide.kernel_threads = n;  // its kernels read this model's weights, held or plain, through the frame
    wide_ = std::make_shared<const CompiledModel>(model, wide);
  }
  for (int t = 0; t < n; ++t) workers_.emplace_back([this] { work(); });
}

ParallelExecutor::~ParallelExecutor() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  work_ready_.notify_all();
  for (auto& w : workers_) w.join();
}

// Higher priority first; ties (and the first run, when all are 0) in schedule order.
void ParallelExecutor::push_ready(int step) {
  ready_.push_back(step);
  std::push_heap(ready_.begin(), ready_.end(), [this](int a, int b) {
    double pa = priority_[static_cast<size_t>(a)], pb = priority_[static_cast<size_t>(b)];
    return pa != pb ? pa < pb : a > b;
  });
}

int ParallelExecutor::pop_ready() {
  std::pop_heap(ready_.begin(), ready_.end(), [this](int a, int b) {
    double pa = priority_[static_cast<size_t>(a)], pb = priority_[static_cast<size_t>(b)];
    return pa != pb ? pa < pb : a > b;
  });
  int i = ready_.back();
  ready_.pop_back();
  return i;
}

// What the tasks of one launched run share with it. A task may start after the run is over, or
// after the executor is gone: it enters only while `exec` is set, and the run clears `exec` and
// waits for the tasks inside to leave before it returns.
struct ParallelExecutor::Launched {
  std::mutex mutex;
  std::condition_variable left;
  ParallelExecutor* exec = nullptr;  // null once the run is over
  int inside = 0;                    // tasks that entered and have not left
};

void ParallelExecutor::work() {
  std::unique_lock lock(mutex_);
  for (;;) {
    // A launched run's steps are for its calling thread and its tasks, not for the pool.
    work_ready_.wait(lock, [this] { return stop_ || (!ready_.empty() && !launched_); });
    if (stop_) return;
    run_ready(lock);
  }
}

void ParallelExecutor::help(const std::shared_ptr<Launched>& run) {
  ParallelExecutor* e;
  {
    std::lock_guard lock(run->mutex);
    if (!run->exec) return;
    ++run->inside;
    e = run->exec;
  }
  {
    std::unique_lock lock(e->mutex_);
    --e->pending_;
    while (!e->ready_.empty()) e->run_ready(lock);
  }
  std::lock_guard lock(run->mutex);
  if (--run->inside == 0) run->left.notify_all();
}

// Shared by the pool workers, a launched run's calling thread and its tasks: claims the best ready
// step, runs it with the lock released and makes its successors ready.
void ParallelExecutor::run_ready(std::unique_lock<std::mutex>& lock) {
  int i = pop_ready();
  // A step that is alone in every schedule (all other steps are before or after it) may use
  // every thread. Deciding this from the graph, not from what happens to be running, keeps the
  // kernel of each step — and so its rounding — the same in every run.
  bool alone = wide_ && frame_->cg.runs_alone(i);
  ++running_;
  // A launched run: one task per ready step no task is on its way for yet.
  std::shared_ptr<Launched> launched = launched_;
  size_t launches = 0;
  if (launched && !error_ && ready_.size() > pending_) launches = ready_.size() - pending_;
  pending_ += launches;
  lock.unlock();
  std::exception_ptr error;
  int threads = omp_get_max_threads();  // restored after: the thread may be the caller's or a launcher's
  try {
    for (size_t k = 0; k < launches; ++k) (*launch_)([launched] { help(launched); });
    omp_set_num_threads(alone ? options().threads : 1);
    auto t0 = std::chrono::steady_clock::now();
    run_step(*frame_, i, alone ? wide_->root().steps()[static_cast<size_t>(i)].fast.get() : nullptr);
    step_ms_[static_cast<size_t>(i)] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  } catch (...) {
    error = std::current_exception();
  }
  omp_set_num_threads(threads);
  lock.lock();
  --running_;
  --remaining_;
  if (error && !error_) error_ = error;
  if (error_) ready_.clear();  // start nothing new; the run ends when the running steps do
  else
    for (int s : frame_->cg.successors()[static_cast<size_t>(i)])
      if (--waiting_[static_cast<size_t>(s)] == 0) push_ready(s);
  if (launched) {
    if (!ready_.empty() || finished()) run_done_.notify_all();  // the calling thread may take them
  } else {
    if (!ready_.empty()) work_ready_.notify_all();
    if (finished()) run_done_.notify_all();
  }
}

NamedValues ParallelExecutor::run_launched(const NamedValues& inputs, const std::function<void(std::function<void()>)>& launch) {
  launch_ = &launch;
  struct Reset {
    const std::function<void(std::function<void()>)>*& launch;
    ~Reset() { launch = nullptr; }
  } reset{launch_};
  return run(inputs);
}

void ParallelExecutor::execute_impl(Frame& frame) {
  std::unique_lock lock(mutex_);
  frame_ = &frame;
  waiting_ = frame.cg.num_predecessors();
  remaining_ = waiting_.size();
  error_ = nullptr;
  size_t n = waiting_.size();
  if (priority_.size() != n) priority_.assign(n, 0.0);
  step_ms_.assign(n, 0.0);
  if (launch_) {
    launched_ = std::make_shared<Launched>();
    launched_->exec = this;
    pending_ = 0;
  }
  for (size_t i = 0; i < n; ++i)
    if (waiting_[i] == 0) push_ready(static_cast<int>(i));
  if (!launched_) {
    work_ready_.notify_all();
    run_done_.wait(lock, [this] { return finished(); });
  } else {
    // The calling thread runs steps too, and waits only while none is ready.
    for (;;) {
      if (!ready_.empty()) run_ready(lock);
      else if (finished()) break;
      else run_done_.wait(lock);
    }
    std::shared_ptr<Launched> launched = std::exchange(launched_, nullptr);
    lock.unlock();
    {
      std::unique_lock closing(launched->mutex);
      launched->exec = nullptr;
      launched->left.wait(closing, [&] { return launched->inside == 0; });
    }
    lock.lock();
  }
  frame_ = nullptr;
  if (!error_)  // upward rank: a step's time plus the longest rank among its successors
    for (size_t i = n; i-- > 0;) {
      double longest = 0;
      for (int s : frame.cg.successors()[i]) longest = std::max(longest, priority_[static_cast<size_t>(s)]);
      priority_[i] = step_ms_[i] + longest;
    }
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

}  // namespace sonnx
