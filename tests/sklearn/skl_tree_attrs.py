"""A tree ensemble, read from scikit-learn's trees, written as ONNX attributes: the nodes-and-votes
form of TreeEnsembleRegressor / TreeEnsembleClassifier (ai.onnx.ml 1 and 3) and the form of
TreeEnsemble (ai.onnx.ml 5).

Layouts relied on (ONNX Operators-ml.md, Changelog-ml.md; scikit-learn's Tree arrays):
- scikit-learn: node i is a leaf when children_left[i] == -1; otherwise a row goes to
  children_left[i] when float32(x[feature[i]]) <= threshold[i] (a double), else children_right.
  So mode BRANCH_LEQ, true branch children_left, false branch children_right.
- Versions 1/3: one entry per node (nodes_treeids, nodes_nodeids = scikit-learn's node index,
  ..., modes "BRANCH_LEQ" / "LEAF"); votes at leaves (<votes>_treeids, _nodeids, _ids, _weights).
  Version 3 takes nodes_values_as_tensor, <votes>_weights_as_tensor and base_values_as_tensor
  (double) instead of the float lists.
- Version 5 (TreeEnsemble): entries for interior nodes only; nodes_truenodeids / falsenodeids
  index the nodes, or the leaves where nodes_trueleafs / falseleafs is 1; tree_roots index the
  nodes; a tree of one leaf is one node whose two branches are that leaf. nodes_modes is a uint8
  tensor (0 = BRANCH_LEQ); nodes_splits and leaf_weights are tensors of X's type. Each leaf adds
  to one target, so a scikit-learn tree whose leaves vote for several targets (a classifier's
  class proportions) becomes one copy per target. There are no base values: a base value is a
  tree of one leaf. aggregate_function and post_transform are integers (SUM 1, AVERAGE 0;
  NONE 0, SOFTMAX 1, LOGISTIC 2).
"""
from dataclasses import dataclass, field

import numpy as np
from onnx import numpy_helper

AGGREGATE_5 = {"AVERAGE": 0, "SUM": 1}
POST_TRANSFORM_5 = {"NONE": 0, "SOFTMAX": 1, "LOGISTIC": 2}


@dataclass
class Ensemble:
    """Trees as (scikit-learn Tree, votes) where votes(leaf) is a list of (target, weight); base
    values per target (empty: none)."""
    trees: list
    n_targets: int
    aggregate: str = "SUM"
    post_transform: str = "NONE"
    base_values: list = field(default_factory=list)

    def thresholds_by_feature(self):
        out = {}
        for tree, _ in self.trees:
            inner = tree.children_left != -1
            for f, t in zip(tree.feature[inner], tree.threshold[inner]):
                out.setdefault(int(f), []).append(float(t))
        return out


def binary_form(ens, class_id):
    """The binary classifier form of a two-class ensemble: only class 1's votes, written for
    `class_id`, and class 1's base value."""
    trees = [(t, lambda leaf, v=v: [(class_id, w) for c, w in v(leaf) if c == 1]) for t, v in ens.trees]
    base = [ens.base_values[1]] if ens.base_values else []
    return Ensemble(trees, 2, ens.aggregate, ens.post_transform, base)


