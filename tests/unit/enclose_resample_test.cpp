// Enclosures of Resize (every mode and attribute), Mod and Range (enclose/enclose_resize.cpp,
// enclose_arith.cpp). The exact values are computed here independently, as rationals (GMP), from the
// ONNX formulas: Resize as the normalized convolution Σ_i K(s·(i − x))·X[clamp(i)] over every
// integer i (the kernel K the tent or Keys' cubic, s = min(scale, 1) with antialias, else 1), the
// nearest index by its rounding rule; Mod as x − trunc(x/y)·y (or floor); Range as start + i·delta
// with ceil((limit − start)/delta) elements. Each real enclosure must hold the exact value and be
// narrow; the reference interpreter's result must lie in the admissible enclosure; a shape, a count
// or an integer element the bounds leave open is Undetermined.
#include <gmp.h>
#include <gtest/gtest.h>

#include <iostream>
#include <random>

#include "enclose_test_util.h"
#include "enclose/type_rounding.h"
#include "sonnx/errors.h"
#include "reference/ops/support/kernel.h"
#include "tensor_test_util.h"

namespace sonnx::enclose {
namespace {

using sonnx::testing::attr_float;
using sonnx::testing::attr_int;
using sonnx::testing::attr_ints;
using sonnx::testing::attr_string;
using Attrs = std::vector<onnx::AttributeProto>;

// ---- Exact rationals ----

class Rat {
 public:
  Rat() { mpq_init(v_); }
  Rat(double d) : Rat() { mpq_set_d(v_, d); }  // NOLINT: a double is a rational
  Rat(const Rat& o) : Rat() { mpq_set(v_, o.v_); }
  Rat& operator=(const Rat& o) {
    if (this != &o) mpq_set(v_, o.v_);
    return *this;
  }
  ~Rat() { mpq_clear(v_); }
  friend Rat operator+(const Rat& a, const Rat& b) { return op(a, b, mpq_add); }
  friend Rat operator-(const Rat& a, const Rat& b) { return op(a, b, mpq_sub); }
  friend Rat operator*(const Rat& a, const Rat& b) { return op(a, b, mpq_mul); }
  friend Rat operator/(const Rat& a, const Rat& b) { return op(a, b, mpq_div); }
  friend bool operator<(const Rat& a, const Rat& b) { return mpq_cmp(a.v_, b.v_) < 0; }
  friend bool operator>(const Rat& a, const Rat& b) { return mpq_cmp(a.v_, b.v_) > 0; }
  friend bool operator==(const Rat& a, const Rat& b) { return mpq_equal(a.v_, b.v_) != 0; }
  Rat abs() const { return mpq_sgn(v_) < 0 ? Rat(0) - *this : *this; }
  int64_t floor() const { return div(mpz_fdiv_q); }
  int64_t ceil() const { return div(mpz_cdiv_q); }
  int64_t trunc() const { return div(mpz_tdiv_q); }
  double approx() const { return mpq_get_d(v_); }
  bool inside(Interval i) const {
    if (i.has_nan()) return false;
    return (std::isinf(i.lo) ? i.lo < 0 : !(*this < Rat(i.lo))) && (std::isinf(i.hi) ? i.hi > 0 : !(*this > Rat(i.hi)));
  }

 private:
  template <class F>
  static Rat op(const Rat& a, const Rat& b, F f) {
    Rat r;
    f(r.v_, a.v_, b.v_);
    return r;
  }
  template <class F>
  int64_t div(F f) const {
    mpz_t z;
    mpz_init(z);
    f(z, mpq_numref(v_), mpq_denref(v_));
    long r = mpz_get_si(z);
    mpz_clear(z);
    return r;
  }
  mpq_t v_;
};

Rat rmin(const Rat& a, const Rat& b) { return a < b ? a : b; }
Rat rmax(const Rat& a, const Rat& b) { return a > b ? a : b; }

// The width of i in double ulps of m (the magnitude the result is computed from).
double ulps_of(Interval i, double m) {
  return m == 0 ? (i.hi == i.lo ? 0 : INFINITY) : (i.hi - i.lo) / std::ldexp(1.0, std::ilogb(m) - 52);
}

// The width of i in float ulps of m.
double float_ulps_of(Interval i, double m) {
  return m == 0 ? (i.hi == i.lo ? 0 : INFINITY) : (i.hi - i.lo) / std::ldexp(1.0, std::ilogb(m) - 23);
}

// ---- Resize: the exact value from the ONNX formulas ----

struct ResizeCase {
  int64_t opset = 19;
  Shape shape;
  std::string mode = "nearest", ctm = "half_pixel", nearest = "round_prefer_floor";
  float a = -0.75f;
  bool exclude = false, antialias = false;
  std::vector<int64_t> axes;  // empty: no attribute
  std::string policy = "stretch";
  std::vector<float> scales, roi;
  std::vector<int64_t> sizes;
  float extrapolation = 0;

