// TreeEnsemble (ai.onnx.ml 5): X [N, F] -> Y [N, n_targets]. Each tree (tree_roots) walks from its
// root: an interior node compares feature nodes_featureids[i] of the row with nodes_splits[i] by
// nodes_modes[i] (uint8: 0 <=, 1 <, 2 >=, 3 >, 4 ==, 5 !=, 6 member of the node's set) and goes
// to its true or false child, which is a leaf when nodes_trueleafs / nodes_falseleafs says so. A NaN
// feature goes to the true child when nodes_missing_value_tracks_true[i] is 1; otherwise it is
// compared (false, except for !=). The sets of the member nodes are membership_values split at
// NaNs, in the order the member nodes appear in nodes_modes. A root whose two children are the same
// leaf is that leaf. Each tree's leaf adds leaf_weights[l] to target leaf_targetids[l] by
// aggregate_function: 0 AVERAGE (sum / number of trees), 1 SUM, 2 MIN, 3 MAX; a target no leaf
// reached keeps the start value: 0, or for MIN / MAX the largest / lowest finite value of T (as onnx's
// reference implementation; the spec is silent). Then post_transform per row (support/post_transform.h).
// Scores accumulate in double and are rounded into T once; nodes_hitrates is ignored.
#include <algorithm>
#include <cmath>
#include <limits>

#include "op_params.h"
#include "params/tree_ensemble.h"
#include "support/kernel.h"
#include "support/shape.h"
#include "support/tree_walk.h"

namespace sonnx {
using namespace support;
namespace {

double largest_finite(DType type) {
  if (type == DType::Float16) return 65504.0;
  if (type == DType::Float) return std::numeric_limits<float>::max();
  return std::numeric_limits<double>::max();
}

std::vector<Value> tree_ensemble(OpContext& ctx) {
  const TreeEnsembleParams e = TreeEnsembleParams::read(ctx, ctx.version());
  const Tensor& x = ctx.input(0);
  if (x.dtype() != DType::Float && x.dtype() != DType::Double && x.dtype() != DType::Float16)
    ctx.fail("X must be float, double or float16");
  if (x.rank() != 2) ctx.fail("X must be 2-D [N, F]");
  if (!e.n_targets) ctx.fail("n_targets is needed to size the output");
  const int64_t n = x.dim(0), f = x.dim(1), targets = *e.n_targets;
  if (std::string why = e.fits(x.dtype(), f); !why.empty()) ctx.fail(why);
  const TreeAggregate agg = e.aggregate;
  const std::vector<double> in = float_values(ctx, x);
  const double start = agg == TreeAggregate::Min   ? largest_finite(x.dtype())
                       : agg == TreeAggregate::Max ? -largest_finite(x.dtype())
                                                   : 0.0;
  std::vector<double> out;
  out.reserve(static_cast<size_t>(n * targets));
  for (int64_t r = 0; r < n; ++r) {
    std::vector<double> score(static_cast<size_t>(targets), start);
    for (int64_t root : e.roots) {
      size_t l = tree_leaf_of(ctx, e, static_cast<size_t>(root), in.data() + r * f);
      double& s = score[static_cast<size_t>(e.targets[l])];
      double w = e.weights[l];
      s = agg == TreeAggregate::Min ? std::min(s, w) : agg == TreeAggregate::Max ? std::max(s, w) : s + w;
    }
    if (agg == TreeAggregate::Average && !e.roots.empty())
      for (double& s : score) s /= static_cast<double>(e.roots.size());
    post_transform_row(e.post_transform, score);
    out.insert(out.end(), score.begin(), score.end());
  }
  return one(float_tensor(ctx, x.dtype(), {n, targets}, out));
}

void tree_ensemble_shape(InferContext& ctx) {
  const TreeEnsembleParams e = TreeEnsembleParams::read(ctx, ctx.version());
  require_rank(ctx, 0, 2, "X");
  const Dims* x = ctx.input_shape(0);
  if (std::string why = e.fits(ctx.input_elem(0), x ? (*x)[1].value : std::nullopt); !why.empty()) ctx.fail(why);
  std::optional<Dims> out;
  if (x && e.n_targets) out = Dims{(*x)[0], known_dim(*e.n_targets)};
  else if (x) out = Dims{(*x)[0], Dim{}};
  ctx.set_output(0, ctx.input_elem(0), out);
}

}  // namespace
SONNX_KERNEL("ai.onnx.ml", "TreeEnsemble", 5, tree_ensemble, Accuracy::Rounding);
SONNX_SHAPE_RULE("ai.onnx.ml", "TreeEnsemble", (5), tree_ensemble_shape);
SONNX_PARAMS("ai.onnx.ml", "TreeEnsemble", (5), TreeEnsembleParams);
}  // namespace sonnx
