// The enclosures of QLinearMatMul (10, 21) and QLinearConv (10) on integer operands (spec/accuracy.md,
// "Admissible results", "Quantization"): the sums Σ (a − a_zero_point)·(b − b_zero_point) (plus
// QLinearConv's int32 bias) are exact integers, computed here in int64; the stored value is
// saturate(round_half_even(acc·a_scale·b_scale / y_scale) + y_zero_point). Under `real` the
// rescaled sum is the exact real; under `admissible` an implementation forms the multiplier
// a_scale·b_scale/y_scale in the scales' type or wider, in any order (two roundings), converts the
// sum to that type (a rounding only where |acc| > 2^p) and multiplies (one more): within γ_3, or γ_4,
// relative of the exact value (Higham §3.5), plus the underflows. Decided where the whole enclosure
// gives one integer, else Undetermined. Float8 operands or outputs (QLinearMatMul-21) are refused.
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "enclose_sums.h"
#include "quantized.h"
#include "reference/ops/support/quantize.h"
#include "reference/ops/support/quantize_linear.h"

namespace sonnx::enclose::quantize_detail {

// acc·sa·sb / sy enclosed: exactly, or (with the scales' format f) as an implementation may compute
// it. An underflow in forming the multiplier errs by at most half the smallest subnormal, which the
// rest of the computation scales by |acc|·(1/|sy|, |sb| or |sa|, by the order); in the last product
// by as much.
Interval qlinear_rescale(int64_t acc, Interval sa, Interval sb, Interval sy, const FloatFormat* f) {
  const double s = static_cast<double>(acc);  // exact: |acc| < 2^53
  Interval r = Interval::point(s) * sa * sb / sy;
  if (!f || r.has_nan()) return r;
  double roundings = std::fabs(s) > std::ldexp(1.0, f->precision) ? 4 : 3;
  double g = gamma(roundings, f->unit_roundoff()), tiny = f->smallest_subnormal();
  double least_sy = std::min(std::fabs(sy.lo), std::fabs(sy.hi));  // > 0: r is defined
  double scales = up(up(up(1 + up(1 / least_sy)) + magnitude(sa)) + magnitude(sb));
  double err = up(up(g * magnitude(r)) + up(up(up(std::fabs(s) * tiny) * scales) + tiny));
  if (!std::isfinite(err)) return Interval::whole();
  return {down(r.lo - err), up(r.hi + err)};
}

// The scales' format under `admissible` (null under `real`).
std::optional<FloatFormat> qlinear_format(const OpCall& c, DType scales) {
  if (c.semantics == Semantics::Real) return std::nullopt;
  return float_format(scales);
}

void qlinear_require_integer(const OpCall& c, const Bounds& operand, const Bounds& zero_point, const char* what) {
  if (!operand.exact()) throw Unsupported("no enclosure for " + op_name(c) + " on float8 operands");
  if (operand.type != DType::Int8 && operand.type != DType::UInt8) c.ctx.fail(std::string(what) + " must be int8 or uint8");
  if (zero_point.type != operand.type) c.ctx.fail(std::string(what) + "_zero_point must have the element type of " + what);
}

void qlinear_require_scalar(const OpCall& c, const Bounds& b, const char* what) {
  if (b.lo.size() != 1) c.ctx.fail(std::string(what) + " must be a scalar, got shape " + shape_str(b.lo.shape()));
}

// y's zero point and type: an integer one (a float8 y is refused).
std::pair<double, double> qlinear_output_range(const OpCall& c, const Bounds& y_zero_point) {
  if (!y_zero_point.exact()) throw Unsupported("no enclosure for " + op_name(c) + " into a float8 type");
  if (!support::is_quantized_integer(y_zero_point.type))
    c.ctx.fail("y_zero_point must be a quantized integer, got " + std::string(dtype_name(y_zero_point.type)));
  return support::quantized_range(y_zero_point.type);
}

std::vector<Bounds> qlinear_matmul(const OpCall& c) {
  const Bounds &a = c.input(0), &as = c.input(1), &az = c.input(2);
  const Bounds &b = c.input(3), &bs = c.input(4), &bz = c.input(5);
  const Bounds &ys = c.input(6), &yz = c.input(7);
  qlinear_require_integer(c, a, az, "a");
  qlinear_require_integer(c, b, bz, "b");
  for (const Bounds* s : {&as, &bs, &ys})
    if (c.version < 21 ? s->type != DType::Float : s->type != ys.type || !sonnx::is_float(s->type))
      c.ctx.fail(c.version < 21 ? "scales must be float" : "a_scale, b_scale and y_scale must have one float element type");
  qlinear_require_scalar(c, ys, "y_scale");
  qlinear_require_scalar(c, yz, "y_zero_point");
  const std::pair<double, double> range = qlinear_output_range(c, yz);
  MatMulGeometry g = matmul_geometry(c, a.lo.shape(), b.lo.shape());
  const int64_t M = g.M, K = g.K, N = g.N;
  const Shape &a_shape = a.lo.shape(), &b_shape = b.lo.shape();
  // One value per row of A, per column of B, as the reference reads them (a scalar for a 1-D operand).
  Tensor as_lo = support::matrix_param(c.ctx, as.lo, a_shape, true, "a_scale");
  Tensor as_hi = support::matrix_param(c.ctx, as.hi, a_shape, true, "a_scale");
  Tensor az_v = support::matrix_param(c.ctx, az.lo, a_shape, true, "a_zero_point");
  Tensor bs_lo = support::matrix_param(c.ctx, bs.lo, b_shape, false, "b_scale");
  Tensor bs_hi = support::matrix_param(c.ctx, bs.hi, b_shape, false, "b_scale");
  Tensor bz_v = support::matrix_param(c.ctx, bz.lo, b_shape, false, "b_zero_point");
  auto pick = [](const Tensor& t, int64_t i) { return t.as_double(t.size() == 1 ? 0 : i); };
  std::vector<int64_t> av = a.lo.to_int64_vector(), bv = b.lo.to_int64_vector();
  std::optional<FloatFormat> f = qlinear_format(c, ys.type);
  const Interval sy = quant_value(ys, 0);
  const double y_zero = yz.lo.as_double(0);
  Tensor values(DType::Double, g.y_shape);
  double* pv = values.data<double>();
  for (size_t p = 0; p < g.a_batch.size(); ++p) {
    const int64_t ma = g.a_batch[p], mb = g.b_batch[p];
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n) {
        const int64_t row = ma * M + m, col = mb * N + n;
        const auto za = static_cast<int64_t>(pick(az_v, row)), zb = static_cast<int64_t>(pick(bz_v, col));
        int64_t acc = 0;  // |acc| ≤ K·255² : exact for any real K
        for (int64_t k = 0; k < K; ++k)
          acc += (av[static_cast<size_t>(row * K + k)] - za) * (bv[static_cast<size_t>((mb * K + k) * N + n)] - zb);
        Interval r = qlinear_rescale(acc, {pick(as_lo, row), pick(as_hi, row)}, {pick(bs_lo, col), pick(bs_hi, col)}, sy,
                                     f ? &*f : nullptr);
        const int64_t e = static_cast<int64_t>(p) * M * N + m * N + n;
        pv[e] = quant_decide(c, e, r, y_zero, range, "the rescaled sum");
      }
  }
  return {quant_integers(c, values, yz.type)};
}

