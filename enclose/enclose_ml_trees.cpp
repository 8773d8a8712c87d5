// Enclosure of TreeEnsemble-5 (ai.onnx.ml): each tree's path is decided node by node from the
// bounds of the row's features (ml_trees.h: a comparison the bounds leave open is Undetermined),
// then the leaf weights reaching each target are aggregated (a sum in any order, an average, a
// minimum or a maximum) and the post_transform applied (NONE, LOGISTIC, SOFTMAX, SOFTMAX_ZERO,
// PROBIT: ml_post_transform). A row whose path reads an undefined feature (no real value: a NaN
// input) is undefined. TreeEnsembleRegressor and TreeEnsembleClassifier: enclose_ml_tree_votes.cpp.
#include <optional>

#include "enclose_sums.h"
#include "ml_common.h"
#include "ml_trees.h"
#include "reference/ops/params/tree_ensemble.h"
#include "sonnx/errors.h"

namespace sonnx::enclose {

namespace {

std::vector<Bounds> tree_ensemble_enclosure(const OpCall& c) {
  const TreeEnsembleParams e = TreeEnsembleParams::read(c.ctx, c.version);
  const Bounds& x = c.input(0);
  if (x.type != DType::Float && x.type != DType::Double && x.type != DType::Float16)
    throw Trap(c.node.label() + ": X must be float, double or float16");
  if (x.lo.rank() != 2) throw Trap(c.node.label() + ": X must be 2-D [N, F]");
  if (!e.n_targets) throw Trap(c.node.label() + ": n_targets is needed to size the output");
  const int64_t n = x.lo.dim(0), f = x.lo.dim(1), targets = *e.n_targets;
  if (std::string why = e.fits(x.type, f); !why.empty()) throw Trap(c.node.label() + ": " + why);
  const TypeSum ts = type_sum(c, x.type);
  std::optional<FloatFormat> type;
  if (c.semantics == Semantics::Admissible) type = float_format(x.type);
  std::vector<Interval> features(static_cast<size_t>(x.lo.size()));
  for (int64_t i = 0; i < x.lo.size(); ++i) features[static_cast<size_t>(i)] = at(x, i);
  Bounds y = float_bounds(x.type, {n, targets});
  for (int64_t r = 0; r < n; ++r) {
    std::vector<std::vector<double>> reaching(static_cast<size_t>(targets));
    bool undefined_row = false;
    for (int64_t root : e.roots) {
      std::optional<size_t> leaf = tree_leaf_decided(c, e, static_cast<size_t>(root), features.data() + r * f, r);
      if (!leaf) {
        undefined_row = true;
        break;
      }
      reaching[static_cast<size_t>(e.targets[*leaf])].push_back(e.weights[*leaf]);
    }
    for (int64_t k = 0; k < targets; ++k)
      set(y, r * targets + k,
          undefined_row
              ? Interval::undefined()
              : tree_aggregate(e.aggregate, reaching[static_cast<size_t>(k)], e.roots.size(), 0, ts, type ? &*type : nullptr));
    ml_post_transform(c, e.post_transform, y, r * targets, targets);
  }
  return {y};
}

}  // namespace

// Own: the sums' roundings and the post_transform's allowance are bounded here.
SONNX_ML_ENCLOSURE("TreeEnsemble", (5), Allowance::own(), tree_ensemble_enclosure);

}  // namespace sonnx::enclose
