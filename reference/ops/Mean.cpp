// Mean: elementwise (x_1 + ... + x_n) / n of one or more inputs. Versions 1 and 6 need all inputs of
// the same shape; from version 8 they broadcast multidirectionally; 13 adds bfloat16. Floating
// types only; the sum and the division happen in the compute type (float for float16/bfloat16).
#include "op_params.h"
#include "params/legacy.h"
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> mean(OpContext& ctx) {
  Shape out_shape;
  auto ins = variadic_inputs(ctx, ctx.version() >= 8, out_shape);
  return one(visit_float(ctx, ins[0]->dtype(), [&]<class T>() {
    using C = compute_t<T>;
    C n = static_cast<C>(ins.size());
    return variadic_fold<T>(
        ins, out_shape, [](C acc, C v) { return acc + v; }, [&](C acc) { return to_storage<T>(acc / n); });
  }));
}
}  // namespace
// Version 1's only attribute is the legacy consumed_inputs.
SONNX_PARAMS("", "Mean", (1), LegacyConsumedInputsParams);
SONNX_KERNEL("", "Mean", 1, mean, Accuracy::Rounding);
SONNX_KERNEL("", "Mean", 8, mean, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "Mean", (1, 6, 8, 13), broadcast_rule);
}  // namespace sonnx
