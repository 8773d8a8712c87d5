"""Fixed-seed synthetic data and the choice of test rows.

Every feature value is a float32 (the models' input type), held in float64 so that scikit-learn
computes in double as it does by default. Training sets have at most 200 rows and 8 features.

Parameters that an ONNX attribute holds as float are rounded to float32 in the fitted model
before scikit-learn predicts (`f32` and the `round_*` helpers of the converters): the expected
outputs are then scikit-learn's own outputs of exactly the model the ONNX file holds, and the
default tolerance of `sonnx conform` compares them (no test_sklearn_ entry in
conformance/tolerances.txt is needed).
"""
import numpy as np
from sklearn.datasets import make_classification, make_regression

TRAIN_ROWS = 160
CANDIDATE_ROWS = 80  # rows the test rows are chosen from (never trained on)
TEST_ROWS = 12


def f32(a):
    """`a` rounded to float32, kept as float64."""
    return np.asarray(a, dtype=np.float64).astype(np.float32).astype(np.float64)


def classification(classes, seed, features=6):
    x, y = make_classification(n_samples=TRAIN_ROWS + CANDIDATE_ROWS, n_features=features, n_informative=4,
                               n_redundant=1, n_classes=classes, n_clusters_per_class=1, class_sep=1.0,
                               random_state=seed)
    x = f32(x)
    return x[:TRAIN_ROWS], y[:TRAIN_ROWS], x[TRAIN_ROWS:]


def regression(seed, features=5, targets=1):
    x, y = make_regression(n_samples=TRAIN_ROWS + CANDIDATE_ROWS, n_features=features, n_informative=4,
                           n_targets=targets, noise=5.0, random_state=seed)
    x = f32(x)
    return x[:TRAIN_ROWS], y[:TRAIN_ROWS], x[TRAIN_ROWS:]


def pick(rows, ok, n=TEST_ROWS):
    """The first n rows whose `ok` is true (at least 4 must qualify)."""
    chosen = rows[np.asarray(ok, dtype=bool)][:n]
    assert len(chosen) >= 4, f"only {len(chosen)} usable test rows"
    return chosen


def clear_margin(scores, margin=1e-3):
    """Per row: the largest score beats the second by more than `margin` (no label on a tie)."""
    s = np.sort(np.asarray(scores, dtype=np.float64), axis=1)
    return s[:, -1] - s[:, -2] > margin


def away_from_thresholds(rows, thresholds_by_feature, gap=1e-4):
    """Per row: every feature lies more than `gap` from every split threshold on that feature, so
    float32(x) <= threshold decides alike for the double threshold and its float32 rounding."""
    ok = np.ones(len(rows), dtype=bool)
    for feature, thresholds in thresholds_by_feature.items():
        if len(thresholds):
            d = np.abs(rows[:, feature][:, None] - np.asarray(thresholds)[None, :]).min(axis=1)
            ok &= d > gap
    return ok
