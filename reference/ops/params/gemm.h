// Gemm's parameters (reference/ops/op_params.h), read by its reference kernel, shape rule, fast kernel and
// enclosures.
#pragma once
#include <cstdint>
#include <string>

#include "reference/model/attr_reader.h"
#include "sonnx/tensor.h"

namespace sonnx {

struct GemmParams {
  bool trans_a = false, trans_b = false;
  float alpha = 1, beta = 1;
  // C must be [M, N] unless it broadcasts: versions 1 and 6 only with broadcast=1, later always.
  bool c_broadcasts = true;
  static GemmParams read(const AttrReader& reader, int64_t version);

  // Y's [M, N] and the contracted K for A and B of these shapes: "" when they fit, else why not.
  struct Dims {
    int64_t M = 0, K = 0, N = 0;
  };
  std::string dims(const Shape& a, const Shape& b, Dims& out) const;
};

}  // namespace sonnx
