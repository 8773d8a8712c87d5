// Slice: selects start:end:step along some axes (numpy basic slicing). Version 1 reads starts,
// ends and axes from attributes (step 1); from version 10 they are inputs, with optional axes and
// steps. Effective bounds follow the version 13 text: negative starts/ends count from the end;
// for a positive step start and end clamp to [0, dim]; for a negative step start clamps to
// [0, dim-1] and end to [-1, dim-1]. Steps may not be 0 and axes may not repeat.
// Relies on ops/movement.mlw Slice.slice_reads_valid: with the clamped start and the length ceil((end - start) / step), every position start + c * step read lies inside the axis, for positive and negative steps.
#include "op_params.h"
#include "params/movement.h"
#include "support/shape.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
Tensor slice(const OpContext& ctx, const Tensor& x, const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
             std::vector<int64_t> axes, std::vector<int64_t> steps) {
  const SliceWindow w = slice_window(ctx, x.shape(), starts, ends, std::move(axes), std::move(steps));
  const std::vector<int64_t>&first = w.first, &step = w.step;
  const Shape& out_shape = w.out_shape;
  auto in_strides = strides_of(x.shape());
  std::vector<int64_t> map(static_cast<size_t>(shape_size(out_shape)));
  for_each_index(out_shape, [&](const std::vector<int64_t>& idx, int64_t lin) {
    int64_t src = 0;
    // first + idx*step stays inside [0, dim) because idx < len.
    for (size_t d = 0; d < idx.size(); ++d) src += (first[d] + idx[d] * step[d]) * in_strides[d];
    map[static_cast<size_t>(lin)] = src;
  });
  return take(x, out_shape, map);
}

std::vector<Value> slice_v1(OpContext& ctx) {
  SliceParams p = SliceParams::read(ctx, ctx.version());
  return one(slice(ctx, ctx.input(0), p.starts, p.ends, p.axes.value_or(std::vector<int64_t>{}), {}));
}

std::vector<Value> slice_v10(OpContext& ctx) {
  auto vec = [&](size_t i, const char* what) {
    if (!ctx.has_input(i)) return std::vector<int64_t>{};
    const Tensor& t = ctx.input(i);
    if (t.rank() != 1) ctx.fail(std::string(what) + " must be a 1-D tensor");
    return int_values(ctx, t, what);
  };
  if (!ctx.has_input(1) || !ctx.has_input(2)) ctx.fail("inputs 'starts' and 'ends' are required");
  std::vector<int64_t> starts = vec(1, "starts"), ends = vec(2, "ends"), axes = vec(3, "axes"), steps = vec(4, "steps");
  if (ctx.has_input(3) && axes.size() != starts.size()) ctx.fail("axes and starts have different lengths");
  if (ctx.has_input(4) && steps.size() != starts.size()) ctx.fail("steps and starts have different lengths");
  return one(slice(ctx, ctx.input(0), starts, ends, axes, steps));
}
}  // namespace
SONNX_PARAMS("", "Slice", (1, 10, 11, 13), SliceParams);
SONNX_KERNEL("", "Slice", 1, slice_v1, Accuracy::Exact);
SONNX_KERNEL("", "Slice", 10, slice_v10, Accuracy::Exact);
namespace {
// Number of elements [start, end) with step selects from a dim of size d (numpy clamping).
int64_t slice_count(int64_t d, int64_t start, int64_t end, int64_t step, int64_t& first) {
  if (start < 0) start += d;
  if (end < 0) end += d;
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, d);
    end = std::clamp<int64_t>(end, 0, d);
    first = start;
    return end > start ? (end - start - 1) / step + 1 : 0;
  }
  start = std::clamp<int64_t>(start, 0, d - 1);
  end = std::clamp<int64_t>(end, -1, d - 1);
  first = start;
  return start > end ? (start - end - 1) / -step + 1 : 0;
}

void slice_shape(InferContext& ctx) {
  DType t = ctx.input_elem(0);
  const Dims* x = ctx.input_shape(0);
  std::optional<std::vector<int64_t>> starts, ends, axes, steps;
  SliceParams p = SliceParams::read(ctx, ctx.version());
  if (!p.from_inputs) {
    starts = p.starts;
    ends = p.ends;
    axes = p.axes;
  } else {
    starts = ctx.input_ints(1);
    ends = ctx.input_ints(2);
    if (ctx.has_input(3)) {
      axes = ctx.input_ints(3);
      if (!axes) starts.reset();
    }
    if (ctx.has_input(4)) {
      steps = ctx.input_ints(4);
      if (!steps) starts.reset();
    }
  }
  if (!x) {
    ctx.set_output(0, t, std::nullopt);
    return;
  }
  int64_t r = static_cast<int64_t>(x->size());
  if (!starts || !ends) {
    // Which axes are sliced is unknown: every dim may change, the rank stays.
    ctx.set_output(0, t, Dims(x->size()));
    return;
  }
  if (starts->size() != ends->size()) ctx.fail("starts and ends have different lengths");
  if (!axes) {
    axes.emplace();
    for (size_t i = 0; i < starts->size(); ++i) axes->push_back(static_cast<int64_t>(i));
  }
  if (!steps) steps = std::vector<int64_t>(starts->size(), 1);
  if (axes->size() != starts->size() || steps->size() != starts->size())
    ctx.fail("starts, ends, axes and steps must have the same length");
  std::vector<int64_t> ax = infer_axes(ctx, *axes, r);
  Dims out = *x;
  std::optional<int64_t> first0;
  int64_t step0 = 1;
  for (size_t i = 0; i < ax.size(); ++i) {
    int64_t step = (*steps)[i];
    if (step == 0) ctx.fail("slice step cannot be 0");
    Dim& d = out[static_cast<size_t>(ax[i])];
    if (!d.value) {
      d = Dim{};
      continue;
    }
    int64_t first = 0;
    d = known_dim(slice_count(*d.value, (*starts)[i], (*ends)[i], step, first));
    if (ax[i] == 0) {
      first0 = first;
      step0 = step;
    }
  }
  ctx.set_output(0, t, out);
  // A slice of a 1-D partial value (part of a shape vector).
  if (auto p = ctx.input_partial(0);
      p && !p->scalar && r == 1 && out[0].value && (*x)[0].value && *(*x)[0].value == static_cast<int64_t>(p->elems.size())) {
    PartialValue s;
    int64_t first = first0.value_or(0);
    for (int64_t k = 0; k < *out[0].value; ++k) s.elems.push_back(p->elems[static_cast<size_t>(first + k * step0)]);
    ctx.set_output_partial(0, std::move(s));
  }
}
}  // namespace
SONNX_SHAPE_RULE("", "Slice", (1, 10, 11, 13), slice_shape);
}  // namespace sonnx
