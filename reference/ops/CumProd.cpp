// CumProd-26: running products along an axis (a 0-D int32/int64 input). exclusive=1 leaves out the
// current element (the first product is 1); reverse=1 multiplies from the end. As CumSum does,
// the running product is kept in the element type's arithmetic (float for float16/bfloat16,
// rounding each output); integers wrap.
#include "support/indexing.h"
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> cumprod(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.rank() == 0) ctx.fail("input must have rank >= 1");
  if (ctx.input(1).rank() != 0) ctx.fail("axis must be a 0-D tensor");
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
        C product = C(1);
        for (int64_t step = 0; step < n; ++step) {
          int64_t j = reverse ? n - 1 - step : step;
          int64_t at = (o * n + j) * inner + i;
          C v = static_cast<C>(src[at]);
          if (exclusive) dst[at] = to_storage<T>(product);
          if constexpr (std::is_integral_v<C>) product = wrap_mul(product, v);
          else product = product * v;
          if (!exclusive) dst[at] = to_storage<T>(product);
        }
      }
  });
  return one(std::move(out));
}
}  // namespace
SONNX_KERNEL("", "CumProd", 26, cumprod, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "CumProd", (26), same_as_input_rule);
}  // namespace sonnx
