#include "svm.h"

#include <algorithm>
#include <cmath>

namespace sonnx::support {

double SvmKernel::apply(const double* x, const float* v, int64_t c) const {
  double s = 0;
  if (type == SvmKernelType::Rbf) {
    for (int64_t i = 0; i < c; ++i) {
      const double d = x[i] - static_cast<double>(v[i]);
      s += d * d;
    }
    return std::exp(-gamma * s);
  }
  for (int64_t i = 0; i < c; ++i) s += x[i] * static_cast<double>(v[i]);
  switch (type) {
    case SvmKernelType::Poly: return std::pow(gamma * s + coef0, degree);
    case SvmKernelType::Sigmoid: return std::tanh(gamma * s + coef0);
    default: return s;
  }
}

double svm_platt(double s, double a, double b) { return 1 / (1 + std::exp(a * s + b)); }

std::vector<double> svm_couple(const std::vector<double>& r, int64_t k) {
  const auto n = static_cast<size_t>(k);
  auto at = [n](size_t i, size_t j) { return i * n + j; };
  // Minimise p' Q p subject to sum p = 1, with Q[t][t] = sum_{j != t} r[j][t]^2 and
  // Q[t][j] = -r[j][t] r[t][j]: coordinate steps, each followed by renormalisation.
  std::vector<double> q(n * n, 0.0), p(n, 1.0 / static_cast<double>(k)), qp(n, 0.0);
  for (size_t t = 0; t < n; ++t)
    for (size_t j = 0; j < n; ++j)
      if (j != t) {
        q[at(t, t)] += r[at(j, t)] * r[at(j, t)];
        q[at(t, j)] = -r[at(j, t)] * r[at(t, j)];
      }
  const double eps = svm_coupling_tolerance(k);
  const int64_t rounds = svm_coupling_rounds(k);
  for (int64_t round = 0; round < rounds; ++round) {
    double pqp = 0;
    for (size_t t = 0; t < n; ++t) {
      qp[t] = 0;
      for (size_t j = 0; j < n; ++j) qp[t] += q[at(t, j)] * p[j];
      pqp += p[t] * qp[t];
    }
    double error = 0;
    for (size_t t = 0; t < n; ++t) error = std::max(error, std::abs(qp[t] - pqp));
    if (error < eps) break;
    for (size_t t = 0; t < n; ++t) {
      const double step = (pqp - qp[t]) / q[at(t, t)];
      p[t] += step;
      pqp = (pqp + step * (step * q[at(t, t)] + 2 * qp[t])) / ((1 + step) * (1 + step));
      for (size_t j = 0; j < n; ++j) {
        qp[j] = (qp[j] + step * q[at(t, j)]) / (1 + step);
        p[j] /= 1 + step;
      }
    }
  }
  return p;
}

}  // namespace sonnx::support
