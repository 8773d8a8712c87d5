"""Kernel SVMs (libsvm inside scikit-learn) -> SVMRegressor / SVMClassifier (ai.onnx.ml 1).

Layouts relied on (ONNX Operators-ml.md, sonnx's spec/ops/SVMClassifier.md, libsvm's model):
- kernel_params is [gamma, coef0, degree]; scikit-learn's resolved gamma is `_gamma`.
- ONNX adds rho, libsvm subtracts its rho: rho = -rho_libsvm, which scikit-learn keeps as
  `_intercept_`; coefficients are libsvm's sv_coef, `_dual_coef_` ((classes - 1) rows of V).
  (The public intercept_ and dual_coef_ are those negated for two classes.)
- support_vectors are V rows, class by class, n_support_[k] of class k (vectors_per_class).
- Pair decision values d in the order (0,1), (0,2), ..., (1,2); d > 0 votes for the first
  class of the pair. scikit-learn's decision_function_shape='ovo' returns them for three or more
  classes, and -d for two; Z for two classes is [-d, d].
- With probability=True, prob_a / prob_b are libsvm's Platt parameters (`_probA`, `_probB`).
"""
import numpy as np
from sklearn.svm import SVC, SVR

from skl_data import classification, f32, pick, regression
from skl_linear import label_array, label_attrs
from skl_write import F32, I64, Case, make_model, ml_node, tensor_info


def round_svm(m):
    """The fitted model with every parameter the ONNX attributes hold as float rounded to float32
    (the support vectors are training rows, already float32)."""
    m._dual_coef_ = f32(m._dual_coef_)
    m._intercept_ = f32(m._intercept_)
    m._gamma = float(f32(m._gamma))
    m.coef0 = float(f32(m.coef0))
    if getattr(m, "_probA", np.empty(0)).size:
        m._probA = f32(m._probA)
        m._probB = f32(m._probB)
    return m


def svm_attrs(m):
    return dict(kernel_type=m.kernel.upper(), kernel_params=[float(m._gamma), float(m.coef0), float(m.degree)],
                support_vectors=m.support_vectors_.ravel().tolist(), coefficients=m._dual_coef_.ravel().tolist(),
                rho=m._intercept_.tolist())


def svr_case(kernel):
    x, y, rows = regression(seed=10, features=4)
    m = round_svm(SVR(kernel=kernel, C=10.0, epsilon=0.05, coef0=0.5, degree=3).fit(x, y / 100.0))
    node = ml_node("SVMRegressor", ["X"], ["Y"], n_supports=len(m.support_), **svm_attrs(m))
    model = make_model([node], [tensor_info("X", F32, ["N", 4])], [tensor_info("Y", F32, ["N", 1])], 1)
    rows = rows[:10]
    y = m.predict(rows).reshape(-1, 1).astype(np.float32)
    return Case(f"svr_{kernel}", model, [([rows.astype(np.float32)], [y])])


def pair_votes_clear(d, classes):
    """Per row: no pair decision value near 0 and no tie among the vote counts."""
    d = d.reshape(len(d), -1)
    votes = np.zeros((len(d), classes))
    k = 0
    for i in range(classes):
        for j in range(i + 1, classes):
            votes[:, i] += d[:, k] > 0
            votes[:, j] += d[:, k] <= 0
            k += 1
    top = np.sort(votes, axis=1)
    return (np.abs(d) > 1e-3).all(axis=1) & (top[:, -1] > top[:, -2])


def svc_case(name, classes, kernel, probability=False):
    x, y, rows = classification(classes, seed=11 + classes, features=5)
    m = round_svm(SVC(kernel=kernel, C=2.0, coef0=0.5, decision_function_shape="ovo", probability=probability,
                      random_state=0).fit(x, y))
    pairs = m.decision_function(rows).reshape(len(rows), -1)
    libsvm_d = -pairs if classes == 2 else pairs
    rows = pick(rows, pair_votes_clear(libsvm_d, classes))
    attrs = svm_attrs(m)
    if probability:
        attrs.update(prob_a=m._probA.tolist(), prob_b=m._probB.tolist())
        z = m.predict_proba(rows)
    else:
        d = m.decision_function(rows).reshape(len(rows), -1)
        z = np.concatenate([d, -d], axis=1) if classes == 2 else d  # two classes: [-d, d] of libsvm's d
    node = ml_node("SVMClassifier", ["X"], ["label", "scores"], vectors_per_class=m.n_support_.tolist(),
                   post_transform="NONE", **attrs, **label_attrs(m.classes_))
    outputs = [tensor_info("label", I64, ["N"]), tensor_info("scores", F32, ["N", z.shape[1]])]
    model = make_model([node], [tensor_info("X", F32, ["N", 5])], outputs, 1)
    return Case(name, model, [([rows.astype(np.float32)], [label_array(m.predict(rows)), z.astype(np.float32)])])


def cases():
    for kernel in ("linear", "rbf", "poly", "sigmoid"):
        yield svr_case(kernel)
    for kernel in ("rbf", "linear"):
        yield svc_case(f"svc_binary_{kernel}", 2, kernel)
        yield svc_case(f"svc_3class_{kernel}", 3, kernel)
    yield svc_case("svc_3class_rbf_probabilities", 3, "rbf", probability=True)
