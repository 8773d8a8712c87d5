// Small builders shared by the executor and kernel tests: declared types and random tensors.
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

// The static type of t (its element type and shape).
inline TypeInfo type_of(const Tensor& t) {
  TypeInfo ti = float_type(t.shape());
  ti.elem = t.dtype();
  return ti;
}

// A 1-D int64 tensor of v.
inline Tensor i64(std::vector<int64_t> v) { return Tensor::from_vector<int64_t>({static_cast<int64_t>(v.size())}, v); }

inline Tensor random_float_tensor(const Shape& shape, std::mt19937& rng, float lo = -1, float hi = 1) {
  std::uniform_real_distribution<float> u(lo, hi);
  Tensor t(DType::Float, shape);
  for (float& v : t.values<float>()) v = u(rng);
  return t;
}

}  // namespace sonnx::testing
