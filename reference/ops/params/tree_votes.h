// The trees of TreeEnsembleRegressor and TreeEnsembleClassifier (ai.onnx.ml 1, 3, 5), read by both
// kernels: nodes named by (tree id, node id) with string modes and LEAF nodes, and the votes at the
// leaves (target_* or class_*). Read into support::TreeNodes (the walk TreeEnsemble-5 uses) plus
// each leaf's votes.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reference/model/attr_reader.h"
#include "sonnx/tensor.h"
#include "reference/ops/support/post_transform.h"
#include "reference/ops/support/tree_walk.h"

namespace sonnx {

// One vote at a leaf: `weight` for target (or class) `id`.
struct TreeVote {
  int64_t id = 0;
  double weight = 0;
};

struct TreeVoteEnsemble : support::TreeNodes {
  // A tree's root: an interior node, or (a tree of one node) a leaf.
  struct Root {
    size_t index = 0;
    bool leaf = false;
  };
  std::vector<Root> roots;                   // one per tree id, in order of first appearance
  std::vector<std::vector<TreeVote>> votes;  // per leaf
  // The splits came from nodes_values_as_tensor (double); from nodes_values they are float, and an
  // integer feature is rounded to float before it is compared (as onnxruntime and onnx's reference).
  bool double_splits = false;
  std::vector<double> base_values;  // base_values or base_values_as_tensor; empty when absent
  support::PostTransform post_transform = support::PostTransform::None;

  // `votes_prefix`: "target" (target_ids, target_nodeids, target_treeids, target_weights) or
  // "class" (class_*). The *_as_tensor attributes are read from version 3 on.
  static TreeVoteEnsemble read(const AttrReader& r, int64_t version, const std::string& votes_prefix);
  // Whether the nodes fit X's `n_features` columns (nullopt: unknown): "" or why not.
  std::string fits(std::optional<int64_t> n_features) const;
  // X [N, F] (float, double, int64, int32) as doubles for the walk: an integer feature is rounded
  // to float first unless the splits are double. Fails through `r` for another type or rank.
  std::vector<double> features_of(const AttrReader& r, const Tensor& x) const;
  // The leaf the row at `row` reaches in tree `tree`.
  size_t leaf_reached(const AttrReader& r, size_t tree, const double* row) const;
  // The largest vote id plus one (0 without votes).
  int64_t vote_id_bound() const;
};

}  // namespace sonnx
