#include "kernel.h"

#include <limits>

namespace sonnx::support {

int64_t normalize_axis(const OpContext& ctx, int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    ctx.fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  return axis < 0 ? axis + rank : axis;
}

std::vector<int64_t> normalize_axes(const OpContext& ctx, std::vector<int64_t> axes, int64_t rank) {
  for (auto& a : axes) a = normalize_axis(ctx, a, rank);
  return axes;
}

std::vector<int64_t> strides_of(const Shape& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i) {
    // A zero-sized tensor may have huge other dims; its strides are never used to address memory,
    // but computing them must not overflow, so they saturate.
    int64_t next;
    if (__builtin_mul_overflow(s[static_cast<size_t>(i) + 1], shape[static_cast<size_t>(i) + 1], &next))
      next = std::numeric_limits<int64_t>::max();
    s[static_cast<size_t>(i)] = next;
  }
  return s;
}

std::vector<int64_t> optional_ints_input(const OpContext& ctx, size_t i, const std::vector<int64_t>& def) {
  if (!ctx.has_input(i)) return def;
  const Tensor& t = ctx.input(i);
  if (!is_integer(t.dtype())) ctx.fail("input " + std::to_string(i) + " must be an integer tensor");
  return t.to_int64_vector();
}

std::vector<double> float_values(const OpContext& ctx, const Tensor& t) {
  visit_float(ctx, t.dtype(), []<class T>() {});  // traps for a non-floating type
  return real_values(ctx, t);
}

std::vector<double> real_values(const OpContext& ctx, const Tensor& t) {
  std::vector<double> v(static_cast<size_t>(t.size()));
  visit_real(ctx, t.dtype(), [&]<class T>() {
    const T* p = t.data<T>();
    for (int64_t i = 0; i < t.size(); ++i) v[static_cast<size_t>(i)] = to_double(p[i]);
  });
  return v;
}

Tensor float_tensor(const OpContext& ctx, DType type, const Shape& shape, const std::vector<double>& values) {
  Tensor out(type, shape);
  if (static_cast<int64_t>(values.size()) != out.size()) ctx.fail("internal: value count does not match the shape");
  visit_float(ctx, type, [&]<class T>() {
    T* p = out.data<T>();
    for (int64_t i = 0; i < out.size(); ++i) p[i] = round_from_double<T>(values[static_cast<size_t>(i)]);
  });
  return out;
}

}  // namespace sonnx::support
