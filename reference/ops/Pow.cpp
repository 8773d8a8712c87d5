// Pow: elementwise X ^ Y. Version 1 broadcasts Y to X only when broadcast=1 (legacy broadcasting);
// version 7 broadcasts multidirectionally; from version 12 X and Y may have different types
// (X: int32/int64/floats, Y: any integer or float type) and the result has X's type.
//
// - float X: computed as pow(double, double) and rounded once to X's type.
// - integer X, integer Y: exact integer power with wrapping overflow. A negative exponent gives
//   1/x^|y| truncated toward zero: 1 for x = 1, ±1 for x = -1, 0 for |x| > 1; 0 ^ negative is an
//   integer division by zero and traps.
// - integer X, float Y: pow(double, double) converted back toward zero (saturating, NaN → 0), as
//   numpy's power followed by astype does in the backend tests.
#include "op_params.h"
#include "params/broadcast.h"
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

template <class T>
T int_pow(const OpContext& ctx, T base, bool negative_exponent, uint64_t e) {
  if (negative_exponent) {
    if (base == T(0)) ctx.fail("integer 0 raised to a negative power (division by zero)");
    if (base == T(1)) return T(1);
    if constexpr (std::is_signed_v<T>) {
      if (base == T(-1)) return (e % 2 == 0) ? T(1) : T(-1);
    }
    return T(0);
  }
  T result = T(1);
  T b = base;
  while (e != 0) {  // square and multiply
    if (e & 1u) result = wrap_mul<T>(result, b);
    b = wrap_mul<T>(b, b);
    e >>= 1;
  }
  return result;
}

template <class TX, class TY>
TX pow_one(const OpContext& ctx, TX x, TY y) {
  if constexpr (std::is_integral_v<TX> && std::is_integral_v<TY>) {
    bool neg = false;
    uint64_t mag = 0;
    if constexpr (std::is_signed_v<TY>) {
      neg = y < 0;
      // |y| computed in unsigned arithmetic (lowest has no positive counterpart).
      mag = neg ? uint64_t(0) - static_cast<uint64_t>(static_cast<int64_t>(y)) : static_cast<uint64_t>(y);
    } else {
      mag = static_cast<uint64_t>(y);
    }
    return int_pow<TX>(ctx, x, neg, mag);
  } else {
    double r = std::pow(static_cast<double>(static_cast<compute_t<TX>>(x)), static_cast<double>(static_cast<compute_t<TY>>(y)));
    if constexpr (std::is_integral_v<TX>) return saturating_cast<TX>(r);
    else return round_from_double<TX>(r);
  }
}

Tensor pow_tensors(OpContext& ctx, const Tensor& x, const Tensor& y) {
  if (ctx.version() < 12) require_same_type(ctx, x, y);
  return visit_real(ctx, x.dtype(), [&]<class TX>() {
    return visit_real(ctx, y.dtype(), [&]<class TY>() {
      Shape out_shape = broadcast_shapes(ctx, x.shape(), y.shape());
      Tensor out(dtype_of<TX>(), out_shape);
      auto ix = broadcast_index_map(x.shape(), out_shape);
      auto iy = broadcast_index_map(y.shape(), out_shape);
      const TX* px = x.data<TX>();
      const TY* py = y.data<TY>();
      TX* po = out.data<TX>();
      for (int64_t i = 0; i < out.size(); ++i) po[i] = pow_one<TX, TY>(ctx, px[ix[i]], py[iy[i]]);
      return out;
    });
  });
}
}  // namespace
SONNX_PARAMS("", "Pow", (1), LegacyBroadcastParams);
SONNX_KERNEL("", "Pow", 1, binary_legacy<pow_tensors>, Accuracy::Rounding);
SONNX_KERNEL("", "Pow", 7, binary_multidirectional<pow_tensors>, Accuracy::Rounding);
namespace {
// The exponent may have another element type (version 12 on); the result has the base's.
void pow_shape(InferContext& ctx) {
  DType t = ctx.input_elem(0);
  if (ctx.version() < 7) return legacy_broadcast_rule(ctx);
  if (ctx.version() < 12) t = common_elem(ctx, {0, 1});
  ctx.set_output(0, t, broadcast_shapes(ctx, {ctx.input_shape(0), ctx.input_shape(1)}));
}
}  // namespace
SONNX_SHAPE_RULE("", "Pow", (1, 7, 12, 13, 15), pow_shape);
}  // namespace sonnx
