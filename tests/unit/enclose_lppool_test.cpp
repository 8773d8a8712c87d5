// The enclosures of LpPool, GlobalLpPool and LRN (enclose/enclose_lppool.cpp; spec/accuracy.md,
// "Admissible results"): the exact value of the operator's formula (MPFR at 256 bits; the window
// derived here from the attributes) lies in the real enclosure; the reference's float result, and
// the formula evaluated step by step in float, lie in the admissible one, which holds the real one;
// a value 1000 ulps of float from the reference's lies outside it. Zeros give exactly 0.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "enclose_test_util.h"

namespace sonnx::enclose {
namespace {

using sonnx::testing::attr_float;
using sonnx::testing::attr_int;
using sonnx::testing::attr_ints;

// (a)–(d) for every element: `exact(i, y)` writes element i's exact value, `in_float(i)` the
// formula evaluated step by step in float.
void lppool_check(const OneNodeModel& m, const std::function<void(int64_t, Real256&)>& exact,
                  const std::function<float(int64_t)>& in_float) {
  Bounds real = enclose_output(m, Semantics::Real), adm = enclose_output(m, Semantics::Admissible);
  Tensor ref = reference_output(m);
  ASSERT_EQ(real.lo.shape(), ref.shape());
  ASSERT_EQ(adm.lo.shape(), ref.shape());
  for (int64_t i = 0; i < ref.size(); ++i) {
    SCOPED_TRACE("element " + std::to_string(i));
    Real256 e;
    exact(i, e);
    Interval r = bound_at(real, i), a = bound_at(adm, i);
    EXPECT_TRUE(e.inside(r)) << e.to_double() << " outside [" << r.lo << ", " << r.hi << "]";
    double y = ref.as_double(i);
    EXPECT_TRUE(a.contains(y)) << y << " outside [" << a.lo << ", " << a.hi << "]";
    double f = static_cast<double>(in_float(i));
    EXPECT_TRUE(a.contains(f)) << "in float " << f << " outside [" << a.lo << ", " << a.hi << "]";
    EXPECT_LE(a.lo, r.lo);
    EXPECT_GE(a.hi, r.hi);
    EXPECT_FALSE(a.contains(y + 1000 * float_ulp(y)));
    EXPECT_FALSE(a.contains(y - 1000 * float_ulp(y)));
  }
}

// The body's steps in float: |x|, |x|·|x| for p = 2, else powf; √s for p = 2, else s^(1/p) with
// 1/p held in float.
float lppool_float_power(float x, double p) {
  float a = std::fabs(x);
  return p == 1 ? a : p == 2 ? a * a : std::pow(a, static_cast<float>(p));
}
float lppool_float_root(float s, double p) {
  return p == 1 ? s : p == 2 ? std::sqrt(s) : std::pow(s, 1.0f / static_cast<float>(p));
}

// The input positions of output index o along one axis, derived from the attributes: o·stride −
// pad_begin + k·dilation for k < kernel, those inside [0, in).
std::vector<int64_t> lppool_axis_window(int64_t o, int64_t in, int64_t kernel, int64_t stride, int64_t pad_begin,
                                        int64_t dilation) {
  std::vector<int64_t> w;
  for (int64_t k = 0; k < kernel; ++k) {
    int64_t i = o * stride - pad_begin + k * dilation;
    if (i >= 0 && i < in) w.push_back(i);
  }
  return w;
}

// An LpPool over X (1, 2, H, W) with explicit pads; out_h × out_w outputs (the ONNX formula, by hand
// below for each case). p is the norm's order.
struct LpPoolCase {
  int64_t opset;
  double p;
  int64_t H, W, kh, kw, sh, sw, ph, pw, pe_h, pe_w, dh, dw, out_h, out_w;
  bool ceil_mode = false;
};

void lppool_check_case(const LpPoolCase& t, const std::vector<float>& x) {
  SCOPED_TRACE("LpPool-" + std::to_string(t.opset) + " p " + std::to_string(t.p));
  std::vector<onnx::AttributeProto> attrs = {attr_ints("kernel_shape", {t.kh, t.kw}), attr_ints("strides", {t.sh, t.sw}),
                                             attr_ints("pads", {t.ph, t.pw, t.pe_h, t.pe_w})};
  if (t.opset >= 18) {
    attrs.push_back(attr_ints("dilations", {t.dh, t.dw}));
    attrs.push_back(attr_int("ceil_mode", t.ceil_mode ? 1 : 0));
  }
  attrs.push_back(t.opset == 1 ? attr_float("p", static_cast<float>(t.p)) : attr_int("p", static_cast<int64_t>(t.p)));
  OneNodeModel m = one_node_model("LpPool", t.opset, {floats({1, 2, t.H, t.W}, x)}, attrs);
  const int64_t plane = t.out_h * t.out_w;
  auto window = [&](int64_t i) {  // the flat input positions of output element i
    int64_t c = i / plane, oh = i % plane / t.out_w, ow = i % t.out_w;
    std::vector<size_t> w;
    for (int64_t h : lppool_axis_window(oh, t.H, t.kh, t.sh, t.ph, t.dh))
      for (int64_t v : lppool_axis_window(ow, t.W, t.kw, t.sw, t.pw, t.dw))
        w.push_back(static_cast<size_t>((c * t.H + h) * t.W + v));
    return w;
  };
  lppool_check(
      m,
      [&](int64_t i, Real256& y) {
        Real256 term;
        for (size_t k : window(i)) {
          mpfr_set_d(term.get(), std::fabs(static_cast<double>(x[k])), MPFR_RNDN);
          mpfr_pow_ui(term.get(), term.get(), static_cast<unsigned long>(t.p), MPFR_RNDN);
          mpfr_add(y.get(), y.get(), term.get(), MPFR_RNDN);
        }
        mpfr_rootn_ui(y.get(), y.get(), static_cast<unsigned long>(t.p), MPFR_RNDN);  // p is an integer here
      },
      [&](int64_t i) {
        float s = 0;
        for (size_t k : window(i)) s += lppool_float_power(x[k], t.p);
        return lppool_float_root(s, t.p);
      });
}

TEST(EncloseLpPool, EveryVersionPadsStridesDilations) {
  std::mt19937 rng(1837);
  // 4 × 5 planes, kernel 2 × 3, strides 1 × 2, pads (1, 1, 0, 1): out (4 + 1 − 2)/1 + 1 = 4 by
  // (5 + 2 − 3)/2 + 1 = 3.
  for (int64_t opset : {1, 2, 11, 18, 22})
    for (double p : {1.0, 2.0, 3.0}) {
      std::vector<float> x = uniform_floats(40, rng, -3.0f, 3.0f);
      lppool_check_case({opset, p, 4, 5, 2, 3, 1, 2, 1, 1, 0, 1, 1, 1, 4, 3}, x);
    }
  // Dilations 2 × 1 (from 18), ceil_mode: out ceil((5 + 0 − 3)/2) + 1 = 2 by ceil((4 − 2)/1) + 1 = 3.
  for (int64_t opset : {18, 22}) {
    std::vector<float> x = wide_floats(40, rng);
    lppool_check_case({opset, 2, 5, 4, 2, 2, 2, 1, 0, 0, 0, 0, 2, 1, 2, 3, true}, x);
    lppool_check_case({opset, 4, 5, 4, 2, 2, 2, 1, 0, 0, 0, 0, 2, 1, 2, 3, true}, x);
  }
}

// A window of zeros has the norm 0: the point 0 under `real`; under `admissible` a few subnormals
// around 0, and up to their root above (a Pow within 4 ulps of 0 may give a subnormal, and so may
// the sum).
TEST(EncloseLpPool, ZerosGiveZero) {
  for (int64_t p : {1, 2, 3}) {
    SCOPED_TRACE("p " + std::to_string(p));
    OneNodeModel m = one_node_model("LpPool", 18, {floats({1, 1, 2, 2}, {0, 0, 0, 0})},
                                    {attr_ints("kernel_shape", {2, 2}), attr_int("p", p)});
    Interval real = bound_at(enclose_output(m, Semantics::Real), 0), adm = bound_at(enclose_output(m, Semantics::Admissible), 0);
    EXPECT_EQ(real.lo, 0.0);
    EXPECT_EQ(real.hi, 0.0);
    EXPECT_TRUE(adm.contains(0.0));
    EXPECT_GT(adm.lo, -1e-40);  // 4 subnormal ulps of float below 0 (the exact value's allowance)
    EXPECT_LT(adm.hi, 1e-12);
    EXPECT_EQ(reference_output(m).as_double(0), 0.0);
  }
}

TEST(EncloseLpPool, GlobalLpPool) {
  std::mt19937 rng(22);
  for (int64_t opset : {1, 2, 22})
    for (int64_t p : {1, 2, 3}) {
      SCOPED_TRACE("GlobalLpPool-" + std::to_string(opset) + " p " + std::to_string(p));
      std::vector<float> x = uniform_floats(24, rng, -2.0f, 2.0f);  // (2, 2, 2, 3): planes of 6
      OneNodeModel m = one_node_model("GlobalLpPool", opset, {floats({2, 2, 2, 3}, x)},
                                      {opset == 1 ? attr_float("p", static_cast<float>(p)) : attr_int("p", p)});
      lppool_check(
          m,
          [&](int64_t i, Real256& y) {
            Real256 term;
            for (size_t k = 0; k < 6; ++k) {
              mpfr_set_d(term.get(), std::fabs(static_cast<double>(x[static_cast<size_t>(i) * 6 + k])), MPFR_RNDN);
              mpfr_pow_ui(term.get(), term.get(), static_cast<unsigned long>(p), MPFR_RNDN);
              mpfr_add(y.get(), y.get(), term.get(), MPFR_RNDN);
            }
            mpfr_rootn_ui(y.get(), y.get(), static_cast<unsigned long>(p), MPFR_RNDN);
          },
          [&](int64_t i) {
            float s = 0;
            for (size_t k = 0; k < 6; ++k) s += lppool_float_power(x[static_cast<size_t>(i) * 6 + k], static_cast<double>(p));
            return lppool_float_root(s, static_cast<double>(p));
          });
    }
}

// LRN over X (2, C = 5, 3): the window of channel c is [c − ⌊(size−1)/2⌋, c + ⌈(size−1)/2⌉] ∩ [0, C).
void lrn_check(int64_t opset, int64_t size, float alpha, float beta, float bias, const std::vector<float>& x) {
  SCOPED_TRACE("LRN-" + std::to_string(opset) + " size " + std::to_string(size));
  const int64_t C = 5, D = 3;
  OneNodeModel m = one_node_model("LRN", opset, {floats({2, C, D}, x)},
                                  {attr_int("size", size), attr_float("alpha", alpha), attr_float("beta", beta),
                                   attr_float("bias", bias)});
  auto window = [&](int64_t i) {
    int64_t n = i / (C * D), c = i / D % C, d = i % D;
    std::vector<size_t> w;
    for (int64_t j = std::max<int64_t>(0, c - (size - 1) / 2); j <= std::min(C - 1, c + size / 2); ++j)
      w.push_back(static_cast<size_t>((n * C + j) * D + d));
    return w;
  };
  lppool_check(
      m,
      [&](int64_t i, Real256& y) {
        Real256 sum, t;
        for (size_t k : window(i)) {
          mpfr_set_d(t.get(), x[k], MPFR_RNDN);
          mpfr_mul(t.get(), t.get(), t.get(), MPFR_RNDN);
          mpfr_add(sum.get(), sum.get(), t.get(), MPFR_RNDN);
        }
        mpfr_mul_d(sum.get(), sum.get(), static_cast<double>(alpha), MPFR_RNDN);
        mpfr_div_si(sum.get(), sum.get(), size, MPFR_RNDN);
        mpfr_add_d(sum.get(), sum.get(), static_cast<double>(bias), MPFR_RNDN);
        mpfr_set_d(t.get(), static_cast<double>(beta), MPFR_RNDN);
        mpfr_pow(sum.get(), sum.get(), t.get(), MPFR_RNDN);
        mpfr_set_d(y.get(), x[static_cast<size_t>(i)], MPFR_RNDN);
        mpfr_div(y.get(), y.get(), sum.get(), MPFR_RNDN);
      },
      [&](int64_t i) {
        float s = 0;
        for (size_t k : window(i)) s += x[k] * x[k];
        return x[static_cast<size_t>(i)] / std::pow(bias + alpha / static_cast<float>(size) * s, beta);
      });
}

TEST(EncloseLpPool, LRNEveryVersion) {
  std::mt19937 rng(13);
  for (int64_t opset : {1, 13}) {
    lrn_check(opset, 3, 1e-4f, 0.75f, 1.0f, uniform_floats(30, rng, -5.0f, 5.0f));
    lrn_check(opset, 2, 0.5f, 0.75f, 2.0f, uniform_floats(30, rng, -5.0f, 5.0f));  // the window is lopsided
    lrn_check(opset, 5, 2.0f, 1.0f, 0.5f, wide_floats(30, rng));
  }
}

}  // namespace
}  // namespace sonnx::enclose
