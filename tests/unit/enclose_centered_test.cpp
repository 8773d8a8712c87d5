// Centered enclosures (enclose/centered.h, enclose_centered.cpp): double-double sums
// whose error bound holds against exact MPFR sums and is of order u², and deep networks whose real
// enclosure stays within an ulp of float where double bounds would have compounded a layer's
// rounding through every later layer.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <random>

#include "enclose/centered.h"
#include "enclose/double_double.h"
#include "enclose_test_util.h"

namespace sonnx::enclose {
namespace {

constexpr double kU = 0x1p-53;

// A normalized double-double near x: x plus a low part of up to half an ulp.
DD random_dd(std::mt19937& rng) {
  double hi = random_float(rng);
  double lo = std::ldexp(std::uniform_real_distribution<double>(-0.5, 0.5)(rng), std::ilogb(hi) - 52);
  DD d;
  two_sum(hi, lo, d.hi, d.lo);
  return d;
}

// |exact − (r.hi + r.lo)| ≤ err.
bool within(const Exact& exact, DD r, double err) {
  mpfr_t d;
  mpfr_init2(d, 2200);
  mpfr_sub_d(d, const_cast<Exact&>(exact).get(), r.hi, MPFR_RNDN);
  mpfr_sub_d(d, d, r.lo, MPFR_RNDN);
  bool ok = mpfr_cmpabs_ui(d, 0) == 0 || (mpfr_cmp_d(d, err) <= 0 && mpfr_cmp_d(d, -err) >= 0);
  mpfr_clear(d);
  return ok;
}

TEST(EncloseCentered, DoubleDoubleSumsHoldTheExactSumWithinABoundOfOrderUSquared) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> length(1, 3000);
  for (int t = 0; t < 300; ++t) {
    int n = length(rng);
    DDSum sum;
    Exact exact;
    double magnitude = 0;
    for (int i = 0; i < n; ++i) {
      DD a = random_dd(rng), b = t % 3 == 0 ? DD{random_float(rng), 0} : random_dd(rng);
      sum.add_product(a, b);
      for (double x : {a.hi, a.lo})
        for (double y : {b.hi, b.lo}) exact.add_product(x, y);
      magnitude += std::fabs(a.hi * b.hi);
      if (i % 97 == 96) {  // cancel what is there: the sum is then far below its terms
        DD so_far = sum.result().first;
        sum.add(DD{-so_far.hi, -so_far.lo});
        exact.add_product(-so_far.hi, 1);
        exact.add_product(-so_far.lo, 1);
      }
    }
    auto [r, err] = sum.result();
    ASSERT_TRUE(within(exact, r, err)) << "n " << n << ", trial " << t;
    EXPECT_LE(err, 32 * kU * kU * magnitude + 0x1p-1000) << "the bound is of order u² of the terms, n " << n;
    EXPECT_LE(std::fabs(r.lo), kU * std::fabs(r.hi)) << "normalized";
  }
}

TEST(EncloseCentered, ASumThatRoundsNothingIsExact) {
  DDSum sum;
  for (int i = 1; i <= 100; ++i) sum.add_product({static_cast<double>(i), 0}, {0.25 * i, 0});
  sum.add(-1.5);
  auto [r, err] = sum.result();
  EXPECT_EQ(err, 0.0);
  EXPECT_EQ(r.hi, 0.25 * 100 * 101 * 201 / 6 - 1.5);
  EXPECT_EQ(r.lo, 0.0);
}

// ---- exact evaluation of small networks in MPFR ----

constexpr mpfr_prec_t kBits = 6000;  // the networks below stay exact at this precision but for ÷ and sqrt

class Reals {
 public:
  explicit Reals(size_t n = 0) : v_(n) {
    for (auto& x : v_) mpfr_init2(&x, kBits), mpfr_set_zero(&x, 1);
  }
  Reals(const Reals&) = delete;
  Reals(Reals&& o) noexcept : v_(std::move(o.v_)) {}
  Reals& operator=(Reals&& o) noexcept {
    std::swap(v_, o.v_);
    return *this;
  }
  ~Reals() {
    for (auto& x : v_) mpfr_clear(&x);
  }
  size_t size() const { return v_.size(); }
  mpfr_ptr operator[](size_t i) { return &v_[i]; }

