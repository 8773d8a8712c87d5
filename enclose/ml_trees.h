// What the enclosures of the ai.onnx.ml tree ensembles share (TreeEnsemble-5, enclose_ml_trees.cpp;
// TreeEnsembleRegressor and TreeEnsembleClassifier 1/3/5, enclose_ml_tree_votes.cpp): the
// reference's walk (support/tree_walk.h) taken node by node where the bounds of the compared
// feature decide the comparison (a comparison they leave open is Undetermined: the leaf, and so the
// score, would be a guess), and the aggregation of the weights the leaves give a target.
#pragma once
#include <optional>
#include <vector>

#include "dot.h"
#include "enclose_ops.h"
#include "reference/ops/params/tree_ensemble.h"
#include "reference/ops/support/tree_walk.h"

namespace sonnx::enclose {

// The leaf row `row_index` reaches from interior node `root` (its features at `row`, one interval
// each), or nullopt where the path reads an undefined feature (no real value: a NaN input). ONNX
// lets NaN choose a branch (nodes_missing_value_tracks_true), but an undefined value need not be
// NaN in an implementation. An open comparison is Undetermined; a cycle traps, as in the reference.
std::optional<size_t> tree_leaf_decided(const OpCall& c, const support::TreeNodes& t, size_t root, const Interval* row,
                                        int64_t row_index);

// One target's aggregate of the weights of the leaves reaching it (in tree order), plus `base`
// (0 for TreeEnsemble-5, base_values for the older ensembles). A sum is enclosed as a dot product
// with unit weights, the base one more term (dot.h: γ_(n+9) in the element type under the
// admissible semantics, `ts`); an average is that sum over the number of trees, then the base
// added, rounded outward to `type` (null under the real semantics); a minimum or a maximum is one of
// the weights, exactly, the base added likewise. A minimum or a maximum no leaf reaches has no value
// the spec gives (the reference starts from the type's largest finite value, onnxruntime from 0):
// undefined.
Interval tree_aggregate(TreeAggregate aggregate, const std::vector<double>& weights, size_t trees, double base, TypeSum ts,
                        const FloatFormat* type);

}  // namespace sonnx::enclose
