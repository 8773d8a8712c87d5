// The score transforms of the ai.onnx.ml predictors (TreeEnsemble's post_transform): NONE,
// SOFTMAX, LOGISTIC, SOFTMAX_ZERO and PROBIT, applied to one row of scores in double precision
// (the caller rounds once into the element type).
#pragma once
#include <cstdint>
#include <vector>

#include "reference/model/attr_reader.h"

namespace sonnx::support {

enum class PostTransform : int64_t { None = 0, Softmax = 1, Logistic = 2, SoftmaxZero = 3, Probit = 4 };

// The standard normal quantile Φ⁻¹(p) = √2·erf⁻¹(2p − 1) on [0, 1]: ∓inf at 0 and 1, NaN outside
// or for NaN. Accurate to a few double ulps in the tails too (it solves erfc(x) = 2·min(p, 1 − p)).
double probit(double p);

// The string attribute post_transform ("NONE" when absent) of the predictors that name it
// (LinearRegressor, TreeEnsembleRegressor, TreeEnsembleClassifier, ...); another string fails
// through `r`.
PostTransform post_transform_attr(const AttrReader& r);

// Transforms `row` in place.
void post_transform_row(PostTransform t, std::vector<double>& row);

}  // namespace sonnx::support
