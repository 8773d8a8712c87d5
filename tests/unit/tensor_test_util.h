// Small builders shared by the executor and kernel tests: declared float types and random tensors.
#pragma once
#include <random>

#include "reference/model/ir.h"
#include "reference/model/tensor.h"

namespace sonnx::testing {

inline TypeInfo float_type(const Shape& shape) {
  TypeInfo t;
  t.kind = TypeInfo::Kind::Tensor;
  t.elem = DType::Float;
  std::vector<Dim> dims;
  for (int64_t d : shape) dims.push_back(Dim{d, ""});
  t.shape = dims;
  return t;
}

inline Tensor random_float_tensor(const Shape& shape, std::mt19937& rng, float lo = -1, float hi = 1) {
  std::uniform_real_distribution<float> u(lo, hi);
  Tensor t(DType::Float, shape);
  for (float& v : t.values<float>()) v = u(rng);
  return t;
}

}  // namespace sonnx::testing
