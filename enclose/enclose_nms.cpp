// Enclosure of NonMaxSuppression (versions 10 and 11; reference/ops/NonMaxSuppression.cpp): its
// output, the int64 indices [batch, class, box] of the boxes selected, is kept where the bounds
// decide every comparison the algorithm makes, and is Undetermined where one is left open
// (spec/accuracy.md, "Admissible results"). The comparisons are those of the reference kernel:
//   - a score reaches score_threshold (score ≥ threshold: a score equal to it stays);
//   - the order of the remaining scores, decreasing, ties by the lower box index;
//   - a box of no area, or two boxes that do not overlap, never suppress; otherwise
//     IoU = inter / (area_a + area_b − inter) > iou_threshold suppresses.
// Scores and thresholds are compared as the values they are (a comparison rounds nothing). The
// boxes' corners (from the center format: c ∓ size/2), widths, areas, intersection, union and IoU
// are enclosed by interval arithmetic, in the reference's order: under `real` exactly (outward
// rounded doubles), under `admissible` each operation rounded outward to the boxes' type (an
// implementation computing in that type or a wider one lies inside, rounded_interval.h), the IoU
// then widened by γ_1 relative, which also covers comparing inter > iou_threshold·union instead of
// the quotient (one rounding of the product instead of one of the quotient).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "enclose_ops.h"
#include "rounded_interval.h"
#include "reference/ops/params/non_max_suppression.h"
#include "sonnx/errors.h"

