// The parameters of TreeEnsembleRegressor and TreeEnsembleClassifier (ai.onnx.ml 1, 3, 5;
// reference/ops/op_params.h): the trees and their votes (tree_votes.h) and what each operator adds,
// read by their reference kernels, their shape rules and their enclosures
// (enclose/enclose_ml_tree_votes.cpp).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "class_labels.h"
#include "tree_ensemble.h"
#include "tree_votes.h"

namespace sonnx {

struct TreeEnsembleRegressorParams {
  TreeVoteEnsemble trees;
  std::optional<int64_t> n_targets;  // Y's columns; the kernel needs it, the shape rule does without
  TreeAggregate aggregate = TreeAggregate::Sum;
  static TreeEnsembleRegressorParams read(const AttrReader& r, int64_t version);
};

struct TreeEnsembleClassifierParams {
  TreeVoteEnsemble trees;
  ClassLabels labels;   // classlabels_int64s or classlabels_strings
  int64_t classes = 0;  // E
  bool binary = false;  // two labels, every vote for one class id
  static TreeEnsembleClassifierParams read(const AttrReader& r, int64_t version);
  // Binary: the first class's score from the second's s before the post_transform is 1 - s for
  // NONE and PROBIT, -s for LOGISTIC, SOFTMAX and SOFTMAX_ZERO (spec/ops/TreeEnsembleClassifier.md).
  bool binary_complement() const {
    return trees.post_transform == support::PostTransform::None || trees.post_transform == support::PostTransform::Probit;
  }
};

}  // namespace sonnx
