// CumSum: running sums along an axis (a scalar input). exclusive=1 leaves out the current element
// (the first sum is 0); reverse=1 sums from the end. Integers wrap; float16/bfloat16 accumulate
// in float and round each output.
#include "support/shape.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> cumsum(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.rank() == 0) ctx.fail("input must have rank >= 1");
  int64_t axis = normalize_axis(ctx, int_scalar(ctx, ctx.input(1), "axis"), x.rank());
  bool exclusive = ctx.attr_int("exclusive", 0) != 0;
  bool reverse = ctx.attr_int("reverse", 0) != 0;
  int64_t n = x.dim(axis);
  int64_t outer = element_count(x.shape(), 0, static_cast<size_t>(axis));
  int64_t inner = element_count(x.shape(), static_cast<size_t>(axis) + 1, x.shape().size());
  Tensor out(x.dtype(), x.shape());
  visit_real(ctx, x.dtype(), [&]<class T>() {
    using C = compute_t<T>;
    const T* src = x.data<T>();
    T* dst = out.data<T>();
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        C sum = C(0);
        for (int64_t step = 0; step < n; ++step) {
          int64_t j = reverse ? n - 1 - step : step;
          int64_t at = (o * n + j) * inner + i;
          C v = static_cast<C>(src[at]);
          if (exclusive) dst[at] = to_storage<T>(sum);
          if constexpr (std::is_integral_v<C>) sum = wrap_add(sum, v);
          else sum = sum + v;
          if (!exclusive) dst[at] = to_storage<T>(sum);
        }
      }
  });
  return one(std::move(out));
}
}  // namespace
// Floating sums round (the order is fixed, but backends may sum differently).
SONNX_KERNEL("", "CumSum", 11, cumsum, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "CumSum", (11, 14), same_as_input_rule);
}  // namespace sonnx
