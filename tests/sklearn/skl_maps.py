"""Models with map values (written to OUT_DIR/maps/): ZipMap on a classifier's probabilities, and
DictVectorizer.

Layouts relied on (ONNX Operators-ml.md, onnx.proto):
- ZipMap: classlabels_int64s or classlabels_strings, one per column of X [N, C]; Z is
  seq(map(int64 | string, float)), one map per row, class label -> probability.
- DictVectorizer: string_vocabulary (scikit-learn's feature_names_); X is one map(string, float);
  Y holds the value of each vocabulary entry, 0 where the map lacks it. Y is taken as the 1-D
  tensor [V] the operator's text names (onnxruntime writes [1, V]). Only keys of the vocabulary
  are given (what other keys do, the text does not say).
- A map in a .pb is a MapProto: keys, and values as a SequenceProto of as many scalar tensors;
  a sequence of maps is a SequenceProto of elem_type MAP.
"""
import numpy as np
from sklearn.ensemble import RandomForestClassifier
from sklearn.feature_extraction import DictVectorizer
from sklearn.linear_model import LogisticRegression

from skl_data import classification, clear_margin, pick
from skl_linear import label_array, round_linear
from skl_tree_attrs import votes_attrs
from skl_trees import classifier_ensemble, label_attr, label_elem, test_rows
from skl_write import F32, STR, Case, make_model, map_info, ml_node, seq_map_info, tensor_info


def zipmap_case(name, classifier_node, m, rows, ml_opset):
    classes = m.classes_
    zipmap = ml_node("ZipMap", ["probabilities"], ["output_probability"], **label_attr(classes))
    outputs = [tensor_info("label", label_elem(classes), ["N"]),
               seq_map_info("output_probability", label_elem(classes))]
    model = make_model([classifier_node, zipmap], [tensor_info("X", F32, ["N", rows.shape[1]])], outputs, ml_opset)
    keys = [str(c) if label_elem(classes) == STR else int(c) for c in classes]
    maps = [dict(zip(keys, p.astype(np.float32))) for p in m.predict_proba(rows)]
    return Case(name, model, [([rows.astype(np.float32)], [label_array(m.predict(rows)), maps])])


def zipmaps():
    x, y, rows = classification(3, seed=40, features=5)
    m = round_linear(LogisticRegression(multi_class="multinomial").fit(x, y + 1))
    rows = pick(rows, clear_margin(m.predict_proba(rows)))
    node = ml_node("LinearClassifier", ["X"], ["label", "probabilities"], coefficients=m.coef_.ravel().tolist(),
                   intercepts=m.intercept_.tolist(), post_transform="SOFTMAX",
                   classlabels_ints=[int(c) for c in m.classes_])
    yield zipmap_case("zipmap_logistic_regression", node, m, rows, 1)

    x, y, rows = classification(3, seed=41, features=5)
    m = RandomForestClassifier(n_estimators=8, max_depth=4, random_state=0).fit(x, np.array(["no", "maybe", "yes"])[y])
    rows = test_rows(m, rows, True)
    node = ml_node("TreeEnsembleClassifier", ["X"], ["label", "probabilities"], **label_attr(m.classes_),
                   **votes_attrs(classifier_ensemble(m), "class", 3))
    yield zipmap_case("zipmap_random_forest_strings", node, m, rows, 3)


def dict_vectorizer():
    r = np.random.default_rng(42)
    names = ["height", "weight", "age", "score", "rank"]
    train = [{k: float(np.float32(r.normal() * 10)) for k in r.choice(names, size=3, replace=False)} for _ in range(30)]
    m = DictVectorizer(sparse=False).fit(train)
    tests = [{"age": 31.0, "height": 1.75, "weight": 70.5},
             {"rank": 3.0, "score": -0.125},
             {"height": 2.0, "weight": 0.0, "age": 7.5, "score": 1e-3, "rank": 1e6}]
    # Y is [1, V] (spec/ops/DictVectorizer.md); scikit-learn's transform of one dict is that row.
    node = ml_node("DictVectorizer", ["X"], ["Y"], string_vocabulary=list(m.feature_names_))
    v = len(m.feature_names_)
    model = make_model([node], [map_info("X", STR, F32)], [tensor_info("Y", F32, [1, v])], 1)
    data = [([{k: np.float32(val) for k, val in d.items()}], [m.transform([d]).astype(np.float32)]) for d in tests]
    yield Case("dict_vectorizer", model, data)


def cases():
    yield from zipmaps()
    yield from dict_vectorizer()
