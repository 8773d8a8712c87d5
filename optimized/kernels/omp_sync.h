// OpenMP regions made visible to ThreadSanitizer. Debian's libgomp is not built with TSan, so the
// fork and the join of a parallel region are invisible to it: a read inside a region of what the
// calling thread wrote before it, or a write after the region to what a worker read in it, looks
// unordered. Under TSan, each region declares its fork and join (SONNX_OMP_FORK before the pragma)
// and each iteration, or each thread's share of a `parallel` block, declares that it runs between
// them (SONNX_OMP_TASK first in its body); elsewhere both are nothing.
#pragma once

#if defined(__SANITIZE_THREAD__)
extern "C" void __tsan_acquire(void* addr);
extern "C" void __tsan_release(void* addr);

namespace sonnx::fast {
class OmpSync {
 public:
  OmpSync() { __tsan_release(&fork_); }
  ~OmpSync() { __tsan_acquire(&join_); }
  OmpSync(const OmpSync&) = delete;
  OmpSync& operator=(const OmpSync&) = delete;

  class Task {
   public:
    explicit Task(OmpSync& s) : s_(s) { __tsan_acquire(&s_.fork_); }
    ~Task() { __tsan_release(&s_.join_); }
    Task(const Task&) = delete;
    Task& operator=(const Task&) = delete;

   private:
    OmpSync& s_;
  };

 private:
  char fork_ = 0, join_ = 0;
};
}  // namespace sonnx::fast

#define SONNX_OMP_FORK(sync) ::sonnx::fast::OmpSync sync
#define SONNX_OMP_TASK(sync) ::sonnx::fast::OmpSync::Task sync##_task(sync)
#else
#define SONNX_OMP_FORK(sync) static_cast<void>(0)
#define SONNX_OMP_TASK(sync) static_cast<void>(0)
#endif
