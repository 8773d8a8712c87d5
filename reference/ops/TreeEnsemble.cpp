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
#include "support/kernel.h"
#include "support/post_transform.h"
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {

enum Mode : int64_t { kLeq = 0, kLt, kGte, kGt, kEq, kNeq, kMember };

enum class TreeAggregate : int64_t { Average = 0, Sum = 1, Min = 2, Max = 3 };

// TreeEnsemble's parameters: the trees, checked among themselves. Whether they fit X (the floating
// tensors' element type, the feature ids' range) is `fits`; a cycle among the nodes is found by
// the kernel when a row walks into it.
struct TreeEnsembleParams {
  // Per node (the nodes_* lists, of one length): the feature compared, the Mode, the two children
  // (a node index, or a leaf index when the *_leaf flag is 1), whether NaN goes to the true child,
  // the split value and, for a member node, its set.
  std::vector<int64_t> features, modes, true_ids, false_ids, true_leaf, false_leaf, nan_true;
  std::vector<double> splits;
  std::vector<std::vector<double>> sets;  // empty unless a member node
  std::vector<int64_t> roots;             // tree_roots: node indices
  std::vector<int64_t> targets;           // per leaf: leaf_targetids
  std::vector<double> weights;            // per leaf: leaf_weights
  // The element types of nodes_splits, leaf_weights and membership_values (Undefined when absent);
  // each must be X's.
  DType splits_type = DType::Undefined, weights_type = DType::Undefined, members_type = DType::Undefined;
  std::optional<int64_t> n_targets;  // Y's columns; the kernel needs it, the shape rule does without
  TreeAggregate aggregate = TreeAggregate::Sum;
  PostTransform post_transform = PostTransform::None;

  static TreeEnsembleParams read(const AttrReader& r, int64_t version);
  // Whether the trees fit X of element type `type` (Undefined: unknown) with `n_features` columns
  // (nullopt: unknown): "" or why not.
  std::string fits(DType type, std::optional<int64_t> n_features) const;
};

// A floating tensor attribute as doubles; its element type in `type`.
std::vector<double> tree_ensemble_floats(const AttrReader& r, const std::string& name, DType& type) {
  const Tensor& t = r.required_tensor(name);
  type = t.dtype();
  if (type != DType::Float && type != DType::Double && type != DType::Float16)
    r.fail(name + " must be float, double or float16, got " + std::string(dtype_name(type)));
  std::vector<double> v(static_cast<size_t>(t.size()));
  for (int64_t i = 0; i < t.size(); ++i) v[static_cast<size_t>(i)] = t.as_double(i);
  return v;
}

TreeEnsembleParams TreeEnsembleParams::read(const AttrReader& r, int64_t /*version*/) {
  TreeEnsembleParams e;
  if (r.has_attr("n_targets")) {
    e.n_targets = r.attr_int("n_targets", 0);
    if (*e.n_targets < 0) r.fail("n_targets must not be negative");
  }
  const int64_t agg = r.attr_int("aggregate_function", 1);
  if (agg < 0 || agg > 3) r.fail("unknown aggregate_function " + std::to_string(agg));
  e.aggregate = static_cast<TreeAggregate>(agg);
  const int64_t post = r.attr_int("post_transform", 0);
  if (post < 0 || post > 4) r.fail("unknown post_transform " + std::to_string(post));
  e.post_transform = static_cast<PostTransform>(post);
  (void)r.attr_tensor("nodes_hitrates");  // ignored (a performance hint); read for its type
  e.features = r.attr_ints("nodes_featureids");
  e.true_ids = r.attr_ints("nodes_truenodeids");
  e.false_ids = r.attr_ints("nodes_falsenodeids");
  e.true_leaf = r.attr_ints("nodes_trueleafs");
  e.false_leaf = r.attr_ints("nodes_falseleafs");
  e.roots = r.attr_ints("tree_roots");
  e.targets = r.attr_ints("leaf_targetids");
  e.splits = tree_ensemble_floats(r, "nodes_splits", e.splits_type);
  e.weights = tree_ensemble_floats(r, "leaf_weights", e.weights_type);
  const Tensor& modes = r.required_tensor("nodes_modes");
  if (modes.dtype() != DType::UInt8) r.fail("nodes_modes must be uint8, got " + std::string(dtype_name(modes.dtype())));
  for (int64_t i = 0; i < modes.size(); ++i) e.modes.push_back(modes.data<uint8_t>()[i]);
  const size_t n = e.features.size();
  e.nan_true = r.attr_ints("nodes_missing_value_tracks_true", std::vector<int64_t>(n, 0));
  for (const auto* v : {&e.modes, &e.true_ids, &e.false_ids, &e.true_leaf, &e.false_leaf, &e.nan_true})
    if (v->size() != n) r.fail("the nodes_* attributes differ in length");
  if (e.splits.size() != n) r.fail("the nodes_* attributes differ in length");
  if (e.targets.size() != e.weights.size()) r.fail("leaf_targetids and leaf_weights differ in length");
  for (size_t i = 0; i < n; ++i) {
    if (e.modes[i] < kLeq || e.modes[i] > kMember) r.fail("unknown node mode " + std::to_string(e.modes[i]));
    if (e.features[i] < 0) r.fail("node " + std::to_string(i) + ": feature id out of range");
    for (auto [id, leaf] : {std::pair{e.true_ids[i], e.true_leaf[i]}, std::pair{e.false_ids[i], e.false_leaf[i]}}) {
      int64_t bound = leaf ? static_cast<int64_t>(e.weights.size()) : static_cast<int64_t>(n);
      if (id < 0 || id >= bound) r.fail("node " + std::to_string(i) + ": child " + std::to_string(id) + " out of range");
    }
  }
  for (int64_t t : e.targets)
    if (t < 0 || (e.n_targets && t >= *e.n_targets)) r.fail("leaf target id " + std::to_string(t) + " outside [0, n_targets)");
  for (int64_t root : e.roots)
    if (root < 0 || root >= static_cast<int64_t>(n)) r.fail("tree root " + std::to_string(root) + " out of range");
  // Member sets: membership_values cut at each NaN, handed to the member nodes in index order.
  e.sets.resize(n);
  std::vector<std::vector<double>> cut;
  if (r.has_attr("membership_values")) {
    std::vector<double> current;
    bool open = false;
    for (double v : tree_ensemble_floats(r, "membership_values", e.members_type)) {
      if (std::isnan(v)) {
        cut.push_back(std::move(current));
        current.clear();
        open = false;
      } else {
        current.push_back(v);
        open = true;
      }
    }
    if (open) r.fail("membership_values must end with a NaN");
  }
  size_t next = 0;
  for (size_t i = 0; i < n; ++i)
    if (e.modes[i] == kMember) {
      if (next == cut.size()) r.fail("fewer membership sets than BRANCH_MEMBER nodes");
      e.sets[i] = std::move(cut[next++]);
    }
  if (next != cut.size()) r.fail("more membership sets than BRANCH_MEMBER nodes");
  return e;
}

std::string TreeEnsembleParams::fits(DType type, std::optional<int64_t> n_features) const {
  if (type != DType::Undefined)
    for (auto [name, t] : {std::pair{"nodes_splits", splits_type}, std::pair{"leaf_weights", weights_type},
                           std::pair{"membership_values", members_type}})
      if (t != DType::Undefined && t != type)
        return std::string(name) + " must have X's element type " + std::string(dtype_name(type));
  if (n_features)
    for (size_t i = 0; i < features.size(); ++i)
      if (features[i] >= *n_features) return "node " + std::to_string(i) + ": feature id out of range";
  return "";
}

bool goes_true(const TreeEnsembleParams& e, size_t i, double x) {
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
size_t leaf_of(const OpContext& ctx, const TreeEnsembleParams& e, size_t root, const double* row) {
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
      size_t l = leaf_of(ctx, e, static_cast<size_t>(root), in.data() + r * f);
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
