#include "tree_votes.h"

#include <algorithm>
#include <map>
#include <utility>

#include "sonnx/tensor.h"

namespace sonnx {

namespace {

using NodeKey = std::pair<int64_t, int64_t>;  // (tree id, node id)

// The list attribute `name` (floats) or, from version 3, `name`_as_tensor (a float or double
// tensor) as doubles; giving both is refused. `is_tensor` says which was read.
std::vector<double> tree_votes_reals(const AttrReader& r, int64_t version, const std::string& name, bool* is_tensor = nullptr) {
  const Tensor* t = version >= 3 ? r.attr_tensor(name + "_as_tensor") : nullptr;
  if (is_tensor) *is_tensor = t != nullptr;
  if (!t) {
    std::vector<float> f = r.attr_floats(name);
    return std::vector<double>(f.begin(), f.end());
  }
  if (r.has_attr(name)) r.fail("give " + name + " or " + name + "_as_tensor, not both");
  if (t->dtype() != DType::Float && t->dtype() != DType::Double)
    r.fail(name + "_as_tensor must be float or double, got " + std::string(dtype_name(t->dtype())));
  std::vector<double> v(static_cast<size_t>(t->size()));
  for (int64_t i = 0; i < t->size(); ++i) v[static_cast<size_t>(i)] = t->as_double(i);
  return v;
}

// nodes_modes' strings; LEAF is -1.
int64_t tree_votes_mode(const AttrReader& r, const std::string& s) {
  using N = support::TreeNodes;
  if (s == "BRANCH_LEQ") return N::kLeq;
  if (s == "BRANCH_LT") return N::kLt;
  if (s == "BRANCH_GTE") return N::kGte;
  if (s == "BRANCH_GT") return N::kGt;
  if (s == "BRANCH_EQ") return N::kEq;
  if (s == "BRANCH_NEQ") return N::kNeq;
  if (s != "LEAF") r.fail("unknown node mode '" + s + "'");
  return -1;
}

std::string tree_votes_key_str(NodeKey k) { return "node " + std::to_string(k.second) + " of tree " + std::to_string(k.first); }

}  // namespace

TreeVoteEnsemble TreeVoteEnsemble::read(const AttrReader& r, int64_t version, const std::string& votes_prefix) {
  TreeVoteEnsemble e;
  const std::vector<int64_t> tree_ids = r.attr_ints("nodes_treeids"), node_ids = r.attr_ints("nodes_nodeids");
  const std::vector<int64_t> features = r.attr_ints("nodes_featureids");
  const std::vector<int64_t> true_nodes = r.attr_ints("nodes_truenodeids"), false_nodes = r.attr_ints("nodes_falsenodeids");
  const std::vector<std::string> mode_names = r.attr_strings("nodes_modes");
  const std::vector<double> values = tree_votes_reals(r, version, "nodes_values", &e.double_splits);
  (void)tree_votes_reals(r, version, "nodes_hitrates");  // ignored (a performance hint)
  const size_t n = tree_ids.size();
  const std::vector<int64_t> nan_true = r.attr_ints("nodes_missing_value_tracks_true", std::vector<int64_t>(n, 0));
  if (node_ids.size() != n || features.size() != n || mode_names.size() != n || nan_true.size() != n)
    r.fail("the nodes_* attributes differ in length");
  std::vector<int64_t> modes(n);
  for (size_t p = 0; p < n; ++p) modes[p] = tree_votes_mode(r, mode_names[p]);
  // Where each (tree, node) sits, and its index among the interior nodes or among the leaves.
  std::map<NodeKey, size_t> position;
  std::vector<size_t> index(n);
  size_t interior = 0, leaves = 0;
  for (size_t p = 0; p < n; ++p) {
    const NodeKey k{tree_ids[p], node_ids[p]};
    if (!position.emplace(k, p).second) r.fail(tree_votes_key_str(k) + " appears twice");
    index[p] = modes[p] < 0 ? leaves++ : interior++;
  }
  if (interior > 0 && (true_nodes.size() != n || false_nodes.size() != n || values.size() != n))
    r.fail("the nodes_* attributes differ in length");
  e.votes.resize(leaves);
  e.sets.resize(interior);
  std::map<NodeKey, bool> is_child;
  for (size_t p = 0; p < n; ++p) {
    if (modes[p] < 0) continue;
    const NodeKey k{tree_ids[p], node_ids[p]};
    if (features[p] < 0) r.fail(tree_votes_key_str(k) + ": feature id " + std::to_string(features[p]) + " is negative");
    e.features.push_back(features[p]);
    e.modes.push_back(modes[p]);
    e.splits.push_back(values[p]);
    e.nan_true.push_back(nan_true[p] != 0);
    for (bool branch : {true, false}) {
      const NodeKey child{tree_ids[p], branch ? true_nodes[p] : false_nodes[p]};
      auto it = position.find(child);
      if (it == position.end())
        r.fail(tree_votes_key_str(k) + ": its " + (branch ? "true" : "false") + " child " + std::to_string(child.second) +
               " is not a node of the tree");
      is_child[child] = true;
      const bool leaf = modes[it->second] < 0;
      (branch ? e.true_ids : e.false_ids).push_back(static_cast<int64_t>(index[it->second]));
      (branch ? e.true_leaf : e.false_leaf).push_back(leaf);
    }
  }
  // Each tree's root: its one node no interior node names as a child.
  std::map<int64_t, size_t> roots_of;  // tree id -> roots found
  std::vector<int64_t> tree_order;
  for (size_t p = 0; p < n; ++p) {
    if (!roots_of.count(tree_ids[p])) {
      roots_of[tree_ids[p]] = 0;
      tree_order.push_back(tree_ids[p]);
    }
    if (is_child.count({tree_ids[p], node_ids[p]})) continue;
    if (++roots_of[tree_ids[p]] > 1) r.fail("tree " + std::to_string(tree_ids[p]) + " has more than one root");
    e.roots.push_back({index[p], modes[p] < 0});
  }
  for (int64_t t : tree_order)
    if (roots_of[t] == 0) r.fail("tree " + std::to_string(t) + " has no root (its nodes form a cycle)");
  // The votes, each at a leaf.
  const std::vector<int64_t> vote_trees = r.attr_ints(votes_prefix + "_treeids");
  const std::vector<int64_t> vote_nodes = r.attr_ints(votes_prefix + "_nodeids");
  const std::vector<int64_t> vote_ids = r.attr_ints(votes_prefix + "_ids");
  const std::vector<double> weights = tree_votes_reals(r, version, votes_prefix + "_weights");
  const size_t v = vote_ids.size();
  if (vote_trees.size() != v || vote_nodes.size() != v || weights.size() != v)
    r.fail("the " + votes_prefix + "_* attributes differ in length");
  for (size_t i = 0; i < v; ++i) {
    const NodeKey k{vote_trees[i], vote_nodes[i]};
    auto it = position.find(k);
    if (it == position.end())
      r.fail(votes_prefix + " vote " + std::to_string(i) + " names no node (" + tree_votes_key_str(k) + ")");
    if (modes[it->second] >= 0)
      r.fail(votes_prefix + " vote " + std::to_string(i) + " is at " + tree_votes_key_str(k) + ", not a LEAF");
    if (vote_ids[i] < 0) r.fail(votes_prefix + "_ids[" + std::to_string(i) + "] is negative");
    e.votes[index[it->second]].push_back({vote_ids[i], weights[i]});
  }
  e.base_values = tree_votes_reals(r, version, "base_values");
  e.post_transform = support::post_transform_attr(r);
  return e;
}

std::string TreeVoteEnsemble::fits(std::optional<int64_t> n_features) const {
  if (n_features)
    for (size_t i = 0; i < features.size(); ++i)
      if (features[i] >= *n_features)
        return "feature id " + std::to_string(features[i]) + " outside X's " + std::to_string(*n_features) + " columns";
  return "";
}

std::vector<double> TreeVoteEnsemble::features_of(const AttrReader& r, const Tensor& x) const {
  const DType t = x.dtype();
  if (t != DType::Float && t != DType::Double && t != DType::Int64 && t != DType::Int32)
    r.fail("X must be float, double, int64 or int32, got " + std::string(dtype_name(t)));
  if (x.rank() != 2) r.fail("X must be 2-D [N, F]");
  std::vector<double> in(static_cast<size_t>(x.size()));
  for (int64_t i = 0; i < x.size(); ++i) {
    const size_t k = static_cast<size_t>(i);
    if (t == DType::Int64)
      in[k] = double_splits ? static_cast<double>(x.data<int64_t>()[i]) : static_cast<float>(x.data<int64_t>()[i]);
    else if (t == DType::Int32) in[k] = double_splits ? x.data<int32_t>()[i] : static_cast<float>(x.data<int32_t>()[i]);
    else in[k] = x.as_double(i);
  }
  return in;
}

size_t TreeVoteEnsemble::leaf_reached(const AttrReader& r, size_t tree, const double* row) const {
  const Root& root = roots[tree];
  return root.leaf ? root.index : support::tree_leaf_of(r, *this, root.index, row);
}

int64_t TreeVoteEnsemble::vote_id_bound() const {
  int64_t bound = 0;
  for (const auto& leaf : votes)
    for (const TreeVote& v : leaf) bound = std::max(bound, v.id + 1);
  return bound;
}

}  // namespace sonnx
