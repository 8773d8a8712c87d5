// Reshape: same data, new shape. Version 1 takes the shape as an attribute (consumed_inputs is
// ignored); from version 5 on it is the second input. In the shape, -1 (at most once) is inferred
// from the element count and 0 copies the input's dimension at that position, unless (version 14)
// allowzero=1, when 0 means a zero-sized dimension.
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
Tensor reshape(const OpContext& ctx, const Tensor& data, const std::vector<int64_t>& requested, bool allow_zero) {
  Shape shape = requested;
  int64_t infer_at = -1;
  bool has_zero = false;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      if (infer_at >= 0) ctx.fail("the shape may contain -1 at most once");
      infer_at = static_cast<int64_t>(i);
    } else if (shape[i] == 0) {
      has_zero = true;
      if (!allow_zero) {
        if (static_cast<int64_t>(i) >= data.rank())
          ctx.fail("shape entry " + std::to_string(i) + " is 0 but the input has no dimension there");
        shape[i] = data.dim(static_cast<int64_t>(i));
      }
    } else if (shape[i] < -1) {
      ctx.fail("invalid shape entry " + std::to_string(shape[i]));
    }
  }
  if (allow_zero && has_zero && infer_at >= 0) ctx.fail("with allowzero=1 the shape may not contain both 0 and -1");
  if (infer_at >= 0) {
    int64_t known = 1;
    for (size_t i = 0; i < shape.size(); ++i)
      if (static_cast<int64_t>(i) != infer_at) known = checked_mul(ctx, known, shape[i]);
    if (known == 0) ctx.fail("cannot infer the -1 dimension when the other dimensions multiply to 0");
    if (data.size() % known != 0)
      ctx.fail("cannot reshape " + shape_str(data.shape()) + " to " + shape_str(requested));
    shape[static_cast<size_t>(infer_at)] = data.size() / known;
  }
  // shape_size traps on absurd products, so the element-count comparison below is safe.
  if (shape_size(shape) != data.size())
    ctx.fail("cannot reshape " + shape_str(data.shape()) + " (" + std::to_string(data.size()) + " elements) to " +
             shape_str(requested));
  return data.reshaped(shape);
}

std::vector<Value> reshape_v1(OpContext& ctx) {
  if (!ctx.has_attr("shape")) ctx.fail("attribute 'shape' is required");
  return one(reshape(ctx, ctx.input(0), ctx.attr_ints("shape"), false));
}

std::vector<Value> reshape_v5(OpContext& ctx) {
  const Tensor& shape = ctx.input(1);
  if (shape.rank() != 1) ctx.fail("the shape input must be 1-D");
  bool allow_zero = ctx.version() >= 14 && ctx.attr_int("allowzero", 0) != 0;
  return one(reshape(ctx, ctx.input(0), int_values(ctx, shape, "shape"), allow_zero));
}
}  // namespace
SONNX_KERNEL("", "Reshape", 1, reshape_v1, Accuracy::Exact);
SONNX_KERNEL("", "Reshape", 5, reshape_v5, Accuracy::Exact);
SONNX_KERNEL("", "Reshape", 14, reshape_v5, Accuracy::Exact);

// Versions 19, 21, 23, 24, 25 only widen the type lists (the documents' text and
// structure are unchanged): the same kernel.
SONNX_KERNEL("", "Reshape", 19, reshape_v5, Accuracy::Exact);
SONNX_KERNEL("", "Reshape", 21, reshape_v5, Accuracy::Exact);
SONNX_KERNEL("", "Reshape", 23, reshape_v5, Accuracy::Exact);
SONNX_KERNEL("", "Reshape", 24, reshape_v5, Accuracy::Exact);
SONNX_KERNEL("", "Reshape", 25, reshape_v5, Accuracy::Exact);
}  // namespace sonnx
