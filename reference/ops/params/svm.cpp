#include "svm.h"

namespace sonnx {

support::SvmKernel read_svm_kernel(const AttrReader& r) {
  using support::SvmKernelType;
  support::SvmKernel k;
  const std::string type = r.attr_string("kernel_type", "LINEAR");
  if (type == "LINEAR") k.type = SvmKernelType::Linear;
  else if (type == "POLY") k.type = SvmKernelType::Poly;
  else if (type == "RBF") k.type = SvmKernelType::Rbf;
  else if (type == "SIGMOID") k.type = SvmKernelType::Sigmoid;
  else r.fail("unknown kernel_type '" + type + "'");
  const std::vector<float> params = r.attr_floats("kernel_params");
  if (!params.empty()) {
    if (params.size() != 3) r.fail("kernel_params must be [gamma, coef0, degree]");
    k.gamma = params[0];
    k.coef0 = params[1];
    k.degree = params[2];
  }
  return k;
}

SVMRegressorParams SVMRegressorParams::read(const AttrReader& r, int64_t /*version*/) {
  SVMRegressorParams p;
  p.kernel = read_svm_kernel(r);
  p.n_supports = r.attr_int("n_supports", 0);
  p.support_vectors = r.attr_floats("support_vectors");
  p.coefficients = r.attr_floats("coefficients");
  p.one_class = r.attr_int("one_class", 0) != 0;
  p.post_transform = support::post_transform_attr(r);
  const std::vector<float> rho = r.attr_floats("rho");
  if (rho.size() != 1) r.fail("rho must have exactly one entry, got " + std::to_string(rho.size()));
  p.rho = rho[0];
  if (p.n_supports < 0) r.fail("n_supports must not be negative");
  if (p.coefficients.empty()) r.fail("coefficients must not be empty");
  const auto n = static_cast<size_t>(p.n_supports);
  if (n > 0) {
    if (p.coefficients.size() != n)
      r.fail("coefficients must have one entry per support vector (n_supports = " + std::to_string(n) + ")");
    if (p.support_vectors.empty() || p.support_vectors.size() % n != 0)
      r.fail("support_vectors must hold n_supports rows of equal length");
  } else if (!p.support_vectors.empty()) {
    r.fail("support_vectors given but n_supports is 0");
  }
  return p;
}

int64_t SVMRegressorParams::features() const {
  if (n_supports > 0) return static_cast<int64_t>(support_vectors.size()) / n_supports;
  return static_cast<int64_t>(coefficients.size());
}

SVMClassifierParams SVMClassifierParams::read(const AttrReader& r, int64_t /*version*/) {
  SVMClassifierParams p;
  p.labels = ClassLabels::read(r);
  p.kernel = read_svm_kernel(r);
  p.vectors_per_class = r.attr_ints("vectors_per_class");
  p.support_vectors = r.attr_floats("support_vectors");
  p.coefficients = r.attr_floats("coefficients");
  p.rho = r.attr_floats("rho");
  p.prob_a = r.attr_floats("prob_a");
  p.prob_b = r.attr_floats("prob_b");
  p.post_transform = support::post_transform_attr(r);
  const int64_t l = p.classes();
  for (int64_t v : p.vectors_per_class) {
    if (v < 0) r.fail("vectors_per_class must not be negative");
    p.first_vector.push_back(p.vectors);
    p.vectors += v;
  }
  if (p.prob_a.size() != p.prob_b.size()) r.fail("prob_a and prob_b differ in length");
  if (p.coefficients.empty()) r.fail("coefficients must not be empty");
  if (!p.vectors_per_class.empty()) {
    if (static_cast<int64_t>(p.vectors_per_class.size()) != l) r.fail("vectors_per_class must have one entry per class label");
    if (p.vectors == 0) r.fail("vectors_per_class counts no support vector");
    if (l < 2) r.fail("the support-vector form needs at least two classes");
    if (static_cast<int64_t>(p.coefficients.size()) != (l - 1) * p.vectors)
      r.fail("coefficients must have (classes - 1) * support vectors = " + std::to_string((l - 1) * p.vectors) +
             " entries, got " + std::to_string(p.coefficients.size()));
    if (p.support_vectors.empty() || static_cast<int64_t>(p.support_vectors.size()) % p.vectors != 0)
      r.fail("support_vectors must hold one row of equal length per support vector");
    if (static_cast<int64_t>(p.rho.size()) != p.pairs())
      r.fail("rho must have one entry per pair of classes (" + std::to_string(p.pairs()) + ")");
    if (!p.prob_a.empty() && static_cast<int64_t>(p.prob_a.size()) != p.pairs())
      r.fail("prob_a and prob_b must have one entry per pair of classes (" + std::to_string(p.pairs()) + ")");
  } else {
    if (static_cast<int64_t>(p.coefficients.size()) % l != 0)
      r.fail("coefficients must hold one row of equal length per class label");
    if (p.rho.size() != 1) r.fail("the linear form (no vectors_per_class) takes exactly one rho");
    if (!p.prob_a.empty()) r.fail("prob_a and prob_b apply to the support-vector form only");
    if (!p.support_vectors.empty()) r.fail("support_vectors given without vectors_per_class");
  }
  return p;
}

int64_t SVMClassifierParams::features() const {
  if (support_form()) return static_cast<int64_t>(support_vectors.size()) / vectors;
  return static_cast<int64_t>(coefficients.size()) / classes();
}

int64_t SVMClassifierParams::score_columns() const {
  if (!support_form() || probabilities()) return classes();
  return classes() == 2 ? 2 : pairs();
}

}  // namespace sonnx
