// Elementwise kernels: multidirectional (numpy) and legacy (opset <= 6) broadcasting, unary and
// binary maps, comparisons, and the variadic operators (Max, Min, Sum, Mean).
#pragma once
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "kernel.h"

namespace sonnx::support {

// Multidirectional (numpy) broadcasting of two or more shapes; traps when incompatible.
Shape broadcast_shapes(const OpContext& ctx, const Shape& a, const Shape& b);
Shape broadcast_shapes(const OpContext& ctx, const std::vector<Shape>& shapes);

// For each element of `out_shape` in row-major order, the linear index into a tensor of `in_shape`
// broadcast to it (in_shape right-aligned; size-1 dims repeat).
std::vector<int64_t> broadcast_index_map(const Shape& in_shape, const Shape& out_shape);

// Materializes t broadcast to out_shape (must be compatible).
Tensor broadcast_to(const Tensor& t, const Shape& out_shape);

// ONNX <= 6 legacy broadcasting (Add/Mul/... with broadcast=1, axis): B's shape matches a
// contiguous run of A's dims starting at `axis` (default: suffix). Returns B expanded to A's shape.
Tensor legacy_broadcast(const OpContext& ctx, const Tensor& a, const Tensor& b);

// Elementwise binary kernel with multidirectional broadcasting: out[i] = f(a[ia], b[ib]).
// Tin is the input storage type, Tout the output storage type.
template <class Tin, class Tout, class F>
Tensor binary_elementwise(const OpContext& ctx, const Tensor& a, const Tensor& b, F f) {
  Shape out_shape = broadcast_shapes(ctx, a.shape(), b.shape());
  Tensor out(dtype_of<Tout>(), out_shape);
  auto ia = broadcast_index_map(a.shape(), out_shape);
  auto ib = broadcast_index_map(b.shape(), out_shape);
  const Tin* pa = a.data<Tin>();
  const Tin* pb = b.data<Tin>();
  Tout* po = out.data<Tout>();
  for (int64_t i = 0; i < out.size(); ++i) po[i] = f(pa[ia[i]], pb[ib[i]]);
  return out;
}

// Elementwise unary kernel: out[i] = f(in[i]).
template <class Tin, class Tout, class F>
Tensor unary_elementwise(const Tensor& in, F f) {
  Tensor out(dtype_of<Tout>(), in.shape());
  const Tin* p = in.data<Tin>();
  Tout* o = out.data<Tout>();
  for (int64_t i = 0; i < in.size(); ++i) o[i] = f(p[i]);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Unary floating-point math: the function is evaluated in double for every floating type and the
// result rounded once to the storage type.
template <class F>
Tensor float_unary(const OpContext& ctx, const Tensor& x, F f) {
  return visit_float(ctx, x.dtype(), [&]<class T>() {
    return unary_elementwise<T, T>(x, [&](T v) {
      return round_from_double<T>(f(static_cast<double>(static_cast<compute_t<T>>(v))));
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Binary operators with the legacy (≤ 6) / multidirectional (≥ 7) broadcasting split.

// Before opset 7 the binary arithmetic and logic operators broadcast B to A only with broadcast=1
// (legacy_broadcast); from 7 on both broadcast multidirectionally. `compute(ctx, a, b)` does the
// multidirectional elementwise work; with legacy broadcasting B already has A's shape.
template <Tensor (*compute)(OpContext&, const Tensor&, const Tensor&)>
std::vector<Value> binary_legacy(OpContext& ctx) {
  const Tensor& a = ctx.input(0);
  Tensor b = legacy_broadcast(ctx, a, ctx.input(1));
  return one(compute(ctx, a, b));
}
template <Tensor (*compute)(OpContext&, const Tensor&, const Tensor&)>
std::vector<Value> binary_multidirectional(OpContext& ctx) {
  return one(compute(ctx, ctx.input(0), ctx.input(1)));
}

// Comparison producing bool with multidirectional broadcasting; `cmp(x, y)` gets both operands
// in their compute type (float for float16/bfloat16).
template <class Cmp>
Tensor compare_elementwise(OpContext& ctx, const Tensor& a, const Tensor& b, Cmp cmp) {
  require_same_type(ctx, a, b);
  return visit_real_or_bool(ctx, a.dtype(), [&]<class T>() {
    return binary_elementwise<T, bool>(ctx, a, b, [&](T x, T y) {
      return static_cast<bool>(cmp(static_cast<compute_t<T>>(x), static_cast<compute_t<T>>(y)));
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Variadic elementwise operators (Max, Min, Sum, Mean).

// The inputs of a variadic operator; traps when there are none or their types differ. Before
// opset 8 all inputs must have the same shape; from 8 on they broadcast multidirectionally.
inline std::vector<const Tensor*> variadic_inputs(OpContext& ctx, bool broadcast, Shape& out_shape) {
  std::vector<const Tensor*> ins;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    if (!ctx.has_input(i)) ctx.fail("input " + std::to_string(i) + " is missing");
    ins.push_back(&ctx.input(i));
  }
  if (ins.empty()) ctx.fail("needs at least one input");
  std::vector<Shape> shapes;
  for (const Tensor* t : ins) {
    require_same_type(ctx, *ins[0], *t);
    if (!broadcast && t->shape() != ins[0]->shape())
      ctx.fail("all inputs must have the same shape before opset 8 (" + shape_str(ins[0]->shape()) + " vs " +
               shape_str(t->shape()) + ")");
    shapes.push_back(t->shape());
  }
  out_shape = broadcast_shapes(ctx, shapes);
  return ins;
}

// Folds the inputs elementwise: acc = first input's element (in compute type), then
// acc = step(acc, next) for each further input, then out = finish(acc).
template <class T, class Step, class Finish>
Tensor variadic_fold(const std::vector<const Tensor*>& ins, const Shape& out_shape, Step step, Finish finish) {
  using C = compute_t<T>;
  Tensor out(dtype_of<T>(), out_shape);
  std::vector<C> acc(static_cast<size_t>(out.size()));
  for (size_t k = 0; k < ins.size(); ++k) {
    auto map = broadcast_index_map(ins[k]->shape(), out_shape);
    const T* p = ins[k]->data<T>();
    for (size_t i = 0; i < acc.size(); ++i) {
      C v = static_cast<C>(p[map[i]]);
      acc[i] = k == 0 ? v : step(acc[i], v);
    }
  }
  T* o = out.data<T>();
  for (size_t i = 0; i < acc.size(); ++i) o[i] = finish(acc[i]);
  return out;
}

// Max and Min of one or more inputs: the elementwise extreme, a NaN in any input making that
// element NaN (as numpy.maximum / numpy.minimum).
inline std::vector<Value> variadic_extreme(OpContext& ctx, bool want_max) {
  Shape out_shape;
  auto ins = variadic_inputs(ctx, ctx.version() >= 8, out_shape);
  return one(visit_real(ctx, ins[0]->dtype(), [&]<class T>() {
    using C = compute_t<T>;
    auto step = [want_max](C acc, C v) -> C {
      if constexpr (std::is_floating_point_v<C>) {
        if (std::isnan(acc)) return acc;
        if (std::isnan(v)) return v;
      }
      return (want_max ? v > acc : v < acc) ? v : acc;
    };
    return variadic_fold<T>(ins, out_shape, step, [](C acc) { return to_storage<T>(acc); });
  }));
}

}  // namespace sonnx::support
