// Enclosures of TreeEnsembleRegressor and TreeEnsembleClassifier (ai.onnx.ml 1, 3, 5): each tree's
// path decided node by node from the bounds of the row's features as TreeEnsemble-5's
// (ml_trees.h: an open comparison is Undetermined; a path through an undefined feature makes the
// row undefined), then the votes at the leaves reached aggregated with the base values
// (tree_aggregate: a sum in any order, γ_(n+9)·Σ|w| in float under the admissible semantics; an
// average; a minimum or a maximum, exact), and the post_transform applied (ml_post_transform).
// The classifier's label is the first largest transformed score where the bounds decide it, else
// Undetermined. Integer X is compared as the reference compares it (rounded to float unless the
// splits are double, TreeVoteEnsemble::features_of): a definition, so those features are points.
#include <optional>

#include "enclose_sums.h"
#include "ml_common.h"
#include "ml_trees.h"
#include "reference/ops/params/tree_predictors.h"
#include "sonnx/errors.h"

namespace sonnx::enclose {

namespace {

// X [N, F] as intervals: float bounds as they are, integer features as the reference reads them.
std::vector<Interval> tree_vote_features(const OpCall& c, const TreeVoteEnsemble& e, const Bounds& x) {
  ml_reference_checks(c, {DType::Float, DType::Double});
  std::vector<Interval> v(static_cast<size_t>(x.lo.size()));
  if (x.exact()) {
    const std::vector<double> read = e.features_of(c.ctx, x.lo);
    for (size_t i = 0; i < v.size(); ++i) v[i] = std::isnan(read[i]) ? Interval::undefined() : Interval::point(read[i]);
  } else {
    for (int64_t i = 0; i < x.lo.size(); ++i) v[static_cast<size_t>(i)] = at(x, i);
  }
  return v;
}

// The leaf each tree's walk reaches for row r (its features at `row`), or nullopt where a path
// reads an undefined feature.
std::optional<std::vector<size_t>> tree_vote_leaves(const OpCall& c, const TreeVoteEnsemble& e, const Interval* row, int64_t r) {
  std::vector<size_t> leaves;
  for (const TreeVoteEnsemble::Root& root : e.roots) {
    if (root.leaf) {
      leaves.push_back(root.index);
      continue;
    }
    std::optional<size_t> leaf = tree_leaf_decided(c, e, root.index, row, r);
    if (!leaf) return std::nullopt;
    leaves.push_back(*leaf);
  }
  return leaves;
}

std::vector<Bounds> tree_vote_regressor(const OpCall& c) {
  const TreeEnsembleRegressorParams p = TreeEnsembleRegressorParams::read(c.ctx, c.version);
  const TreeVoteEnsemble& e = p.trees;
  const Bounds& x = c.input(0);
  const std::vector<Interval> features = tree_vote_features(c, e, x);  // the reference's checks first
  const int64_t n = x.lo.dim(0), f = x.lo.dim(1), targets = *p.n_targets;
  const TypeSum ts = type_sum(c, DType::Float);
  std::optional<FloatFormat> type;
  if (c.semantics == Semantics::Admissible) type = float_format(DType::Float);
  Bounds y = float_bounds(DType::Float, {n, targets});
  for (int64_t r = 0; r < n; ++r) {
    const std::optional<std::vector<size_t>> leaves = tree_vote_leaves(c, e, features.data() + r * f, r);
    std::vector<std::vector<double>> reaching(static_cast<size_t>(targets));
    if (leaves)
      for (size_t leaf : *leaves)
        for (const TreeVote& v : e.votes[leaf]) reaching[static_cast<size_t>(v.id)].push_back(v.weight);
    for (int64_t t = 0; t < targets; ++t) {
      const double base = e.base_values.empty() ? 0.0 : e.base_values[static_cast<size_t>(t)];
      set(y, r * targets + t,
          leaves
              ? tree_aggregate(p.aggregate, reaching[static_cast<size_t>(t)], e.roots.size(), base, ts, type ? &*type : nullptr)
              : Interval::undefined());
    }
    ml_post_transform(c, e.post_transform, y, r * targets, targets);
  }
  return {y};
}

std::vector<Bounds> tree_vote_classifier(const OpCall& c) {
  const TreeEnsembleClassifierParams p = TreeEnsembleClassifierParams::read(c.ctx, c.version);
  const TreeVoteEnsemble& e = p.trees;
  const Bounds& x = c.input(0);
  const std::vector<Interval> features = tree_vote_features(c, e, x);  // the reference's checks first
  const int64_t n = x.lo.dim(0), f = x.lo.dim(1), classes = p.classes;
  const TypeSum ts = type_sum(c, DType::Float);
  std::optional<FloatFormat> type;
  if (c.semantics == Semantics::Admissible) type = float_format(DType::Float);
  const FloatFormat* held = type ? &*type : nullptr;
  const bool wants_label = ml_wants_output(c, 0);
  Bounds z = float_bounds(DType::Float, {n, classes});
  Tensor labels(p.labels.dtype(), {n});
  for (int64_t r = 0; r < n; ++r) {
    const std::optional<std::vector<size_t>> leaves = tree_vote_leaves(c, e, features.data() + r * f, r);
    if (!leaves) {
      for (int64_t k = 0; k < classes; ++k) set(z, r * classes + k, Interval::undefined());
      if (wants_label)
        throw Undetermined(c.node.label() + ": the enclosures do not decide the label of row " + std::to_string(r) +
                           " at this input: its path reads an undefined feature");
      continue;
    }
    std::vector<std::vector<double>> reaching(static_cast<size_t>(classes));
    for (size_t leaf : *leaves)
      for (const TreeVote& v : e.votes[leaf]) reaching[static_cast<size_t>(p.binary ? 1 : v.id)].push_back(v.weight);
    if (p.binary) {  // the votes' sum s and the last base value: the second class's score
      const double base = e.base_values.empty() ? 0.0 : e.base_values.back();
      const Interval s = tree_aggregate(TreeAggregate::Sum, reaching[1], e.roots.size(), base, ts, held);
      Interval first = p.binary_complement() ? Interval::point(1) - s : -s;
      if (held && !first.has_nan()) first = held->round_out(first);  // 1 - s: one more rounding
      set(z, r * 2, first);
      set(z, r * 2 + 1, s);
    } else {
      for (int64_t k = 0; k < classes; ++k) {
        const double base = e.base_values.empty() ? 0.0 : e.base_values[static_cast<size_t>(k)];
        set(z, r * classes + k,
            tree_aggregate(TreeAggregate::Sum, reaching[static_cast<size_t>(k)], e.roots.size(), base, ts, held));
      }
    }
    ml_post_transform(c, e.post_transform, z, r * classes, classes);
    if (!wants_label) continue;
    std::vector<Interval> scores(static_cast<size_t>(classes));
    for (int64_t k = 0; k < classes; ++k) scores[static_cast<size_t>(k)] = at(z, r * classes + k);
    const auto top = static_cast<size_t>(ml_decided_first_max(c, scores, r, "its label"));
    p.labels.write(labels, r, top);
  }
  return {Bounds::of(labels), z};
}

}  // namespace

// Own: the sums' roundings and the post_transform's allowance are bounded here.
SONNX_ML_PREDICTOR_ENCLOSURE("TreeEnsembleRegressor", (1, 3, 5), Allowance::own(), tree_vote_regressor);
SONNX_ML_PREDICTOR_ENCLOSURE("TreeEnsembleClassifier", (1, 3, 5), Allowance::own(), tree_vote_classifier);

}  // namespace sonnx::enclose
