// The enclosures of InstanceNormalization (1, 6, 22) and LpNormalization (1, 22), which ONNX defines
// by text alone: each is enclosed as if defined by the small body that text describes, in the
// element type, walked by enclose_graph like a function body (spec/accuracy.md, "Admissible
// results", "Operators defined by a function body"): under `real` the body's value in exact
// arithmetic, under `admissible` each body node within its own allowance.
//   InstanceNormalization, per (n, c) over the spatial axes: mean = ReduceMean(x), d = x − mean,
//     var = ReduceMean(d·d) (population), y = (scale·d) / √(var + ε) + B, the reference's order;
//     ε is the attribute's float value, exactly (the reference adds it in double).
//   LpNormalization along `axis`: p = 1, y = x / ReduceSum(|x|); p = 2, y = x / √ReduceSum(x·x).
//     A line of zeros gives zeros, as the text defines (the body's 0/0 replaced by the point 0).
#include <string>
#include <vector>

#include "enclose_ops.h"
#include "norm_body.h"
#include "reference/ops/params/normalization.h"
#include "reference/ops/support/indexing.h"
#include "reference/ops/support/reduce.h"
#include "sonnx/errors.h"

namespace sonnx::enclose::norms_detail {

std::vector<Bounds> enclose_instance_norm(const OpCall& c) {
  const Bounds& x = float_input(c, 0);
  const Bounds& scale = float_input(c, 1);
  const Bounds& bias = float_input(c, 2);
  const int64_t rank = x.lo.rank();
  if (rank < 2) c.ctx.fail("input must have shape (N x C x D1 ... Dn)");
  const int64_t channels = x.lo.shape()[1];
  if (scale.lo.size() != channels || bias.lo.size() != channels)
    c.ctx.fail("scale and B must have C = " + std::to_string(channels) + " elements");
  auto epsilon = static_cast<double>(InstanceNormParams::read(c.ctx, c.version).epsilon);
  std::vector<int64_t> spatial;
  for (int64_t d = 2; d < rank; ++d) spatial.push_back(d);
  // Without spatial axes each mean is of one element (y = B where x is finite): not written as a body.
  if (spatial.empty()) throw Unsupported("no enclosure for " + op_name(c) + " on an input without spatial axes");
  NormBody b;
  b.given.emplace("x", x);
  b.given.emplace("scale", per_channel(scale, rank));
  b.given.emplace("B", per_channel(bias, rank));
  b.given.emplace("axes", exact_axes(spatial));
  Bounds eps = float_bounds(x.type, {});
  set(eps, 0, Interval::point(epsilon));
  b.given.emplace("epsilon", std::move(eps));
  b.normalize("scale");
  b.node("Add", {"normed", "B"}, "y");
  return {b.walk(c, "y")};
}

std::vector<Bounds> enclose_lp_norm(const OpCall& c) {
  const Bounds& x = float_input(c, 0);
  LpNormParams p = LpNormParams::read(c.ctx, c.version);
  if (p.p != 1 && p.p != 2) c.ctx.fail("p must be 1 or 2, got " + std::to_string(p.p));
  int64_t axis = support::normalize_axis(c.ctx, p.axis, x.lo.rank());
  NormBody b;
  b.given.emplace("x", x);
  b.given.emplace("axes", exact_axes({axis}));
  if (p.p == 1) {
    b.node("Abs", {"x"}, "magnitudes");
    b.node("ReduceSum", {"magnitudes", "axes"}, "norm");
  } else {
    b.node("Mul", {"x", "x"}, "squares");
    b.node("ReduceSum", {"squares", "axes"}, "sum_squares");
    b.node("Sqrt", {"sum_squares"}, "norm");
  }
  b.node("Div", {"x", "norm"}, "y");
  Bounds y = b.walk(c, "y");
  // A line of zeros has the norm 0, and its output is defined as zeros (the text of both versions):
  // where the line is known to be zeros, 0/0's undefined elements are the point 0.
  support::AxisView v = support::axis_view(x.lo.shape(), axis);
  for (int64_t o = 0; o < v.outer; ++o)
    for (int64_t i = 0; i < v.inner; ++i) {
      bool zeros = true;
      for (int64_t k = 0; k < v.n && zeros; ++k) {
        Interval e = at(x, v.at(o, k, i));
        zeros = e.lo == 0 && e.hi == 0;
      }
      if (zeros)
        for (int64_t k = 0; k < v.n; ++k) set(y, v.at(o, k, i), Interval::point(0));
    }
  return {y};
}

}  // namespace sonnx::enclose::norms_detail

namespace sonnx::enclose {
// The body's nodes bring their own allowances: the operator adds none.
SONNX_ENCLOSURE("InstanceNormalization", (1, 6, 22), Allowance::own(), norms_detail::enclose_instance_norm);
SONNX_ENCLOSURE("LpNormalization", (1, 22), Allowance::own(), norms_detail::enclose_lp_norm);
}  // namespace sonnx::enclose
