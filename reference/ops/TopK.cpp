// TopK: the k largest (or, version 11 with largest=0, smallest) elements along an axis, with their
// indices. k is an attribute in version 1 and a one-element input from 10. Ties go to the lower
// index; NaN orders above every number (so it is "largest"). The result is always sorted, which
// also satisfies sorted=0 (order unspecified). Version 24 only adds bfloat16 (same kernel).
// also satisfies sorted=0 (order unspecified).
#include "op_params.h"
#include "params/indexing.h"
#include "support/shape.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> top_k(const OpContext& ctx, const TopKParams& p, int64_t k) {
  bool largest = p.largest;
  const Tensor& x = ctx.input(0);
  if (x.rank() == 0) ctx.fail("input must have rank >= 1");
  int64_t axis = normalize_axis(ctx, p.axis, x.rank());
  int64_t n = x.dim(axis);
  if (k < 0 || k > n) ctx.fail("k = " + std::to_string(k) + " is outside [0, " + std::to_string(n) + "]");
  Shape out_shape = x.shape();
  out_shape[static_cast<size_t>(axis)] = k;
  int64_t outer = element_count(x.shape(), 0, static_cast<size_t>(axis));
  int64_t inner = element_count(x.shape(), static_cast<size_t>(axis) + 1, x.shape().size());
  Tensor values(x.dtype(), out_shape);
  Tensor indices(DType::Int64, out_shape);
  visit_real(ctx, x.dtype(), [&]<class T>() {
    const T* src = x.data<T>();
    T* vo = values.data<T>();
    int64_t* io = indices.data<int64_t>();
    std::vector<int64_t> order(static_cast<size_t>(n));
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        auto at = [&](int64_t j) { return src[(o * n + j) * inner + i]; };
        for (int64_t j = 0; j < n; ++j) order[static_cast<size_t>(j)] = j;
        // Stable: equal values keep ascending index order.
        std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
          int c = compare_values(at(a), at(b));
          return largest ? c > 0 : c < 0;
        });
        for (int64_t j = 0; j < k; ++j) {
          int64_t dst = (o * k + j) * inner + i;
          vo[dst] = at(order[static_cast<size_t>(j)]);
          io[dst] = order[static_cast<size_t>(j)];
        }
      }
  });
  std::vector<Value> out;
  out.emplace_back(std::move(values));
  out.emplace_back(std::move(indices));
  return out;
}

std::vector<Value> top_k_v1(OpContext& ctx) {
  TopKParams p = TopKParams::read(ctx, ctx.version());
  return top_k(ctx, p, *p.k);
}

std::vector<Value> top_k_v10(OpContext& ctx) {
  TopKParams p = TopKParams::read(ctx, ctx.version());
  return top_k(ctx, p, int_scalar(ctx, ctx.input(1), "K"));
}
}  // namespace
SONNX_PARAMS("", "TopK", (1, 10, 11, 24), TopKParams);
SONNX_KERNEL("", "TopK", 1, top_k_v1, Accuracy::Exact);
SONNX_KERNEL("", "TopK", 10, top_k_v10, Accuracy::Exact);
SONNX_KERNEL("", "TopK", 11, top_k_v10, Accuracy::Exact);
SONNX_KERNEL("", "TopK", 24, top_k_v10, Accuracy::Exact);
namespace {
// Values and int64 indices: the input with the axis dim k (attribute before 10, input after).
void top_k_shape(InferContext& ctx) {
  const Dims* x = ctx.input_shape(0);
  DType t = ctx.input_elem(0);
  if (!x) {
    ctx.set_output(0, t, std::nullopt);
    ctx.set_output(1, DType::Int64, std::nullopt);
    return;
  }
  TopKParams p = TopKParams::read(ctx, ctx.version());
  int64_t axis = infer_axis(ctx, p.axis, static_cast<int64_t>(x->size()));
  Dim k;
  if (p.k) {
    k = size_dim(ctx, *p.k, "k");
  } else if (auto v = ctx.input_ints(1)) {
    if (v->size() != 1) ctx.fail("K must hold one value");
    k = size_dim(ctx, (*v)[0], "K");
  }
  const Dim& d = (*x)[static_cast<size_t>(axis)];
  if (k.value && d.value && *k.value > *d.value)
    ctx.fail("k = " + std::to_string(*k.value) + " exceeds the axis size " + std::to_string(*d.value));
  Dims o = *x;
  o[static_cast<size_t>(axis)] = k;
  ctx.set_output(0, t, o);
  ctx.set_output(1, DType::Int64, o);
}
}  // namespace
SONNX_SHAPE_RULE("", "TopK", (1, 10, 11, 24), top_k_shape);
}  // namespace sonnx
