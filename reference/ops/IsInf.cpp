// IsInf: elementwise true where x is +inf (when detect_positive=1, the default) or -inf (when
// detect_negative=1, the default) (version 10; 20 adds the four float8 types).
#include "op_params.h"
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

struct IsInfParams {
  bool positive = true, negative = true;  // detect_positive, detect_negative (any nonzero is true)
  static IsInfParams read(const AttrReader& r, int64_t /*version*/) {
    return {r.attr_int("detect_positive", 1) != 0, r.attr_int("detect_negative", 1) != 0};
  }
};

std::vector<Value> is_inf(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  IsInfParams p = IsInfParams::read(ctx, ctx.version());
  bool positive = p.positive, negative = p.negative;
  if (ctx.version() >= 20 && is_float8(x.dtype())) {
    // Version 20's float8 types, by their exact values (e4m3fn and the fnuz kinds have no infinity).
    Tensor out(DType::Bool, x.shape());
    bool* o = out.data<bool>();
    for (int64_t i = 0; i < x.size(); ++i) {
      double c = x.as_double(i);
      o[i] = std::isinf(c) && (c > 0 ? positive : negative);
    }
    return one(std::move(out));
  }
  return one(visit_float(ctx, x.dtype(), [&]<class T>() {
    return unary_elementwise<T, bool>(x, [&](T v) {
      auto c = static_cast<compute_t<T>>(v);
      return std::isinf(c) && (c > 0 ? positive : negative);
    });
  }));
}
}  // namespace
SONNX_PARAMS("", "IsInf", (10, 20), IsInfParams);
SONNX_KERNEL("", "IsInf", 10, is_inf, Accuracy::Exact);

// Version 20 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "IsInf", 20, is_inf, Accuracy::Exact);
namespace {
void isinf_shape(InferContext& ctx) {
  const Dims* x = ctx.input_shape(0);
  ctx.set_output(0, DType::Bool, x ? std::optional<Dims>(*x) : std::nullopt);
}
}  // namespace
SONNX_SHAPE_RULE("", "IsInf", (10, 20), isinf_shape);
}  // namespace sonnx
