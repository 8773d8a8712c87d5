// Concat: joins tensors along an axis; all other dimensions must agree. Version 1 defaults the
// axis to 1; from version 4 it is required; negative axes are accepted (documented from 11).
// Relies on ops/ops.mlw Concat.covered: Concat covers every position along the axis.
#include "op_params.h"
#include "params/movement.h"
#include "support/shape.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> concat(OpContext& ctx) {
  if (ctx.num_inputs() == 0) ctx.fail("at least one input is required");
  ConcatParams p = ConcatParams::read(ctx, ctx.version());
  const Tensor& first = ctx.input(0);
  int64_t rank = first.rank();
  if (rank == 0) ctx.fail("cannot concatenate scalars");
  int64_t axis = normalize_axis(ctx, p.axis, rank);
  Shape out_shape = first.shape();
  out_shape[static_cast<size_t>(axis)] = 0;
  for (size_t k = 0; k < ctx.num_inputs(); ++k) {
    const Tensor& t = ctx.input(k);
    if (t.dtype() != first.dtype()) ctx.fail("inputs have different element types");
    if (t.rank() != rank) ctx.fail("inputs have different ranks");
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis && t.dim(d) != first.dim(d))
        ctx.fail("input shapes " + shape_str(first.shape()) + " and " + shape_str(t.shape()) +
                 " differ outside the concatenation axis");
    out_shape[static_cast<size_t>(axis)] += t.dim(axis);
  }
  Tensor out(first.dtype(), out_shape);
  // View every tensor as [outer, axis_dim * inner]: each input contributes one contiguous block
  // per outer index.
  int64_t outer = element_count(out_shape, 0, static_cast<size_t>(axis));
  int64_t inner = element_count(out_shape, static_cast<size_t>(axis) + 1, out_shape.size());
  int64_t out_row = out_shape[static_cast<size_t>(axis)] * inner;
  int64_t offset = 0;
  for (size_t k = 0; k < ctx.num_inputs(); ++k) {  // block copies: any element type
    const Tensor& t = ctx.input(k);
    int64_t row = t.dim(axis) * inner;
    for (int64_t o = 0; o < outer; ++o) copy_elements(t, o * row, out, o * out_row + offset, row);
    offset += row;
  }
  return one(std::move(out));
}
}  // namespace
SONNX_PARAMS("", "Concat", (1, 4, 11, 13), ConcatParams);
SONNX_KERNEL("", "Concat", 1, concat, Accuracy::Exact);
SONNX_KERNEL("", "Concat", 4, concat, Accuracy::Exact);
namespace {
// Inputs agree on every dim but the axis; the output's axis dim is their sum. Small 1-D integer
// values concatenate element by element (the shape vectors of Shape -> Concat -> Reshape).
void concat_shape(InferContext& ctx) {
  std::vector<size_t> all;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) all.push_back(i);
  DType t = common_elem(ctx, all);
  int64_t axis_attr = ConcatParams::read(ctx, ctx.version()).axis;
  std::optional<Dims> out;
  for (size_t i = 0; i < ctx.num_inputs(); ++i)
    if (const Dims* s = ctx.input_shape(i)) {
      out = *s;
      break;
    }
  if (!out) {
    ctx.set_output(0, t, std::nullopt);
    return;
  }
  int64_t r = static_cast<int64_t>(out->size());
  if (r == 0) ctx.fail("cannot concatenate scalars");
  int64_t axis = infer_axis(ctx, axis_attr, r);
  if (ctx.version() < 11 && axis_attr < 0) ctx.fail("a negative axis needs version 11");
  int64_t sum = 0;
  bool sum_known = true;
  std::vector<PartialValue> parts;
  bool all_partial = axis == 0 && r == 1;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    const Dims* s = ctx.input_shape(i);
    if (all_partial) {
      auto p = ctx.input_partial(i);
      if (p && !p->scalar) parts.push_back(std::move(*p));
      else all_partial = false;
    }
    if (!s) {
      sum_known = false;
      continue;
    }
    if (static_cast<int64_t>(s->size()) != r)
      ctx.fail("input " + std::to_string(i) + " has rank " + std::to_string(s->size()) + ", input 0 has " + std::to_string(r));
    for (int64_t k = 0; k < r; ++k) {
      if (k == axis) continue;
      (*out)[static_cast<size_t>(k)] = unify_dim(ctx, (*out)[static_cast<size_t>(k)], (*s)[static_cast<size_t>(k)],
                                                 "input " + std::to_string(i) + " on axis " + std::to_string(k));
    }
    const Dim& d = (*s)[static_cast<size_t>(axis)];
    if (sum_known && d.value && *d.value <= kMaxDimValue) sum += *d.value;
    else sum_known = false;
  }
  (*out)[static_cast<size_t>(axis)] = sum_known ? known_dim(sum) : Dim{};
  ctx.set_output(0, t, out);
  if (all_partial) {
    PartialValue joined;
    for (auto& p : parts) joined.elems.insert(joined.elems.end(), p.elems.begin(), p.elems.end());
    ctx.set_output_partial(0, std::move(joined));
  }
}
}  // namespace
SONNX_SHAPE_RULE("", "Concat", (1, 4, 11, 13), concat_shape);
}  // namespace sonnx
