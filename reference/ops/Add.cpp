// Add: elementwise sum. Versions 1 and 6 broadcast B to A only when broadcast=1 (legacy
// broadcasting); from version 7 on both inputs broadcast multidirectionally.
#include "op_params.h"
#include "params/broadcast.h"
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {
template <class T>
T add(T a, T b) {
  if constexpr (std::is_integral_v<T>) return wrap_add<T>(a, b);  // integer overflow wraps
  else return to_storage<T>(static_cast<compute_t<T>>(a) + static_cast<compute_t<T>>(b));
}

std::vector<Value> add_v7(OpContext& ctx) {
  const Tensor& a = ctx.input(0);
  const Tensor& b = ctx.input(1);
  if (a.dtype() != b.dtype()) ctx.fail("inputs have different element types");
  return one(visit_real(ctx, a.dtype(), [&]<class T>() { return binary_elementwise<T, T>(ctx, a, b, add<T>); }));
}

std::vector<Value> add_v1(OpContext& ctx) {
  const Tensor& a = ctx.input(0);
  Tensor b = legacy_broadcast(ctx, a, ctx.input(1));
  return one(visit_real(ctx, a.dtype(), [&]<class T>() { return binary_elementwise<T, T>(ctx, a, b, add<T>); }));
}
}  // namespace
SONNX_PARAMS("", "Add", (1, 6), LegacyBroadcastParams);
SONNX_KERNEL("", "Add", 1, add_v1, Accuracy::Rounding);
SONNX_KERNEL("", "Add", 7, add_v7, Accuracy::Rounding);
namespace {
void add_shape(InferContext& ctx) { arithmetic_rule(ctx, '+'); }
}  // namespace
SONNX_SHAPE_RULE("", "Add", (1, 6, 7, 13, 14), add_shape);
}  // namespace sonnx
