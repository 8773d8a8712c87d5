// Sum: elementwise sum of one or more inputs. Versions 1 and 6 need all inputs of the same shape;
// from version 8 they broadcast multidirectionally; 13 adds bfloat16. Inputs are added left to
// right in the compute type (float for float16/bfloat16, rounded once at the end).
#include "op_params.h"
#include "params/legacy.h"
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> sum(OpContext& ctx) {
  Shape out_shape;
  auto ins = variadic_inputs(ctx, ctx.version() >= 8, out_shape);
  return one(visit_real(ctx, ins[0]->dtype(), [&]<class T>() {
    using C = compute_t<T>;
    auto step = [](C acc, C v) -> C {
      if constexpr (std::is_integral_v<C>) return wrap_add<C>(acc, v);
      else return acc + v;
    };
    return variadic_fold<T>(ins, out_shape, step, [](C acc) { return to_storage<T>(acc); });
  }));
}
}  // namespace
// Version 1's only attribute is the legacy consumed_inputs.
SONNX_PARAMS("", "Sum", (1), LegacyConsumedInputsParams);
SONNX_KERNEL("", "Sum", 1, sum, Accuracy::Rounding);
SONNX_KERNEL("", "Sum", 8, sum, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "Sum", (1, 6, 8, 13), broadcast_rule);
}  // namespace sonnx
