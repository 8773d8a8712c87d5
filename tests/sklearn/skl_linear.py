"""Linear models -> LinearRegressor / LinearClassifier (ai.onnx.ml 1).

Layouts relied on (ONNX Operators-ml.md and sonnx's spec/ops/LinearClassifier.md):
- LinearRegressor: coefficients is targets rows of C (row t is coef_[t]), intercepts one per
  target, Y [N, targets].
- LinearClassifier: coefficients is one row of C per class, or one row for two classes (the
  binary form: score s, Z = post_transform([-s, s]), label classes[1] iff s > 0).
- scikit-learn's one-vs-rest LogisticRegression normalises the per-class sigmoids to sum to 1:
  LOGISTIC, then a Normalizer L1 node. Multinomial is SOFTMAX.
"""
import numpy as np
from sklearn.linear_model import LinearRegression, LogisticRegression, Ridge
from sklearn.svm import LinearSVC

from skl_data import classification, clear_margin, f32, pick, regression
from skl_write import F32, I64, STR, Case, make_model, ml_node, tensor_info


def round_linear(m):
    m.coef_ = f32(m.coef_)
    m.intercept_ = f32(m.intercept_)
    return m


def linear_regressor_case(name, m, x):
    coef = np.atleast_2d(m.coef_)
    targets, c = coef.shape
    node = ml_node("LinearRegressor", ["X"], ["Y"], coefficients=coef.ravel().tolist(),
                   intercepts=np.atleast_1d(m.intercept_).tolist(), targets=targets)
    model = make_model([node], [tensor_info("X", F32, ["N", c])], [tensor_info("Y", F32, ["N", targets])], 1)
    y = m.predict(x).reshape(len(x), targets).astype(np.float32)
    return Case(name, model, [([x.astype(np.float32)], [y])])


def classifier_outputs(labels, classes):
    elem = STR if labels.dtype.kind in "OUS" else I64
    return [tensor_info("label", elem, ["N"]), tensor_info("scores", F32, ["N", classes])]


def label_attrs(classes):
    if classes.dtype.kind in "OUS":
        return {"classlabels_strings": [str(c) for c in classes]}
    return {"classlabels_ints": [int(c) for c in classes]}


def label_array(values):
    return np.array(values, dtype=object) if values.dtype.kind in "OUS" else values.astype(np.int64)


def linear_classifier_case(name, m, x, post_transform, scores, extra_nodes=()):
    """`scores`: the expected Z (scikit-learn's decision_function or predict_proba, arranged as ONNX's
    columns). With extra_nodes the classifier's Z feeds them and their output is `scores`."""
    coef = np.atleast_2d(m.coef_)
    c = coef.shape[1]
    z_name = "z" if extra_nodes else "scores"
    node = ml_node("LinearClassifier", ["X"], ["label", z_name], coefficients=coef.ravel().tolist(),
                   intercepts=np.atleast_1d(m.intercept_).tolist(), post_transform=post_transform,
                   **label_attrs(m.classes_))
    model = make_model([node, *extra_nodes], [tensor_info("X", F32, ["N", c])],
                       classifier_outputs(m.classes_, len(m.classes_)), 1)
    outputs = [label_array(m.predict(x)), np.asarray(scores, dtype=np.float32)]
    return Case(name, model, [([x.astype(np.float32)], outputs)])


def regressors():
    x, y, rows = regression(seed=1)
    yield linear_regressor_case("linear_regression", round_linear(LinearRegression().fit(x, y)), rows[:10])
    x, y, rows = regression(seed=2, targets=2)
    yield linear_regressor_case("linear_regression_2targets", round_linear(LinearRegression().fit(x, y)), rows[:10])
    x, y, rows = regression(seed=3, features=8)
    yield linear_regressor_case("ridge", round_linear(Ridge(alpha=2.0).fit(x, y)), rows[:10])


def classifiers():
    # Binary logistic regression: one coefficient row, labels 10 and 20.
    x, y, rows = classification(2, seed=4)
    m = round_linear(LogisticRegression().fit(x, np.where(y == 1, 20, 10)))
    rows = pick(rows, np.abs(m.decision_function(rows)) > 1e-3)
    yield linear_classifier_case("logistic_regression_binary", m, rows, "LOGISTIC", m.predict_proba(rows))

    x, y, rows = classification(3, seed=5)
    m = round_linear(LogisticRegression(multi_class="ovr").fit(x, y))
    rows = pick(rows, clear_margin(m.decision_function(rows)))
    l1 = ml_node("Normalizer", ["z"], ["scores"], norm="L1")
    yield linear_classifier_case("logistic_regression_ovr", m, rows, "LOGISTIC", m.predict_proba(rows), [l1])

    m = round_linear(LogisticRegression(multi_class="multinomial").fit(x, np.array(["ant", "bee", "cat"])[y]))
    rows = pick(rows, clear_margin(m.decision_function(rows)))
    yield linear_classifier_case("logistic_regression_multinomial", m, rows, "SOFTMAX", m.predict_proba(rows))

    m = round_linear(LinearSVC(C=0.5, max_iter=20000, random_state=0).fit(x, y))
    rows = pick(rows, clear_margin(m.decision_function(rows)))
    yield linear_classifier_case("linear_svc", m, rows, "NONE", m.decision_function(rows))

    x, y, rows = classification(2, seed=6)
    m = round_linear(LinearSVC(C=0.5, max_iter=20000, random_state=0).fit(x, y))
    s = m.decision_function(rows)
    rows = pick(rows, np.abs(s) > 1e-3)
    s = m.decision_function(rows)
    yield linear_classifier_case("linear_svc_binary", m, rows, "NONE", np.stack([-s, s], axis=1))


def cases():
    yield from regressors()
    yield from classifiers()
