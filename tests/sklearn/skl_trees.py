"""Decision trees, random forests, extra trees and gradient boosting -> TreeEnsembleRegressor /
TreeEnsembleClassifier at ai.onnx.ml 1 and 3, and TreeEnsemble at ai.onnx.ml 5 (a classifier as
TreeEnsemble -> ArgMax -> Gather of the labels, as the operator's text suggests). The version-5
TreeEnsembleRegressor / TreeEnsembleClassifier are only deprecation entries, not written here.

What each scikit-learn model adds at a leaf (the layouts are in skl_tree_attrs.py):
- regression trees: tree_.value[leaf, target, 0]; a forest averages its trees (AVERAGE);
- classification trees: the leaf's class proportions value / value.sum(), over the number of
  trees for a forest (SUM); two-class forests in versions 1/3 vote for class 1 only, so that
  Z = [1 - s, s] (the binary form);
- gradient boosting: learning_rate * value, plus the initial raw prediction as base values; two
  classes: one score for class 1, LOGISTIC (versions 1/3: every vote for class id 0, as
  skl2onnx writes; version 5: -score and +score as two targets); three: one tree per class and
  stage, SOFTMAX.

Test rows are at least 1e-4 away from every split threshold of the model on that feature (the
thresholds are doubles; versions 1 and 5 hold them as float32), and a classifier's top two
probabilities differ by more than 1e-3. The regressors written with float leaf values (versions 1
and 5) are a copy of the fitted model with its leaf values and initial prediction rounded to
float32; gradient boosting uses learning_rate 0.5, so that learning_rate * value stays a float32.
"""
import copy

import numpy as np
from onnx import helper, numpy_helper
from sklearn.ensemble import (ExtraTreesClassifier, ExtraTreesRegressor, GradientBoostingClassifier,
                              GradientBoostingRegressor, RandomForestClassifier, RandomForestRegressor)
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from skl_data import away_from_thresholds, classification, clear_margin, f32, pick, regression
from skl_linear import label_array
from skl_tree_attrs import Ensemble, binary_form, tree_ensemble_5_attrs, votes_attrs
from skl_write import F32, F64, I64, STR, Case, make_model, ml_node, tensor_info

LEARNING_RATE = 0.5


def leaf_values(tree, scale=1.0):
    return lambda leaf: [(t, scale * float(tree.value[leaf, t, 0])) for t in range(tree.value.shape[1])]


def leaf_proportions(tree, scale=1.0):
    def votes(leaf):
        v = tree.value[leaf, 0, :]
        return [(k, scale * float(v[k] / v.sum())) for k in range(len(v))]
    return votes


def regressor_ensemble(m):
    if isinstance(m, DecisionTreeRegressor):
        return Ensemble([(m.tree_, leaf_values(m.tree_))], m.n_outputs_)
    if isinstance(m, GradientBoostingRegressor):
        trees = [(e.tree_, leaf_values(e.tree_, m.learning_rate)) for e in m.estimators_[:, 0]]
        return Ensemble(trees, 1, base_values=[float(m.init_.constant_.ravel()[0])])
    return Ensemble([(e.tree_, leaf_values(e.tree_)) for e in m.estimators_], 1, aggregate="AVERAGE")


def classifier_ensemble(m):
    classes = len(m.classes_)
    if isinstance(m, DecisionTreeClassifier):
        return Ensemble([(m.tree_, leaf_proportions(m.tree_))], classes)
    if not isinstance(m, GradientBoostingClassifier):
        n = len(m.estimators_)
        return Ensemble([(e.tree_, leaf_proportions(e.tree_, 1.0 / n)) for e in m.estimators_], classes)
    base = m._raw_predict_init(np.zeros((1, m.n_features_in_)))[0]
    lr = m.learning_rate
    if classes == 2:
        def pm(tree):  # -score for class 0, +score for class 1
            return lambda leaf: [(0, -lr * float(tree.value[leaf, 0, 0])), (1, lr * float(tree.value[leaf, 0, 0]))]
        trees = [(e.tree_, pm(e.tree_)) for e in m.estimators_[:, 0]]
        return Ensemble(trees, 2, post_transform="LOGISTIC", base_values=[-float(base[0]), float(base[0])])
    trees = [(e.tree_, lambda leaf, t=e.tree_, k=k: [(k, lr * float(t.value[leaf, 0, 0]))])
             for stage in m.estimators_ for k, e in enumerate(stage)]
    return Ensemble(trees, classes, post_transform="SOFTMAX", base_values=[float(b) for b in base])


def rounded_regressor(m):
    """A copy with the leaf values (and the initial prediction) rounded to float32."""
    m = copy.deepcopy(m)
    estimators = [m] if isinstance(m, DecisionTreeRegressor) else np.ravel(m.estimators_)
    for e in estimators:
        e.tree_.value[...] = f32(e.tree_.value)
    if isinstance(m, GradientBoostingRegressor):
        m.init_.constant_ = f32(m.init_.constant_)
    return m


def label_attr(classes):
    if classes.dtype.kind in "OUS":
        return {"classlabels_strings": [str(c) for c in classes]}
    return {"classlabels_int64s": [int(c) for c in classes]}


def label_elem(classes):
    return STR if classes.dtype.kind in "OUS" else I64


