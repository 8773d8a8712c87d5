#include "ml_trees.h"

#include "ml_common.h"
#include "sonnx/errors.h"

namespace sonnx::enclose {

namespace {

enum class TreeBranch { False, True, Open };

TreeBranch tree_branch_of(bool decided_true, bool decided_false) {
  return decided_true ? TreeBranch::True : decided_false ? TreeBranch::False : TreeBranch::Open;
}

// Node i's comparison for every real feature value in v (defined). A NaN split is compared as the
// reference compares it: every ordered comparison and == false, != true.
TreeBranch tree_node_branch(const support::TreeNodes& t, size_t i, Interval v) {
  using N = support::TreeNodes;
  const double s = t.splits[i];
  const auto mode = static_cast<N::Mode>(t.modes[i]);
  if (std::isnan(s) && mode != N::kMember) return mode == N::kNeq ? TreeBranch::True : TreeBranch::False;
  const bool point = v.lo == v.hi, holds_split = v.lo <= s && s <= v.hi;
  switch (mode) {
    case N::kLeq: return tree_branch_of(v.hi <= s, v.lo > s);
    case N::kLt: return tree_branch_of(v.hi < s, v.lo >= s);
    case N::kGte: return tree_branch_of(v.lo >= s, v.hi < s);
    case N::kGt: return tree_branch_of(v.lo > s, v.hi <= s);
    case N::kEq: return tree_branch_of(point && v.lo == s, !holds_split);
    case N::kNeq: return tree_branch_of(!holds_split, point && v.lo == s);
    case N::kMember: break;
  }
  bool any = false;  // a member of the set inside v
  for (double m : t.sets[i]) any = any || (v.lo <= m && m <= v.hi);
  return tree_branch_of(point && any, !any);
}

}  // namespace

std::optional<size_t> tree_leaf_decided(const OpCall& c, const support::TreeNodes& t, size_t root, const Interval* row,
                                        int64_t row_index) {
  if (t.true_leaf[root] && t.false_leaf[root] && t.true_ids[root] == t.false_ids[root])
    return static_cast<size_t>(t.true_ids[root]);
  size_t i = root;
  for (size_t steps = 0; steps <= t.modes.size(); ++steps) {
    const Interval v = row[t.features[i]];
    if (v.has_nan()) return std::nullopt;
    const TreeBranch b = tree_node_branch(t, i, v);
    if (b == TreeBranch::Open)
      throw Undetermined(c.node.label() + ": the enclosures do not decide the path of row " + std::to_string(row_index) +
                         " in the tree from root " + std::to_string(root) + " at node " + std::to_string(i) + ": feature " +
                         std::to_string(t.features[i]) + "'s enclosure " + ml_interval_str(v) + " allows both branches (split " +
                         ml_interval_str(Interval::point(t.splits[i])) + ")");
    const bool go_true = b == TreeBranch::True;
    const size_t child = static_cast<size_t>(go_true ? t.true_ids[i] : t.false_ids[i]);
    if (go_true ? t.true_leaf[i] : t.false_leaf[i]) return child;
    i = child;
  }
  throw Trap(c.node.label() + ": the tree from root " + std::to_string(root) + " has a cycle");
}

Interval tree_aggregate(TreeAggregate aggregate, const std::vector<double>& weights, size_t trees, double base, TypeSum ts,
                        const FloatFormat* type) {
  // The base added to a value the implementation holds: one rounding to the type or wider.
  auto plus_base = [&](Interval v) {
    if (base == 0) return v;
    Interval s = v + Interval::point(base);
    return type && !s.has_nan() ? type->round_out(s) : s;
  };
  if (aggregate == TreeAggregate::Min || aggregate == TreeAggregate::Max) {
    if (weights.empty()) return Interval::undefined();
    double v = weights[0];
    for (double w : weights) {
      if (std::isnan(w)) return Interval::undefined();
      v = aggregate == TreeAggregate::Min ? std::min(v, w) : std::max(v, w);
    }
    return plus_base(Interval::point(v));
  }
  DotBound sum;
  for (double w : weights) sum.add(MidRad::of(std::isnan(w) ? Interval::undefined() : Interval::point(w)), kOne);
  if (aggregate == TreeAggregate::Average && trees > 0)  // the reference divides by the trees
    return plus_base(sum.result(static_cast<double>(trees), ts));
  if (base != 0) sum.add(MidRad::of(Interval::point(base)), kOne);  // a term of the sum, in any order
  return sum.result(1.0, ts);
}

}  // namespace sonnx::enclose
