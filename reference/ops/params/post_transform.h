// The post_transform string attribute of the ai.onnx.ml predictors (LinearRegressor,
// LinearClassifier, SVMRegressor, SVMClassifier): the one parser of it. TreeEnsemble-5 takes an
// int instead (params/tree_ensemble.cpp).
#pragma once
#include <string>

#include "reference/model/attr_reader.h"
#include "reference/ops/support/post_transform.h"

namespace sonnx {

// post_transform ("NONE" when absent); fail()s on a name outside the five the spec lists.
inline support::PostTransform read_post_transform(const AttrReader& r) {
  using support::PostTransform;
  const std::string s = r.attr_string("post_transform", "NONE");
  if (s == "NONE") return PostTransform::None;
  if (s == "SOFTMAX") return PostTransform::Softmax;
  if (s == "LOGISTIC") return PostTransform::Logistic;
  if (s == "SOFTMAX_ZERO") return PostTransform::SoftmaxZero;
  if (s != "PROBIT") r.fail("unknown post_transform '" + s + "'");
  return PostTransform::Probit;
}

}  // namespace sonnx
