// Clip: elementwise min(max(x, lo), hi) — when lo > hi every element becomes hi. NaN stays NaN.
// - Versions 1 and 6: lo and hi are the float attributes `min` and `max`. Version 6 declares their
//   defaults as -3.4028234663852886e+38 and 3.4028234663852886e+38 (float's lowest and max);
//   version 1 describes the same defaults in words. The bounds are converted to the input type.
// - Version 11 on: lo and hi are optional scalar inputs of the input's type; an omitted bound is
//   numeric_limits<T>::lowest() / max() as the schema says (so ±inf are clipped to the largest
//   finite values). Version 12 adds integer types, 13 bfloat16.
// Relies on ops/elementwise.mlw UnaryOps.clip_range: with min <= max Clip lands in [min, max] and keeps values already there.
#include "op_params.h"
#include "params/activation.h"
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

// Largest finite value of T.
template <class T>
compute_t<T> max_finite() {
  if constexpr (std::is_same_v<T, float16_t>) return 65504.0f;
  else if constexpr (std::is_same_v<T, bfloat16_t>) return std::bit_cast<float>(uint32_t{0x7f7f0000u});
  else return std::numeric_limits<T>::max();
}
template <class T>
compute_t<T> lowest_finite() {
  if constexpr (is_half_v<T>) return -max_finite<T>();
  else return std::numeric_limits<T>::lowest();
}

template <class T>
Tensor clip(const Tensor& x, compute_t<T> lo, compute_t<T> hi) {
  return unary_elementwise<T, T>(x, [&](T v) -> T {
    compute_t<T> c = static_cast<compute_t<T>>(v);
    if (c < lo) c = lo;
    if (c > hi) c = hi;
    return to_storage<T>(c);  // when unchanged, converts back to the same value
  });
}

std::vector<Value> clip_v1(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  ClipParams p = ClipParams::read(ctx, ctx.version());
  double lo = p.min, hi = p.max;
  return one(visit_float(ctx, x.dtype(), [&]<class T>() {
    // The bounds rounded to T, then compared in T's compute type.
    auto lo_t = static_cast<compute_t<T>>(round_from_double<T>(lo));
    auto hi_t = static_cast<compute_t<T>>(round_from_double<T>(hi));
    return clip<T>(x, lo_t, hi_t);
  }));
}

std::vector<Value> clip_v11(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  return one(visit_real(ctx, x.dtype(), [&]<class T>() {
    auto bound = [&](size_t i, compute_t<T> def) -> compute_t<T> {
      if (!ctx.has_input(i)) return def;
      const Tensor& b = ctx.input(i);
      require_same_type(ctx, x, b);
      if (b.size() != 1) ctx.fail(std::string(i == 1 ? "min" : "max") + " must be a scalar, got shape " + shape_str(b.shape()));
      return static_cast<compute_t<T>>(b.data<T>()[0]);
    };
    compute_t<T> lo = bound(1, lowest_finite<T>());
    compute_t<T> hi = bound(2, max_finite<T>());
    return clip<T>(x, lo, hi);
  }));
}
}  // namespace
SONNX_PARAMS("", "Clip", (1, 6, 11, 12, 13), ClipParams);
SONNX_KERNEL("", "Clip", 1, clip_v1, Accuracy::Exact);
SONNX_KERNEL("", "Clip", 11, clip_v11, Accuracy::Exact);
SONNX_SHAPE_RULE("", "Clip", (1, 6, 11, 12, 13), same_as_input_rule);
}  // namespace sonnx
