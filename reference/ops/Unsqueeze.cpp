// Unsqueeze: inserts size-1 axes at the given positions of the output (rank r + len(axes));
// negative positions count from the end of the output (from version 11; accepted throughout);
// duplicates are an error. Axes are an attribute up to version 12 and an input from 13.
// Relies on ops/shape_ops.mlw Unsqueeze.unsqueeze_unique: Unsqueeze's output (shape and elements) is determined by its input and axes.
#include "op_params.h"
#include "params/movement.h"
#include "support/shape.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
Tensor unsqueeze(const OpContext& ctx, const Tensor& x, const std::vector<int64_t>& axes) {
  int64_t out_rank = x.rank() + static_cast<int64_t>(axes.size());
  std::vector<bool> inserted(static_cast<size_t>(out_rank), false);
  for (int64_t a : normalize_axes(ctx, axes, out_rank)) {
    if (inserted[static_cast<size_t>(a)]) ctx.fail("axis " + std::to_string(a) + " is listed twice");
    inserted[static_cast<size_t>(a)] = true;
  }
  Shape out;
  int64_t next = 0;
  for (int64_t d = 0; d < out_rank; ++d) out.push_back(inserted[static_cast<size_t>(d)] ? 1 : x.dim(next++));
  return x.reshaped(out);
}

std::vector<Value> unsqueeze_v1(OpContext& ctx) {
  return one(unsqueeze(ctx, ctx.input(0), *SqueezeParams::read(ctx, ctx.version()).axes));
}

std::vector<Value> unsqueeze_v13(OpContext& ctx) {
  const Tensor& a = ctx.input(1);
  // The spec says 1-D; a scalar (used by the official test_loop13_seq model) is read as one axis.
  if (a.rank() > 1) ctx.fail("axes must be a 1-D tensor");
  return one(unsqueeze(ctx, ctx.input(0), int_values(ctx, a, "axes")));
}
}  // namespace
SONNX_PARAMS("", "Unsqueeze", (1, 11, 13, 21, 23, 24, 25), SqueezeParams);
SONNX_KERNEL("", "Unsqueeze", 1, unsqueeze_v1, Accuracy::Exact);
SONNX_KERNEL("", "Unsqueeze", 13, unsqueeze_v13, Accuracy::Exact);

// Versions 21, 23, 24, 25 only widen the type lists (the documents' text and
// structure are unchanged): the same kernel.
SONNX_KERNEL("", "Unsqueeze", 21, unsqueeze_v13, Accuracy::Exact);
SONNX_KERNEL("", "Unsqueeze", 23, unsqueeze_v13, Accuracy::Exact);
SONNX_KERNEL("", "Unsqueeze", 24, unsqueeze_v13, Accuracy::Exact);
SONNX_KERNEL("", "Unsqueeze", 25, unsqueeze_v13, Accuracy::Exact);
namespace {
// Axes (attribute before 13, input from 13) index the output, of rank r + len(axes).
void unsqueeze_shape(InferContext& ctx) {
  DType t = ctx.input_elem(0);
  SqueezeParams p = SqueezeParams::read(ctx, ctx.version());
  std::optional<std::vector<int64_t>> axes = p.axes_from_input ? ctx.input_ints(1) : p.axes;
  const Dims* x = ctx.input_shape(0);
  if (!axes || !x) {
    ctx.set_output(0, t, std::nullopt);
    return;
  }
  int64_t out_rank = static_cast<int64_t>(x->size() + axes->size());
  std::vector<int64_t> ax = infer_axes(ctx, *axes, out_rank);
  Dims out;
  size_t next = 0;
  for (int64_t i = 0; i < out_rank; ++i) {
    if (std::find(ax.begin(), ax.end(), i) != ax.end()) out.push_back(known_dim(1));
    else out.push_back((*x)[next++]);
  }
  ctx.set_output(0, t, out);
  if (auto p = ctx.input_partial(0); p && out.size() == 1 && p->elems.size() == 1) {
    p->scalar = false;
    ctx.set_output_partial(0, std::move(*p));
  }
}
}  // namespace
SONNX_SHAPE_RULE("", "Unsqueeze", (1, 11, 13, 21, 23, 24, 25), unsqueeze_shape);
}  // namespace sonnx