 private:
  std::vector<__mpfr_struct> v_;
};

Reals reals_of(const std::vector<float>& x) {
  Reals r(x.size());
  for (size_t i = 0; i < x.size(); ++i) mpfr_set_d(r[i], x[i], MPFR_RNDN);
  return r;
}

// Y[m] = Σ_k W[m, k]·X[k] + B[m] (Gemm with transB over one row).
Reals dense(Reals& x, const std::vector<float>& w, const std::vector<float>& b) {
  Reals y(b.size());
  for (size_t m = 0; m < b.size(); ++m) {
    mpfr_set_d(y[m], b[m], MPFR_RNDN);
    for (size_t k = 0; k < x.size(); ++k) {
      mpfr_t p;
      mpfr_init2(p, kBits);
      mpfr_mul_d(p, x[k], w[m * x.size() + k], MPFR_RNDN);
      mpfr_add(y[m], y[m], p, MPFR_RNDN);
      mpfr_clear(p);
    }
  }
  return y;
}

// (x − mean)·scale / sqrt(var + eps) + B per channel, over planes of `plane` elements.
void batch_norm(Reals& x, size_t plane, const std::vector<float>& scale, const std::vector<float>& bias,
                const std::vector<float>& mean, const std::vector<float>& var, float eps) {
  mpfr_t s;
  mpfr_init2(s, kBits);
  for (size_t i = 0; i < x.size(); ++i) {
    size_t c = (i / plane) % scale.size();
    mpfr_set_d(s, var[c], MPFR_RNDN);
    mpfr_add_d(s, s, eps, MPFR_RNDN);
    mpfr_sqrt(s, s, MPFR_RNDN);
    mpfr_sub_d(x[i], x[i], mean[c], MPFR_RNDN);
    mpfr_mul_d(x[i], x[i], scale[c], MPFR_RNDN);
    mpfr_div(x[i], x[i], s, MPFR_RNDN);
    mpfr_add_d(x[i], x[i], bias[c], MPFR_RNDN);
  }
  mpfr_clear(s);
}

void relu(Reals& x) {
  for (size_t i = 0; i < x.size(); ++i)
    if (mpfr_sgn(x[i]) < 0) mpfr_set_zero(x[i], 1);
}

void add_into(Reals& x, Reals& y) {
  for (size_t i = 0; i < x.size(); ++i) mpfr_add(x[i], x[i], y[i], MPFR_RNDN);
}

// Every element of the real enclosure holds the exact value, and its centered form (which the
// double bounds round outward, an ulp of double at least) is at most `max_ulps` ulps of float wide
// at the exact value's magnitude (a float ulp at 2^-126 for values below it).
void expect_tight(const Bounds& b, Reals& exact, double max_ulps) {
  ASSERT_EQ(static_cast<size_t>(b.lo.size()), exact.size());
  ASSERT_TRUE(b.centered) << "the output has a centered form";
  for (size_t i = 0; i < exact.size(); ++i) {
    Interval v = bound_at(b, static_cast<int64_t>(i));
    ASSERT_TRUE(mpfr_cmp_d(exact[i], v.lo) >= 0 && mpfr_cmp_d(exact[i], v.hi) <= 0) << "element " << i;
    double at = std::max(std::fabs(mpfr_get_d(exact[i], MPFR_RNDN)), 0x1p-126);
    EXPECT_LE(2 * b.centered->rad[i] / std::ldexp(1.0, std::ilogb(at) - 23), max_ulps) << "element " << i << " at " << at;
  }
}

// 40 layers of Gemm + Relu with a BatchNormalization every third layer and a residual Add every
// fourth: double bounds would widen by the layers' Σ|w|·|x| / |Σ w·x| each, about 2^40 over the
// network; the centered enclosure starts at u² and ends well within an ulp of float.
TEST(EncloseCentered, ADeepDenseNetworkStaysWithinAnUlpOfFloat) {
  constexpr size_t kWidth = 16, kLayers = 40;
  std::mt19937 rng(12);
  std::vector<onnx::NodeProto> nodes;
  NamedValues feed;
  std::vector<float> x = uniform_floats(kWidth, rng, -1, 1);
  feed["x"] = floats({1, kWidth}, x);
  Reals h = reals_of(x), residual = reals_of(x);
  std::string cur = "x", res = "x";
  for (size_t l = 0; l < kLayers; ++l) {
    std::string L = std::to_string(l);
    std::vector<float> w = uniform_floats(kWidth * kWidth, rng, -0.5f, 0.5f), b = uniform_floats(kWidth, rng, -0.1f, 0.1f);
    feed["w" + L] = floats({kWidth, kWidth}, w);
    feed["b" + L] = floats({kWidth}, b);
    nodes.push_back(named_node("Gemm", {cur, "w" + L, "b" + L}, "g" + L, {sonnx::testing::attr_int("transB", 1)}));
    h = dense(h, w, b);
    cur = "g" + L;
    if (l % 3 == 2) {
      std::vector<float> scale = uniform_floats(kWidth, rng, 0.5f, 2), bias = uniform_floats(kWidth, rng, -0.2f, 0.2f),
                         mean = uniform_floats(kWidth, rng, -0.2f, 0.2f), var = uniform_floats(kWidth, rng, 0.5f, 2);
      for (auto& [name, v] :
           std::vector<std::pair<std::string, std::vector<float>*>>{{"s", &scale}, {"B", &bias}, {"m", &mean}, {"v", &var}})
        feed[name + L] = floats({kWidth}, *v);
      nodes.push_back(named_node("BatchNormalization", {cur, "s" + L, "B" + L, "m" + L, "v" + L}, "n" + L));
      batch_norm(h, 1, scale, bias, mean, var, 1e-5f);
      cur = "n" + L;
    }
    nodes.push_back(named_node("Relu", {cur}, "r" + L));
    relu(h);
    cur = "r" + L;
    if (l % 4 == 3) {
      nodes.push_back(named_node("Add", {cur, res}, "a" + L));
      add_into(h, residual);
      cur = res = "a" + L;
      residual = Reals(kWidth);
      for (size_t i = 0; i < kWidth; ++i) mpfr_set(residual[i], h[i], MPFR_RNDN);
    }
  }
  nodes.push_back(named_node("Identity", {cur}, "y"));
  OneNodeModel m = graph_model(15, nodes, feed, {"y"});
  Bounds y = enclose_model(m.model, m.feed).at("y");
  expect_tight(y, h, 1.0);
}

// 2-D convolution (NCHW, one image, square kernel, symmetric padding and stride) into `out`.
Reals conv2d(Reals& x, size_t C, size_t H, const std::vector<float>& w, const std::vector<float>& b, size_t K, size_t pad,
             size_t stride, size_t& out) {
  size_t M = b.size();
  out = (H + 2 * pad - K) / stride + 1;
  Reals y(M * out * out);
  mpfr_t p;
  mpfr_init2(p, kBits);
  for (size_t m = 0; m < M; ++m)
    for (size_t oy = 0; oy < out; ++oy)
      for (size_t ox = 0; ox < out; ++ox) {
        mpfr_ptr acc = y[(m * out + oy) * out + ox];
        mpfr_set_d(acc, b[m], MPFR_RNDN);
        for (size_t c = 0; c < C; ++c)
          for (size_t ky = 0; ky < K; ++ky)
            for (size_t kx = 0; kx < K; ++kx) {
              long iy = static_cast<long>(oy * stride + ky) - static_cast<long>(pad),
                   ix = static_cast<long>(ox * stride + kx) - static_cast<long>(pad);
              if (iy < 0 || ix < 0 || iy >= static_cast<long>(H) || ix >= static_cast<long>(H)) continue;
              mpfr_mul_d(p, x[(c * H + static_cast<size_t>(iy)) * H + static_cast<size_t>(ix)],
                         w[((m * C + c) * K + ky) * K + kx], MPFR_RNDN);
              mpfr_add(acc, acc, p, MPFR_RNDN);
            }
      }
  mpfr_clear(p);
  return y;
}

// Conv → BatchNormalization → Relu → MaxPool → Conv → Sub of a 1×1 Conv shortcut → Relu →
// GlobalAveragePool → Flatten → Gemm on an input divided by `divisor`: by 3, each element is the
// double interval around x/3 (not a point), with the exact quotient in MPFR; by 1, a point.
void check_conv_network(unsigned divisor, double max_ulps) {
  constexpr size_t C = 3, H = 12, M = 8, K = 3, classes = 5;
  std::mt19937 rng(13);
  std::vector<float> x = uniform_floats(C * H * H, rng, -1, 1), w1 = uniform_floats(M * C * K * K, rng, -0.5f, 0.5f),
                     b1 = uniform_floats(M, rng, -0.1f, 0.1f);
  std::vector<float> scale = uniform_floats(M, rng, 0.5f, 2), bias = uniform_floats(M, rng, -0.2f, 0.2f),
                     mean = uniform_floats(M, rng, -0.2f, 0.2f), var = uniform_floats(M, rng, 0.5f, 2);
  std::vector<float> w2 = uniform_floats(M * M * K * K, rng, -0.3f, 0.3f), b2 = uniform_floats(M, rng, -0.1f, 0.1f);
  std::vector<float> w3 = uniform_floats(M * M, rng, -0.3f, 0.3f), b3 = uniform_floats(M, rng, -0.1f, 0.1f);
  std::vector<float> wd = uniform_floats(classes * M, rng, -1, 1), bd = uniform_floats(classes, rng, -0.1f, 0.1f);
  NamedValues feed = {{"x", floats({1, C, H, H}, x)},   {"divisor", floats({}, {static_cast<float>(divisor)})},
                      {"w1", floats({M, C, K, K}, w1)}, {"b1", floats({M}, b1)},
                      {"s", floats({M}, scale)},        {"B", floats({M}, bias)},
                      {"mean", floats({M}, mean)},      {"var", floats({M}, var)},
                      {"w2", floats({M, M, K, K}, w2)}, {"b2", floats({M}, b2)},
                      {"w3", floats({M, M, 1, 1}, w3)}, {"b3", floats({M}, b3)},
                      {"wd", floats({classes, M}, wd)}, {"bd", floats({classes}, bd)}};
  using sonnx::testing::attr_int;
  using sonnx::testing::attr_ints;
  std::vector<onnx::NodeProto> nodes = {
      named_node("Div", {"x", "divisor"}, "xd"),
      named_node("Conv", {"xd", "w1", "b1"}, "c1", {attr_ints("pads", {1, 1, 1, 1}), attr_ints("strides", {1, 1})}),
      named_node("BatchNormalization", {"c1", "s", "B", "mean", "var"}, "n1"),
      named_node("Relu", {"n1"}, "r1"),
      named_node("MaxPool", {"r1"}, "p1",
                 {attr_ints("kernel_shape", {3, 3}), attr_ints("strides", {2, 2}), attr_ints("pads", {1, 1, 1, 1})}),
      named_node("Conv", {"p1", "w2", "b2"}, "c2", {attr_ints("pads", {1, 1, 1, 1})}),
      named_node("Conv", {"p1", "w3", "b3"}, "c3"),
      named_node("Sub", {"c2", "c3"}, "d"),
      named_node("Relu", {"d"}, "r2"),
      named_node("GlobalAveragePool", {"r2"}, "g"),
      named_node("Flatten", {"g"}, "f"),
      named_node("Gemm", {"f", "wd", "bd"}, "y", {attr_int("transB", 1)})};
  OneNodeModel m = graph_model(15, nodes, feed, {"y"});
  Bounds y = enclose_model(m.model, m.feed).at("y");

  Reals xd = reals_of(x);
  for (size_t i = 0; i < xd.size(); ++i) mpfr_div_ui(xd[i], xd[i], divisor, MPFR_RNDN);
  size_t h1 = 0, h2 = 0, h3 = 0;
  Reals a = conv2d(xd, C, H, w1, b1, K, 1, 1, h1);
  batch_norm(a, h1 * h1, scale, bias, mean, var, 1e-5f);
  relu(a);
  size_t hp = (h1 + 2 - 3) / 2 + 1;  // MaxPool 3×3, stride 2, pads 1
  Reals p(M * hp * hp);
  for (size_t c = 0; c < M; ++c)
    for (size_t oy = 0; oy < hp; ++oy)
      for (size_t ox = 0; ox < hp; ++ox) {
        mpfr_ptr best = p[(c * hp + oy) * hp + ox];
        mpfr_set_inf(best, -1);
        for (size_t ky = 0; ky < 3; ++ky)
          for (size_t kx = 0; kx < 3; ++kx) {
            long iy = static_cast<long>(oy * 2 + ky) - 1, ix = static_cast<long>(ox * 2 + kx) - 1;
            if (iy < 0 || ix < 0 || iy >= static_cast<long>(h1) || ix >= static_cast<long>(h1)) continue;
            mpfr_max(best, best, a[(c * h1 + static_cast<size_t>(iy)) * h1 + static_cast<size_t>(ix)], MPFR_RNDN);
          }
      }
  Reals c2 = conv2d(p, M, hp, w2, b2, K, 1, 1, h2), c3 = conv2d(p, M, hp, w3, b3, 1, 0, 1, h3);
  ASSERT_EQ(h2, h3);
  for (size_t i = 0; i < c2.size(); ++i) mpfr_sub(c2[i], c2[i], c3[i], MPFR_RNDN);
  relu(c2);
  Reals g(M);
  for (size_t c = 0; c < M; ++c) {
    for (size_t i = 0; i < h2 * h2; ++i) mpfr_add(g[c], g[c], c2[c * h2 * h2 + i], MPFR_RNDN);
    mpfr_div_ui(g[c], g[c], static_cast<unsigned long>(h2 * h2), MPFR_RNDN);
  }
  Reals logits = dense(g, wd, bd);
  expect_tight(y, logits, max_ulps);
}

TEST(EncloseCentered, AConvolutionNetworkHoldsTheExactResultWithinAnUlpOfFloat) {
  // x/3 is an ulp of double wide: the logits inherit that, about 2^-29 of an ulp of float, grown by
  // the layers' condition.
  check_conv_network(3, 1.0 / 1024);
  // From a point, every operator keeps u² (a double-bounded one would leave 2^-29 ulps of float).
  check_conv_network(1, 0x1p-40);
}

// Mul, Div, Sin and Cos on operands that are not points (x/3, an ulp of double wide): each element of
// the real enclosure holds the exact value and stays far within an ulp of float.
TEST(EncloseCentered, ArithmeticSinAndCosHoldTheExactValueOfIntervalOperands) {
  constexpr size_t n = 200;
  std::mt19937 rng(14);
  std::vector<float> x = wide_floats(n, rng), w = wide_floats(n, rng), v = uniform_floats(n, rng, 0.25f, 4);
  for (size_t i = 0; i < n; i += 2) v[i] = -v[i];
  NamedValues feed = {{"x", floats({n}, x)}, {"w", floats({n}, w)}, {"v", floats({n}, v)}, {"three", floats({}, {3})}};
  std::vector<onnx::NodeProto> nodes = {named_node("Div", {"x", "three"}, "xd"), named_node("Mul", {"xd", "w"}, "m"),
                                        named_node("Div", {"m", "v"}, "d"),      named_node("Sin", {"d"}, "s"),
                                        named_node("Cos", {"xd"}, "c"),          named_node("Sub", {"s", "c"}, "y")};
  OneNodeModel model = graph_model(15, nodes, feed, {"d", "s", "c", "y"});
  auto out = enclose_model(model.model, model.feed);
  Reals d(n), sn(n), cs(n), y(n);
  for (size_t i = 0; i < n; ++i) {
    mpfr_set_d(d[i], x[i], MPFR_RNDN);
    mpfr_div_ui(d[i], d[i], 3, MPFR_RNDN);
    mpfr_cos(cs[i], d[i], MPFR_RNDN);
    mpfr_mul_d(d[i], d[i], w[i], MPFR_RNDN);
    mpfr_div_d(d[i], d[i], v[i], MPFR_RNDN);
    mpfr_sin(sn[i], d[i], MPFR_RNDN);
    mpfr_sub(y[i], sn[i], cs[i], MPFR_RNDN);
  }
  expect_tight(out.at("d"), d, 1.0 / 1024);
  expect_tight(out.at("s"), sn, 1.0 / 1024);
  expect_tight(out.at("c"), cs, 1.0 / 1024);
  expect_tight(out.at("y"), y, 1.0 / 1024);
}

// HannWindow's function body computes 0.5 − 0.5·cos(k·2π_float/(N − 1)): at k = N − 1 the exact
// value is about 3·10⁻¹⁵, which double intermediates (cos near 1 an ulp of double wide) left tens of
// thousands of float ulps wide.
TEST(EncloseCentered, ACancellationAfterCosIsEnclosedWithinAnUlpOfFloat) {
  const float tau = static_cast<float>(2 * M_PI);
  NamedValues feed = {
      {"k", floats({2}, {9, 3})}, {"tau", floats({}, {tau})}, {"size", floats({}, {9})}, {"half", floats({}, {0.5f})}};
  std::vector<onnx::NodeProto> nodes = {named_node("Div", {"tau", "size"}, "inc"), named_node("Mul", {"k", "inc"}, "angle"),
                                        named_node("Cos", {"angle"}, "c"), named_node("Mul", {"half", "c"}, "hc"),
                                        named_node("Sub", {"half", "hc"}, "y")};
  OneNodeModel model = graph_model(17, nodes, feed, {"y"});
  Bounds b = enclose_model(model.model, model.feed).at("y");
  Reals y(2);
  for (size_t i = 0; i < 2; ++i) {
    mpfr_set_d(y[i], tau, MPFR_RNDN);
    mpfr_mul_ui(y[i], y[i], i == 0 ? 9 : 3, MPFR_RNDN);
    mpfr_div_ui(y[i], y[i], 9, MPFR_RNDN);
    mpfr_cos(y[i], y[i], MPFR_RNDN);
    mpfr_mul_d(y[i], y[i], -0.5, MPFR_RNDN);
    mpfr_add_d(y[i], y[i], 0.5, MPFR_RNDN);
  }
  EXPECT_LT(mpfr_get_d(y[0], MPFR_RNDN), 1e-13);
  expect_tight(b, y, 1.0);
}

// MatMul with broadcast batches ([2, 3, 4] × [4, 5]) and a 1-D operand, on x/3 (not a point).
TEST(EncloseCentered, MatMulHoldsTheExactProductOfIntervalOperands) {
  std::mt19937 rng(15);
  std::vector<float> a = wide_floats(24, rng), b = wide_floats(20, rng), v = wide_floats(4, rng);
  NamedValues feed = {{"a", floats({2, 3, 4}, a)}, {"b", floats({4, 5}, b)}, {"v", floats({4}, v)}, {"three", floats({}, {3})}};
  std::vector<onnx::NodeProto> nodes = {named_node("Div", {"a", "three"}, "ad"), named_node("MatMul", {"ad", "b"}, "y"),
                                        named_node("MatMul", {"v", "b"}, "z")};
  OneNodeModel model = graph_model(15, nodes, feed, {"y", "z"});
  auto out = enclose_model(model.model, model.feed);
  EXPECT_EQ(out.at("y").lo.shape(), (Shape{2, 3, 5}));
  EXPECT_EQ(out.at("z").lo.shape(), (Shape{5}));
  Reals y(30), z(5);
  mpfr_t p;
  mpfr_init2(p, kBits);
  for (size_t n = 0; n < 5; ++n) {
    for (size_t m = 0; m < 6; ++m)
      for (size_t k = 0; k < 4; ++k) {
        mpfr_set_d(p, a[m * 4 + k], MPFR_RNDN);
        mpfr_div_ui(p, p, 3, MPFR_RNDN);
        mpfr_mul_d(p, p, b[k * 5 + n], MPFR_RNDN);
        mpfr_add(y[m * 5 + n], y[m * 5 + n], p, MPFR_RNDN);
      }
    for (size_t k = 0; k < 4; ++k) {
      mpfr_set_d(p, v[k], MPFR_RNDN);
      mpfr_mul_d(p, p, b[k * 5 + n], MPFR_RNDN);
      mpfr_add(z[n], z[n], p, MPFR_RNDN);
    }
  }
  mpfr_clear(p);
  expect_tight(out.at("y"), y, 1.0 / 1024);
  expect_tight(out.at("z"), z, 0x1p-40);
}

// The monotone elementary functions on x/3 and on points: the exact value inside, far within an
// ulp of float; a point where the function is exact there (e^0 = 1, sqrt(4) = 2).
TEST(EncloseCentered, MonotoneFunctionsHoldTheExactValue) {
  struct Fn {
    const char* op;
    int (*exact)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
    float lo, hi;
  };
  const Fn fns[] = {{"Exp", mpfr_exp, -20, 20}, {"Log", mpfr_log, 1e-3f, 1e3f}, {"Sqrt", mpfr_sqrt, 0, 100},
                    {"Tanh", mpfr_tanh, -5, 5}, {"Erf", mpfr_erf, -4, 4},       {"Sigmoid", nullptr, -20, 20}};
  std::mt19937 rng(16);
  for (const Fn& f : fns) {
    std::vector<float> x = uniform_floats(64, rng, f.lo, f.hi);
    x[0] = f.lo == 0 ? 4 : f.lo < 0 ? 0 : 1;  // exact there
    NamedValues feed = {{"x", floats({64}, x)}, {"three", floats({}, {3})}};
    std::vector<onnx::NodeProto> nodes = {named_node("Div", {"x", "three"}, "xd"), named_node(f.op, {"xd"}, "y"),
                                          named_node(f.op, {"x"}, "z")};
    OneNodeModel model = graph_model(15, nodes, feed, {"y", "z"});
    auto out = enclose_model(model.model, model.feed);
    Reals y(64), z(64);
    for (size_t i = 0; i < 64; ++i)
      for (bool third : {true, false}) {
        mpfr_ptr e = third ? y[i] : z[i];
        mpfr_set_d(e, x[i], MPFR_RNDN);
        if (third) mpfr_div_ui(e, e, 3, MPFR_RNDN);
        if (f.exact) {
          f.exact(e, e, MPFR_RNDN);
        } else {  // 1 / (1 + e^−x)
          mpfr_neg(e, e, MPFR_RNDN);
          mpfr_exp(e, e, MPFR_RNDN);
          mpfr_add_ui(e, e, 1, MPFR_RNDN);
          mpfr_ui_div(e, 1, e, MPFR_RNDN);
        }
      }
    SCOPED_TRACE(f.op);
    expect_tight(out.at("y"), y, 1.0 / 1024);
    expect_tight(out.at("z"), z, 0x1p-40);
    if (f.exact && f.exact != mpfr_tanh && f.exact != mpfr_erf) {
      EXPECT_EQ(out.at("z").centered->rad[0], 0.0) << f.op << "(" << x[0] << ") is exact";
    }
  }
}

// A divisor that may be 0 has no centered quotient: the ordinary enclosure says undefined.
TEST(EncloseCentered, ADivisorThatMayBeZeroIsUndefined) {
  NamedValues feed = {{"x", floats({1}, {1})}, {"z", floats({1}, {1e-30f})}, {"three", floats({}, {3})}};
  std::vector<onnx::NodeProto> nodes = {named_node("Div", {"z", "three"}, "zd"), named_node("Sub", {"zd", "zd"}, "zero"),
                                        named_node("Div", {"x", "zero"}, "y")};
  OneNodeModel model = graph_model(15, nodes, feed, {"y"});
  EXPECT_TRUE(bound_at(enclose_model(model.model, model.feed).at("y"), 0).has_nan());
}

}  // namespace
}  // namespace sonnx::enclose
