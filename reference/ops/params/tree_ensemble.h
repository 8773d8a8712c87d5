// The parameters of TreeEnsemble (ai.onnx.ml; reference/ops/op_params.h), read by its reference
// kernel, its shape rule and its enclosure (enclose/enclose_ml_trees.cpp).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reference/model/attr_reader.h"
#include "reference/ops/support/post_transform.h"
#include "reference/ops/support/tree_walk.h"

namespace sonnx {

enum class TreeAggregate : int64_t { Average = 0, Sum = 1, Min = 2, Max = 3 };

// TreeEnsemble's parameters: the trees, checked among themselves. Whether they fit X (the floating
// tensors' element type, the feature ids' range) is `fits`; a cycle among the nodes is found by
// the kernel when a row walks into it.
// The nodes and their walk are support::TreeNodes (support/tree_walk.h), shared with the older
// TreeEnsembleRegressor and TreeEnsembleClassifier.
struct TreeEnsembleParams : support::TreeNodes {
  std::vector<int64_t> roots;    // tree_roots: node indices
  std::vector<int64_t> targets;  // per leaf: leaf_targetids
  std::vector<double> weights;   // per leaf: leaf_weights
  // The element types of nodes_splits, leaf_weights and membership_values (Undefined when absent);
  // each must be X's.
  DType splits_type = DType::Undefined, weights_type = DType::Undefined, members_type = DType::Undefined;
  std::optional<int64_t> n_targets;  // Y's columns; the kernel needs it, the shape rule does without
  TreeAggregate aggregate = TreeAggregate::Sum;
  support::PostTransform post_transform = support::PostTransform::None;

  static TreeEnsembleParams read(const AttrReader& r, int64_t version);
  // Whether the trees fit X of element type `type` (Undefined: unknown) with `n_features` columns
  // (nullopt: unknown): "" or why not.
  std::string fits(DType type, std::optional<int64_t> n_features) const;
};

}  // namespace sonnx
