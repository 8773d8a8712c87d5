// Min: elementwise minimum of one or more inputs. Versions 1 and 6 need all inputs of the same
// shape; from version 8 they broadcast multidirectionally; 12 adds integer types, 13 bfloat16.
// A NaN in any input makes that element NaN (as numpy.minimum).
#include "util_a.h"

namespace sonnx {
namespace {
using namespace ops_a;

std::vector<Value> min_kernel(OpContext& ctx) {
  Shape out_shape;
  auto ins = variadic_inputs(ctx, ctx.version() >= 8, out_shape);
  return one(visit_real(ctx, ins[0]->dtype(), [&]<class T>() {
    using C = compute_t<T>;
    auto step = [](C acc, C v) -> C {
      if constexpr (std::is_floating_point_v<C>) {
        if (std::isnan(acc)) return acc;
        if (std::isnan(v)) return v;
      }
      return v < acc ? v : acc;
    };
    return variadic_fold<T>(ins, out_shape, step, [](C acc) { return to_storage<T>(acc); });
  }));
}
}  // namespace
SONNX_KERNEL("", "Min", 1, min_kernel, Accuracy::Exact);
SONNX_KERNEL("", "Min", 8, min_kernel, Accuracy::Exact);
}  // namespace sonnx
