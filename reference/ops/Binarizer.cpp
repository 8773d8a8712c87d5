// Binarizer (ai.onnx.ml 1): elementwise 1 where X > threshold (default 0.0), else 0, in X's type.
// Compared in double; NaN is not greater than anything, so it gives 0.
#include "op_params.h"
#include "params/binarizer.h"
#include "support/elementwise.h"
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> binarizer(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  const double threshold = BinarizerParams::read(ctx, ctx.version()).threshold;
  return one(visit_real(ctx, x.dtype(), [&]<class T>() {
    return unary_elementwise<T, T>(x, [&](T v) -> T {
      bool above = static_cast<double>(static_cast<compute_t<T>>(v)) > threshold;
      if constexpr (is_half_v<T>) return T(above ? 1.0f : 0.0f);
      else return static_cast<T>(above ? 1 : 0);
    });
  }));
}

}  // namespace
SONNX_KERNEL("ai.onnx.ml", "Binarizer", 1, binarizer, Accuracy::Exact);
SONNX_SHAPE_RULE("ai.onnx.ml", "Binarizer", (1), same_as_input_rule);
SONNX_PARAMS("ai.onnx.ml", "Binarizer", (1), BinarizerParams);
}  // namespace sonnx
