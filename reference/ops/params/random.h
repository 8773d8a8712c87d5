// The parameters of RandomNormal, RandomUniform, RandomNormalLike and RandomUniformLike (versions 1
// and 22; reference/ops/op_params.h), read by their reference kernels and their shape rule
// (support::random_shape_rule).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "reference/model/attr_reader.h"
#include "sonnx/dtype.h"
#include "sonnx/tensor.h"

namespace sonnx {

struct RandomParams {
  bool normal = false;              // RandomNormal(Like), N(mean, scale^2); else RandomUniform(Like), [low, high)
  bool like = false;                // the *Like forms: the input's shape (and type when dtype is absent)
  float mean = 0.0f, scale = 1.0f;  // the normal forms
  float low = 0.0f, high = 1.0f;    // the uniform forms
  std::optional<DType> dtype;       // checked to be one of the version's output types (output_type_error)
  Shape shape;                      // RandomNormal/RandomUniform: the required output shape, dims >= 0
  std::optional<float> seed;        // the node's own generator's seed; absent: the run's generator

  // The output element type: dtype, else float (or the input's type `input` for the *Like forms).
  DType output_type(DType input) const { return dtype.value_or(like ? input : DType::Float); }
  // "" when t is one of the version's output types (float16, float, double; from 22 also
  // bfloat16), else why not.
  static std::string output_type_error(DType t, int64_t version);
  static RandomParams read(const AttrReader& reader, int64_t version);
};

}  // namespace sonnx
