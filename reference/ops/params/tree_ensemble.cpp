#include "tree_ensemble.h"

#include <cmath>
#include <utility>

namespace sonnx {

namespace {

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

}  // namespace

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
  e.post_transform = static_cast<support::PostTransform>(post);
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

}  // namespace sonnx
