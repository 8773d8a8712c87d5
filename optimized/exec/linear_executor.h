// Linear: the steps in the compiled order. Its memory plan uses the lifetimes in exactly that order.
#pragma once
#include "executor.h"

namespace sonnx {

class LinearExecutor final : public OptimizedExecutor {
 public:
  using OptimizedExecutor::OptimizedExecutor;
  const char* name() const override { return "linear"; }

 protected:
  void execute_impl(Frame& frame) override;
  bool needs_concurrent_plan() const override { return false; }
};

}  // namespace sonnx
