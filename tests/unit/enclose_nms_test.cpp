// The enclosure of NonMaxSuppression-10 and -11 (enclose/enclose_nms.cpp; spec/accuracy.md,
// "Admissible results"): on random boxes and scores the real enclosure's selection is the greedy
// selection computed with every IoU comparison exact (MPFR: inter > threshold·union at 2200 bits),
// and the admissible one is the same and equals the reference interpreter's; the ONNX example's
// selection (derived by hand below) in both box formats; where a comparison is left open (a score
// tie or a threshold within the enclosures, an IoU exactly at the threshold under `admissible`),
// Undetermined naming the node.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "enclose_test_util.h"
#include "sonnx/errors.h"

namespace sonnx::enclose {
namespace {

using sonnx::testing::attr_int;

Value nms_ints(const std::vector<int64_t>& v) {
  return Value(Tensor::from_vector<int64_t>({static_cast<int64_t>(v.size())}, v));
}
Value nms_scalar_float(float v) { return Value(Tensor::from_vector<float>({1}, {v})); }

std::vector<int64_t> nms_selected(const Bounds& b) {
  EXPECT_TRUE(b.exact());
  EXPECT_EQ(b.lo.rank(), 2);
  return b.lo.to_int64_vector();
}

// A box as two ordered corners, exact in double (floats in [0, 16) and their halves' sums).
struct ExactBox {
  double y1, x1, y2, x2;
};

// Whether a suppresses b in exact arithmetic: both have area, they overlap, and
// inter > threshold·union (union > 0), the products formed exactly in MPFR.
bool exact_suppresses(const ExactBox& a, const ExactBox& b, double threshold) {
  if (!(a.y2 > a.y1 && a.x2 > a.x1 && b.y2 > b.y1 && b.x2 > b.x1)) return false;
  const double ih = std::min(a.y2, b.y2) - std::max(a.y1, b.y1), iw = std::min(a.x2, b.x2) - std::max(a.x1, b.x1);
  if (!(ih > 0 && iw > 0)) return false;  // differences of these doubles are exact (Sterbenz or few bits)
  Exact inter, uni, rhs;
  inter.add_product(ih, iw);
  uni.add_product(a.y2 - a.y1, a.x2 - a.x1);
  uni.add_product(b.y2 - b.y1, b.x2 - b.x1);
  mpfr_sub(uni.get(), uni.get(), inter.get(), MPFR_RNDN);
  mpfr_mul_d(rhs.get(), uni.get(), threshold, MPFR_RNDN);
  return mpfr_cmp(inter.get(), rhs.get()) > 0;
}

// The greedy selection with exact comparisons, written from the operator's definition.
std::vector<int64_t> exact_nms(const std::vector<float>& boxes, const std::vector<float>& scores, int64_t B, int64_t K,
                               int64_t S, bool center, int64_t max_out, double iou, bool has_st, double st) {
  std::vector<int64_t> out;
  for (int64_t b = 0; b < B; ++b)
    for (int64_t k = 0; k < K; ++k) {
      std::vector<ExactBox> bx;
      for (int64_t s = 0; s < S; ++s) {
        const float* p = &boxes[static_cast<size_t>((b * S + s) * 4)];
        double a0 = p[0], a1 = p[1], a2 = p[2], a3 = p[3];
        if (center) {  // [xc, yc, w, h]
          double ya = a1 - a3 / 2, yb = a1 + a3 / 2, xa = a0 - a2 / 2, xb = a0 + a2 / 2;
          bx.push_back({std::min(ya, yb), std::min(xa, xb), std::max(ya, yb), std::max(xa, xb)});
        } else {
          bx.push_back({std::min(a0, a2), std::min(a1, a3), std::max(a0, a2), std::max(a1, a3)});
        }
      }
      const float* sc = &scores[static_cast<size_t>((b * K + k) * S)];
      std::vector<int64_t> order;
      for (int64_t s = 0; s < S; ++s)
        if (!has_st || sc[s] >= st) order.push_back(s);
      std::stable_sort(order.begin(), order.end(), [&](int64_t i, int64_t j) { return sc[i] > sc[j]; });
      std::vector<int64_t> kept;
      for (int64_t s : order) {
        if (static_cast<int64_t>(kept.size()) >= max_out) break;
        bool sup = false;
        for (int64_t t : kept) sup = sup || exact_suppresses(bx[static_cast<size_t>(t)], bx[static_cast<size_t>(s)], iou);
        if (!sup) kept.push_back(s);
      }
      for (int64_t s : kept) out.insert(out.end(), {b, k, s});
    }
  return out;
}

OneNodeModel nms_model(int64_t opset, const std::vector<float>& boxes, const std::vector<float>& scores, int64_t B, int64_t K,
                       int64_t S, bool center, int64_t max_out, float iou, bool has_st, float st) {
  std::vector<Value> in = {floats({B, S, 4}, boxes), floats({B, K, S}, scores), nms_ints({max_out}), nms_scalar_float(iou)};
  if (has_st) in.push_back(nms_scalar_float(st));
  return one_node_model("NonMaxSuppression", opset, in, {attr_int("center_point_box", center ? 1 : 0)});
}

TEST(EncloseNms, RandomSelectionsAreTheExactOnesAndTheReferences) {
  std::mt19937 rng(1011);
  int checked = 0, selected = 0;
  for (int n = 0; n < 48; ++n) {
    const bool center = n % 2 == 1, has_st = n % 3 == 0;
    const int64_t opset = n % 4 < 2 ? 10 : 11, B = 1 + n % 2, K = 1 + (n / 2) % 2, S = 3 + n % 7;
    const int64_t max_out = 1 + static_cast<int64_t>(rng() % static_cast<uint32_t>(S + 1));
    const float thresholds[] = {0.0f, 0.3f, 0.5f, 0.7f};
    const float iou = thresholds[n % 4], st = 0.3f;
    std::vector<float> boxes, scores = uniform_floats(static_cast<size_t>(B * K * S), rng, 0.0f, 1.0f);
    for (int64_t i = 0; i < B * S; ++i) {
      // Boxes near each other so that many overlap; corners in either order (flipped).
      std::vector<float> p = uniform_floats(4, rng, 0.0f, 4.0f);
      if (center) p[2] = 0.5f + p[2], p[3] = (i % 3 == 0 ? -1.0f : 1.0f) * (0.5f + p[3]);
      boxes.insert(boxes.end(), p.begin(), p.end());
    }
    SCOPED_TRACE("instance " + std::to_string(n));
    OneNodeModel m = nms_model(opset, boxes, scores, B, K, S, center, max_out, iou, has_st, st);
    const std::vector<int64_t> want = exact_nms(boxes, scores, B, K, S, center, max_out, iou, has_st, st);
    const std::vector<int64_t> real = nms_selected(enclose_output(m, Semantics::Real));
    const std::vector<int64_t> adm = nms_selected(enclose_output(m, Semantics::Admissible));
    EXPECT_EQ(real, want);
    EXPECT_EQ(adm, want);
    EXPECT_EQ(reference_output(m).to_int64_vector(), adm);
    selected += static_cast<int>(want.size() / 3);
    ++checked;
  }
  EXPECT_EQ(checked, 48);
  EXPECT_GT(selected, 48);  // not all empty
}

// The ONNX example (suppress_by_IOU, center_point_box): boxes as corners [y1, x1, y2, x2]
// [0,0,1,1], [0,0.1,1,1.1], [0,-0.1,1,0.9], [0,10,1,11], [0,10.1,1,11.1], [0,100,1,101], scores
// .9 .75 .6 .95 .5 .3. By score: 3 kept; 0 kept (no overlap with 3); 1 and 2 overlap 0 with IoU
// 0.9/1.1 > 0.5, suppressed; 4 likewise by 3; 5 kept: [3, 0, 5].
TEST(EncloseNms, TheOnnxExampleInBothFormats) {
  const std::vector<float> scores = {0.9f, 0.75f, 0.6f, 0.95f, 0.5f, 0.3f};
  const std::vector<float> corners = {0, 0,  1, 1,  0, 0.1f,  1, 1.1f,  0, -0.1f, 1, 0.9f,
                                      0, 10, 1, 11, 0, 10.1f, 1, 11.1f, 0, 100,   1, 101};
  const std::vector<float> centers = {0.5f,  0.5f, 1, 1, 0.6f,  0.5f, 1, 1, 0.4f,   0.5f, 1, 1,
                                      10.5f, 0.5f, 1, 1, 10.6f, 0.5f, 1, 1, 100.5f, 0.5f, 1, 1};
  const std::vector<int64_t> want = {0, 0, 3, 0, 0, 0, 0, 0, 5};
  for (int64_t opset : {10, 11})
    for (bool center : {false, true})
      for (Semantics s : {Semantics::Real, Semantics::Admissible}) {
        OneNodeModel m = nms_model(opset, center ? centers : corners, scores, 1, 1, 6, center, 3, 0.5f, true, 0.0f);
        EXPECT_EQ(nms_selected(enclose_output(m, s)), want) << opset << " " << center;
      }
}

// Expects Undetermined naming the node.
void nms_expect_open(const OneNodeModel& m, Semantics s) {
  try {
    enclose_model(m.model, m.feed, s);
    ADD_FAILURE() << "should be undetermined";
  } catch (const Undetermined& e) {
    EXPECT_NE(std::string(e.what()).find("at this input"), std::string::npos) << e.what();
  }
}

// Scores computed by Exp (intervals, not points): equal inputs make a tie the bounds cannot order;
// distinct ones decide.
TEST(EncloseNms, ScoresFromExpAreOrderedWhereTheBoundsDecide) {
  const std::vector<float> boxes = {0, 0, 1, 1, 0, 2, 1, 3, 0, 4, 1, 5};  // disjoint
  auto model = [&](std::vector<float> x) {
    NamedValues feed = {{"x", floats({1, 1, 3}, x)}, {"boxes", floats({1, 3, 4}, boxes)}, {"max", nms_ints({3})}};
    onnx::NodeProto n = sonnx::testing::node("NonMaxSuppression", {"boxes", "e", "max"}, {"y"});
    n.set_name("nms_node");
    return graph_model(11, {named_node("Exp", {"x"}, "e"), n}, feed, {"y"});
  };
  OneNodeModel decided = model({0.1f, 0.3f, 0.2f});
  for (Semantics s : {Semantics::Real, Semantics::Admissible})
    EXPECT_EQ(enclose_model(decided.model, decided.feed, s).at("y").lo.to_int64_vector(),
              (std::vector<int64_t>{0, 0, 1, 0, 0, 2, 0, 0, 0}));
  OneNodeModel tie = model({0.1f, 0.3f, 0.3f});
  nms_expect_open(tie, Semantics::Real);
  nms_expect_open(tie, Semantics::Admissible);
}

// A score e^1 against the float threshold nearest it: decided by the real enclosure (e is
// irrational, the threshold a float below it), open within Exp's 4 ulps under `admissible`.
TEST(EncloseNms, AScoreThresholdWithinTheAllowanceIsOpen) {
  const float e_float = 2.71828174591064453125f;  // the float nearest e, below it
  NamedValues feed = {{"x", floats({1, 1, 1}, {1.0f})},
                      {"boxes", floats({1, 1, 4}, {0, 0, 1, 1})},
                      {"max", nms_ints({1})},
                      {"iou", nms_scalar_float(0.5f)},
                      {"st", nms_scalar_float(e_float)}};
  onnx::NodeProto n = sonnx::testing::node("NonMaxSuppression", {"boxes", "e", "max", "iou", "st"}, {"y"});
  n.set_name("nms_node");
  OneNodeModel m = graph_model(11, {named_node("Exp", {"x"}, "e"), n}, feed, {"y"});
  EXPECT_EQ(enclose_model(m.model, m.feed, Semantics::Real).at("y").lo.to_int64_vector(), (std::vector<int64_t>{0, 0, 0}));
  nms_expect_open(m, Semantics::Admissible);
}

// Boxes [0,0,1,1] and [0,0,1,2]: IoU exactly 1/2, every operation exact in float. Against 0.5 the
// box is kept (1/2 does not exceed 1/2); against the float below 0.5 it is suppressed. Under
// `admissible` both are open: an implementation may compare inter > threshold·union, and the
// allowance does not tell the exact cases apart.
TEST(EncloseNms, AnIouAtTheThresholdIsDecidedExactlyUnderRealOnly) {
  const std::vector<float> boxes = {0, 0, 1, 1, 0, 0, 1, 2}, scores = {0.9f, 0.8f};
  OneNodeModel at = nms_model(10, boxes, scores, 1, 1, 2, false, 2, 0.5f, false, 0);
  EXPECT_EQ(nms_selected(enclose_output(at, Semantics::Real)), (std::vector<int64_t>{0, 0, 0, 0, 0, 1}));
  nms_expect_open(at, Semantics::Admissible);
  OneNodeModel below = nms_model(10, boxes, scores, 1, 1, 2, false, 2, std::nextafter(0.5f, 0.0f), false, 0);
  EXPECT_EQ(nms_selected(enclose_output(below, Semantics::Real)), (std::vector<int64_t>{0, 0, 0}));
  nms_expect_open(below, Semantics::Admissible);
  // Far from the threshold, both decide.
  OneNodeModel far = nms_model(10, boxes, scores, 1, 1, 2, false, 2, 0.4f, false, 0);
  EXPECT_EQ(nms_selected(enclose_output(far, Semantics::Admissible)), (std::vector<int64_t>{0, 0, 0}));
}

// max_output_boxes_per_class absent or 0 selects nothing; a selection stops at it, and a tie
// past the last selection does not matter.
TEST(EncloseNms, TheLimitStopsTheSelection) {
  const std::vector<float> boxes = {0, 0, 1, 1, 0, 2, 1, 3, 0, 4, 1, 5};
  OneNodeModel none = nms_model(11, boxes, {0.5f, 0.7f, 0.7f}, 1, 1, 3, false, 0, 0.5f, false, 0);
  EXPECT_EQ(enclose_output(none, Semantics::Admissible).lo.shape(), (Shape{0, 3}));
  NamedValues feed = {{"x", floats({1, 1, 3}, {0.9f, 0.3f, 0.3f})}, {"boxes", floats({1, 3, 4}, boxes)}, {"max", nms_ints({1})}};
  onnx::NodeProto n = sonnx::testing::node("NonMaxSuppression", {"boxes", "e", "max"}, {"y"});
  n.set_name("nms_node");
  OneNodeModel m = graph_model(11, {named_node("Exp", {"x"}, "e"), n}, feed, {"y"});
  EXPECT_EQ(enclose_model(m.model, m.feed, Semantics::Real).at("y").lo.to_int64_vector(), (std::vector<int64_t>{0, 0, 0}));
}

}  // namespace
}  // namespace sonnx::enclose
