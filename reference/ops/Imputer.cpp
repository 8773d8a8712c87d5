// Imputer (ai.onnx.ml 1): Y is X (same type and shape) with each element equal to the replaced
// value changed to the imputed value of its feature (X's last axis). Exactly one of
// imputed_value_floats (for float or double X, with replaced_value_float) and imputed_value_int64s
// (for int64 or int32 X, with replaced_value_int64) is given, with one entry (every feature) or one
// per feature. Decisions (spec/ops/Imputer.md): elements compare by value in X's type (-0.0 equals
// 0.0); a NaN replaced value matches every NaN; X of any rank >= 1 (the text's [*, F]); an int64
// imputed value that int32 cannot hold is refused for int32 X.
#include <cmath>
#include <limits>
#include <type_traits>

#include "op_params.h"
#include "params/imputer.h"
#include "support/kernel.h"
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {

template <class T>
void imputer_fill(const ImputerParams& p, const Tensor& x, Tensor& y) {
  const int64_t features = x.dim(x.rank() - 1);
  const T* in = x.data<T>();
  T* out = y.data<T>();
  for (int64_t i = 0; i < x.size(); ++i) {
    const size_t f = p.count() == 1 ? 0 : static_cast<size_t>(i % features);
    bool replace;
    T imputed;
    if constexpr (std::is_floating_point_v<T>) {
      const T replaced = static_cast<T>(p.replaced_float);  // exact: float widens
      replace = std::isnan(replaced) ? std::isnan(in[i]) : in[i] == replaced;
      imputed = static_cast<T>(p.float_values[f]);
    } else {
      replace = static_cast<int64_t>(in[i]) == p.replaced_int;
      imputed = static_cast<T>(p.int_values[f]);  // in range: fits() checked
    }
    out[i] = replace ? imputed : in[i];
  }
}

std::vector<Value> imputer(OpContext& ctx) {
  const ImputerParams p = ImputerParams::read(ctx, ctx.version());
  const Tensor& x = ctx.input(0);
  if (x.rank() < 1) ctx.fail("X must have at least one dimension");
  if (std::string why = p.fits(x.dtype(), x.dim(x.rank() - 1)); !why.empty()) ctx.fail(why);
  Tensor y(x.dtype(), x.shape());
  switch (x.dtype()) {
    case DType::Float: imputer_fill<float>(p, x, y); break;
    case DType::Double: imputer_fill<double>(p, x, y); break;
    case DType::Int64: imputer_fill<int64_t>(p, x, y); break;
    default: imputer_fill<int32_t>(p, x, y); break;  // fits() admits only these four
  }
  return one(std::move(y));
}

void imputer_shape(InferContext& ctx) {
  const ImputerParams p = ImputerParams::read(ctx, ctx.version());
  const Dims* x = ctx.input_shape(0);
  if (x && x->empty()) ctx.fail("X must have at least one dimension");
  const std::optional<int64_t> features = x ? x->back().value : std::nullopt;
  const DType t = ctx.input_elem(0);
  if (std::string why = p.fits(t, features); !why.empty()) ctx.fail(why);
  ctx.set_output(0, t, x ? std::optional<Dims>(*x) : std::nullopt);
}

}  // namespace
SONNX_KERNEL("ai.onnx.ml", "Imputer", 1, imputer, Accuracy::Exact);
SONNX_SHAPE_RULE("ai.onnx.ml", "Imputer", (1), imputer_shape);
SONNX_PARAMS("ai.onnx.ml", "Imputer", (1), ImputerParams);
}  // namespace sonnx
