// The ai.onnx.preview.training optimizers' parameters (reference/ops/op_params.h), read by their
// reference kernels (Adagrad.cpp, Adam.cpp, Momentum.cpp) and by their enclosures
// (enclose/enclose_training.cpp).
#pragma once
#include <cstdint>

#include "reference/model/attr_reader.h"

namespace sonnx {

struct AdagradParams {
  float decay_factor = 0.f;
  // onnx's schema default (defs/training/defs.cc); Operators.md prints it as 0.0.
  float epsilon = 1e-6f;
  float norm_coefficient = 0.f;
  static AdagradParams read(const AttrReader& reader, int64_t version);
};

struct AdamParams {
  float alpha = 0.9f;
  float beta = 0.999f;
  // onnx's schema default (defs/training/defs.cc); Operators.md prints it as 0.0.
  float epsilon = 1e-6f;
  float norm_coefficient = 0.f;
  float norm_coefficient_post = 0.f;
  static AdamParams read(const AttrReader& reader, int64_t version);
};

// Momentum's parameters: all four attributes are required.
struct MomentumParams {
  float alpha = 0.f;
  float beta = 0.f;
  float norm_coefficient = 0.f;
  bool nesterov = false;  // mode "nesterov"; otherwise "standard"
  static MomentumParams read(const AttrReader& reader, int64_t version);
};

}  // namespace sonnx
