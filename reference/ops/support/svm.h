// The arithmetic the SVM predictors (SVMRegressor, SVMClassifier) share: the kernel function of a
// row and a support vector, libsvm's Platt sigmoid, and the pairwise coupling of one-vs-one
// probabilities into class probabilities. In double; the callers round once.
#pragma once
#include <cstdint>
#include <vector>

namespace sonnx::support {

enum class SvmKernelType : int64_t { Linear, Poly, Rbf, Sigmoid };

// kernel_type with kernel_params [gamma, coef0, degree] (zeros when absent).
struct SvmKernel {
  SvmKernelType type = SvmKernelType::Linear;
  double gamma = 0, coef0 = 0, degree = 0;

  // K(x, v) for a row x and a support vector v of c entries:
  //   LINEAR x.v, POLY (gamma x.v + coef0)^degree, RBF exp(-gamma |x - v|^2),
  //   SIGMOID tanh(gamma x.v + coef0).
  double apply(const double* x, const float* v, int64_t c) const;
};

// libsvm's sigmoid of a decision value with Platt's coefficients: 1 / (1 + exp(a s + b)).
double svm_platt(double s, double a, double b);

// Platt's clamp of a pair probability (libsvm's): into [floor, 1 - floor], so the coupling stays finite.
constexpr double kSvmPairProbabilityFloor = 1e-7;

// The coupling's stopping rule: the optimality error below svm_coupling_tolerance(k), or at most
// svm_coupling_rounds(k) rounds.
inline double svm_coupling_tolerance(int64_t k) { return 0.005 / static_cast<double>(k); }
inline int64_t svm_coupling_rounds(int64_t k) { return k > 100 ? k : 100; }

// Class probabilities from the pairwise ones (Wu, Lin and Weng 2004, their second method, as
// libsvm solves it): r is k x k row-major, r[i k + j] the probability of i against j (i != j).
std::vector<double> svm_couple(const std::vector<double>& r, int64_t k);

}  // namespace sonnx::support
