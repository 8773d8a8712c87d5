// Linear: the steps in the compiled order, with no readiness checks at run time (the order is
// topological, so every input is ready when its step comes). The memory plan uses the lifetimes
// in exactly this order.
// Relies on execution.mlw Dataflow.topological_order_is_schedule: every topological order is a valid complete schedule.
// Relies on memory_plan.mlw Arena.arena_is_heap: under a valid plan, executing in the arena computes what executing on the heap computes: live values keep their heap contents, every kernel reading the arena computes the heap contents.
#include "linear_executor.h"

namespace sonnx {

void LinearExecutor::execute_impl(Frame& frame) {
  size_t n = frame.cg.steps().size();
  for (size_t i = 0; i < n; ++i) run_step(frame, static_cast<int>(i));
}

}  // namespace sonnx
