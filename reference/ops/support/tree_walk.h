// The node walk the ai.onnx.ml tree ensembles share (TreeEnsemble-5, TreeEnsembleRegressor and
// TreeEnsembleClassifier 1/3/5): interior nodes that compare one feature of a row with a split and
// send it to a true or a false child, each child another node or a leaf. How the leaves vote is
// the operator's; which leaf a row reaches is here.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "reference/model/attr_reader.h"

namespace sonnx::support {

// The interior nodes of an ensemble, indexed 0..n-1, each list of length n.
struct TreeNodes {
  // How a node compares its feature with its split.
  enum Mode : int64_t { kLeq = 0, kLt, kGte, kGt, kEq, kNeq, kMember };
  // Per node: the feature compared, the Mode, the two children (a node index, or a leaf index when
  // the *_leaf flag is 1), whether NaN goes to the true child, the split value and, for a member
  // node, its set.
  std::vector<int64_t> features, modes, true_ids, false_ids, true_leaf, false_leaf, nan_true;
  std::vector<double> splits;
  std::vector<std::vector<double>> sets;  // empty unless a member node
};

// Whether node i sends feature value x to its true child. A NaN goes to the true child when the
// node tracks missing values as true; otherwise it is compared (false, except for !=).
bool tree_goes_true(const TreeNodes& t, size_t i, double x);

// The leaf a row (its features at `row`) reaches from node `root`. A root whose two children are
// the same leaf is that leaf; a cycle among the nodes fails through `r`.
size_t tree_leaf_of(const AttrReader& r, const TreeNodes& t, size_t root, const double* row);

}  // namespace sonnx::support
