// The parameters of SVMRegressor and SVMClassifier (ai.onnx.ml 1; reference/ops/op_params.h),
// read by their reference kernels and shape rules. The layouts the spec leaves open are decided in
// spec/ops/SVMRegressor.md and spec/ops/SVMClassifier.md.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "class_labels.h"
#include "reference/model/attr_reader.h"
#include "reference/ops/support/post_transform.h"
#include "reference/ops/support/svm.h"

namespace sonnx {

// kernel_type and kernel_params (empty or exactly [gamma, coef0, degree]).
support::SvmKernel read_svm_kernel(const AttrReader& r);

// With n_supports > 0: y = sum_j coefficients[j] K(x, sv_j) + rho[0] (support_vectors n_supports
// rows of C). With n_supports = 0: the linear form y = x . coefficients + rho[0] (C coefficients;
// the kernel is not used). one_class turns y into +1 (y > 0) or -1; post_transform comes last.
struct SVMRegressorParams {
  support::SvmKernel kernel;
  int64_t n_supports = 0;
  std::vector<float> support_vectors, coefficients;
  double rho = 0;
  bool one_class = false;
  support::PostTransform post_transform = support::PostTransform::None;

  static SVMRegressorParams read(const AttrReader& r, int64_t version);
  int64_t features() const;  // the C that X must have
};

// Support-vector form (vectors_per_class given): per pair of classes i < j (in the order (0,1),
// (0,2), ..., (1,2), ...), d = sum over i's vectors v of coefficients[(j-1) V + v] K(x, sv_v)
// + sum over j's vectors of coefficients[i V + v] K(x, sv_v) + rho[pair]; d > 0 votes for i.
// Linear form (vectors_per_class empty): score_k = x . coefficients[k C ... k C + C) + rho[0].
struct SVMClassifierParams {
  ClassLabels labels;
  support::SvmKernel kernel;
  std::vector<int64_t> vectors_per_class, first_vector;  // first_vector: each class's first row
  int64_t vectors = 0;                                   // V, the sum of vectors_per_class
  std::vector<float> support_vectors, coefficients, rho, prob_a, prob_b;
  support::PostTransform post_transform = support::PostTransform::None;

  static SVMClassifierParams read(const AttrReader& r, int64_t version);
  bool support_form() const { return vectors > 0; }
  bool probabilities() const { return !prob_a.empty(); }
  int64_t classes() const { return labels.size(); }
  int64_t pairs() const { return classes() * (classes() - 1) / 2; }
  int64_t features() const;       // the C that X must have
  int64_t score_columns() const;  // Z's columns
};

}  // namespace sonnx
