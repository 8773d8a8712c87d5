// The enclosure of GridSample (enclose/enclose_gridsample.cpp; spec/accuracy.md, "Admissible
// results"), for every mode, padding mode and align_corners, 2-D (16) and volumetric (20, 22): the
// exact value of the operator's definition (written here from the ONNX text: the unnormalized
// coordinate, the padding, the taps and weights, evaluated in MPFR at 512 bits, where every step,
// made of +, −, × and halving of short numbers, is exact) lies in the real enclosure; the
// reference's result, and the same definition evaluated step by step in float, lie in the
// admissible one, which holds the real one; a value far from the reference's (1000 ulps of float at
// max(|y|, 1); 10000 for cubic, whose kernel evaluated over a coordinate interval spans some
// thousand ulps) lies outside it. Integer X: decided outputs equal the reference's, a tie the
// bounds cannot decide is Undetermined.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "enclose_test_util.h"
#include "sonnx/errors.h"

namespace sonnx::enclose {
namespace {

using sonnx::testing::attr_int;
using sonnx::testing::attr_string;

float gs_floor(float x) { return std::floor(x); }
RealAt<512> gs_floor(const RealAt<512>& x) { return x.floor(); }
float gs_rint_even(float x) { return std::nearbyint(x); }
RealAt<512> gs_rint_even(const RealAt<512>& x) { return x.rint_even(); }
float gs_abs(float x) { return std::fabs(x); }
RealAt<512> gs_abs(const RealAt<512>& x) { return x.abs(); }
double gs_double(float x) { return static_cast<double>(x); }
double gs_double(const RealAt<512>& x) { return x.to_double(); }

enum class GsMode { Linear, Nearest, Cubic };
enum class GsPad { Zeros, Border, Reflection };

// The reflection of v into [lo, lo + span] (the ONNX text: reflected by the borders until in bound).
template <class T>
T gs_reflect(T v, double lo, double span) {
  if (span == 0) return T(0.0);
  T t = gs_abs(v - T(lo));
  T k = gs_floor(t / T(span));
  T extra = t - k * T(span);
  bool even = std::fmod(gs_double(k), 2.0) == 0;
  return even ? extra + T(lo) : T(span) - extra + T(lo);
}

template <class T>
T gs_clamp(T v, double hi) {
  if (v < T(0.0)) return T(0.0);
  if (T(hi) < v) return T(hi);
  return v;
}

// The padding of a pixel coordinate along an axis of s pixels.
template <class T>
T gs_pad(T v, int64_t s, GsPad pad, bool align) {
  double hi = static_cast<double>(s - 1);
  if (pad == GsPad::Border) return gs_clamp(v, hi);
  if (pad == GsPad::Reflection)
    return gs_clamp(align ? gs_reflect(v, 0.0, hi) : gs_reflect(v, -0.5, static_cast<double>(s)), hi);
  return v;
}

// Keys' cubic kernel, A = −0.75.
template <class T>
T gs_keys(T d) {
  const T A(-0.75);
  d = gs_abs(d);
  if (d <= T(1.0)) return ((A + T(2.0)) * d - (A + T(3.0))) * d * d + T(1.0);
  if (d < T(2.0)) return ((A * d - T(5.0) * A) * d + T(8.0) * A) * d - T(4.0) * A;
  return T(0.0);
}

// The (index, weight) taps of grid value v along an axis of s pixels.
template <class T>
std::vector<std::pair<int64_t, T>> gs_taps(float v, int64_t s, GsMode mode, GsPad pad, bool align) {
  T g(static_cast<double>(v)), sz(static_cast<double>(s));
  T f = align ? (g + T(1.0)) / T(2.0) * (sz - T(1.0)) : ((g + T(1.0)) * sz - T(1.0)) / T(2.0);
  std::vector<std::pair<int64_t, T>> taps;
  if (mode == GsMode::Cubic) {
    T k = gs_floor(f), t = f - k;
    for (int i = 0; i < 4; ++i) {
      double neighbour = gs_double(k) - 1 + i;  // an integer, padded exactly
      auto index = static_cast<int64_t>(gs_double(gs_pad(RealAt<512>(neighbour), s, pad, align)));
      taps.push_back({index, gs_keys(t - T(static_cast<double>(i - 1)))});
    }
    return taps;
  }
  T p = gs_pad(f, s, pad, align);
  if (mode == GsMode::Nearest) return {{static_cast<int64_t>(gs_double(gs_rint_even(p))), T(1.0)}};
  T k = gs_floor(p), t = p - k;
  auto i0 = static_cast<int64_t>(gs_double(k));
  return {{i0, T(1.0) - t}, {i0 + 1, t}};
}

// One output element: Σ over the Cartesian product of the axes' taps of Π w·x, a tap outside the
// input reading 0. `coords[d]` is the grid value of spatial axis d.
template <class T>
T gs_sample(const float* plane, const std::vector<int64_t>& in, const std::vector<float>& coords, GsMode mode, GsPad pad,
            bool align) {
  size_t r = in.size();
  std::vector<std::vector<std::pair<int64_t, T>>> taps;
  for (size_t d = 0; d < r; ++d) taps.push_back(gs_taps<T>(coords[d], in[d], mode, pad, align));
  T sum(0.0);
  std::vector<size_t> pos(r, 0);
  while (true) {
    T w(1.0);
    int64_t off = 0;
    bool inside = true;
    for (size_t d = 0; d < r; ++d) {
      auto [i, wd] = taps[d][pos[d]];
      w = w * wd;
      inside = inside && i >= 0 && i < in[d];
      off = off * in[d] + i;
    }
    if (inside) sum = sum + w * T(static_cast<double>(plane[off]));
    size_t d = r;
    while (d > 0 && ++pos[d - 1] == taps[d - 1].size()) pos[--d] = 0;
    if (d == 0) return sum;
  }
}

std::string gs_mode_name(GsMode m, int64_t opset) {
  if (m == GsMode::Nearest) return "nearest";
  if (opset < 20) return m == GsMode::Linear ? "bilinear" : "bicubic";
  return m == GsMode::Linear ? "linear" : "cubic";
}
std::string gs_pad_name(GsPad p) { return p == GsPad::Zeros ? "zeros" : p == GsPad::Border ? "border" : "reflection"; }

// X (N = 1, C = 2, in...) and a grid (1, out..., r): (a)–(d) for every element.
void gs_check(int64_t opset, const std::vector<int64_t>& in, const std::vector<int64_t>& out, GsMode mode, GsPad pad, bool align,
              const std::vector<float>& x, const std::vector<float>& grid) {
  SCOPED_TRACE("GridSample-" + std::to_string(opset) + " " + gs_mode_name(mode, opset) + " " + gs_pad_name(pad) +
               " align_corners " + std::to_string(align));
  const auto r = static_cast<int64_t>(in.size());
  Shape xs{1, 2}, gs{1};
  xs.insert(xs.end(), in.begin(), in.end());
  gs.insert(gs.end(), out.begin(), out.end());
  gs.push_back(r);
  OneNodeModel m = one_node_model("GridSample", opset, {floats(xs, x), floats(gs, grid)},
                                  {attr_string("mode", gs_mode_name(mode, opset)), attr_string("padding_mode", gs_pad_name(pad)),
                                   attr_int("align_corners", align ? 1 : 0)});
  Bounds real = enclose_output(m, Semantics::Real), adm = enclose_output(m, Semantics::Admissible);
  Tensor ref = reference_output(m);
  ASSERT_EQ(real.lo.shape(), ref.shape());
  ASSERT_EQ(adm.lo.shape(), ref.shape());
  int64_t in_plane = 1, out_plane = 1;
  for (int64_t v : in) in_plane *= v;
  for (int64_t v : out) out_plane *= v;
  const double far = mode == GsMode::Cubic ? 10000 : 1000;
  for (int64_t i = 0; i < ref.size(); ++i) {
    SCOPED_TRACE("element " + std::to_string(i));
    int64_t ch = i / out_plane, o = i % out_plane;
    std::vector<float> coords(static_cast<size_t>(r));
    for (int64_t d = 0; d < r; ++d) coords[static_cast<size_t>(d)] = grid[static_cast<size_t>(o * r + (r - 1 - d))];
    const float* plane = &x[static_cast<size_t>(ch * in_plane)];
    RealAt<512> e = gs_sample<RealAt<512>>(plane, in, coords, mode, pad, align);
    auto in_float = static_cast<double>(gs_sample<float>(plane, in, coords, mode, pad, align));
    Interval re = bound_at(real, i), a = bound_at(adm, i);
    EXPECT_TRUE(e.inside(re)) << e.to_double() << " outside [" << re.lo << ", " << re.hi << "]";
    double y = ref.as_double(i);
    EXPECT_TRUE(a.contains(y)) << y << " outside [" << a.lo << ", " << a.hi << "]";
    EXPECT_TRUE(a.contains(in_float)) << "in float " << in_float << " outside [" << a.lo << ", " << a.hi << "]";
    EXPECT_LE(a.lo, re.lo);
    EXPECT_GE(a.hi, re.hi);
    double off = far * float_ulp(std::max(std::fabs(y), 1.0));
    EXPECT_FALSE(a.contains(y + off)) << "[" << a.lo << ", " << a.hi << "]";
    EXPECT_FALSE(a.contains(y - off)) << "[" << a.lo << ", " << a.hi << "]";
  }
}

const GsMode kGsModes[] = {GsMode::Linear, GsMode::Nearest, GsMode::Cubic};
const GsPad kGsPads[] = {GsPad::Zeros, GsPad::Border, GsPad::Reflection};

TEST(EncloseGridSample, TwoDimensionalEveryModeAndPadding) {
  std::mt19937 rng(16);
  for (int64_t opset : {16, 20, 22})
    for (GsMode mode : kGsModes)
      for (GsPad pad : kGsPads)
        for (bool align : {false, true}) {
          // X (1, 2, 3, 4); grid (1, 3, 4, 2) within and beyond [−1, 1], and its corners exactly.
          std::vector<float> x = uniform_floats(24, rng, 0.5f, 2.0f);
          std::vector<float> grid = uniform_floats(24, rng, -1.4f, 1.4f);
          grid[0] = -1, grid[1] = -1, grid[2] = 1, grid[3] = 1, grid[4] = 0, grid[5] = 0;
          gs_check(opset, {3, 4}, {3, 4}, mode, pad, align, x, grid);
        }
}

TEST(EncloseGridSample, VolumetricEveryModeAndPadding) {
  std::mt19937 rng(20);
  for (int64_t opset : {20, 22})
    for (GsMode mode : kGsModes)
      for (GsPad pad : kGsPads)
        for (bool align : {false, true}) {
          // X (1, 2, 2, 3, 4); grid (1, 2, 2, 2, 3).
          std::vector<float> x = uniform_floats(48, rng, 0.5f, 2.0f);
          std::vector<float> grid = uniform_floats(24, rng, -1.3f, 1.3f);
          gs_check(opset, {2, 3, 4}, {2, 2, 2}, mode, pad, align, x, grid);
        }
}

// Grid values whose coordinates are integers and half-integers exactly (align_corners = 1 on 5
// pixels: (v + 1)·2): the nearest index at a tie is the even one; far outside under zeros padding
// reads 0 exactly.
TEST(EncloseGridSample, TiesPixelCentresAndFarOutside) {
  std::vector<float> x = {0.5f, 1.25f, -2.0f, 3.0f, 1.5f};
  std::vector<float> grid = {-0.75f, -0.25f, 0.25f, 0.5f, 1.0f, -1.0f, 40.0f, -40.0f};  // 0.5, 1.5, 2.5, 3, 4, 0
  for (GsMode mode : kGsModes)
    for (GsPad pad : kGsPads) {
      SCOPED_TRACE(gs_mode_name(mode, 20) + " " + gs_pad_name(pad));
      OneNodeModel m = one_node_model("GridSample", 20, {floats({1, 1, 5}, x), floats({1, 8, 1}, grid)},
                                      {attr_string("mode", gs_mode_name(mode, 20)),
                                       attr_string("padding_mode", gs_pad_name(pad)), attr_int("align_corners", 1)});
      Bounds adm = enclose_output(m, Semantics::Admissible), real = enclose_output(m, Semantics::Real);
      Tensor ref = reference_output(m);
      for (int64_t i = 0; i < 8; ++i) {
        SCOPED_TRACE("element " + std::to_string(i));
        EXPECT_TRUE(bound_at(adm, i).contains(ref.as_double(i)));
        RealAt<512> e = gs_sample<RealAt<512>>(x.data(), {5}, {grid[static_cast<size_t>(i)]}, mode, pad, true);
        EXPECT_TRUE(e.inside(bound_at(real, i)));
      }
      if (mode == GsMode::Nearest) {  // 0.5 → 0, 1.5 → 2, 2.5 → 2: the elements themselves
        for (int64_t i : {0, 1, 2, 3, 4, 5}) {
          EXPECT_EQ(bound_at(adm, i).lo, ref.as_double(i));
          EXPECT_EQ(bound_at(adm, i).hi, ref.as_double(i));
        }
        EXPECT_EQ(ref.as_double(0), 0.5);
        EXPECT_EQ(ref.as_double(1), -2.0);
        EXPECT_EQ(ref.as_double(2), -2.0);
      }
      if (pad == GsPad::Zeros)
        for (int64_t i : {6, 7}) {
          EXPECT_EQ(bound_at(adm, i).lo, 0.0);
          EXPECT_EQ(bound_at(adm, i).hi, 0.0);
        }
    }
}

// Integer X: nearest moves the elements (decided, equal to the reference's); linear rounds the
// interpolated value half to even, decided away from a tie and Undetermined at an exact one (the
// bounds of 0.5 are not a point).
TEST(EncloseGridSample, IntegerInput) {
  Value x(Tensor::from_vector<int32_t>({1, 1, 1, 4}, {3, -7, 10, 4}));
  // (x, y) pairs: x at the coordinates (v + 1)/2·3 = 0, 1.05, 1.8, 3 (linear: 3, −6.15, 6.6, 4).
  std::vector<float> grid = {-1.0f, 0, -0.3f, 0, 0.2f, 0, 1.0f, 0};
  for (GsMode mode : {GsMode::Nearest, GsMode::Linear}) {
    OneNodeModel m = one_node_model("GridSample", 16, {x, floats({1, 1, 4, 2}, grid)},
                                    {attr_string("mode", gs_mode_name(mode, 16)), attr_int("align_corners", 1)});
    Tensor ref = reference_output(m);
    for (Semantics s : {Semantics::Real, Semantics::Admissible}) {
      Bounds b = enclose_output(m, s);
      ASSERT_TRUE(b.exact());
      for (int64_t i = 0; i < 4; ++i) EXPECT_EQ(b.lo.as_double(i), ref.as_double(i)) << "element " << i;
    }
  }
  // Coordinate 0.5 (align_corners, 2 pixels, v = 0): (0 + 1)/2 = 0.5, a tie.
  OneNodeModel tie = one_node_model("GridSample", 16,
                                    {Value(Tensor::from_vector<int32_t>({1, 1, 1, 2}, {0, 1})),
                                     floats({1, 1, 1, 2}, {0.0f, 0.0f})},
                                    {attr_string("mode", "bilinear"), attr_int("align_corners", 1)});
  EXPECT_THROW(enclose_output(tie, Semantics::Real), Undetermined);
}

}  // namespace
}  // namespace sonnx::enclose
