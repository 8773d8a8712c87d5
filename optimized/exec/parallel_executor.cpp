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

void ParallelExecutor::work() {
  std::unique_lock lock(mutex_);
  for (;;) {
    work_ready_.wait(lock, [this] { return stop_ || !ready_.empty(); });
    if (stop_) return;
    int i = pop_ready();
    // A step that is alone in every schedule (all other steps are before or after it) may use
    // every thread. Deciding this from the graph, not from what happens to be running, keeps the
    // kernel of each step — and so its rounding — the same in every run.
    bool alone = wide_ && frame_->cg.runs_alone(i);
    ++running_;
    lock.unlock();
    std::exception_ptr error;
    try {
      omp_set_num_threads(alone ? options().threads : 1);
      auto t0 = std::chrono::steady_clock::now();
      run_step(*frame_, i, alone ? wide_->root().steps()[static_cast<size_t>(i)].fast.get() : nullptr);
      step_ms_[static_cast<size_t>(i)] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    --running_;
    --remaining_;
    if (error && !error_) error_ = error;
    if (error_) ready_.clear();  // start nothing new; the run ends when the running steps do
    else
      for (int s : frame_->cg.successors()[static_cast<size_t>(i)])
        if (--waiting_[static_cast<size_t>(s)] == 0) push_ready(s);
    if (!ready_.empty()) work_ready_.notify_all();
    if (remaining_ == 0 || (error_ && running_ == 0)) run_done_.notify_all();
  }
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
  for (size_t i = 0; i < n; ++i)
    if (waiting_[i] == 0) push_ready(static_cast<int>(i));
  work_ready_.notify_all();
  run_done_.wait(lock, [this] { return remaining_ == 0 || (error_ && running_ == 0); });
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
