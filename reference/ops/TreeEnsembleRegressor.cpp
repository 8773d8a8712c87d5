// TreeEnsembleRegressor (ai.onnx.ml 1, 3, 5; 5 deprecated, its text that of 3): X [N, F] (float,
// double, int64, int32) -> Y [N, n_targets] float. The trees are params/tree_votes.h (nodes by
// (tree id, node id), string modes, LEAF nodes; version 3 adds the *_as_tensor attributes in
// double). Every vote (target_ids, target_weights) at the leaf each tree's walk reaches is
// aggregated into its target by aggregate_function: SUM, AVERAGE (the sum over the number of
// trees), MIN or MAX; a MIN / MAX target no vote reached keeps float's largest / lowest finite
// value, as TreeEnsemble-5 (onnx's reference; onnxruntime gives 0). Then base_values (empty or one
// per target) are added and post_transform applied per row. Computed in double, rounded once.
#include <algorithm>
#include <limits>

#include "op_params.h"
#include "params/tree_predictors.h"
#include "support/kernel.h"
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> tree_ensemble_regressor(OpContext& ctx) {
  const TreeEnsembleRegressorParams p = TreeEnsembleRegressorParams::read(ctx, ctx.version());
  const TreeVoteEnsemble& e = p.trees;
  const Tensor& x = ctx.input(0);
  const std::vector<double> in = e.features_of(ctx, x);
  if (!p.n_targets) ctx.fail("n_targets is needed to size the output");
  const int64_t n = x.dim(0), f = x.dim(1), targets = *p.n_targets;
  if (std::string why = e.fits(f); !why.empty()) ctx.fail(why);
  const TreeAggregate agg = p.aggregate;
  const double big = std::numeric_limits<float>::max();
  const double start = agg == TreeAggregate::Min ? big : agg == TreeAggregate::Max ? -big : 0.0;
  std::vector<double> out;
  out.reserve(static_cast<size_t>(n * targets));
  for (int64_t r = 0; r < n; ++r) {
    std::vector<double> score(static_cast<size_t>(targets), start);
    for (size_t tree = 0; tree < e.roots.size(); ++tree)
      for (const TreeVote& v : e.votes[e.leaf_reached(ctx, tree, in.data() + r * f)]) {
        double& s = score[static_cast<size_t>(v.id)];
        s = agg == TreeAggregate::Min ? std::min(s, v.weight) : agg == TreeAggregate::Max ? std::max(s, v.weight) : s + v.weight;
      }
    for (size_t t = 0; t < score.size(); ++t) {
      if (agg == TreeAggregate::Average && !e.roots.empty()) score[t] /= static_cast<double>(e.roots.size());
      if (!e.base_values.empty()) score[t] += e.base_values[t];
    }
    post_transform_row(e.post_transform, score);
    out.insert(out.end(), score.begin(), score.end());
  }
  return one(float_tensor(ctx, DType::Float, {n, targets}, out));
}

void tree_ensemble_regressor_shape(InferContext& ctx) {
  const TreeEnsembleRegressorParams p = TreeEnsembleRegressorParams::read(ctx, ctx.version());
  require_rank(ctx, 0, 2, "X");
  const Dims* x = ctx.input_shape(0);
  if (std::string why = p.trees.fits(x ? (*x)[1].value : std::nullopt); !why.empty()) ctx.fail(why);
  std::optional<Dims> out;
  if (x) out = Dims{(*x)[0], p.n_targets ? known_dim(*p.n_targets) : Dim{}};
  ctx.set_output(0, DType::Float, out);
}

}  // namespace
SONNX_KERNEL("ai.onnx.ml", "TreeEnsembleRegressor", 1, tree_ensemble_regressor, Accuracy::Rounding);
SONNX_KERNEL("ai.onnx.ml", "TreeEnsembleRegressor", 3, tree_ensemble_regressor, Accuracy::Rounding);
SONNX_KERNEL("ai.onnx.ml", "TreeEnsembleRegressor", 5, tree_ensemble_regressor, Accuracy::Rounding);
SONNX_SHAPE_RULE("ai.onnx.ml", "TreeEnsembleRegressor", (1, 3, 5), tree_ensemble_regressor_shape);
SONNX_PARAMS("ai.onnx.ml", "TreeEnsembleRegressor", (1, 3, 5), TreeEnsembleRegressorParams);
}  // namespace sonnx
