// Slice: selects start:end:step along some axes (numpy basic slicing). Version 1 reads starts,
// ends and axes from attributes (step 1); from version 10 they are inputs, with optional axes and
// steps. Effective bounds follow the version 13 text: negative starts/ends count from the end;
// for a positive step start and end clamp to [0, dim]; for a negative step start clamps to
// [0, dim-1] and end to [-1, dim-1]. Steps may not be 0 and axes may not repeat.
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
Tensor slice(const OpContext& ctx, const Tensor& x, const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
             std::vector<int64_t> axes, std::vector<int64_t> steps) {
  int64_t rank = x.rank();
  size_t n = starts.size();
  if (ends.size() != n) ctx.fail("starts and ends have different lengths");
  if (axes.empty() && n > 0) {
    if (static_cast<int64_t>(n) > rank) ctx.fail("more starts than input dimensions");
    for (size_t i = 0; i < n; ++i) axes.push_back(static_cast<int64_t>(i));
  }
  if (steps.empty()) steps.assign(n, 1);
  if (axes.size() != n) ctx.fail("axes and starts have different lengths");
  if (steps.size() != n) ctx.fail("steps and starts have different lengths");
  axes = normalize_axes(ctx, axes, rank);

  std::vector<int64_t> first(static_cast<size_t>(rank), 0), step(static_cast<size_t>(rank), 1);
  Shape out_shape = x.shape();
  std::vector<bool> seen(static_cast<size_t>(rank), false);
  for (size_t i = 0; i < n; ++i) {
    size_t a = static_cast<size_t>(axes[i]);
    if (seen[a]) ctx.fail("axis " + std::to_string(axes[i]) + " appears twice");
    seen[a] = true;
    int64_t st = steps[i];
    if (st == 0) ctx.fail("slice step cannot be 0");
    int64_t dim = x.shape()[a];
    int64_t s = starts[i], e = ends[i];
    if (s < 0) s += dim;  // s < 0 ≤ dim: cannot overflow
    if (e < 0) e += dim;
    int64_t len = 0;
    if (st > 0) {
      s = std::clamp<int64_t>(s, 0, dim);
      e = std::clamp<int64_t>(e, 0, dim);
      // ceil((e - s) / st) in unsigned arithmetic: st may be as large as INT64_MAX.
      if (e > s) len = static_cast<int64_t>((static_cast<uint64_t>(e - s) - 1) / static_cast<uint64_t>(st) + 1);
    } else if (dim > 0) {
      s = std::clamp<int64_t>(s, 0, dim - 1);
      e = std::clamp<int64_t>(e, -1, dim - 1);
      uint64_t abs_step = 0 - static_cast<uint64_t>(st);  // |st|, also for INT64_MIN
      if (s > e) len = static_cast<int64_t>((static_cast<uint64_t>(s - e) - 1) / abs_step + 1);
    }
    first[a] = s;
    step[a] = st;
    out_shape[a] = len;
  }

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
  if (!ctx.has_attr("starts") || !ctx.has_attr("ends")) ctx.fail("attributes 'starts' and 'ends' are required");
  return one(slice(ctx, ctx.input(0), ctx.attr_ints("starts"), ctx.attr_ints("ends"), ctx.attr_ints("axes"), {}));
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
SONNX_KERNEL("", "Slice", 1, slice_v1, Accuracy::Exact);
SONNX_KERNEL("", "Slice", 10, slice_v10, Accuracy::Exact);
}  // namespace sonnx
