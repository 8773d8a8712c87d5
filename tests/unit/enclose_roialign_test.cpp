// The enclosure of RoiAlign-10, -16 and -22 (enclose/enclose_roialign.cpp; spec/accuracy.md,
// "Admissible results"): on random rois (inside the image, across its edges, wholly outside it,
// narrower than a pixel) in both modes, both coordinate transformation modes, a fixed and the
// adaptive sampling ratio, the exact value (MPFR at 2200 bits: the scales and the bin and grid
// counts are powers of two, so every position, weight and product of floats is exact there) lies
// in the real enclosure; the reference's result lies in the admissible one, which holds the real
// one; a value 1000 float ulps (at the larger of |y| and 1) from the reference's lies outside it.
// An adaptive grid whose size the bounds cannot decide is Undetermined.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "enclose_test_util.h"
#include "sonnx/errors.h"

namespace sonnx::enclose {
namespace {

using sonnx::testing::attr_float;
using sonnx::testing::attr_int;
using sonnx::testing::attr_string;

struct RoiCase {
  int64_t opset = 16;
  bool max_mode = false, half_pixel = true;
  int64_t ratio = 2;  // 0: adaptive (the rois are then sized for grids of 2×2)
  float scale = 1.0f;
};

constexpr int64_t kRoiN = 2, kRoiC = 2, kRoiH = 5, kRoiW = 6, kRoiPH = 2, kRoiPW = 4;

// The sample of plane x (H×W) at (py, px) by the operator's definition, exactly: the bilinear
// value (avg) or the largest weighted corner term (max).
void roi_exact_sample(const float* x, mpfr_t py, mpfr_t px, bool max_mode, mpfr_t out) {
  mpfr_set_d(out, 0, MPFR_RNDN);
  if (mpfr_cmp_si(py, -1) < 0 || mpfr_cmp_si(py, kRoiH) > 0 || mpfr_cmp_si(px, -1) < 0 || mpfr_cmp_si(px, kRoiW) > 0) return;
  // Clamp below at 0, floor, and at or past the last pixel use it with weight 1.
  auto cell = [](mpfr_t p, int64_t n, int64_t& i0, int64_t& i1, Exact& frac) {
    Exact q;
    mpfr_max(q.get(), p, Exact(0).get(), MPFR_RNDN);
    Exact fl;
    mpfr_floor(fl.get(), q.get());
    i0 = mpfr_get_si(fl.get(), MPFR_RNDN);
    if (i0 >= n - 1) {
      i0 = i1 = n - 1;
      mpfr_set_d(frac.get(), 0, MPFR_RNDN);
    } else {
      i1 = i0 + 1;
      mpfr_sub(frac.get(), q.get(), fl.get(), MPFR_RNDN);
    }
  };
  int64_t y0, y1, x0, x1;
  Exact ly, lx, hy(1), hx(1), w, t;
  cell(py, kRoiH, y0, y1, ly);
  cell(px, kRoiW, x0, x1, lx);
  mpfr_sub(hy.get(), hy.get(), ly.get(), MPFR_RNDN);
  mpfr_sub(hx.get(), hx.get(), lx.get(), MPFR_RNDN);
  const int64_t iy[4] = {y0, y0, y1, y1}, ix[4] = {x0, x1, x0, x1};
  mpfr_ptr wy[4] = {hy.get(), hy.get(), ly.get(), ly.get()}, wx[4] = {hx.get(), lx.get(), hx.get(), lx.get()};
  for (int q = 0; q < 4; ++q) {
    mpfr_mul(t.get(), wy[q], wx[q], MPFR_RNDN);
    mpfr_mul_d(t.get(), t.get(), x[iy[q] * kRoiW + ix[q]], MPFR_RNDN);
    if (!max_mode) mpfr_add(out, out, t.get(), MPFR_RNDN);
    else if (q == 0 || mpfr_cmp(t.get(), out) > 0) mpfr_set(out, t.get(), MPFR_RNDN);
  }
}

// Random rois in [x1, y1, x2, y2] order: across the image and its edges, one wholly outside it,
// one narrower than a pixel (widened without half_pixel).
std::vector<float> roi_boxes(const RoiCase& t, std::mt19937& rng, int64_t R) {
  std::uniform_real_distribution<float> start(-2.0f, 5.0f), height(2.2f, 3.8f), width(4.4f, 7.6f), any(0.2f, 7.0f);
  std::vector<float> boxes;
  for (int64_t r = 0; r < R; ++r) {
    float x1 = start(rng), y1 = start(rng);
    float h = t.ratio == 0 ? height(rng) : any(rng), w = t.ratio == 0 ? width(rng) : any(rng);
    if (r == 1) x1 = 9.5f;                      // outside the image
    if (r == 2 && t.ratio != 0) h = w = 0.25f;  // narrower than a pixel
    // The sizes are in output pixels; the scale is a power of two, so dividing by it is exact.
    boxes.insert(boxes.end(), {x1 / t.scale, y1 / t.scale, (x1 + w) / t.scale, (y1 + h) / t.scale});
  }
  return boxes;
}

void check_roialign(const RoiCase& t, std::mt19937& rng) {
  const int64_t R = 4;
  std::vector<float> x = uniform_floats(static_cast<size_t>(kRoiN * kRoiC * kRoiH * kRoiW), rng, -1, 1);
  std::vector<float> boxes = roi_boxes(t, rng, R);
  std::vector<int64_t> batch = {0, 1, 1, 0};
  std::vector<onnx::AttributeProto> attrs = {attr_string("mode", t.max_mode ? "max" : "avg"), attr_int("output_height", kRoiPH),
                                             attr_int("output_width", kRoiPW), attr_int("sampling_ratio", t.ratio),
                                             attr_float("spatial_scale", t.scale)};
  if (t.opset >= 16)
    attrs.push_back(attr_string("coordinate_transformation_mode", t.half_pixel ? "half_pixel" : "output_half_pixel"));
  OneNodeModel m = one_node_model("RoiAlign", t.opset,
                                  {floats({kRoiN, kRoiC, kRoiH, kRoiW}, x), floats({R, 4}, boxes),
                                   Value(Tensor::from_vector<int64_t>({R}, batch))},
                                  attrs);
  Bounds real = enclose_output(m, Semantics::Real), adm = enclose_output(m, Semantics::Admissible);
  Tensor ref = reference_output(m);
  ASSERT_EQ(real.lo.shape(), ref.shape());
  ASSERT_EQ(adm.lo.shape(), ref.shape());
  const bool half = t.opset >= 16 && t.half_pixel;
  for (int64_t r = 0; r < R; ++r) {
    // The roi's start and size per axis, and the grid, exactly.
    Exact start[2], size[2], bin[2], end;
    int64_t grid[2];
    const int64_t bins[2] = {kRoiPH, kRoiPW};
    for (int a = 0; a < 2; ++a) {  // a = 0: y (coordinates 1, 3), a = 1: x (0, 2)
      const size_t lo = static_cast<size_t>(r * 4 + (a == 0 ? 1 : 0));
      mpfr_set_d(start[a].get(), boxes[lo], MPFR_RNDN);
      mpfr_mul_d(start[a].get(), start[a].get(), t.scale, MPFR_RNDN);
      mpfr_sub_d(start[a].get(), start[a].get(), half ? 0.5 : 0.0, MPFR_RNDN);
      mpfr_set_d(end.get(), boxes[lo + 2], MPFR_RNDN);
      mpfr_mul_d(end.get(), end.get(), t.scale, MPFR_RNDN);
      mpfr_sub_d(end.get(), end.get(), half ? 0.5 : 0.0, MPFR_RNDN);
      mpfr_sub(size[a].get(), end.get(), start[a].get(), MPFR_RNDN);
      if (!half && mpfr_cmp_si(size[a].get(), 1) < 0) mpfr_set_si(size[a].get(), 1, MPFR_RNDN);
      mpfr_div_si(bin[a].get(), size[a].get(), bins[a], MPFR_RNDN);
      Exact g;
      mpfr_ceil(g.get(), bin[a].get());
      grid[a] = t.ratio > 0 ? t.ratio : std::max<long>(mpfr_get_si(g.get(), MPFR_RNDN), 0);
      ASSERT_TRUE(grid[a] == 1 || grid[a] == 2 || grid[a] == 4) << "a power of two keeps the positions exact";
    }
    const double count = static_cast<double>(std::max<int64_t>(grid[0] * grid[1], 1));
    for (int64_t c = 0; c < kRoiC; ++c) {
      const float* plane = x.data() + (batch[static_cast<size_t>(r)] * kRoiC + c) * kRoiH * kRoiW;
      for (int64_t ph = 0; ph < kRoiPH; ++ph)
        for (int64_t pw = 0; pw < kRoiPW; ++pw) {
          Exact acc, s, py, px;
          bool first = true;
          for (int64_t iy = 0; iy < grid[0]; ++iy)
            for (int64_t ix = 0; ix < grid[1]; ++ix) {
              // start + b·bin + (i + 0.5)·bin / grid
              auto position = [&](int a, int64_t b, int64_t i, mpfr_t p) {
                Exact u;
                mpfr_mul_si(p, bin[a].get(), b, MPFR_RNDN);
                mpfr_add(p, p, start[a].get(), MPFR_RNDN);
                mpfr_mul_d(u.get(), bin[a].get(), static_cast<double>(i) + 0.5, MPFR_RNDN);
                mpfr_div_si(u.get(), u.get(), grid[a], MPFR_RNDN);
                mpfr_add(p, p, u.get(), MPFR_RNDN);
              };
              position(0, ph, iy, py.get());
              position(1, pw, ix, px.get());
              roi_exact_sample(plane, py.get(), px.get(), t.max_mode, s.get());
              if (!t.max_mode) mpfr_add(acc.get(), acc.get(), s.get(), MPFR_RNDN);
              else if (first || mpfr_cmp(s.get(), acc.get()) > 0) mpfr_set(acc.get(), s.get(), MPFR_RNDN);
              first = false;
            }
          if (!t.max_mode) mpfr_div_d(acc.get(), acc.get(), count, MPFR_RNDN);  // a power of two: exact
          const int64_t i = ((r * kRoiC + c) * kRoiPH + ph) * kRoiPW + pw;
          SCOPED_TRACE("opset " + std::to_string(t.opset) + (t.max_mode ? " max" : " avg") + (half ? " half_pixel" : "") +
                       " ratio " + std::to_string(t.ratio) + " element " + std::to_string(i));
          const Interval re = bound_at(real, i), a = bound_at(adm, i);
          EXPECT_TRUE(acc.inside(re)) << mpfr_get_d(acc.get(), MPFR_RNDN) << " outside [" << re.lo << ", " << re.hi << "]";
          const double y = ref.as_double(i);
          EXPECT_TRUE(a.contains(y)) << y << " outside [" << a.lo << ", " << a.hi << "]";
          EXPECT_LE(a.lo, re.lo);
          EXPECT_GE(a.hi, re.hi);
          const double far = 1000 * float_ulp(std::max(std::fabs(y), 1.0));
          EXPECT_FALSE(a.contains(y + far));
          EXPECT_FALSE(a.contains(y - far));
        }
    }
  }
}

TEST(EncloseRoiAlign, HoldsTheExactValueAndTheReference) {
  std::mt19937 rng(2216);
  for (int64_t opset : {10, 16, 22})
    for (bool max_mode : {false, true})
      for (bool half : {true, false}) {
        if (opset == 10 && half) continue;  // version 10 has no coordinate_transformation_mode
        for (int64_t ratio : {2, 0})
          for (float scale : {1.0f, 0.5f})
            for (int rep = 0; rep < 2; ++rep) check_roialign({opset, max_mode, half, ratio, scale}, rng);
      }
}

// A roi by hand (version 10, one pixel at the image's corner, one sample at its centre): the
// sample at (0.5, 0.5) averages the four pixels 1, 2, 3, 4; the max mode takes 4/4 = 1.
TEST(EncloseRoiAlign, OneSampleByHand) {
  for (bool max_mode : {false, true}) {
    OneNodeModel m = one_node_model("RoiAlign", 10,
                                    {floats({1, 1, 2, 2}, {1, 2, 3, 4}), floats({1, 4}, {0, 0, 1, 1}),
                                     Value(Tensor::from_vector<int64_t>({1}, {0}))},
                                    {attr_string("mode", max_mode ? "max" : "avg"), attr_int("sampling_ratio", 1)});
    const double expected = max_mode ? 1.0 : 2.5;
    Interval r = bound_at(enclose_output(m, Semantics::Real), 0);
    EXPECT_TRUE(r.contains(expected));
    EXPECT_LT(r.width(), 1e-12);
    EXPECT_TRUE(bound_at(enclose_output(m, Semantics::Admissible), 0).contains(expected));
  }
}

// The adaptive grid ceil(roi_width / output_width) where the roi's width is 2 but its bounds are
// not a point (x1 = 1/3 and x2 = 7/3 computed by a Div): 2 or 3 samples, Undetermined.
TEST(EncloseRoiAlign, UndecidedAdaptiveGridIsUndetermined) {
  NamedValues feed;
  feed["x"] = floats({1, 1, 4, 4}, std::vector<float>(16, 1.0f));
  feed["num"] = floats({1, 4}, {1, 0, 7, 3});
  feed["den"] = floats({1, 4}, {3, 1, 3, 1});
  feed["b"] = Value(Tensor::from_vector<int64_t>({1}, {0}));
  OneNodeModel m = graph_model(16,
                               {named_node("Div", {"num", "den"}, "rois"),
                                named_node("RoiAlign", {"x", "rois", "b"}, "out0", {attr_int("sampling_ratio", 0)})},
                               feed, {"out0"});
  EXPECT_THROW(enclose_output(m, Semantics::Real), Undetermined);
}

}  // namespace
}  // namespace sonnx::enclose
