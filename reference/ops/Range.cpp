// Range: [start, start + delta, ...) up to limit (exclusive): max(ceil((limit - start) / delta), 0)
// elements, element i = start + i * delta. All three inputs are scalars of the output type.
// Integer counts and values are computed exactly (in 128 bits); a zero delta traps.
// Version 27 adds float16 and bfloat16 with `stash_type`: 1 (float, the default) computes the
// count and each start + i * delta in float32 and rounds the result to T; the element type's own
// code computes every step in T (each product and sum rounded to T); 11 computes in double.
// Other types are unaffected.
// Relies on ops/shape_ops.mlw Range.range_unique: Range's output (max(ceil((limit - start) / delta), 0) elements, start + i * delta) is determined by its inputs.
#include <limits>

#include "op_params.h"
#include "support/shape.h"
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {
struct RangeParams {
  // Version 27: the precision of float16/bfloat16 arithmetic, 1 (float), 11 (double) or the element
  // type's own code; no effect on other types, so any value is taken for them.
  int64_t stash_type = 1;
  static RangeParams read(const AttrReader& r, int64_t version) {
    RangeParams p;
    if (version >= 27) p.stash_type = r.attr_int("stash_type", 1);
    return p;
  }
  // "" when stash_type suits inputs of element type `type` (Undefined: not known yet), else why not.
  std::string stash_for(DType type) const {
    if (type != DType::Float16 && type != DType::BFloat16) return "";
    if (stash_type == 1 || stash_type == 11 || stash_type == static_cast<int64_t>(type)) return "";
    return "stash_type " + std::to_string(stash_type) + " is not float, double or the element type";
  }
};

std::vector<Value> range(OpContext& ctx) {
  const Tensor& start_t = ctx.input(0);
  const Tensor& limit_t = ctx.input(1);
  const Tensor& delta_t = ctx.input(2);
  DType type = start_t.dtype();
  if (limit_t.dtype() != type || delta_t.dtype() != type) ctx.fail("start, limit and delta must have the same type");
  if (start_t.size() != 1 || limit_t.size() != 1 || delta_t.size() != 1) ctx.fail("start, limit and delta must be scalars");
  return one(visit_real(ctx, type, [&]<class T>() {
    T start = start_t.data<T>()[0], limit = limit_t.data<T>()[0], delta = delta_t.data<T>()[0];
    if constexpr (std::is_integral_v<T>) {
      using Wide = __int128;
      if (delta == 0) ctx.fail("delta cannot be 0");
      Wide diff = static_cast<Wide>(limit) - static_cast<Wide>(start);
      Wide d = static_cast<Wide>(delta);
      Wide n = 0;
      if ((diff > 0 && d > 0) || (diff < 0 && d < 0)) {
        Wide ad = d < 0 ? -d : d, adiff = diff < 0 ? -diff : diff;
        n = (adiff + ad - 1) / ad;  // ceil of a positive quotient
      }
      if (n > static_cast<Wide>(std::numeric_limits<int64_t>::max())) ctx.fail("range is too large");
      Tensor out(type, {static_cast<int64_t>(n)});  // absurd sizes trap here
      T* o = out.data<T>();
      for (int64_t i = 0; i < out.size(); ++i) o[i] = static_cast<T>(static_cast<Wide>(start) + static_cast<Wide>(i) * d);
      return out;
    } else {
      double s = static_cast<double>(static_cast<compute_t<T>>(start));
      double l = static_cast<double>(static_cast<compute_t<T>>(limit));
      double d = static_cast<double>(static_cast<compute_t<T>>(delta));
      if (d == 0) ctx.fail("delta cannot be 0");
      double count = std::ceil((l - s) / d);
      if (std::isnan(count)) ctx.fail("the number of elements is not a number (NaN or infinite inputs)");
      if (count > 9.0e15) ctx.fail("range is too large");
      int64_t n = count > 0 ? static_cast<int64_t>(count) : 0;
      Tensor out(type, {n});
      T* o = out.data<T>();
      for (int64_t i = 0; i < n; ++i) o[i] = to_storage<T>(s + static_cast<double>(i) * d);
      return out;
    }
  }));
}

// One arithmetic step of the version 27 stash precision: the exact result rounded to it.
double round_to_stash(double v, int64_t stash, DType type) {
  if (stash == 1) return static_cast<double>(static_cast<float>(v));
  if (stash == 11) return v;
  if (type == DType::Float16) return to_double(round_from_double<float16_t>(v));
  return to_double(round_from_double<bfloat16_t>(v));
}

std::vector<Value> range_v27(OpContext& ctx) {
  RangeParams p = RangeParams::read(ctx, ctx.version());
  DType type = ctx.input(0).dtype();
  if (type != DType::Float16 && type != DType::BFloat16) return range(ctx);
  if (std::string why = p.stash_for(type); !why.empty()) ctx.fail(why);
  int64_t stash = p.stash_type;
  const Tensor& start_t = ctx.input(0);
  const Tensor& limit_t = ctx.input(1);
  const Tensor& delta_t = ctx.input(2);
  if (limit_t.dtype() != type || delta_t.dtype() != type) ctx.fail("start, limit and delta must have the same type");
  if (start_t.size() != 1 || limit_t.size() != 1 || delta_t.size() != 1) ctx.fail("start, limit and delta must be scalars");
  std::vector<double> s = real_values(ctx, start_t), l = real_values(ctx, limit_t), d = real_values(ctx, delta_t);
  auto r = [&](double v) { return round_to_stash(v, stash, type); };
  if (d[0] == 0) ctx.fail("delta cannot be 0");
  double count = std::ceil(r(r(l[0] - s[0]) / d[0]));
  if (std::isnan(count)) ctx.fail("the number of elements is not a number (NaN or infinite inputs)");
  if (count > 9.0e15) ctx.fail("range is too large");
  int64_t n = count > 0 ? static_cast<int64_t>(count) : 0;
  std::vector<double> values(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) values[static_cast<size_t>(i)] = r(s[0] + r(r(static_cast<double>(i)) * d[0]));
  return one(float_tensor(ctx, type, {n}, values));
}
}  // namespace
// Floating ranges are arithmetic (the function body accumulates; this kernel multiplies).
SONNX_PARAMS("", "Range", (27), RangeParams);
SONNX_KERNEL("", "Range", 11, range, Accuracy::Rounding);
SONNX_KERNEL("", "Range", 27, range_v27, Accuracy::Rounding);
namespace {
// A 1-D tensor of max(ceil((limit - start) / delta), 0) elements, known when the three scalars are.
void range_shape(InferContext& ctx) {
  DType t = common_elem(ctx, {0, 1, 2});
  if (std::string why = RangeParams::read(ctx, ctx.version()).stash_for(t); !why.empty()) ctx.fail(why);
  // Scalars, as the schema says; like the kernel, a one-element 1-D tensor is taken too, because
  // onnx's own function body of AffineGrid-20 passes them (its expanded backend tests do).
  for (size_t i = 0; i < 3; ++i)
    if (auto r = ctx.input_rank(i); r && *r > 1) ctx.fail("input " + std::to_string(i) + " must be a scalar");
  const Tensor* s = ctx.input_value(0);
  const Tensor* l = ctx.input_value(1);
  const Tensor* d = ctx.input_value(2);
  Dim n;
  if (s && l && d && s->size() == 1 && l->size() == 1 && d->size() == 1) {
    double delta = d->as_double(0);
    if (delta == 0) ctx.fail("delta cannot be 0");
    double count = std::ceil((l->as_double(0) - s->as_double(0)) / delta);
    if (!(count <= static_cast<double>(kMaxDimValue))) ctx.fail("the range has too many elements");
    n = known_dim(count > 0 ? static_cast<int64_t>(count) : 0);
  }
  ctx.set_output(0, t, Dims{n});
}
}  // namespace
SONNX_SHAPE_RULE("", "Range", (11, 27), range_shape);
}  // namespace sonnx
