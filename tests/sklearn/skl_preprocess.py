"""Transformers and small pipelines -> Scaler, Normalizer, Imputer, Binarizer, OneHotEncoder,
LabelEncoder (ai.onnx.ml 2 and 4), FeatureVectorizer, and Scaler -> LinearClassifier.

Layouts relied on (ONNX Operators-ml.md, sonnx's spec/ops/Normalizer.md):
- Scaler: Y = (X - offset) * scale. StandardScaler: offset mean_, scale 1 / scale_.
  MinMaxScaler (X * scale_ + min_): offset -min_ / scale_, scale scale_.
- Normalizer: L1 and L2 as scikit-learn; MAX divides by the row's largest value, signed, where
  scikit-learn divides by the largest absolute value: the MAX test rows are non-negative.
- Imputer: imputed_value_floats one per feature, replaced_value_float NaN.
- Binarizer: 1 where x > threshold, else 0, in X's type.
- OneHotEncoder: X [N] int64 -> Y [N, categories] float; zeros = 1 gives an unknown value a row
  of zeros (handle_unknown='ignore').
- LabelEncoder: keys_strings -> values_int64s (version 2), or keys_tensor -> values_tensor
  (version 4); default_int64 / default_tensor for an unknown key (-1).
- FeatureVectorizer: inputdimensions, one per input, the inputs' columns joined in order, float.
"""
import numpy as np
from onnx import numpy_helper
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import (Binarizer, LabelEncoder, MinMaxScaler, Normalizer, OneHotEncoder,
                                   StandardScaler)

from skl_data import classification, clear_margin, f32, pick, regression
from skl_linear import label_array, round_linear
from skl_write import F32, I64, STR, Case, make_model, ml_node, tensor_info

RNG_SEED = 30


def rng():
    return np.random.default_rng(RNG_SEED)


def transform_case(name, node, x, y, in_elem=F32, out_elem=F32, ml_opset=1, in_shape=None, out_shape=None):
    in_shape = in_shape or ["N", x.shape[1]]
    out_shape = out_shape or ["N", y.shape[1]]
    model = make_model([node], [tensor_info("X", in_elem, in_shape)], [tensor_info("Y", out_elem, out_shape)], ml_opset)
    return Case(name, model, [([x], [y])])


def round_standard_scaler(m):
    m.mean_ = f32(m.mean_)
    m.scale_ = 1.0 / f32(1.0 / m.scale_)  # the ONNX scale is 1 / scale_ as a float32
    return m


def scalers():
    x, _, rows = regression(seed=31, features=4)
    x = x * [1.0, 3.0, 0.5, 10.0] + [0.0, 5.0, -2.0, 100.0]
    rows = f32(rows[:10] * [1.0, 3.0, 0.5, 10.0] + [0.0, 5.0, -2.0, 100.0])
    m = round_standard_scaler(StandardScaler().fit(f32(x)))
    node = ml_node("Scaler", ["X"], ["Y"], offset=m.mean_.tolist(), scale=(1.0 / m.scale_).tolist())
    yield transform_case("standard_scaler", node, rows.astype(np.float32), m.transform(rows).astype(np.float32))

    m = MinMaxScaler(feature_range=(-1, 1)).fit(f32(x))
    scale, offset = f32(m.scale_), f32(-m.min_ / m.scale_)
    m.scale_, m.min_ = scale, -offset * scale
    node = ml_node("Scaler", ["X"], ["Y"], offset=offset.tolist(), scale=scale.tolist())
    yield transform_case("min_max_scaler", node, rows.astype(np.float32), m.transform(rows).astype(np.float32))


def normalizers():
    rows = f32(rng().normal(size=(8, 5)) * 3)
    rows[3] = 0.0  # a zero row: both leave it as it is
    for norm in ("l1", "l2", "max"):
        x = np.abs(rows) if norm == "max" else rows
        node = ml_node("Normalizer", ["X"], ["Y"], norm=norm.upper())
        y = Normalizer(norm=norm).fit(x).transform(x)
        yield transform_case(f"normalizer_{norm}", node, x.astype(np.float32), y.astype(np.float32))


def imputer():
    r = rng()
    x = f32(r.normal(size=(120, 4)) * [1, 2, 3, 4] + [0, 1, 2, 3])
    x[r.random(x.shape) < 0.15] = np.nan
    m = SimpleImputer(strategy="mean").fit(x)
    m.statistics_ = f32(m.statistics_)
    rows = f32(r.normal(size=(8, 4)))
    rows[r.random(rows.shape) < 0.3] = np.nan
    rows[0] = np.nan
    node = ml_node("Imputer", ["X"], ["Y"], imputed_value_floats=m.statistics_.tolist(), replaced_value_float=np.nan)
    yield transform_case("simple_imputer_mean", node, rows.astype(np.float32), m.transform(rows).astype(np.float32))


def binarizer():
    rows = f32(rng().normal(size=(8, 5)))
    rows[0, :3] = [0.25, np.nextafter(np.float32(0.25), np.float32(1)), -0.0]  # at and just above the threshold
    m = Binarizer(threshold=0.25).fit(rows)
    node = ml_node("Binarizer", ["X"], ["Y"], threshold=0.25)
    yield transform_case("binarizer", node, rows.astype(np.float32), m.transform(rows).astype(np.float32))