def votes_attrs(ens, votes_prefix, version):
    """nodes_* and <votes_prefix>_* attributes of TreeEnsembleRegressor/Classifier 1 or 3."""
    a = {k: [] for k in ("nodes_treeids", "nodes_nodeids", "nodes_featureids", "nodes_modes",
                         "nodes_truenodeids", "nodes_falsenodeids")}
    values, weights = [], []
    v_tree, v_node, v_id = [], [], []
    for tree_id, (tree, votes) in enumerate(ens.trees):
        for i in range(tree.node_count):
            leaf = tree.children_left[i] == -1
            a["nodes_treeids"].append(tree_id)
            a["nodes_nodeids"].append(i)
            a["nodes_featureids"].append(0 if leaf else int(tree.feature[i]))
            a["nodes_modes"].append("LEAF" if leaf else "BRANCH_LEQ")
            a["nodes_truenodeids"].append(0 if leaf else int(tree.children_left[i]))
            a["nodes_falsenodeids"].append(0 if leaf else int(tree.children_right[i]))
            values.append(0.0 if leaf else float(tree.threshold[i]))
            if leaf:
                for target, w in votes(i):
                    v_tree.append(tree_id)
                    v_node.append(i)
                    v_id.append(int(target))
                    weights.append(float(w))
    a.update({f"{votes_prefix}_treeids": v_tree, f"{votes_prefix}_nodeids": v_node, f"{votes_prefix}_ids": v_id,
              "post_transform": ens.post_transform})
    if version >= 3:
        a["nodes_values_as_tensor"] = numpy_helper.from_array(np.array(values, np.float64))
        a[f"{votes_prefix}_weights_as_tensor"] = numpy_helper.from_array(np.array(weights, np.float64))
        if ens.base_values:
            a["base_values_as_tensor"] = numpy_helper.from_array(np.array(ens.base_values, np.float64))
    else:
        a["nodes_values"] = values
        a[f"{votes_prefix}_weights"] = weights
        if ens.base_values:
            a["base_values"] = [float(b) for b in ens.base_values]
    return a


def tree_ensemble_5_attrs(ens, dtype):
    """The attributes of TreeEnsemble-5 for X of numpy type `dtype`."""
    feat, splits, true_ids, false_ids, true_leaf, false_leaf, roots = [], [], [], [], [], [], []
    leaf_targets, leaf_weights = [], []

    def add_leaf(target, weight):
        leaf_targets.append(int(target))
        leaf_weights.append(float(weight))
        return len(leaf_targets) - 1

    def add_tree(tree, weight_of, target):
        def node(i):  # this copy's index of scikit-learn's interior node i
            k = len(feat)
            feat.append(int(tree.feature[i]))
            splits.append(float(tree.threshold[i]))
            for ids, leafs in ((true_ids, true_leaf), (false_ids, false_leaf)):
                ids.append(0)
                leafs.append(0)
            for ids, leafs, child in ((true_ids, true_leaf, tree.children_left[i]),
                                      (false_ids, false_leaf, tree.children_right[i])):
                if tree.children_left[child] == -1:
                    ids[k], leafs[k] = add_leaf(target, weight_of(child)), 1
                else:
                    ids[k] = node(child)
            return k

        if tree.children_left[0] == -1:
            single_leaf(add_leaf(target, weight_of(0)))
        else:
            roots.append(node(0))

    def single_leaf(leaf):
        roots.append(len(feat))
        feat.append(0)
        splits.append(0.0)
        true_ids.append(leaf)
        false_ids.append(leaf)
        true_leaf.append(1)
        false_leaf.append(1)

    copies = 0
    for tree, votes in ens.trees:
        leaves = np.flatnonzero(tree.children_left == -1)
        targets = sorted({t for leaf in leaves for t, _ in votes(leaf)})
        for target in targets:
            add_tree(tree, lambda leaf, t=target, v=votes: sum(w for c, w in v(leaf) if c == t), target)
            copies += 1
    # AVERAGE divides by the number of roots: right only while each tree is one root.
    assert ens.aggregate != "AVERAGE" or (copies == len(ens.trees) and not ens.base_values)
    for target, b in enumerate(ens.base_values):
        single_leaf(add_leaf(target, b))
    return dict(n_targets=ens.n_targets, aggregate_function=AGGREGATE_5[ens.aggregate],
                post_transform=POST_TRANSFORM_5[ens.post_transform], tree_roots=roots, nodes_featureids=feat,
                nodes_splits=numpy_helper.from_array(np.array(splits, dtype)),
                nodes_modes=numpy_helper.from_array(np.zeros(len(feat), np.uint8)),
                nodes_truenodeids=true_ids, nodes_falsenodeids=false_ids, nodes_trueleafs=true_leaf,
                nodes_falseleafs=false_leaf, leaf_targetids=leaf_targets,
                leaf_weights=numpy_helper.from_array(np.array(leaf_weights, dtype)))
