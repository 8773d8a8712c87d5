// The enclosure of DeformConv-19 and -22 (enclose/enclose_deform_conv.cpp; spec/accuracy.md,
// "Admissible results"): on random 2-D instances (offsets that move taps across cells and outside
// the image, a mask, a bias, offset groups, groups, strides, pads, dilations) the exact value (MPFR
// at 2200 bits: positions, weights and products of floats are exact there) lies in the real
// enclosure; the reference's result and a float32 evaluation arranged as common kernels do
// (weights multiplied first, each rounded to float, the sums backwards) lie in the admissible one,
// which holds the real one; a value 1000 float ulps (at the larger of |y| and 1) from the
// reference's lies outside it.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "enclose_test_util.h"

namespace sonnx::enclose {
namespace {

using sonnx::testing::attr_int;
using sonnx::testing::attr_ints;

struct DeformCase {
  int64_t opset = 19, N = 1, C = 2, M = 2, H = 4, Wd = 4, kh = 2, kw = 2, group = 1, offset_group = 1;
  int64_t stride = 1, pad = 0, dilation = 1;
  bool mask = true, bias = true;
  int64_t out_h() const { return (H + 2 * pad - dilation * (kh - 1) - 1) / stride + 1; }
  int64_t out_w() const { return (Wd + 2 * pad - dilation * (kw - 1) - 1) / stride + 1; }
};

// The sample of plane x (H×W) at (py, px) as a float32 kernel computes it: the position rounded to
// float, its own cell, the weights hh·hw first, each operation rounded to float.
float deform_float_sample(const float* x, int64_t H, int64_t W, float py, float px) {
  if (py <= -1 || py >= static_cast<float>(H) || px <= -1 || px >= static_cast<float>(W)) return 0;
  const float y0 = std::floor(py), x0 = std::floor(px), fy = py - y0, fx = px - x0;
  float v = 0;
  for (int corner = 0; corner < 4; ++corner) {
    const bool uy = corner & 1, ux = corner & 2;
    const int64_t iy = static_cast<int64_t>(y0) + uy, ix = static_cast<int64_t>(x0) + ux;
    if (iy >= 0 && iy < H && ix >= 0 && ix < W) v += ((uy ? fy : 1 - fy) * (ux ? fx : 1 - fx)) * x[iy * W + ix];
  }
  return v;
}

// The sample of plane x (H×W) at (py, px) by the operator's definition, exactly in MPFR.
void deform_exact_sample(const float* x, int64_t H, int64_t W, double py, double px, mpfr_t r) {
  mpfr_set_d(r, 0, MPFR_RNDN);
  if (py <= -1 || py >= static_cast<double>(H) || px <= -1 || px >= static_cast<double>(W)) return;
  const double y0 = std::floor(py), x0 = std::floor(px), fy = py - y0, fx = px - x0;  // exact in double
  mpfr_t t;
  mpfr_init2(t, 2200);
  for (int corner = 0; corner < 4; ++corner) {
    const bool uy = corner & 1, ux = corner & 2;
    const int64_t iy = static_cast<int64_t>(y0) + uy, ix = static_cast<int64_t>(x0) + ux;
    if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
    const float v = x[iy * W + ix];
    mpfr_set_d(t, uy ? fy : 1 - fy, MPFR_RNDN);  // 1 − fy is exact in double here
    mpfr_mul_d(t, t, ux ? fx : 1 - fx, MPFR_RNDN);
    mpfr_mul_d(t, t, v, MPFR_RNDN);
    mpfr_add(r, r, t, MPFR_RNDN);
  }
  mpfr_clear(t);
}

void check_deform(const DeformCase& t, std::mt19937& rng) {
  const int64_t OH = t.out_h(), OW = t.out_w(), K = t.kh * t.kw, O = OH * OW, Cg = t.C / t.group;
  std::vector<float> x = uniform_floats(static_cast<size_t>(t.N * t.C * t.H * t.Wd), rng, -1, 1);
  std::vector<float> w = uniform_floats(static_cast<size_t>(t.M * Cg * K), rng, -1, 1);
  std::vector<float> off = uniform_floats(static_cast<size_t>(t.N * t.offset_group * K * 2 * O), rng, -1.6f, 1.6f);
  for (size_t i = 0; i < off.size(); i += 7) off[i] = std::round(off[i]);  // on a pixel exactly
  std::vector<float> mask = uniform_floats(static_cast<size_t>(t.N * t.offset_group * K * O), rng, 0, 1);
  std::vector<float> bias = uniform_floats(static_cast<size_t>(t.M), rng, -1, 1);
  std::vector<Value> in = {floats({t.N, t.C, t.H, t.Wd}, x), floats({t.M, Cg, t.kh, t.kw}, w),
                           floats({t.N, t.offset_group * K * 2, OH, OW}, off), t.bias ? floats({t.M}, bias) : Value(),
                           t.mask ? floats({t.N, t.offset_group * K, OH, OW}, mask) : Value()};
  OneNodeModel m = one_node_model("DeformConv", t.opset, in,
                                  {attr_ints("kernel_shape", {t.kh, t.kw}), attr_ints("strides", {t.stride, t.stride}),
                                   attr_ints("pads", {t.pad, t.pad, t.pad, t.pad}),
                                   attr_ints("dilations", {t.dilation, t.dilation}), attr_int("group", t.group),
                                   attr_int("offset_group", t.offset_group)});
  Bounds real = enclose_output(m, Semantics::Real), adm = enclose_output(m, Semantics::Admissible);
  Tensor ref = reference_output(m);
  ASSERT_EQ(real.lo.shape(), ref.shape());
  ASSERT_EQ(adm.lo.shape(), ref.shape());
  const int64_t c_per_og = t.C / t.offset_group, Mg = t.M / t.group;
  mpfr_t acc, s;
  mpfr_init2(acc, 2200);
  mpfr_init2(s, 2200);
  for (int64_t n = 0; n < t.N; ++n)
    for (int64_t mo = 0; mo < t.M; ++mo)
      for (int64_t oy = 0; oy < OH; ++oy)
        for (int64_t ox = 0; ox < OW; ++ox) {
          const int64_t ol = oy * OW + ox, gi = mo / Mg;
          mpfr_set_d(acc, t.bias ? bias[static_cast<size_t>(mo)] : 0, MPFR_RNDN);
          std::vector<float> terms;  // the float kernel's products, summed backwards after the bias
          for (int64_t cc = 0; cc < Cg; ++cc) {
            const int64_t ic = gi * Cg + cc, og = ic / c_per_og;
            for (int64_t kl = 0; kl < K; ++kl) {
              const int64_t ky = kl / t.kw, kx = kl % t.kw, ch = og * K + kl;
              const auto offset_at = [&](int64_t d) {
                return static_cast<double>(off[static_cast<size_t>(((n * t.offset_group * K + ch) * 2 + d) * O + ol)]);
              };
              const double py = static_cast<double>(oy * t.stride - t.pad + ky * t.dilation) + offset_at(0);
              const double px = static_cast<double>(ox * t.stride - t.pad + kx * t.dilation) + offset_at(1);
              const float* plane = x.data() + (n * t.C + ic) * t.H * t.Wd;
              deform_exact_sample(plane, t.H, t.Wd, py, px, s);
              const float fl = deform_float_sample(plane, t.H, t.Wd, static_cast<float>(py), static_cast<float>(px));
              const float mk = t.mask ? mask[static_cast<size_t>((n * t.offset_group * K + ch) * O + ol)] : 1.0f;
              const float wv = w[static_cast<size_t>((mo * Cg + cc) * K + kl)];
              mpfr_mul_d(s, s, mk, MPFR_RNDN);
              mpfr_mul_d(s, s, wv, MPFR_RNDN);
              mpfr_add(acc, acc, s, MPFR_RNDN);
              terms.push_back(wv * (fl * mk));
            }
          }
          float other = t.bias ? bias[static_cast<size_t>(mo)] : 0;
          for (auto it = terms.rbegin(); it != terms.rend(); ++it) other += *it;
          const int64_t i = ((n * t.M + mo) * OH + oy) * OW + ox;
          SCOPED_TRACE("element " + std::to_string(i));
          Interval r = bound_at(real, i), a = bound_at(adm, i);
          EXPECT_TRUE(mpfr_cmp_d(acc, r.lo) >= 0 && mpfr_cmp_d(acc, r.hi) <= 0)
              << mpfr_get_d(acc, MPFR_RNDN) << " outside [" << r.lo << ", " << r.hi << "]";
          const double y = ref.as_double(i);
          EXPECT_TRUE(a.contains(y)) << y << " outside [" << a.lo << ", " << a.hi << "]";
          EXPECT_TRUE(a.contains(other)) << other << " (float kernel) outside [" << a.lo << ", " << a.hi << "]";
          EXPECT_LE(a.lo, r.lo);
          EXPECT_GE(a.hi, r.hi);
          const double far = 1000 * float_ulp(std::max(std::fabs(y), 1.0));
          EXPECT_FALSE(a.contains(y + far));
          EXPECT_FALSE(a.contains(y - far));
        }
  mpfr_clear(acc);
  mpfr_clear(s);
}

TEST(EncloseDeformConv, HoldsTheExactSumAndTheFloatKernels) {
  std::mt19937 rng(1922);
  for (int64_t opset : {19, 22}) {
    check_deform({opset}, rng);
    DeformCase padded{opset};
    padded.pad = 1;
    padded.mask = false;
    check_deform(padded, rng);
    DeformCase groups{opset, 2, 4, 4, 5, 5, 3, 3, 2, 2};
    groups.stride = 2;
    groups.bias = false;
    check_deform(groups, rng);
    DeformCase dilated{opset, 1, 2, 1, 6, 5, 2, 2, 1, 2};
    dilated.dilation = 2;
    check_deform(dilated, rng);
  }
}

// Offsets of zero and no mask: the plain convolution, whose real enclosure holds the exact sum.
TEST(EncloseDeformConv, ZeroOffsetsAreTheConvolution) {
  OneNodeModel m = one_node_model("DeformConv", 19,
                                  {floats({1, 1, 2, 2}, {1, 2, 3, 4}), floats({1, 1, 2, 2}, {1, 1, 1, 1}),
                                   floats({1, 8, 1, 1}, {0, 0, 0, 0, 0, 0, 0, 0})},
                                  {attr_ints("kernel_shape", {2, 2})});
  Interval r = bound_at(enclose_output(m, Semantics::Real), 0);
  EXPECT_TRUE(r.contains(10.0));  // 1 + 2 + 3 + 4, by hand
  EXPECT_LT(r.width(), 1e-12);
  EXPECT_TRUE(bound_at(enclose_output(m, Semantics::Admissible), 0).contains(10.0));
}

}  // namespace
}  // namespace sonnx::enclose