  std::string str() const {
    std::string s = "Resize-" + std::to_string(opset) + " " + mode + " " + ctm + (mode == "nearest" ? " " + nearest : "") +
                    (antialias ? " antialias" : "") + (exclude ? " exclude_outside" : "") + " policy " + policy +
                    (scales.empty() ? " sizes" : " scales") + " shape [";
    for (int64_t d : shape) s += std::to_string(d) + ",";
    return s + "]";
  }
  OneNodeModel model(const std::vector<float>& x) const {
    Attrs attrs = {attr_string("mode", mode)};
    std::vector<Value> in = {floats(shape, x)};
    if (opset < 11) {
      in.push_back(floats({static_cast<int64_t>(scales.size())}, scales));
    } else {
      attrs.push_back(attr_string("coordinate_transformation_mode", ctm));
      attrs.push_back(attr_string("nearest_mode", nearest));
      attrs.push_back(attr_float("cubic_coeff_a", a));
      attrs.push_back(attr_int("exclude_outside", exclude));
      attrs.push_back(attr_float("extrapolation_value", extrapolation));
      if (opset >= 18) {
        attrs.push_back(attr_int("antialias", antialias));
        attrs.push_back(attr_string("keep_aspect_ratio_policy", policy));
        if (!axes.empty()) attrs.push_back(attr_ints("axes", axes));
      }
      in.push_back(!roi.empty() ? floats({static_cast<int64_t>(roi.size())}, roi) : opset == 11 ? floats({0}, {}) : Value());
      in.push_back(!scales.empty() ? floats({static_cast<int64_t>(scales.size())}, scales)
                   : opset == 11   ? floats({0}, {})
                                   : Value());
      if (!sizes.empty()) in.push_back(Value(testing::i64(sizes)));
    }
    return one_node_model("Resize", opset, in, attrs);
  }
};

struct ExactAxis {
  int64_t in = 0, out = 0;
  Rat scale = 1, resized = 0, roi_start = 0, roi_end = 1;
};

// Output lengths, scales and length_resized (in·scale, or the size) per axis.
std::vector<ExactAxis> exact_axes(const ResizeCase& c) {
  int64_t r = static_cast<int64_t>(c.shape.size());
  std::vector<ExactAxis> axes(static_cast<size_t>(r));
  for (int64_t d = 0; d < r; ++d) {
    ExactAxis& a = axes[static_cast<size_t>(d)];
    a.in = a.out = c.shape[static_cast<size_t>(d)];
    a.resized = static_cast<double>(a.in);
  }
  std::vector<int64_t> named = c.axes;
  if (named.empty())
    for (int64_t d = 0; d < r; ++d) named.push_back(d);
  for (int64_t& d : named)
    if (d < 0) d += r;
  size_t n = named.size();
  bool crop = c.ctm == "tf_crop_and_resize" && c.opset >= 11;
  Rat aspect = c.policy == "not_larger" ? Rat(1e300) : Rat(0);
  for (size_t i = 0; i < n && !c.sizes.empty(); ++i) {
    Rat q = Rat(static_cast<double>(c.sizes[i])) / Rat(static_cast<double>(axes[static_cast<size_t>(named[i])].in));
    aspect = c.policy == "not_larger" ? rmin(aspect, q) : rmax(aspect, q);
  }
  for (size_t i = 0; i < n; ++i) {
    ExactAxis& a = axes[static_cast<size_t>(named[i])];
    Rat in = static_cast<double>(a.in);
    if (crop && !c.roi.empty()) {
      a.roi_start = c.roi[i];
      a.roi_end = c.roi[n + i];
    }
    if (!c.scales.empty()) {
      a.scale = c.scales[i];
      a.resized = in * a.scale;
      a.out = (in * (crop ? (a.roi_end - a.roi_start) * a.scale : a.scale)).floor();
    } else if (c.policy == "stretch") {
      a.out = c.sizes[i];
      a.scale = Rat(static_cast<double>(c.sizes[i])) / in;
      a.resized = static_cast<double>(c.sizes[i]);
    } else {
      a.scale = aspect;
      a.resized = in * aspect;
      a.out = (in * aspect + Rat(0.5)).floor();
    }
  }
  return axes;
}

// x_original of output index o (the coordinate_transformation_mode formulas of the ONNX spec;
// length_resized of align_corners is in·scale, as the reference takes it).
Rat exact_coordinate(const ResizeCase& c, const ExactAxis& a, int64_t o) {
  Rat x = static_cast<double>(o), in = static_cast<double>(a.in), half = 0.5;
  std::string m = c.opset < 11 ? "asymmetric" : c.ctm;
  if (m == "half_pixel") return (x + half) / a.scale - half;
  if (m == "half_pixel_symmetric") {
    Rat adjustment = Rat(static_cast<double>(a.out)) / a.resized;
    return in / Rat(2) * (Rat(1) - adjustment) + (x + half) / a.scale - half;
  }
  if (m == "pytorch_half_pixel") return a.out > 1 ? (x + half) / a.scale - half : Rat(0);
  if (m == "align_corners") return a.resized == Rat(1) ? Rat(0) : x * (in - Rat(1)) / (a.resized - Rat(1));
  if (m == "asymmetric") return x / a.scale;
  if (m == "tf_half_pixel_for_nn") return (x + half) / a.scale;
  if (a.out > 1)
    return a.roi_start * (in - Rat(1)) + x * (a.roi_end - a.roi_start) * (in - Rat(1)) / Rat(static_cast<double>(a.out - 1));
  return half * (a.roi_start + a.roi_end) * (in - Rat(1));
}

Rat keys(const Rat& d0, const Rat& A) {  // Keys' cubic kernel
  Rat d = d0.abs();
  if (!(d > Rat(1))) return (A + Rat(2)) * d * d * d - (A + Rat(3)) * d * d + Rat(1);
  if (d < Rat(2)) return A * d * d * d - Rat(5) * A * d * d + Rat(8) * A * d - Rat(4) * A;
  return 0;
}

struct ExactTaps {
  bool outside = false;
  std::vector<std::pair<int64_t, Rat>> taps;
};

ExactTaps exact_taps(const ResizeCase& c, const ExactAxis& a, int64_t o) {
  Rat x = exact_coordinate(c, a, o);
  ExactTaps t;
  if (c.ctm == "tf_crop_and_resize" && c.opset >= 11 && (x < Rat(0) || x > Rat(static_cast<double>(a.in - 1)))) {
    t.outside = true;
    return t;
  }
  auto clamp = [&](int64_t i) { return std::clamp<int64_t>(i, 0, a.in - 1); };
  if (c.mode == "nearest") {
    int64_t i;
    if (c.opset < 11) i = a.scale < Rat(1) ? x.ceil() : x.floor();
    else if (c.nearest == "round_prefer_floor") i = (x - Rat(0.5)).ceil();
    else if (c.nearest == "round_prefer_ceil") i = (x + Rat(0.5)).floor();
    else if (c.nearest == "floor") i = x.floor();
    else i = x.ceil();
    t.taps.push_back({clamp(i), Rat(1)});
    return t;
  }
  bool linear = c.mode == "linear";
  Rat s = c.antialias ? rmin(a.scale, Rat(1)) : Rat(1);
  Rat support = linear ? 1 : 2;
  std::vector<std::pair<int64_t, Rat>> raw;
  Rat sum = 0;
  for (int64_t i = (x - support / s).floor() - 1; i <= (x + support / s).ceil() + 1; ++i) {
    Rat d = s * (Rat(static_cast<double>(i)) - x);
    Rat w = linear ? rmax(Rat(0), Rat(1) - d.abs()) : keys(d, Rat(c.a));
    if (c.exclude && (i < 0 || i >= a.in)) w = 0;
    sum = sum + w;
    raw.push_back({i, w});
  }
  for (auto& [i, w] : raw) {
    if (c.antialias || c.exclude) w = w / sum;
    if (!(w == Rat(0))) t.taps.push_back({clamp(i), w});
  }
  return t;
}

// The exact output of a Resize case on exact inputs x (rationals): each element's value, and Σ|w·x|
// (the magnitude its sum is computed from) and its number of terms.
struct ExactElement {
  Rat v;
  double mag = 0, terms = 0;
};
std::vector<ExactElement> exact_resize(const ResizeCase& c, const std::vector<Rat>& x, Shape& out) {
  std::vector<ExactAxis> axes = exact_axes(c);
  out.clear();
  for (const ExactAxis& a : axes) out.push_back(a.out);
  std::vector<std::vector<ExactTaps>> taps(axes.size());
  for (size_t d = 0; d < axes.size(); ++d)
    for (int64_t o = 0; o < axes[d].out; ++o) taps[d].push_back(exact_taps(c, axes[d], o));
  std::vector<int64_t> strides = support::strides_of(c.shape);
  std::vector<ExactElement> y;
  support::for_each_index(out, [&](const std::vector<int64_t>& idx, int64_t) {
    ExactElement e;
    bool outside = false;
    for (size_t d = 0; d < axes.size(); ++d) outside = outside || taps[d][static_cast<size_t>(idx[d])].outside;
    if (outside) {
      e.v = c.extrapolation;
      e.mag = std::fabs(c.extrapolation);
    } else {
      // Σ over the Cartesian product of the axes' taps.
      std::vector<size_t> pos(axes.size(), 0);
      while (true) {
        Rat w = 1;
        int64_t off = 0;
        for (size_t d = 0; d < axes.size(); ++d) {
          const auto& t = taps[d][static_cast<size_t>(idx[d])].taps[pos[d]];
          w = w * t.second;
          off += t.first * strides[d];
        }
        Rat term = w * x[static_cast<size_t>(off)];
        e.v = e.v + term;
        ++e.terms;
        e.mag += std::fabs(term.approx());
        size_t d = axes.size();
        bool done = true;
        while (d > 0) {
          --d;
          if (++pos[d] < taps[d][static_cast<size_t>(idx[d])].taps.size()) {
            done = false;
            break;
          }
          pos[d] = 0;
        }
        if (done) break;
      }
    }
    y.push_back(e);
  });
  return y;
}

// Checks a Resize case on x: the real enclosure holds the exact value, the admissible one the
// reference's; returns the widest real enclosure (double ulps of Σ|w·x|) and admissible one (float
// ulps of Σ|w·x|).
std::pair<double, double> check_resize(const ResizeCase& c, const std::vector<float>& x) {
  OneNodeModel m = c.model(x);
  Tensor ref = reference_output(m);
  Bounds real = enclose_output(m, Semantics::Real), adm = enclose_output(m, Semantics::Admissible);
  Shape out;
  std::vector<ExactElement> exact = exact_resize(c, std::vector<Rat>(x.begin(), x.end()), out);
  EXPECT_EQ(real.lo.shape(), out) << c.str();
  EXPECT_EQ(ref.shape(), out) << c.str();
  if (real.lo.shape() != out || ref.shape() != out || adm.lo.shape() != out) return {0, 0};
  double real_w = 0, adm_w = 0;
  for (int64_t lin = 0; lin < ref.size(); ++lin) {
    const ExactElement& e = exact[static_cast<size_t>(lin)];
    Interval r = bound_at(real, lin), a = bound_at(adm, lin);
    EXPECT_TRUE(e.v.inside(r)) << c.str() << " element " << lin << ": exact " << e.v.approx() << " outside [" << r.lo << ", "
                               << r.hi << "]";
    EXPECT_TRUE(a.contains(ref.as_double(lin)))
        << c.str() << " element " << lin << ": reference " << ref.as_double(lin) << " outside [" << a.lo << ", " << a.hi << "]";
    // Dot2: an ulp of the result and γ_n²·Σ|w·x|; the weights' own enclosures (one ulp each, and the
    // product of an axis' weight by the other's: a few ulps of Σ|w·x| in all).
    EXPECT_LE(ulps_of(r, e.mag), 16) << c.str() << " element " << lin << " of " << e.terms << " terms";
    real_w = std::max(real_w, ulps_of(r, e.mag));
    adm_w = std::max(adm_w, float_ulps_of(a, e.mag));
  }
  return {real_w, adm_w};
}

std::vector<ResizeCase> resize_cases() {
  std::vector<ResizeCase> cases;
  auto add = [&](ResizeCase c) { cases.push_back(std::move(c)); };
  Shape s4 = {1, 2, 4, 5};
  // Version 10: asymmetric, Upsample's nearest rule; nearest and linear.
  for (std::string mode : {"nearest", "linear"})
    for (std::vector<float> sc : {std::vector<float>{1, 1, 2, 1.5f}, std::vector<float>{1, 1, 0.6f, 0.7f}}) {
      ResizeCase c;
      c.opset = 10, c.shape = s4, c.mode = mode, c.scales = sc;
      add(c);
    }
  // Versions 11 and 13: every coordinate transformation, scales and sizes, each mode.
  for (int64_t opset : {11, 13})
    for (std::string ctm : {"half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric", "tf_half_pixel_for_nn"})
      for (std::string mode : {"nearest", "linear", "cubic"}) {
        ResizeCase c;
        c.opset = opset, c.shape = s4, c.mode = mode, c.ctm = ctm, c.scales = {1, 1, 1.7f, 0.8f};
        add(c);
        c.scales = {}, c.sizes = {1, 2, 7, 3};
        add(c);
      }
  for (std::string nearest : {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"})
    for (std::string ctm : {"half_pixel", "asymmetric", "align_corners"}) {
      ResizeCase c;
      c.opset = 13, c.shape = s4, c.ctm = ctm, c.nearest = nearest, c.sizes = {1, 2, 9, 2};
      add(c);
    }
  // Cubic's coefficient and exclude_outside.
  for (float a : {-0.5f, -0.75f, -0.6f})
    for (bool exclude : {false, true}) {
      ResizeCase c;
      c.opset = 13, c.shape = s4, c.mode = "cubic", c.a = a, c.exclude = exclude, c.scales = {1, 1, 2.5f, 0.6f};
      add(c);
    }
  // tf_crop_and_resize: roi, extrapolation_value, scales and sizes, every mode.
  for (std::string mode : {"nearest", "linear", "cubic"}) {
    ResizeCase c;
    c.opset = 13, c.shape = s4, c.mode = mode, c.ctm = "tf_crop_and_resize", c.extrapolation = 0.3f;
    c.roi = {0, 0, -0.2f, 0.3f, 1, 1, 0.9f, 1.4f}, c.scales = {1, 1, 1.6f, 1.3f};
    add(c);
    c.scales = {}, c.sizes = {1, 2, 1, 6};
    add(c);
  }
  // Versions 18 and 19: axes, keep_aspect_ratio_policy, antialias, half_pixel_symmetric.
  for (std::string mode : {"linear", "cubic"})
    for (std::vector<float> sc : {std::vector<float>{0.6f, 0.45f}, std::vector<float>{0.3f, 1.5f}}) {
      ResizeCase c;
      c.opset = 18, c.shape = {1, 1, 9, 11}, c.mode = mode, c.antialias = true, c.axes = {2, 3}, c.scales = sc;
      add(c);
      c.exclude = true;
      add(c);
      c.exclude = false, c.scales = {}, c.sizes = {4, 3};
      add(c);
    }
  for (std::string policy : {"not_larger", "not_smaller"})
    for (std::string mode : {"nearest", "linear"}) {
      ResizeCase c;
      c.opset = 18, c.shape = s4, c.mode = mode, c.policy = policy, c.axes = {3, 2}, c.sizes = {7, 6};
      add(c);
    }
  for (std::string mode : {"nearest", "linear", "cubic"}) {
    ResizeCase c;
    c.opset = 19, c.shape = s4, c.mode = mode, c.ctm = "half_pixel_symmetric", c.scales = {1, 1, 1.7f, 0.6f};
    add(c);
    c.axes = {-1}, c.scales = {2.3f};
    add(c);
    c.ctm = "tf_crop_and_resize", c.roi = {0.1f}, c.roi = {0.1f, 0.95f}, c.scales = {1.9f};
    add(c);
  }
  {  // 1-D and 3-D
    ResizeCase c;
    c.opset = 19, c.shape = {7}, c.mode = "cubic", c.scales = {2.2f};
    add(c);
    c.shape = {3, 4, 5}, c.mode = "linear", c.ctm = "align_corners", c.scales = {1.5f, 0.5f, 2.0f};
    add(c);
  }
  {  // An exact tie behind an inexact scale: in 10, out 3, half_pixel: x_original of index 1 is
     // 1.5·10/3 − 0.5 = 4.5 exactly, while 3/10 rounds in float and in double.
    ResizeCase c;
    c.opset = 13, c.shape = {1, 10}, c.sizes = {1, 3};
    add(c);
  }
  return cases;
}

TEST(EncloseResample, ResizeHoldsTheExactValueAndTheReferenceUnderEveryAttribute) {
  std::mt19937 rng(7);
  double real_w = 0, adm_linear = 0, adm_cubic = 0;
  for (const ResizeCase& c : resize_cases()) {
    int64_t n = 1;
    for (int64_t d : c.shape) n *= d;
    for (int round = 0; round < 2; ++round) {  // magnitudes from 2^-20 to 2^20, then in [-1, 1]
      std::vector<float> x = round == 0 ? wide_floats(static_cast<size_t>(n), rng) : std::vector<float>{};
      if (round == 1) {
        std::uniform_real_distribution<float> u(-1, 1);
        for (int64_t i = 0; i < n; ++i) x.push_back(u(rng));
      }
      auto [r, a] = check_resize(c, x);
      real_w = std::max(real_w, r);
      // Admissible widths say something on data of one scale (on the wide data, a coordinate an
      // implementation may round moves the result by ε·2^20 where it is 2^-20; and nearest mode's
      // enclosure at an index the rounding leaves open is the hull of two elements).
      if (round == 1 && c.mode == "linear") adm_linear = std::max(adm_linear, a);
      if (round == 1 && c.mode == "cubic") adm_cubic = std::max(adm_cubic, a);
    }
  }
  std::cout << "Resize: widest real enclosure " << real_w
            << " double ulps of sum |w x|; widest admissible on inputs in [-1, 1]: linear " << adm_linear << ", cubic "
            << adm_cubic << " float ulps of sum |w x|\n";
}

// X computed by the model: Div(p, 3), intervals one double wide around the rationals p/3.
TEST(EncloseResample, ResizeOfIntervalsHoldsTheExactValue) {
  std::mt19937 rng(8);
  std::uniform_real_distribution<float> u(-10, 10);
  double widest = 0;
  for (const ResizeCase& c : resize_cases()) {
    if (c.opset < 13 || !c.sizes.empty() || c.antialias) continue;  // scales given; roi and scales as inputs
    int64_t n = 1;
    for (int64_t d : c.shape) n *= d;
    std::vector<float> p(static_cast<size_t>(n));
    for (float& v : p) v = u(rng);
    std::vector<onnx::NodeProto> nodes = {named_node("Div", {"p", "three"}, "x")};
    NamedValues feed = {{"p", floats(c.shape, p)},
                        {"three", floats({}, {3})},
                        {"scales", floats({static_cast<int64_t>(c.scales.size())}, c.scales)}};
    std::vector<std::string> ins = {"x", "", "scales"};
    if (!c.roi.empty()) {
      feed["roi"] = floats({static_cast<int64_t>(c.roi.size())}, c.roi);
      ins[1] = "roi";
    }
    Attrs attrs = {attr_string("mode", c.mode),
                   attr_string("coordinate_transformation_mode", c.ctm),
                   attr_string("nearest_mode", c.nearest),
                   attr_float("cubic_coeff_a", c.a),
                   attr_int("exclude_outside", c.exclude),
                   attr_float("extrapolation_value", c.extrapolation)};
    if (!c.axes.empty()) attrs.push_back(attr_ints("axes", c.axes));
    nodes.push_back(named_node("Resize", ins, "y", attrs));
    OneNodeModel m = graph_model(c.opset, nodes, feed, {"y"});
    Bounds y = enclose_model(m.model, m.feed).at("y");
    std::vector<Rat> x;
    for (float v : p) x.push_back(Rat(v) / Rat(3));
    Shape out;
    std::vector<ExactElement> exact = exact_resize(c, x, out);
    ASSERT_EQ(y.lo.shape(), out) << c.str();
    for (int64_t i = 0; i < y.lo.size(); ++i) {
      const ExactElement& e = exact[static_cast<size_t>(i)];
      EXPECT_TRUE(e.v.inside(bound_at(y, i))) << c.str() << " element " << i;
      widest = std::max(widest, ulps_of(bound_at(y, i), e.mag));
    }
  }
  EXPECT_LE(widest, 16);
  std::cout << "Resize of intervals: widest real enclosure " << widest << " double ulps of sum |w x|\n";
}

TEST(EncloseResample, ResizeNearestTieIsTheExactIndex) {
  // in 10, out 3, half_pixel, round_prefer_floor: index 1 takes x_original 4.5 exactly → input 4.
  ResizeCase c;
  c.opset = 13, c.shape = {1, 10}, c.sizes = {1, 3};
  std::vector<float> x = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  Bounds real = enclose_output(c.model(x));
  EXPECT_EQ(bound_at(real, 1).lo, 4.0);
  EXPECT_EQ(bound_at(real, 1).hi, 4.0);
  // Computed in float (or in double, as the reference does), the scale 3/10 rounds and x_original
  // may land on either side of the tie: the admissible enclosure holds both candidates.
  Bounds adm = enclose_output(c.model(x), Semantics::Admissible);
  EXPECT_EQ(bound_at(adm, 1).lo, 4.0);
  EXPECT_EQ(bound_at(adm, 1).hi, 5.0);
  // Exact ties that every precision computes exactly stay decided: scale 2, asymmetric, x = o / 2.
  ResizeCase t;
  t.opset = 13, t.shape = {1, 4}, t.ctm = "asymmetric", t.scales = {1, 2};
  Bounds tie = enclose_output(t.model({0, 1, 2, 3}), Semantics::Admissible);
  for (int64_t o = 0; o < 8; ++o) EXPECT_EQ(bound_at(tie, o).lo, bound_at(tie, o).hi) << o;
}

// Scales computed by the model (Div: an interval one double wide) leave a length or an index open.
TEST(EncloseResample, ResizeIsUndeterminedWhereTheScalesLeaveALengthOrAnIntegerOpen) {
  auto model = [](Value x, const std::vector<float>& num, const std::vector<float>& den, const std::string& ctm) {
    return graph_model(13,
                       {named_node("Div", {"n", "d"}, "s"),
                        named_node("Resize", {"x", "", "s"}, "y", {attr_string("coordinate_transformation_mode", ctm)})},
                       {{"x", x}, {"n", floats({4}, num)}, {"d", floats({4}, den)}}, {"y"});
  };
  // in 3 · (1/3 ± ulp) straddles 1: the output length is open.
  OneNodeModel len = model(floats({1, 1, 1, 3}, {1, 2, 3}), {1, 1, 1, 1}, {1, 1, 1, 3}, "asymmetric");
  for (Semantics s : {Semantics::Real, Semantics::Admissible}) {
    std::string why = thrown_message<Undetermined>([&] { enclose_model(len.model, len.feed, s); });
    EXPECT_NE(why.find("y_node"), std::string::npos) << why;
    EXPECT_NE(why.find("output length"), std::string::npos) << why;
  }
  // Scale 2/3 ± ulp: length floor(4·2/3) = 2, x_original of index 1 is 1.5 ± ulp, which
  // round_prefer_floor takes to 1 or 2. An int32 X cannot hold both: Undetermined.
  OneNodeModel ints = model(Value(Tensor::from_vector<int32_t>({1, 1, 1, 4}, {10, 11, 12, 13})), {1, 1, 1, 2}, {1, 1, 1, 3},
                            "asymmetric");
  std::string why = thrown_message<Undetermined>([&] { enclose_model(ints.model, ints.feed); });
  EXPECT_NE(why.find("y_node"), std::string::npos) << why;
  EXPECT_NE(why.find("element 1"), std::string::npos) << why;
  // A float X: the element is the hull of both candidates, which holds the exact value.
  OneNodeModel fl = model(floats({1, 1, 1, 4}, {10, 11, 12, 13}), {1, 1, 1, 2}, {1, 1, 1, 3}, "asymmetric");
  Bounds y = enclose_model(fl.model, fl.feed).at("y");
  ASSERT_EQ(y.lo.shape(), (Shape{1, 1, 1, 2}));
  EXPECT_EQ(bound_at(y, 0).lo, 10.0);
  EXPECT_EQ(bound_at(y, 0).hi, 10.0);
  EXPECT_EQ(bound_at(y, 1).lo, 11.0);
  EXPECT_EQ(bound_at(y, 1).hi, 12.0);
  // Linear interpolation is continuous in x_original: the same open coordinate costs a few ulps.
  OneNodeModel lin = graph_model(
      13,
      {named_node("Div", {"n", "d"}, "s"),
       named_node("Resize", {"x", "", "s"}, "y",
                  {attr_string("coordinate_transformation_mode", "asymmetric"), attr_string("mode", "linear")})},
      {{"x", floats({1, 1, 1, 4}, {10, 11, 12, 13})}, {"n", floats({4}, {1, 1, 1, 2})}, {"d", floats({4}, {1, 1, 1, 3})}},
      {"y"});
  Bounds ly = enclose_model(lin.model, lin.feed).at("y");
  EXPECT_TRUE(bound_at(ly, 1).contains(11.5)) << bound_at(ly, 1).lo << " " << bound_at(ly, 1).hi;
  EXPECT_LE(ulps_of(bound_at(ly, 1), 11.5), 8);
}

TEST(EncloseResample, ResizeOfAnIntegerTensorIsExactWhereTheRoundingIsDecided) {
  // uint8 X, linear and cubic: the reference rounds the interpolated value half to even. Scales 2
  // and 4 under half_pixel give weights in quarters and sixteenths: the sums are exact, their ties
  // (0.5·255 + 0.5·100 = 177.5) decided.
  Value x(Tensor::from_vector<uint8_t>({1, 1, 2, 3}, {0, 10, 255, 7, 100, 3}));
  for (std::string mode : {"nearest", "linear", "cubic"}) {
    OneNodeModel m = one_node_model("Resize", 19, {x, Value(), floats({4}, {1, 1, 2, 4})}, {attr_string("mode", mode)});
    Tensor r = reference_output(m);
    for (Semantics s : {Semantics::Real, Semantics::Admissible}) {
      Bounds b = enclose_output(m, s);
      ASSERT_EQ(b.type, DType::UInt8);
      EXPECT_TRUE(b.lo == r) << mode;
    }
  }
}

// ---- Mod ----

Rat exact_mod(double a, double b, bool c_fmod) {
  Rat x = a, y = b, q = x / y;
  return x - Rat(static_cast<double>(c_fmod ? q.trunc() : q.floor())) * y;
}

TEST(EncloseResample, ModOfPointsIsTheExactRemainder) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-300, 300);
  double widest = 0;
  for (DType type : {DType::Float, DType::Double, DType::Float16})
    for (int64_t fmod : {1, 0}) {
      // Over a wide range of magnitudes (float16's own: within ±300).
      std::vector<float> a = wide_floats(12, rng), b = wide_floats(4, rng);
      if (type == DType::Float16)
        for (std::vector<float>* v : {&a, &b})
          for (float& x : *v) x = u(rng);
      a[0] = 7.5f, b[0] = -2;  // a remainder of the other sign than the divisor
      auto tensor = [&](const Shape& s, const std::vector<float>& v) {
        if (type == DType::Float) return floats(s, v);
        if (type == DType::Double) return Value(Tensor::from_vector<double>(s, std::vector<double>(v.begin(), v.end())));
        std::vector<float16_t> h;
        for (float f : v) h.push_back(float16_t(f));  // rounded: the model's values
        return Value(Tensor::from_vector<float16_t>(s, h));
      };
      OneNodeModel m = one_node_model("Mod", 13, {tensor({3, 4}, a), tensor({4}, b)}, {attr_int("fmod", fmod)});
      Tensor r = reference_output(m);
      Bounds real = enclose_output(m), adm = enclose_output(m, Semantics::Admissible);
      Tensor ta = m.feed.at("in0").tensor, tb = m.feed.at("in1").tensor;
      for (int64_t i = 0; i < 12; ++i) {
        double x = ta.as_double(i), y = tb.as_double(i % 4);
        Interval e = bound_at(real, i);
        EXPECT_TRUE(exact_mod(x, y, fmod == 1).inside(e)) << x << " mod " << y << " fmod=" << fmod;
        if (fmod == 1) {
          EXPECT_EQ(e.lo, e.hi) << "fmod is exact";
        }
        widest = std::max(widest, ulps_of(e, std::max(std::fabs(e.lo), std::fabs(e.hi))));
        EXPECT_TRUE(bound_at(adm, i).contains(r.as_double(i)))
            << dtype_name(type) << " " << x << " mod " << y << " fmod=" << fmod;
      }
    }
  EXPECT_LE(widest, 2);
  // Mod by 0 is NaN: undefined.
  OneNodeModel zero = one_node_model("Mod", 13, {floats({1}, {3}), floats({1}, {0})}, {attr_int("fmod", 1)});
  EXPECT_TRUE(bound_at(enclose_output(zero), 0).has_nan());
  // Integers: the reference's exact result.
  OneNodeModel ints = one_node_model("Mod", 13, {Value(testing::i64({7, -7, 9})), Value(testing::i64({-3, 3, 4}))});
  EXPECT_TRUE(enclose_output(ints).lo == reference_output(ints));
}

TEST(EncloseResample, ModOfIntervalsHoldsTheExactRemainder) {
  // Mod(Div(p, q), Div(r, t)): the exact remainder of the rationals p/q and r/t.
  std::mt19937 rng(12);
  std::uniform_real_distribution<float> u(-50, 50);
  double widest = 0;
  for (int64_t fmod : {1, 0})
    for (int trial = 0; trial < 4; ++trial) {
      std::vector<float> p(8), q(8), r(8), t(8);
      for (size_t i = 0; i < 8; ++i) p[i] = u(rng), q[i] = 3, r[i] = u(rng), t[i] = 7;
      OneNodeModel m = graph_model(13,
                                   {named_node("Div", {"p", "q"}, "x"), named_node("Div", {"r", "t"}, "y"),
                                    named_node("Mod", {"x", "y"}, "z", {attr_int("fmod", fmod)})},
                                   {{"p", floats({8}, p)}, {"q", floats({8}, q)}, {"r", floats({8}, r)}, {"t", floats({8}, t)}},
                                   {"z"});
      Bounds z = enclose_model(m.model, m.feed).at("z");
      Bounds adm = enclose_model(m.model, m.feed, Semantics::Admissible).at("z");
      Tensor ref = Interpreter(m.model).run(m.feed).at("z").tensor;
      for (int64_t i = 0; i < 8; ++i) {
        Rat x = Rat(p[static_cast<size_t>(i)]) / Rat(3), y = Rat(r[static_cast<size_t>(i)]) / Rat(7), qq = x / y;
        Rat e = x - Rat(static_cast<double>(fmod ? qq.trunc() : qq.floor())) * y;
        Interval b = bound_at(z, i);
        EXPECT_TRUE(e.inside(b)) << x.approx() << " mod " << y.approx();
        widest = std::max(widest, ulps_of(b, std::fabs(x.approx()) + std::fabs(y.approx()) * std::fabs(qq.approx())));
        EXPECT_TRUE(bound_at(adm, i).contains(ref.as_double(i)));
      }
    }
  EXPECT_LE(widest, 16);
  // x ≈ 2/3 and y ≈ 1/3, each an interval one double wide: x/y straddles 2, so the remainder is only
  // bounded by its sign and |y|; the exact 0 lies there.
  OneNodeModel m = graph_model(13,
                               {named_node("Div", {"p", "q"}, "x"), named_node("Div", {"r", "q"}, "y"),
                                named_node("Mod", {"x", "y"}, "z", {attr_int("fmod", 1)})},
                               {{"p", floats({1}, {2})}, {"q", floats({1}, {3})}, {"r", floats({1}, {1})}}, {"z"});
  Interval b = bound_at(enclose_model(m.model, m.feed).at("z"), 0);
  EXPECT_TRUE(b.contains(0));
  EXPECT_GE(b.lo, 0);
  EXPECT_LE(b.hi, 0.34);
}

// ---- Range ----

TEST(EncloseResample, RangeHoldsTheExactElementsAndTheReference) {
  struct Case {
    double start, limit, delta;
  };
  std::vector<Case> cases = {{0, 1, 0.1}, {1, 5, 2},         {10, -3, -0.7},      {-2.5, 3.25, 0.25},
                             {3, 1, 1},   {0.1, 100.3, 1.3}, {-1e-3, 1e-3, 7e-5}, {5, 5, 1}};
  double real_w = 0, adm_w = 0;
  for (DType type : {DType::Float, DType::Double})
    for (const Case& k : cases) {
      auto scalar = [&](double v) {
        return type == DType::Float ? Value(Tensor::scalar<float>(static_cast<float>(v))) : Value(Tensor::scalar<double>(v));
      };
      OneNodeModel m = one_node_model("Range", 11, {scalar(k.start), scalar(k.limit), scalar(k.delta)});
      Tensor r = reference_output(m);
      Rat s = m.feed.at("in0").tensor.as_double(0), l = m.feed.at("in1").tensor.as_double(0),
          d = m.feed.at("in2").tensor.as_double(0);
      int64_t n = std::max<int64_t>(((l - s) / d).ceil(), 0);
      Bounds real = enclose_output(m);
      ASSERT_EQ(real.lo.shape(), (Shape{n})) << k.start << " " << k.limit << " " << k.delta;
      ASSERT_EQ(r.shape(), (Shape{n}));
      std::string what;
      Bounds adm;
      try {
        adm = enclose_output(m, Semantics::Admissible);
      } catch (const Undetermined& e) {
        what = e.what();
      }
      for (int64_t i = 0; i < n; ++i) {
        Rat e = s + Rat(static_cast<double>(i)) * d;
        double m = std::fabs(s.approx()) + static_cast<double>(i) * std::fabs(d.approx());  // the magnitudes summed
        EXPECT_TRUE(e.inside(bound_at(real, i))) << i;
        real_w = std::max(real_w, ulps_of(bound_at(real, i), m));
        if (!what.empty()) continue;
        EXPECT_TRUE(bound_at(adm, i).contains(r.as_double(i)))
            << dtype_name(type) << " " << k.start << ":" << k.limit << ":" << k.delta << " element " << i;
        adm_w = std::max(adm_w, bound_at(adm, i).width() / float_format(type).ulp(m));
      }
      EXPECT_TRUE(what.empty()) << what;
    }
  EXPECT_LE(real_w, 2);
  std::cout << "Range: widest real enclosure " << real_w << " double ulps of |start| + i·|delta|; widest admissible " << adm_w
            << " ulps of the type of it\n";
}

TEST(EncloseResample, RangeCountIsUndeterminedWhereTheBoundsLeaveItOpen) {
  // 0.6f / 0.1f is 6.0000001…: 7 elements exactly, but the quotient rounded to float is 6, so an
  // implementation computing the count in float may make 6.
  OneNodeModel m = one_node_model("Range", 11, {floats({}, {0}), floats({}, {0.6f}), floats({}, {0.1f})});
  EXPECT_EQ(enclose_output(m).lo.shape(), (Shape{7}));
  EXPECT_EQ(reference_output(m).shape(), (Shape{7}));
  std::string why = thrown_message<Undetermined>([&] { enclose_output(m, Semantics::Admissible); });
  EXPECT_NE(why.find("number of elements"), std::string::npos) << why;
  // limit and delta both 1/3 ± ulp: (limit − start)/delta straddles 1, so 1 or 2 elements.
  OneNodeModel open =
      graph_model(13, {named_node("Div", {"one", "three"}, "third"), named_node("Range", {"zero", "third", "third"}, "y")},
                  {{"zero", floats({}, {0})}, {"one", floats({}, {1})}, {"three", floats({}, {3})}}, {"y"});
  why = thrown_message<Undetermined>([&] { enclose_model(open.model, open.feed); });
  EXPECT_NE(why.find("y_node"), std::string::npos) << why;
  EXPECT_NE(why.find("number of elements"), std::string::npos) << why;
  // Integers are exact: the reference's result.
  OneNodeModel ints = one_node_model(
      "Range", 11, {Value(Tensor::scalar<int32_t>(10)), Value(Tensor::scalar<int32_t>(-3)), Value(Tensor::scalar<int32_t>(-4))});
  EXPECT_TRUE(enclose_output(ints).lo == reference_output(ints));
}

}  // namespace
}  // namespace sonnx::enclose
