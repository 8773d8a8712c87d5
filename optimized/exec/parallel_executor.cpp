#include <omp.h>

#include "executors.h"

namespace sonnx {

ParallelExecutor::ParallelExecutor(std::shared_ptr<const CompiledModel> model, ExecutorOptions options)
    : Executor(std::move(model), options) {
  int n = options.threads < 1 ? 1 : options.threads;
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

void ParallelExecutor::work() {
  omp_set_num_threads(1);  // parallelism comes from running steps side by side
  std::unique_lock lock(mutex_);
  for (;;) {
    work_ready_.wait(lock, [this] { return stop_ || !ready_.empty(); });
    if (stop_) return;
    int i = ready_.front();
    ready_.pop_front();
    ++running_;
    lock.unlock();
    std::exception_ptr error;
    try {
      run_step(*frame_, i);
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
        if (--waiting_[static_cast<size_t>(s)] == 0) ready_.push_back(s);
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
  for (size_t i = 0; i < waiting_.size(); ++i)
    if (waiting_[i] == 0) ready_.push_back(static_cast<int>(i));
  work_ready_.notify_all();
  run_done_.wait(lock, [this] { return remaining_ == 0 || (error_ && running_ == 0); });
  frame_ = nullptr;
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

}  // namespace sonnx