namespace sonnx::enclose::nms {
namespace {

// A comparison over every choice of reals in the enclosures: true for all, false for all, or open.
enum class NmsTruth { no, yes, open };

NmsTruth nms_and(NmsTruth a, NmsTruth b) {
  if (a == NmsTruth::no || b == NmsTruth::no) return NmsTruth::no;
  return a == NmsTruth::yes && b == NmsTruth::yes ? NmsTruth::yes : NmsTruth::open;
}
NmsTruth nms_or(NmsTruth a, NmsTruth b) {
  if (a == NmsTruth::yes || b == NmsTruth::yes) return NmsTruth::yes;
  return a == NmsTruth::no && b == NmsTruth::no ? NmsTruth::no : NmsTruth::open;
}
// x > t, and x ≥ t. An undefined operand decides nothing.
NmsTruth nms_greater(Interval x, Interval t) {
  if (x.has_nan() || t.has_nan()) return NmsTruth::open;
  if (x.lo > t.hi) return NmsTruth::yes;
  return x.hi <= t.lo ? NmsTruth::no : NmsTruth::open;
}
NmsTruth nms_at_least(Interval x, Interval t) {
  if (x.has_nan() || t.has_nan()) return NmsTruth::open;
  if (x.lo >= t.hi) return NmsTruth::yes;
  return x.hi < t.lo ? NmsTruth::no : NmsTruth::open;
}

std::string nms_interval_text(Interval i) {
  char s[64];
  std::snprintf(s, sizeof s, "[%.9g, %.9g]", i.lo, i.hi);
  return s;
}

// A box as two ordered corners (y1 ≤ y2, x1 ≤ x2 for every choice, min and max being exact).
struct NmsBox {
  RI y1, x1, y2, x2;
};

// The boxes of one batch, from the coordinates' bounds (an undefined coordinate: any real).
std::vector<NmsBox> nms_boxes(const Bounds& boxes, int64_t batch, int64_t S, bool center, const FloatFormat* f) {
  std::vector<NmsBox> out(static_cast<size_t>(S));
  for (int64_t s = 0; s < S; ++s) {
    RI p[4];
    for (int64_t k = 0; k < 4; ++k) {
      Interval v = at(boxes, (batch * S + s) * 4 + k);
      p[k] = {v.has_nan() ? Interval::whole() : v, f};
    }
    if (!center) {
      out[static_cast<size_t>(s)] = {min(p[0], p[2]), min(p[1], p[3]), max(p[0], p[2]), max(p[1], p[3])};
      continue;
    }
    // [x_center, y_center, width, height]: each corner c ∓ size/2, then ordered.
    const RI two{Interval::point(2), f};
    RI hh = p[3] / two, hw = p[2] / two;
    RI ya = p[1] - hh, yb = p[1] + hh, xa = p[0] - hw, xb = p[0] + hw;
    out[static_cast<size_t>(s)] = {min(ya, yb), min(xa, xb), max(ya, yb), max(xa, xb)};
  }
  return out;
}

RI nms_positive(const RI& a) { return max0(a); }

// Whether box a suppresses box b (reference/ops/NonMaxSuppression.cpp, `suppresses`), over every
// choice of reals in the enclosures and every rounding the semantics allows.
NmsTruth nms_suppresses(const NmsBox& a, const NmsBox& b, Interval iou_threshold, const FloatFormat* f) {
  const RI zero{Interval::point(0), f};
  RI area_a = (a.y2 - a.y1) * (a.x2 - a.x1), area_b = (b.y2 - b.y1) * (b.x2 - b.x1);
  RI ih = min(a.y2, b.y2) - max(a.y1, b.y1), iw = min(a.x2, b.x2) - max(a.x1, b.x1);
  NmsTruth t = nms_and(nms_and(nms_greater(area_a.v, zero.v), nms_greater(area_b.v, zero.v)),
                       nms_and(nms_greater(ih.v, zero.v), nms_greater(iw.v, zero.v)));
  if (t == NmsTruth::no) return t;
  // The IoU where every test above passes: each quantity positive there.
  RI inter = nms_positive(ih) * nms_positive(iw);
  RI uni = (nms_positive(area_a) + nms_positive(area_b)) - inter;
  RI iou = inter / uni;  // unbounded where the union's enclosure reaches 0
  Interval q = iou.v;
  if (f && std::isfinite(q.lo) && std::isfinite(q.hi)) {  // or inter > threshold·union: γ_1 relative
    double e = up(gamma(1, f->unit_roundoff()) * magnitude(q));
    q = {down(q.lo - e), up(q.hi + e)};
  }
  return nms_and(t, nms_greater(q, iou_threshold));
}

// A scalar input's value as an interval (a float's bounds, an integer's value).
Interval nms_scalar(const Bounds& b) {
  if (b.exact()) return Interval::point(b.lo.as_double(0));
  return at(b, 0);
}

[[noreturn]] void nms_open(const OpCall& c, int64_t batch, int64_t cls, const std::string& why) {
  throw Undetermined(c.node.label() + ": the boxes selected for batch " + std::to_string(batch) + ", class " +
                     std::to_string(cls) + " are not determined at this input: " + why);
}

std::vector<Bounds> non_max_suppression(const OpCall& c) {
  run_on_bounds(c, false);  // the reference's own checks and traps
  const bool center = NonMaxSuppressionParams::read(c.ctx, c.version).center_point_box;
  const Bounds &boxes = float_input(c, 0), &scores = float_input(c, 1);
  const int64_t B = boxes.lo.dim(0), S = boxes.lo.dim(1), K = scores.lo.dim(1);
  auto given = [&](size_t k) { return k < c.in.size() && c.in[k] && c.in[k]->lo.size() == 1; };
  const int64_t max_out = given(2) ? c.input(2).lo.as_int64(0) : 0;
  const Interval iou_threshold = given(3) ? nms_scalar(c.input(3)) : Interval::point(0);
  const bool has_score_threshold = given(4);
  const Interval score_threshold = has_score_threshold ? nms_scalar(c.input(4)) : Interval::point(0);
  std::optional<FloatFormat> format;
  if (c.semantics == Semantics::Admissible) format = float_format(boxes.type);
  const FloatFormat* f = format ? &*format : nullptr;

  std::vector<int64_t> selected;  // flattened triples
  for (int64_t b = 0; b < B && max_out > 0; ++b) {
    const std::vector<NmsBox> bx = nms_boxes(boxes, b, S, center, f);
    for (int64_t k = 0; k < K; ++k) {
      const int64_t base = (b * K + k) * S;
      // An undefined score may be anything: it sorts as [−∞, +∞].
      auto score = [&](int64_t s) {
        Interval v = at(scores, base + s);
        return v.has_nan() ? Interval::whole() : v;
      };
      std::vector<int64_t> order;
      for (int64_t s = 0; s < S; ++s) {
        NmsTruth t = has_score_threshold ? nms_at_least(at(scores, base + s), score_threshold) : NmsTruth::yes;
        if (t == NmsTruth::open)
          nms_open(c, b, k,
                   "whether the score of box " + std::to_string(s) + ", " + nms_interval_text(at(scores, base + s)) +
                       ", reaches score_threshold " + nms_interval_text(score_threshold));
        if (t == NmsTruth::yes) order.push_back(s);
      }
      // Sorted by upper bound, decreasing, ties by index: where the bounds decide the order, it is
      // this one; box i then precedes every later box iff it precedes the next (upper bounds fall).
      std::stable_sort(order.begin(), order.end(), [&](int64_t i, int64_t j) { return score(i).hi > score(j).hi; });
      auto precedes = [&](int64_t i, int64_t j) {  // i before j for every choice
        Interval si = score(i), sj = score(j);
        return i < j ? si.lo >= sj.hi : si.lo > sj.hi;
      };
      std::vector<int64_t> kept;
      for (size_t pos = 0; pos < order.size() && static_cast<int64_t>(kept.size()) < max_out; ++pos) {
        const int64_t s = order[pos];
        if (pos + 1 < order.size() && !precedes(s, order[pos + 1]))
          nms_open(c, b, k,
                   "the scores of boxes " + std::to_string(s) + " and " + std::to_string(order[pos + 1]) + ", " +
                       nms_interval_text(score(s)) + " and " + nms_interval_text(score(order[pos + 1])) +
                       ", are not in one order for every choice");
        // Suppressed when some kept box suppresses it for every choice; open where none does and
        // one may.
        NmsTruth suppressed = NmsTruth::no;
        int64_t open_by = -1;
        for (int64_t t : kept) {
          NmsTruth by = nms_suppresses(bx[static_cast<size_t>(t)], bx[static_cast<size_t>(s)], iou_threshold, f);
          if (by == NmsTruth::open && open_by < 0) open_by = t;
          suppressed = nms_or(suppressed, by);
        }
        if (suppressed == NmsTruth::open)
          nms_open(c, b, k,
                   "whether box " + std::to_string(open_by) + " suppresses box " + std::to_string(s) +
                       " (their intersection over union against iou_threshold " + nms_interval_text(iou_threshold) +
                       ") is left open by the enclosures");
        if (suppressed == NmsTruth::no) kept.push_back(s);
      }
      for (int64_t s : kept) selected.insert(selected.end(), {b, k, s});
    }
  }
  const auto n = static_cast<int64_t>(selected.size() / 3);
  return {Bounds::of(Tensor::from_vector<int64_t>({n, 3}, selected))};
}

}  // namespace
}  // namespace sonnx::enclose::nms

namespace sonnx::enclose {
SONNX_ENCLOSURE("NonMaxSuppression", (10, 11), Allowance::own(), nms::non_max_suppression);
}  // namespace sonnx::enclose
