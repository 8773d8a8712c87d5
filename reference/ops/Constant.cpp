// Constant: a tensor fixed by exactly one attribute (value; from version 12 also value_float(s),
// value_int(s), value_string(s)). Sparse values are not supported by the reference.
// Relies on ops/shape_ops.mlw Constant.constant_unique: Constant's output is determined by its one value attribute.
#include "op_params.h"
#include "params/constant.h"
#include "support/shape.h"
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> constant(OpContext& ctx) {
  ConstantParams p = ConstantParams::read(ctx, ctx.version());
  if (p.sparse) ctx.fail("unsupported attribute 'sparse_value' (sparse constants are not supported)");
  return one(p.value());
}
}  // namespace
SONNX_PARAMS("", "Constant", (1, 9, 11, 12, 13, 19, 21, 23, 24, 25), ConstantParams);
SONNX_KERNEL("", "Constant", 1, constant, Accuracy::Exact);

// Versions 19, 21, 23, 24, 25 only widen the type lists (the documents' text and
// structure are unchanged): the same kernel.
SONNX_KERNEL("", "Constant", 19, constant, Accuracy::Exact);
SONNX_KERNEL("", "Constant", 21, constant, Accuracy::Exact);
SONNX_KERNEL("", "Constant", 23, constant, Accuracy::Exact);
SONNX_KERNEL("", "Constant", 24, constant, Accuracy::Exact);
SONNX_KERNEL("", "Constant", 25, constant, Accuracy::Exact);
namespace {
// The type and shape of the one value attribute; the value itself when small.
void constant_shape(InferContext& ctx) {
  ConstantParams p = ConstantParams::read(ctx, ctx.version());
  if (p.sparse) return;  // the output stays unknown (the kernel refuses it)
  const Tensor& v = p.value();
  ctx.set_output(0, v.dtype(), known_dims(v.shape()));
  // Known to the folding: a `value` tensor, and small value_int(s).
  bool ints = p.attribute == "value_int" || (p.attribute == "value_ints" && v.size() <= kMaxKnownElements);
  if (p.attribute == "value" || ints) ctx.set_output_value(0, v);
}
}  // namespace
SONNX_SHAPE_RULE("", "Constant", (1, 9, 11, 12, 13, 19, 21, 23, 24, 25), constant_shape);
}  // namespace sonnx
