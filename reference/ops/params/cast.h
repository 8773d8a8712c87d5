// The parameters of Cast and CastLike (reference/ops/op_params.h), read by their reference kernels
// and shape rules.
#pragma once
#include <cstdint>

#include "reference/model/attr_reader.h"
#include "sonnx/dtype.h"
#include "sonnx/small_types.h"

namespace sonnx {

struct CastParams {
  // Cast's target: the attribute `to` (required, checked), a TensorProto data type, or in version 1
  // a type name ("FLOAT16", any case). Undefined for a data type sonnx does not model (the kernel
  // refuses it; type inference leaves the element type unknown). CastLike takes the second input's.
  DType to = DType::Undefined;
  // saturate (19+, default 1), round_mode (24+: "up" (default), "down" or "nearest", checked), and
  // ±inf → ±max in the fnuz types from version 24.
  NarrowOptions options;
  static CastParams read(const AttrReader& reader, int64_t version);
};

}  // namespace sonnx
