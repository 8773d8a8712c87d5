// What the enclosures built on sums of products (dot.h: Conv, MatMul, Gemm, the pools, the
// reductions, ConvTranspose) share: their operands in midpoint-radius form, and what a sum in the
// element type may add under the call's semantics.
#pragma once
#include <vector>

#include "dot.h"
#include "enclose_ops.h"

namespace sonnx::enclose {

// What a sum in the element type may err under the admissible semantics; nothing under the real one.
inline TypeSum type_sum(const OpCall& c, DType type) {
  return c.semantics == Semantics::Admissible ? TypeSum::of(float_format(type)) : TypeSum{};
}

// Every element of float bounds as a midpoint and radius.
inline std::vector<MidRad> mid_rad(const Bounds& b) {
  std::vector<MidRad> v(static_cast<size_t>(b.lo.size()));
  for (int64_t i = 0; i < b.lo.size(); ++i) v[static_cast<size_t>(i)] = MidRad::of(at(b, i));
  return v;
}

}  // namespace sonnx::enclose