def one_hot():
    cats = np.array([1, 3, 5, 8, 13], dtype=np.int64)
    train = rng().choice(cats, size=60)
    m = OneHotEncoder(handle_unknown="ignore", sparse_output=False, dtype=np.float64).fit(train.reshape(-1, 1))
    x = np.array([3, 13, 1, 4, 8, 5, 5, 0, 13], dtype=np.int64)  # 4 and 0 are unknown
    node = ml_node("OneHotEncoder", ["X"], ["Y"], cats_int64s=m.categories_[0].tolist(), zeros=1)
    y = m.transform(x.reshape(-1, 1)).astype(np.float32)
    yield transform_case("one_hot_encoder", node, x, y, in_elem=I64, in_shape=["N"], out_shape=["N", len(cats)])


def label_encoders():
    words = np.array(["pear", "fig", "apple", "kiwi", "plum", "date"], dtype=object)
    m = LabelEncoder().fit(rng().choice(words, size=40))
    x = np.array(["kiwi", "apple", "plum", "pear", "fig", "date", "kiwi"], dtype=object)
    y = m.transform(x).astype(np.int64)
    keys, values = [str(c) for c in m.classes_], list(range(len(m.classes_)))
    node = ml_node("LabelEncoder", ["X"], ["Y"], keys_strings=keys, values_int64s=values, default_int64=-1)
    yield transform_case("label_encoder", node, x, y, in_elem=STR, out_elem=I64, ml_opset=2, in_shape=["N"],
                         out_shape=["N"])
    node = ml_node("LabelEncoder", ["X"], ["Y"],
                   keys_tensor=numpy_helper.from_array(np.array(keys, dtype=object)),
                   values_tensor=numpy_helper.from_array(np.array(values, dtype=np.int64)),
                   default_tensor=numpy_helper.from_array(np.array([-1], dtype=np.int64)))
    yield transform_case("label_encoder_ml4", node, x, y, in_elem=STR, out_elem=I64, ml_opset=4, in_shape=["N"],
                         out_shape=["N"])


def pipeline():
    """StandardScaler -> multinomial LogisticRegression as Scaler -> LinearClassifier."""
    x, y, rows = classification(3, seed=32, features=5)
    x, rows = f32(x * 4 + 7), f32(rows * 4 + 7)
    p = make_pipeline(StandardScaler(), LogisticRegression(multi_class="multinomial")).fit(x, y)
    scaler = round_standard_scaler(p[0])
    lr = round_linear(p[1])
    rows = pick(rows, clear_margin(p.predict_proba(rows)))
    nodes = [ml_node("Scaler", ["X"], ["scaled"], offset=scaler.mean_.tolist(), scale=(1.0 / scaler.scale_).tolist()),
             ml_node("LinearClassifier", ["scaled"], ["label", "probabilities"], coefficients=lr.coef_.ravel().tolist(),
                     intercepts=lr.intercept_.tolist(), post_transform="SOFTMAX",
                     classlabels_ints=[int(c) for c in lr.classes_])]
    outputs = [tensor_info("label", I64, ["N"]), tensor_info("probabilities", F32, ["N", 3])]
    model = make_model(nodes, [tensor_info("X", F32, ["N", 5])], outputs, 1)
    expected = [label_array(p.predict(rows)), p.predict_proba(rows).astype(np.float32)]
    yield Case("pipeline_scaler_logistic_regression", model, [([rows.astype(np.float32)], expected)])


def feature_vectorizer():
    """A linear regression trained on two feature groups (counts and measures, both float: the
    inputs of FeatureVectorizer share one element type), joined by FeatureVectorizer."""
    r = rng()
    counts = r.integers(0, 6, size=(150, 2))
    _, y, _ = regression(seed=33, features=3)
    measures = f32(r.normal(size=(150, 3)))
    y = y[:150] + counts @ [3.0, -2.0] + measures @ [1.0, 2.0, 0.5]
    m = round_linear(LinearRegression().fit(np.hstack([counts, measures]), y))
    a, b = r.integers(0, 6, size=(7, 2)).astype(np.float64), f32(r.normal(size=(7, 3)))
    nodes = [ml_node("FeatureVectorizer", ["A", "B"], ["features"], inputdimensions=[2, 3]),
             ml_node("LinearRegressor", ["features"], ["Y"], coefficients=m.coef_.tolist(),
                     intercepts=[float(m.intercept_)], targets=1)]
    inputs = [tensor_info("A", F32, ["N", 2]), tensor_info("B", F32, ["N", 3])]
    model = make_model(nodes, inputs, [tensor_info("Y", F32, ["N", 1])], 1)
    y = m.predict(np.hstack([a, b])).reshape(-1, 1).astype(np.float32)
    yield Case("feature_vectorizer_linear_regression", model, [([a.astype(np.float32), b.astype(np.float32)], [y])])


def cases():
    yield from scalers()
    yield from normalizers()
    yield from imputer()
    yield from binarizer()
    yield from one_hot()
    yield from label_encoders()
    yield from pipeline()
    yield from feature_vectorizer()
