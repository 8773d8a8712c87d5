// The parameters of the ai.onnx.ml linear predictors LinearRegressor and LinearClassifier
// (reference/ops/op_params.h), read by their reference kernels, their shape rules and their
// enclosures (enclose/enclose_ml_linear.cpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "class_labels.h"
#include "reference/model/attr_reader.h"
#include "reference/ops/support/post_transform.h"

namespace sonnx {

// LinearRegressor-1: Y[n, t] = sum_c X[n, c] * coefficients[t * C + c] + intercepts[t].
struct LinearRegressorParams {
  std::vector<float> coefficients;  // targets * C entries, each target's C contiguous
  std::vector<float> intercepts;    // empty (0) or one per target
  support::PostTransform post_transform = support::PostTransform::None;
  int64_t targets = 1;  // >= 1

  static LinearRegressorParams read(const AttrReader& r, int64_t /*version*/) {
    LinearRegressorParams p;
    p.targets = r.attr_int("targets", 1);
    p.coefficients = r.attr_floats("coefficients");
    p.intercepts = r.attr_floats("intercepts");
    if (p.targets < 1) r.fail("targets must be positive");
    if (!p.intercepts.empty() && static_cast<int64_t>(p.intercepts.size()) != p.targets)
      r.fail("intercepts must have one entry per target");
    p.post_transform = support::post_transform_attr(r);
    return p;
  }
  // Whether coefficients fit X's C columns: "" or why not.
  std::string fits(int64_t c) const {
    if (static_cast<int64_t>(coefficients.size()) == targets * c) return "";
    return "coefficients has " + std::to_string(coefficients.size()) +
           " entries, not targets * C = " + std::to_string(targets * c);
  }
};

// LinearClassifier-1: E rows of C coefficients and E intercepts (absent: 0) give
// score_e = x . coefficients_e + intercepts[e]; E is the number of class labels, or 1 for one
// binary row between two labels.
struct LinearClassifierParams {
  ClassLabels labels;
  std::vector<float> coefficients;  // E rows of C
  std::vector<float> intercepts;    // empty (0) or E
  int64_t multi_class = 0;
  support::PostTransform post_transform = support::PostTransform::None;

  static LinearClassifierParams read(const AttrReader& r, int64_t /*version*/) {
    LinearClassifierParams p;
    p.labels = ClassLabels::read(r);
    p.coefficients = r.attr_floats("coefficients");
    p.intercepts = r.attr_floats("intercepts");
    p.multi_class = r.attr_int("multi_class", 0);
    p.post_transform = support::post_transform_attr(r);
    if (p.coefficients.empty()) r.fail("coefficients must not be empty");
    if (p.multi_class != 0 && p.multi_class != 1) r.fail("multi_class must be 0 or 1");
    return p;
  }
  // E, the coefficient rows for X of C columns (L, or 1 for a binary row), or -1 with `why`.
  int64_t rows(int64_t c, std::string& why) const {
    const auto size = static_cast<int64_t>(coefficients.size());
    const int64_t l = labels.size();
    int64_t e = -1;
    if (size == l * c) e = l;
    else if (l == 2 && size == c) e = 1;
    if (e < 0) {
      why = "coefficients has " + std::to_string(size) + " entries, not classes * C = " + std::to_string(l * c) +
            (l == 2 ? " (or C = " + std::to_string(c) + " for one binary row)" : "");
      return -1;
    }
    if (!intercepts.empty() && static_cast<int64_t>(intercepts.size()) != e) {
      why = "intercepts must have one entry per coefficient row (" + std::to_string(e) + ")";
      return -1;
    }
    return e;
  }
};

}  // namespace sonnx
