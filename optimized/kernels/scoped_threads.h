// The OpenMP threads of the calling thread set for a scope and restored after it (kernels that fix
// their thread count when prepared; the parallel executor's steps, run on whatever thread takes them).
#pragma once
#include <omp.h>

namespace sonnx::fast {

// n ≤ 0: left as they are.
class ScopedThreads {
 public:
  explicit ScopedThreads(int n) : saved_(omp_get_max_threads()) {
    if (n > 0) omp_set_num_threads(n);
  }
  ~ScopedThreads() { omp_set_num_threads(saved_); }
  ScopedThreads(const ScopedThreads&) = delete;
  ScopedThreads& operator=(const ScopedThreads&) = delete;

 private:
  int saved_;
};

}  // namespace sonnx::fast
