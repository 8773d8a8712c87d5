// Mod: elementwise remainder of A / B with multidirectional broadcasting (versions 10 and 13;
// 13 adds bfloat16).
// - fmod=0 (default): the remainder takes the sign of the divisor, like Python's % and numpy.mod.
// - fmod=1: the remainder takes the sign of the dividend, like C fmod / numpy.fmod.
// The schema asks for fmod=1 with floating types; fmod=0 on floats is still given its Python
// meaning. Integer remainder by zero traps; floats follow IEEE (x mod 0 = NaN).
#include "op_params.h"
#include "params/mod.h"
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

template <class T>
T int_mod(const OpContext& ctx, T a, T b, bool c_fmod) {
  if (b == T(0)) ctx.fail("integer modulo by zero");
  if constexpr (std::is_signed_v<T>) {
    if (b == T(-1)) return T(0);  // avoids the overflowing lowest % -1; the remainder is 0
    T r = static_cast<T>(a % b);  // C++: sign of the dividend
    if (!c_fmod && r != T(0) && ((r < 0) != (b < 0))) r = static_cast<T>(r + b);  // cannot overflow
    return r;
  } else {
    (void)c_fmod;
    return static_cast<T>(a % b);
  }
}

template <class C>
C float_mod(C a, C b, bool c_fmod) {
  C r = std::fmod(a, b);  // exact; sign of the dividend
  if (c_fmod) return r;
  if (r != C(0)) {
    if ((r < C(0)) != (b < C(0))) r += b;
  } else {
    r = std::copysign(C(0), b);  // a zero remainder takes the divisor's sign too
  }
  return r;
}

std::vector<Value> mod(OpContext& ctx) {
  const Tensor& a = ctx.input(0);
  const Tensor& b = ctx.input(1);
  require_same_type(ctx, a, b);
  bool c_fmod = ModParams::read(ctx, ctx.version()).fmod;
  return one(visit_real(ctx, a.dtype(), [&]<class T>() {
    return binary_elementwise<T, T>(ctx, a, b, [&](T x, T y) -> T {
      if constexpr (std::is_integral_v<T>) return int_mod<T>(ctx, x, y, c_fmod);
      else return to_storage<T>(float_mod(static_cast<compute_t<T>>(x), static_cast<compute_t<T>>(y), c_fmod));
    });
  }));
}
}  // namespace
SONNX_PARAMS("", "Mod", (10, 13), ModParams);
SONNX_KERNEL("", "Mod", 10, mod, Accuracy::Rounding);
SONNX_SHAPE_RULE("", "Mod", (10, 13), broadcast_rule);
}  // namespace sonnx
