// Unique: the distinct values of the flattened input, or (with `axis`) the distinct slices along
// an axis, with four outputs: Y, the index of each one's first occurrence, the inverse mapping
// (for each input element/slice, its position in Y) and the counts. sorted=1 (default) orders Y
// ascending (slices lexicographically, in row-major order of their elements); sorted=0 keeps the
// order of first occurrence. Values compare as numpy sorts them: -0 equals 0, NaNs are all equal
// and sort last; complex by (real, imag); strings bytewise.
#include <numeric>
#include <optional>

#include "op_params.h"
#include "support/shape.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
struct UniqueParams {
  std::optional<int64_t> axis;  // not yet checked against the rank; absent: the flattened input
  bool sorted = true;           // any nonzero sorted is true
  static UniqueParams read(const AttrReader& r, int64_t /*version*/) {
    UniqueParams p;
    if (r.has_attr("axis")) p.axis = r.attr_int("axis", 0);
    p.sorted = r.attr_int("sorted", 1) != 0;
    return p;
  }
};

std::vector<Value> unique(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  UniqueParams params = UniqueParams::read(ctx, ctx.version());
  bool sorted = params.sorted;
  bool has_axis = params.axis.has_value();
  // View x as [outer, n, inner] where the n items (elements or slices) are being deduplicated.
  int64_t axis = 0, n = x.size(), outer = 1, inner = 1;
  if (has_axis) {
    if (x.rank() == 0) ctx.fail("axis given for a scalar input");
    axis = normalize_axis(ctx, *params.axis, x.rank());
    n = x.dim(axis);
    outer = element_count(x.shape(), 0, static_cast<size_t>(axis));
    inner = element_count(x.shape(), static_cast<size_t>(axis) + 1, x.shape().size());
  }
  auto at = [&](int64_t item, int64_t o, int64_t i) { return (o * n + item) * inner + i; };

  // Items in ascending order (stable: equal items keep index order, so each group's first member
  // is its first occurrence).
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), int64_t{0});
  std::vector<int64_t> group_of(static_cast<size_t>(n));  // item -> group id in ascending order
  std::vector<int64_t> first_of;                          // group -> first occurrence
  std::vector<int64_t> count_of;                          // group -> count
  visit_dtype(x.dtype(), [&]<class T>() {
    const T* p = x.data<T>();
    auto compare_items = [&](int64_t a, int64_t b) {
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
          int c = compare_values(p[at(a, o, i)], p[at(b, o, i)]);
          if (c != 0) return c;
        }
      return 0;
    };
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return compare_items(a, b) < 0; });
    for (size_t s = 0; s < order.size(); ++s) {
      int64_t item = order[s];
      if (s == 0 || compare_items(order[s - 1], item) != 0) {
        first_of.push_back(item);
        count_of.push_back(0);
      }
      group_of[static_cast<size_t>(item)] = static_cast<int64_t>(first_of.size()) - 1;
      ++count_of.back();
    }
  });
  size_t groups = first_of.size();
  // Output position of each group: ascending, or by first occurrence.
  std::vector<int64_t> out_order(groups);  // output position -> group
  std::iota(out_order.begin(), out_order.end(), int64_t{0});
  if (!sorted)
    std::sort(out_order.begin(), out_order.end(),
              [&](int64_t a, int64_t b) { return first_of[static_cast<size_t>(a)] < first_of[static_cast<size_t>(b)]; });
  std::vector<int64_t> position_of(groups);  // group -> output position
  for (size_t pos = 0; pos < groups; ++pos) position_of[static_cast<size_t>(out_order[pos])] = static_cast<int64_t>(pos);

  int64_t u = static_cast<int64_t>(groups);
  Shape y_shape = has_axis ? x.shape() : Shape{u};
  if (has_axis) y_shape[static_cast<size_t>(axis)] = u;
  std::vector<int64_t> map;
  map.reserve(static_cast<size_t>(shape_size(y_shape)));
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t pos = 0; pos < u; ++pos)
      for (int64_t i = 0; i < inner; ++i)
        map.push_back(at(first_of[static_cast<size_t>(out_order[static_cast<size_t>(pos)])], o, i));
  Tensor y = take(x, y_shape, map);

  Tensor indices(DType::Int64, {u}), counts(DType::Int64, {u}), inverse(DType::Int64, {n});
  for (int64_t pos = 0; pos < u; ++pos) {
    size_t g = static_cast<size_t>(out_order[static_cast<size_t>(pos)]);
    indices.data<int64_t>()[pos] = first_of[g];
    counts.data<int64_t>()[pos] = count_of[g];
  }
  for (int64_t item = 0; item < n; ++item)
    inverse.data<int64_t>()[item] = position_of[static_cast<size_t>(group_of[static_cast<size_t>(item)])];
  std::vector<Value> out;
  out.emplace_back(std::move(y));
  out.emplace_back(std::move(indices));
  out.emplace_back(std::move(inverse));
  out.emplace_back(std::move(counts));
  return out;
}
}  // namespace
SONNX_PARAMS("", "Unique", (11), UniqueParams);
SONNX_KERNEL("", "Unique", 11, unique, Accuracy::Exact);
namespace {
// Y: 1-D (no axis) or the input with the axis dim unknown; indices, inverse_indices, counts: 1-D int64.
void unique_shape(InferContext& ctx) {
  const Dims* x = ctx.input_shape(0);
  DType t = ctx.input_elem(0);
  UniqueParams p = UniqueParams::read(ctx, ctx.version());
  if (!p.axis) {
    ctx.set_output(0, t, Dims{Dim{}});
  } else if (x) {
    int64_t axis = infer_axis(ctx, *p.axis, static_cast<int64_t>(x->size()));
    Dims o = *x;
    o[static_cast<size_t>(axis)] = Dim{};
    ctx.set_output(0, t, o);
  } else {
    ctx.set_output(0, t, std::nullopt);
  }
  Dim inv;
  if (x && !p.axis) {
    if (auto n = dims_product(*x)) inv = known_dim(*n);
  } else if (x) {
    inv = (*x)[static_cast<size_t>(infer_axis(ctx, *p.axis, static_cast<int64_t>(x->size())))];
  }
  for (size_t i = 1; i < 4; ++i)
    if (ctx.has_output(i)) ctx.set_output(i, DType::Int64, Dims{i == 2 ? inv : Dim{}});
}
}  // namespace
SONNX_SHAPE_RULE("", "Unique", (11), unique_shape);
}  // namespace sonnx
