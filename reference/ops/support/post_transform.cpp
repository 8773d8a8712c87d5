#include "post_transform.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>

namespace sonnx::support {

double erf_inv(double y) {
  if (std::isnan(y) || y < -1 || y > 1) return std::numeric_limits<double>::quiet_NaN();
  if (y == 1) return std::numeric_limits<double>::infinity();
  if (y == -1) return -std::numeric_limits<double>::infinity();
  if (y == 0) return y;  // keeps the sign of zero
  // Start from Winitzki's closed-form approximation (a = 0.147, error about 2e-3), then polish
  // with Newton steps on erf(x) - y, whose derivative is 2/sqrt(pi) exp(-x^2).
  const double a = 0.147;
  double l = std::log((1 - y) * (1 + y));
  double b = 2 / (std::numbers::pi * a) + l / 2;
  double x = std::copysign(std::sqrt(std::sqrt(b * b - l / a) - b), y);
  for (int i = 0; i < 8; ++i) {
    double slope = 2 / std::sqrt(std::numbers::pi) * std::exp(-x * x);
    if (slope == 0) break;
    double step = (std::erf(x) - y) / slope;
    x -= step;
    if (std::abs(step) <= 1e-17 * std::abs(x)) break;
  }
  return x;
}

PostTransform post_transform_attr(const AttrReader& r) {
  const std::string s = r.attr_string("post_transform", "NONE");
  if (s == "NONE") return PostTransform::None;
  if (s == "SOFTMAX") return PostTransform::Softmax;
  if (s == "LOGISTIC") return PostTransform::Logistic;
  if (s == "SOFTMAX_ZERO") return PostTransform::SoftmaxZero;
  if (s != "PROBIT") r.fail("unknown post_transform '" + s + "'");
  return PostTransform::Probit;
}

void post_transform_row(PostTransform t, std::vector<double>& row) {
  switch (t) {
    case PostTransform::None: return;
    case PostTransform::Logistic:
      for (double& v : row) v = 1 / (1 + std::exp(-v));
      return;
    case PostTransform::Probit:
      // The standard normal quantile: sqrt(2) * erfinv(2p - 1).
      for (double& v : row) v = std::numbers::sqrt2 * erf_inv(2 * v - 1);
      return;
    case PostTransform::Softmax: {
      if (row.empty()) return;
      double m = *std::max_element(row.begin(), row.end());
      double sum = 0;
      for (double& v : row) sum += (v = std::exp(v - m));
      for (double& v : row) v /= sum;
      return;
    }
    case PostTransform::SoftmaxZero: {
      // A softmax over the non-zero scores; zero scores stay zero. A row of zeros becomes 0.5
      // everywhere, as onnx's reference implementation (the spec is silent there).
      double m = -std::numeric_limits<double>::infinity();
      for (double v : row)
        if (v != 0) m = std::max(m, v);
      double sum = 0;
      for (double& v : row)
        if (v != 0) sum += (v = std::exp(v - m));
      if (sum == 0) std::fill(row.begin(), row.end(), 0.5);
      else
        for (double& v : row) v /= sum;
      return;
    }
  }
}

}  // namespace sonnx::support
