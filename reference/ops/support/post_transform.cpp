#include "post_transform.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>

namespace sonnx::support {

double probit(double p) {
  if (std::isnan(p) || p < 0 || p > 1) return std::numeric_limits<double>::quiet_NaN();
  if (p == 0) return -std::numeric_limits<double>::infinity();
  if (p == 1) return std::numeric_limits<double>::infinity();
  if (p == 0.5) return 0;
  // Φ⁻¹(p) = −√2·x where erfc(x) = 2p, for the tail q = min(p, 1 − p) (1 − p is exact for p ≥ 0.5:
  // Sterbenz), so the digits of a tiny q are kept where 2p − 1 would lose them next to ±1.
  const bool upper = p > 0.5;
  const double q = upper ? 1 - p : p, target = 2 * q;
  // Winitzki's closed form for erf⁻¹(1 − 2q) (a = 0.147, about 2e-3 off) as the start, written in
  // log((1 − y)(1 + y)) = log(2q·(2 − 2q)) so that it too needs no 1 − 2q; then Newton steps on
  // erfc(x) − 2q, whose derivative is −2/√π·e^(−x²). erfc keeps its relative accuracy in the tail.
  const double a = 0.147;
  const double l = std::log(target * (2 - target));
  const double b = 2 / (std::numbers::pi * a) + l / 2;
  double x = std::sqrt(std::sqrt(b * b - l / a) - b);
  for (int i = 0; i < 12; ++i) {
    const double slope = -2 / std::sqrt(std::numbers::pi) * std::exp(-x * x);
    if (slope == 0) break;
    const double step = (std::erfc(x) - target) / slope;
    x -= step;
    if (std::abs(step) <= 1e-17 * std::abs(x)) break;
  }
  return upper ? std::numbers::sqrt2 * x : -std::numbers::sqrt2 * x;
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
      for (double& v : row) v = probit(v);
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