def regressor_cases(name, m, rows):
    x_info = tensor_info("X", F32, ["N", rows.shape[1]])
    targets = getattr(m, "n_outputs_", 1)
    y_info = tensor_info("Y", F32, ["N", targets])
    rounded = rounded_regressor(m)

    def expected(model, dtype=np.float32):
        return model.predict(rows).reshape(len(rows), targets).astype(dtype)

    x = rows.astype(np.float32)
    for version, model in ((1, rounded), (3, m)):
        ens = regressor_ensemble(model)
        node = ml_node("TreeEnsembleRegressor", ["X"], ["Y"], n_targets=targets, aggregate_function=ens.aggregate,
                       **votes_attrs(ens, "target", version))
        yield Case(f"{name}_ml{version}", make_model([node], [x_info], [y_info], version), [([x], [expected(model)])])
    node = ml_node("TreeEnsemble", ["X"], ["Y"], **tree_ensemble_5_attrs(regressor_ensemble(rounded), np.float32))
    yield Case(f"{name}_ml5", make_model([node], [x_info], [y_info], 5), [([x], [expected(rounded)])])
    if isinstance(m, GradientBoostingRegressor):  # double X: double splits and weights, unrounded
        node = ml_node("TreeEnsemble", ["X"], ["Y"], **tree_ensemble_5_attrs(regressor_ensemble(m), np.float64))
        infos = [tensor_info("X", F64, ["N", rows.shape[1]])], [tensor_info("Y", F64, ["N", targets])]
        yield Case(f"{name}_ml5_double", make_model([node], *infos, 5), [([rows], [expected(m, np.float64)])])


def classifier_cases(name, m, rows):
    classes = m.classes_
    x_info = tensor_info("X", F32, ["N", rows.shape[1]])
    out_infos = [tensor_info("label", label_elem(classes), ["N"]),
                 tensor_info("probabilities", F32, ["N", len(classes)])]
    data = [([rows.astype(np.float32)], [label_array(m.predict(rows)), m.predict_proba(rows).astype(np.float32)])]
    full = classifier_ensemble(m)
    ens = full
    if len(classes) == 2:
        ens = binary_form(full, 0 if isinstance(m, GradientBoostingClassifier) else 1)
    for version in (1, 3):
        node = ml_node("TreeEnsembleClassifier", ["X"], ["label", "probabilities"], **label_attr(classes),
                       **votes_attrs(ens, "class", version))
        yield Case(f"{name}_ml{version}", make_model([node], [x_info], out_infos, version), data)
    labels = numpy_helper.from_array(label_array(classes), name="labels")
    nodes = [ml_node("TreeEnsemble", ["X"], ["probabilities"], **tree_ensemble_5_attrs(full, np.float32)),
             helper.make_node("ArgMax", ["probabilities"], ["top"], axis=1, keepdims=0),
             helper.make_node("Gather", ["labels", "top"], ["label"], axis=0)]
    yield Case(f"{name}_ml5", make_model(nodes, [x_info], out_infos, 5, [labels]), data)


def test_rows(m, candidates, classifier):
    thresholds = (classifier_ensemble if classifier else regressor_ensemble)(m).thresholds_by_feature()
    ok = away_from_thresholds(candidates, thresholds)
    if classifier:
        ok &= clear_margin(m.predict_proba(candidates))
    return pick(candidates, ok)


def regressors():
    x, y, rows = regression(seed=20)
    models = [("decision_tree_regressor", DecisionTreeRegressor(max_depth=5, random_state=0)),
              ("random_forest_regressor", RandomForestRegressor(n_estimators=10, max_depth=4, random_state=0)),
              ("extra_trees_regressor", ExtraTreesRegressor(n_estimators=10, max_depth=5, random_state=0)),
              ("gradient_boosting_regressor",
               GradientBoostingRegressor(n_estimators=20, max_depth=3, learning_rate=LEARNING_RATE, random_state=0))]
    for name, m in models:
        m.fit(x, y)
        yield from regressor_cases(name, m, test_rows(m, rows, False))
    x, y, rows = regression(seed=21, targets=2)
    m = DecisionTreeRegressor(max_depth=4, random_state=0).fit(x, y)
    yield from regressor_cases("decision_tree_regressor_2targets", m, test_rows(m, rows, False))


def classifiers():
    gb = dict(max_depth=3, learning_rate=LEARNING_RATE, random_state=0)
    x, y, rows = classification(3, seed=22)
    models = [("decision_tree_classifier", DecisionTreeClassifier(max_depth=5, random_state=0), y),
              ("random_forest_classifier", RandomForestClassifier(n_estimators=10, max_depth=4, random_state=0), y),
              ("extra_trees_classifier", ExtraTreesClassifier(n_estimators=10, max_depth=5, random_state=0),
               np.array(["red", "green", "blue"])[y]),
              ("gradient_boosting_classifier", GradientBoostingClassifier(n_estimators=6, **gb), y)]
    x2, y2, rows2 = classification(2, seed=23)
    models2 = [("random_forest_classifier_binary",
                RandomForestClassifier(n_estimators=10, max_depth=4, random_state=0)),
               ("gradient_boosting_classifier_binary", GradientBoostingClassifier(n_estimators=15, **gb))]
    for name, m, labels in models:
        m.fit(x, labels)
        yield from classifier_cases(name, m, test_rows(m, rows, True))
    for name, m in models2:
        m.fit(x2, y2)
        yield from classifier_cases(name, m, test_rows(m, rows2, True))


def cases():
    yield from regressors()
    yield from classifiers()
