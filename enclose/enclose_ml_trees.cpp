// Enclosure of TreeEnsemble-5 (ai.onnx.ml): each tree's path is decided node by node from the
// bounds of the row's features (a comparison the bounds leave open is Undetermined: the leaf, and
// so the score, would be a guess), then the leaf weights reaching each target are aggregated (a sum
// in any order, an average, a minimum or a maximum) and the post_transform applied (NONE, LOGISTIC,
// SOFTMAX; SOFTMAX_ZERO and PROBIT are refused by name). A row whose path reads an undefined feature
// (no real value: a NaN input) is undefined: ONNX lets NaN choose a branch
// (nodes_missing_value_tracks_true), but an undefined value need not be NaN in an implementation.
#include <cstdio>
#include <optional>

#include "elementary.h"
#include "enclose_sums.h"
#include "reference/ops/params/tree_ensemble.h"
#include "sonnx/errors.h"

namespace sonnx::enclose {

namespace {

enum class TreeBranch { False, True, Open };

TreeBranch tree_branch_of(bool decided_true, bool decided_false) {
  return decided_true ? TreeBranch::True : decided_false ? TreeBranch::False : TreeBranch::Open;
}

// Node i's comparison for every real feature value in v (defined). A NaN split is compared as the
// reference compares it: every ordered comparison and == false, != true.
TreeBranch tree_node_branch(const TreeEnsembleParams& e, size_t i, Interval v) {
  using P = TreeEnsembleParams;
  const double s = e.splits[i];
  const auto mode = static_cast<P::Mode>(e.modes[i]);
  if (std::isnan(s) && mode != P::kMember) return mode == P::kNeq ? TreeBranch::True : TreeBranch::False;
  const bool point = v.lo == v.hi, holds_split = v.lo <= s && s <= v.hi;
  switch (mode) {
    case P::kLeq: return tree_branch_of(v.hi <= s, v.lo > s);
    case P::kLt: return tree_branch_of(v.hi < s, v.lo >= s);
    case P::kGte: return tree_branch_of(v.lo >= s, v.hi < s);
    case P::kGt: return tree_branch_of(v.lo > s, v.hi <= s);
    case P::kEq: return tree_branch_of(point && v.lo == s, !holds_split);
    case P::kNeq: return tree_branch_of(!holds_split, point && v.lo == s);
    case P::kMember: break;
  }
  bool any = false;  // a member of the set inside v
  for (double m : e.sets[i]) any = any || (v.lo <= m && m <= v.hi);
  return tree_branch_of(point && any, !any);
}

std::string tree_interval_str(Interval v) {
  char s[64];
  std::snprintf(s, sizeof s, "[%.17g, %.17g]", v.lo, v.hi);
  return s;
}

// The leaf row r (its F features at `row`) reaches from `root`, or nullopt where the path reads an
// undefined feature. An open comparison is Undetermined; a cycle traps, as in the reference.
std::optional<size_t> tree_leaf_of(const OpCall& c, const TreeEnsembleParams& e, size_t root, const Bounds& x, int64_t row,
                                   int64_t n_features) {
  if (e.true_leaf[root] && e.false_leaf[root] && e.true_ids[root] == e.false_ids[root])
    return static_cast<size_t>(e.true_ids[root]);
  size_t i = root;
  for (size_t steps = 0; steps <= e.modes.size(); ++steps) {
    Interval v = at(x, row * n_features + e.features[i]);
    if (v.has_nan()) return std::nullopt;
    TreeBranch b = tree_node_branch(e, i, v);
    if (b == TreeBranch::Open)
      throw Undetermined(c.node.label() + ": the enclosures do not decide the path of row " + std::to_string(row) +
                         " in the tree from root " + std::to_string(root) + " at node " + std::to_string(i) + ": feature " +
                         std::to_string(e.features[i]) + "'s enclosure " + tree_interval_str(v) +
                         " allows both branches (split " + tree_interval_str(Interval::point(e.splits[i])) + ")");
    bool t = b == TreeBranch::True;
    size_t child = static_cast<size_t>(t ? e.true_ids[i] : e.false_ids[i]);
    if (t ? e.true_leaf[i] : e.false_leaf[i]) return child;
    i = child;
  }
  throw Trap(c.node.label() + ": the tree from root " + std::to_string(root) + " has a cycle");
}

// One target's aggregate of the weights of the leaves reaching it (in tree order). A sum or an
// average is enclosed as a dot product with unit weights (dot.h: γ_(n+9) in the element type
// under the admissible semantics, the division included); a minimum or a maximum is one of the
// weights, exactly. A minimum or a maximum no leaf reaches has no value the spec gives (the
// reference starts from the type's largest finite value, onnxruntime from 0): undefined.
Interval tree_aggregate(const TreeEnsembleParams& e, const std::vector<double>& weights, TypeSum ts) {
  if (e.aggregate == TreeAggregate::Min || e.aggregate == TreeAggregate::Max) {
    if (weights.empty()) return Interval::undefined();
    double v = weights[0];
    for (double w : weights) {
      if (std::isnan(w)) return Interval::undefined();
      v = e.aggregate == TreeAggregate::Min ? std::min(v, w) : std::max(v, w);
    }
    return Interval::point(v);
  }
  DotBound sum;
  for (double w : weights) sum.add(MidRad::of(std::isnan(w) ? Interval::undefined() : Interval::point(w)), kOne);
  const bool average = e.aggregate == TreeAggregate::Average && !e.roots.empty();  // the reference divides by the trees
  return sum.result(average ? static_cast<double>(e.roots.size()) : 1.0, ts);
}

// SOFTMAX_ZERO (a softmax over the non-zero scores, which needs each score's zeroness decided) and
// PROBIT (the inverse error function) have no enclosure yet.
void tree_refused_transform(const OpCall& c, support::PostTransform t) {
  if (t == support::PostTransform::SoftmaxZero)
    throw Unsupported("no enclosure for " + op_name(c) + " with post_transform SOFTMAX_ZERO");
  if (t == support::PostTransform::Probit) throw Unsupported("no enclosure for " + op_name(c) + " with post_transform PROBIT");
}

// The post_transform of row r of y (its `targets` scores) in place.
void tree_post_transform(const OpCall& c, support::PostTransform t, Bounds& y, int64_t r, int64_t targets) {
  using support::PostTransform;
  std::optional<FloatFormat> type;
  if (c.semantics == Semantics::Admissible) type = float_format(y.type);
  switch (t) {
    case PostTransform::None: return;
    case PostTransform::Logistic:
      // Monotone: the exact logistic of the score's enclosure, then an implementation's within
      // kElementaryUlps of the logistic of the score it holds.
      for (int64_t k = 0; k < targets; ++k) {
        Interval v = sigmoid(at(y, r * targets + k));
        set(y, r * targets + k, type && !v.has_nan() ? widen_ulps(v, kElementaryUlps, *type) : v);
      }
      return;
    case PostTransform::Softmax: {  // the row's scores, as softmax_line reads them all while it writes
      Bounds scores = float_bounds(y.type, {targets}), shares = scores;
      for (int64_t k = 0; k < targets; ++k) set(scores, k, at(y, r * targets + k));
      softmax_line(scores, shares, 0, targets, 1, type ? &*type : nullptr);
      for (int64_t k = 0; k < targets; ++k) set(y, r * targets + k, at(shares, k));
      return;
    }
    case PostTransform::SoftmaxZero:
    case PostTransform::Probit: tree_refused_transform(c, t);
  }
}

std::vector<Bounds> tree_ensemble_enclosure(const OpCall& c) {
  const TreeEnsembleParams e = TreeEnsembleParams::read(c.ctx, c.version);
  const Bounds& x = c.input(0);
  if (x.type != DType::Float && x.type != DType::Double && x.type != DType::Float16)
    throw Trap(c.node.label() + ": X must be float, double or float16");
  if (x.lo.rank() != 2) throw Trap(c.node.label() + ": X must be 2-D [N, F]");
  if (!e.n_targets) throw Trap(c.node.label() + ": n_targets is needed to size the output");
  const int64_t n = x.lo.dim(0), f = x.lo.dim(1), targets = *e.n_targets;
  if (std::string why = e.fits(x.type, f); !why.empty()) throw Trap(c.node.label() + ": " + why);
  tree_refused_transform(c, e.post_transform);
  const TypeSum ts = type_sum(c, x.type);
  Bounds y = float_bounds(x.type, {n, targets});
  for (int64_t r = 0; r < n; ++r) {
    std::vector<std::vector<double>> reaching(static_cast<size_t>(targets));
    bool undefined_row = false;
    for (int64_t root : e.roots) {
      std::optional<size_t> leaf = tree_leaf_of(c, e, static_cast<size_t>(root), x, r, f);
      if (!leaf) {
        undefined_row = true;
        break;
      }
      reaching[static_cast<size_t>(e.targets[*leaf])].push_back(e.weights[*leaf]);
    }
    for (int64_t k = 0; k < targets; ++k)
      set(y, r * targets + k, undefined_row ? Interval::undefined() : tree_aggregate(e, reaching[static_cast<size_t>(k)], ts));
    tree_post_transform(c, e.post_transform, y, r, targets);
  }
  return {y};
}

}  // namespace

// Own: the sums' roundings and the post_transform's allowance are bounded here.
SONNX_ML_ENCLOSURE("TreeEnsemble", (5), Allowance::own(), tree_ensemble_enclosure);

}  // namespace sonnx::enclose
