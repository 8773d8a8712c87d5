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

#include "support/kernel.h"
#include "support/post_transform.h"
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {

enum Mode : int64_t { kLeq = 0, kLt, kGte, kGt, kEq, kNeq, kMember };

struct Ensemble {
  std::vector<int64_t> features, modes, true_ids, false_ids, true_leaf, false_leaf, nan_true, roots, targets;
  std::vector<double> splits, weights;
  std::vector<std::vector<double>> sets;  // per node; empty unless a member node
};

// A floating tensor attribute of X's element type, as doubles.
std::vector<double> floats_of(const OpContext& ctx, const std::string& name, DType type) {
  const Tensor& t = ctx.attr_tensor(name);
  if (t.dtype() != type) ctx.fail(name + " must have X's element type " + std::string(dtype_name(type)));
  return float_values(ctx, t);
}

Ensemble read_ensemble(const OpContext& ctx, DType type, int64_t n_features, int64_t n_targets) {
  Ensemble e;
  e.features = ctx.attr_ints("nodes_featureids");
  e.true_ids = ctx.attr_ints("nodes_truenodeids");
  e.false_ids = ctx.attr_ints("nodes_falsenodeids");
  e.true_leaf = ctx.attr_ints("nodes_trueleafs");
  e.false_leaf = ctx.attr_ints("nodes_falseleafs");
  e.roots = ctx.attr_ints("tree_roots");
  e.targets = ctx.attr_ints("leaf_targetids");
  e.splits = floats_of(ctx, "nodes_splits", type);
  e.weights = floats_of(ctx, "leaf_weights", type);
  const Tensor& modes = ctx.attr_tensor("nodes_modes");
  require_type(ctx, modes, DType::UInt8, "nodes_modes");
  for (int64_t i = 0; i < modes.size(); ++i) e.modes.push_back(modes.data<uint8_t>()[i]);
  const size_t n = e.features.size();
  e.nan_true = ctx.attr_ints("nodes_missing_value_tracks_true", std::vector<int64_t>(n, 0));
  for (const auto* v : {&e.modes, &e.true_ids, &e.false_ids, &e.true_leaf, &e.false_leaf, &e.nan_true})
    if (v->size() != n) ctx.fail("the nodes_* attributes differ in length");
  if (e.splits.size() != n) ctx.fail("the nodes_* attributes differ in length");
  if (e.targets.size() != e.weights.size()) ctx.fail("leaf_targetids and leaf_weights differ in length");
  for (size_t i = 0; i < n; ++i) {
    if (e.modes[i] < kLeq || e.modes[i] > kMember) ctx.fail("unknown node mode " + std::to_string(e.modes[i]));
    if (e.features[i] < 0 || e.features[i] >= n_features) ctx.fail("node " + std::to_string(i) + ": feature id out of range");
    for (auto [id, leaf] : {std::pair{e.true_ids[i], e.true_leaf[i]}, std::pair{e.false_ids[i], e.false_leaf[i]}}) {
      int64_t bound = leaf ? static_cast<int64_t>(e.weights.size()) : static_cast<int64_t>(n);
      if (id < 0 || id >= bound) ctx.fail("node " + std::to_string(i) + ": child " + std::to_string(id) + " out of range");
    }
  }
  for (int64_t t : e.targets)
    if (t < 0 || t >= n_targets) ctx.fail("leaf target id " + std::to_string(t) + " outside [0, n_targets)");
  for (int64_t r : e.roots)
    if (r < 0 || r >= static_cast<int64_t>(n)) ctx.fail("tree root " + std::to_string(r) + " out of range");
  // Member sets: membership_values cut at each NaN, handed to the member nodes in index order.
  e.sets.resize(n);
  std::vector<std::vector<double>> cut;
  if (ctx.has_attr("membership_values")) {
    std::vector<double> current;
    bool open = false;
    for (double v : floats_of(ctx, "membership_values", type)) {
      if (std::isnan(v)) {
        cut.push_back(std::move(current));
        current.clear();
        open = false;
      } else {
        current.push_back(v);
        open = true;
      }
    }
    if (open) ctx.fail("membership_values must end with a NaN");
  }
  size_t next = 0;
  for (size_t i = 0; i < n; ++i)
    if (e.modes[i] == kMember) {
      if (next == cut.size()) ctx.fail("fewer membership sets than BRANCH_MEMBER nodes");
      e.sets[i] = std::move(cut[next++]);
    }
  if (next != cut.size()) ctx.fail("more membership sets than BRANCH_MEMBER nodes");
  return e;
}

bool goes_true(const Ensemble& e, size_t i, double x) {
  if (std::isnan(x) && e.nan_true[i]) return true;
  const double s = e.splits[i];
  switch (e.modes[i]) {
    case kLeq: return x <= s;
    case kLt: return x < s;
    case kGte: return x >= s;
    case kGt: return x > s;
    case kEq: return x == s;
    case kNeq: return x != s;
    default: return std::find(e.sets[i].begin(), e.sets[i].end(), x) != e.sets[i].end();
  }
}

// The leaf a row reaches from `root`; a cycle among the nodes traps.
size_t leaf_of(const OpContext& ctx, const Ensemble& e, size_t root, const double* row) {
  if (e.true_leaf[root] && e.false_leaf[root] && e.true_ids[root] == e.false_ids[root])
    return static_cast<size_t>(e.true_ids[root]);
  size_t i = root;
  for (size_t steps = 0; steps <= e.modes.size(); ++steps) {
    bool t = goes_true(e, i, row[e.features[i]]);
    size_t child = static_cast<size_t>(t ? e.true_ids[i] : e.false_ids[i]);
    if (t ? e.true_leaf[i] : e.false_leaf[i]) return child;
    i = child;
  }
  ctx.fail("the tree from root " + std::to_string(root) + " has a cycle");
}

double largest_finite(DType type) {
  if (type == DType::Float16) return 65504.0;
  if (type == DType::Float) return std::numeric_limits<float>::max();
  return std::numeric_limits<double>::max();
}

std::vector<Value> tree_ensemble(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.dtype() != DType::Float && x.dtype() != DType::Double && x.dtype() != DType::Float16)
    ctx.fail("X must be float, double or float16");
  if (x.rank() != 2) ctx.fail("X must be 2-D [N, F]");
  if (!ctx.has_attr("n_targets")) ctx.fail("n_targets is needed to size the output");
  const int64_t n = x.dim(0), f = x.dim(1), targets = ctx.attr_int("n_targets", 0);
  if (targets < 0) ctx.fail("n_targets must not be negative");
  const int64_t agg = ctx.attr_int("aggregate_function", 1);
  if (agg < 0 || agg > 3) ctx.fail("unknown aggregate_function " + std::to_string(agg));
  const int64_t post = ctx.attr_int("post_transform", 0);
  if (post < 0 || post > 4) ctx.fail("unknown post_transform " + std::to_string(post));
  const Ensemble e = read_ensemble(ctx, x.dtype(), f, targets);
  const std::vector<double> in = float_values(ctx, x);
  const double start = agg == 2 ? largest_finite(x.dtype()) : agg == 3 ? -largest_finite(x.dtype()) : 0.0;
  std::vector<double> out;
  out.reserve(static_cast<size_t>(n * targets));
  for (int64_t r = 0; r < n; ++r) {
    std::vector<double> score(static_cast<size_t>(targets), start);
    for (int64_t root : e.roots) {
      size_t l = leaf_of(ctx, e, static_cast<size_t>(root), in.data() + r * f);
      double& s = score[static_cast<size_t>(e.targets[l])];
      double w = e.weights[l];
      s = agg == 2 ? std::min(s, w) : agg == 3 ? std::max(s, w) : s + w;
    }
    if (agg == 0 && !e.roots.empty())
      for (double& s : score) s /= static_cast<double>(e.roots.size());
    post_transform_row(static_cast<PostTransform>(post), score);
    out.insert(out.end(), score.begin(), score.end());
  }
  return one(float_tensor(ctx, x.dtype(), {n, targets}, out));
}

void tree_ensemble_shape(InferContext& ctx) {
  require_rank(ctx, 0, 2, "X");
  const Dims* x = ctx.input_shape(0);
  std::optional<Dims> out;
  if (x && ctx.has_attr("n_targets")) out = Dims{(*x)[0], known_dim(ctx.attr_int("n_targets", 0))};
  else if (x) out = Dims{(*x)[0], Dim{}};
  ctx.set_output(0, ctx.input_elem(0), out);
}

}  // namespace
SONNX_KERNEL("ai.onnx.ml", "TreeEnsemble", 5, tree_ensemble, Accuracy::Rounding);
SONNX_SHAPE_RULE("ai.onnx.ml", "TreeEnsemble", (5), tree_ensemble_shape);
}  // namespace sonnx
