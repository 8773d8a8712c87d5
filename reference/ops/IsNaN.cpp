// IsNaN: elementwise true where x is NaN (version 9; 13 adds bfloat16, 20 the four float8 types).
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> is_nan(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (ctx.version() >= 20 && is_float8(x.dtype())) {
    // Version 20's float8 types, by their exact values (every NaN code decodes to a NaN).
    Tensor out(DType::Bool, x.shape());
    bool* o = out.data<bool>();
    for (int64_t i = 0; i < x.size(); ++i) o[i] = std::isnan(x.as_double(i));
    return one(std::move(out));
  }
  return one(visit_float(ctx, x.dtype(), [&]<class T>() {
    return unary_elementwise<T, bool>(x, [](T v) { return std::isnan(static_cast<compute_t<T>>(v)); });
  }));
}
}  // namespace
SONNX_KERNEL("", "IsNaN", 9, is_nan, Accuracy::Exact);

// Version 20 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "IsNaN", 20, is_nan, Accuracy::Exact);
namespace {
void isnan_shape(InferContext& ctx) {
  const Dims* x = ctx.input_shape(0);
  ctx.set_output(0, DType::Bool, x ? std::optional<Dims>(*x) : std::nullopt);
}
}  // namespace
SONNX_SHAPE_RULE("", "IsNaN", (9, 13, 20), isnan_shape);
}  // namespace sonnx
