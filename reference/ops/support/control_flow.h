// Control flow (If, Loop, Scan): scalar condition and count inputs, and the empty scan output of
// a loop that ran no iteration.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "kernel.h"

namespace sonnx::support {

// An empty tensor standing for a scan output no iteration produced: the subgraph output's declared
// element type and dims (an unknown dim is taken as 0; the tensor has no elements either way) with
// a new axis of size 0 inserted at `axis`.
inline Tensor empty_scan_output(const OpContext& ctx, const ValueInfo& body_out, int64_t axis) {
  const TypeInfo& t = body_out.type;
  if (t.kind != TypeInfo::Kind::Tensor || t.elem == DType::Undefined)
    ctx.fail("no iteration ran and the element type of scan output '" + body_out.name + "' is not declared");
  Shape shape;
  if (t.shape)
    for (const Dim& d : *t.shape) shape.push_back(d.value ? *d.value : 0);
  if (axis < 0 || axis > static_cast<int64_t>(shape.size()))
    ctx.fail("no iteration ran and the rank of scan output '" + body_out.name + "' is not declared");
  shape.insert(shape.begin() + axis, 0);
  return Tensor(t.elem, shape);
}

// A scalar (or single-element) integer input read as int64: positions, trip counts.
inline int64_t scalar_int_input(const OpContext& ctx, size_t i, const char* what) {
  const Tensor& t = ctx.input(i);
  if (t.size() != 1) ctx.fail(std::string(what) + " must hold exactly one element, got shape " + shape_str(t.shape()));
  if (!is_integer(t.dtype())) ctx.fail(std::string(what) + " must be an integer tensor");
  return t.as_int64(0);
}

// A scalar (or single-element) boolean input.
inline bool scalar_bool(const OpContext& ctx, const Tensor& t, const char* what) {
  if (t.dtype() != DType::Bool) ctx.fail(std::string(what) + " must be a bool tensor");
  if (t.size() != 1) ctx.fail(std::string(what) + " must hold exactly one element, got shape " + shape_str(t.shape()));
  return t.data<bool>()[0];
}

}  // namespace sonnx::support