std::vector<Bounds> qlinear_conv(const OpCall& c) {
  const Bounds &x = c.input(0), &xs = c.input(1), &xz = c.input(2);
  const Bounds &w = c.input(3), &ws = c.input(4), &wz = c.input(5);
  const Bounds &ys = c.input(6), &yz = c.input(7);
  const Bounds* bias = c.in.size() > 8 ? c.in[8] : nullptr;
  qlinear_require_integer(c, x, xz, "x");
  qlinear_require_integer(c, w, wz, "w");
  for (const Bounds* s : {&xs, &ws, &ys})
    if (s->type != DType::Float) c.ctx.fail("scales must be float");
  qlinear_require_scalar(c, xs, "x_scale");
  qlinear_require_scalar(c, xz, "x_zero_point");
  qlinear_require_scalar(c, ys, "y_scale");
  qlinear_require_scalar(c, yz, "y_zero_point");
  const std::pair<double, double> range = qlinear_output_range(c, yz);
  ConvGeometry g = conv_geometry(c, x.lo.shape(), w.lo.shape());
  // w's scale and zero point: one value, or one per output channel.
  for (const Bounds* per_channel : {&ws, &wz}) {
    const Tensor& t = per_channel->lo;
    if (t.size() != 1 && (t.rank() != 1 || t.size() != g.M))
      c.ctx.fail(std::string(per_channel == &ws ? "w_scale" : "w_zero_point") +
                 " must be a scalar or have M=" + std::to_string(g.M) + " values, got shape " + shape_str(t.shape()));
  }
  if (bias && (bias->type != DType::Int32 || bias->lo.size() != g.M))
    c.ctx.fail("bias B must be int32 with M=" + std::to_string(g.M) + " elements");
  auto channel = [&](const Bounds& b, int64_t m) { return b.lo.size() == 1 ? int64_t{0} : m; };
  std::vector<int64_t> xv = x.lo.to_int64_vector(), wv = w.lo.to_int64_vector();
  const auto x_zero = static_cast<int64_t>(xz.lo.as_double(0));
  std::optional<FloatFormat> f = qlinear_format(c, ys.type);
  const Interval sx = quant_value(xs, 0), sy = quant_value(ys, 0);
  const double y_zero = yz.lo.as_double(0);
  const int64_t out_plane = g.out_plane();
  Tensor values(DType::Double, g.y_shape);
  double* pv = values.data<double>();
  std::vector<int64_t> acc(static_cast<size_t>(out_plane));
  for (int64_t bn = 0; bn < g.N; ++bn)
    for (int64_t m = 0; m < g.M; ++m) {
      const auto w_zero = static_cast<int64_t>(wz.lo.as_double(channel(wz, m)));
      std::fill(acc.begin(), acc.end(), bias ? static_cast<int64_t>(bias->lo.as_double(m)) : 0);
      auto weight = [&](int64_t w_off) { return wv[static_cast<size_t>(w_off)] - w_zero; };
      g.for_each_term(bn, m, weight, [&](int64_t x_off, int64_t wt, int64_t o) {
        acc[static_cast<size_t>(o)] += (xv[static_cast<size_t>(x_off)] - x_zero) * wt;
      });
      const Interval sw = quant_value(ws, channel(ws, m));
      for (int64_t o = 0; o < out_plane; ++o) {
        const int64_t e = (bn * g.M + m) * out_plane + o;
        Interval r = qlinear_rescale(acc[static_cast<size_t>(o)], sx, sw, sy, f ? &*f : nullptr);
        pv[e] = quant_decide(c, e, r, y_zero, range, "the rescaled sum");
      }
    }
  return {quant_integers(c, values, yz.type)};
}

}  // namespace sonnx::enclose::quantize_detail

namespace sonnx::enclose {
// Both decide their integers themselves.
SONNX_ENCLOSURE("QLinearMatMul", (10, 21), Allowance::own(), quantize_detail::qlinear_matmul);
SONNX_ENCLOSURE("QLinearConv", (10), Allowance::own(), quantize_detail::qlinear_conv);
}  // namespace sonnx::enclose
