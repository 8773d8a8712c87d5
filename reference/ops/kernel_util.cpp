#include "kernel_util.h"

#include <limits>

namespace sonnx {

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

Shape broadcast_shapes(const OpContext& ctx, const Shape& a, const Shape& b) {
  size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      ctx.fail("shapes " + shape_str(a) + " and " + shape_str(b) + " cannot be broadcast");
    out[i] = da == 1 ? db : da;
  }
  return out;
}

Shape broadcast_shapes(const OpContext& ctx, const std::vector<Shape>& shapes) {
  Shape out;
  for (const auto& s : shapes) out = broadcast_shapes(ctx, out, s);
  return out;
}

std::vector<int64_t> broadcast_index_map(const Shape& in_shape, const Shape& out_shape) {
  size_t rank = out_shape.size();
  size_t offset = rank - in_shape.size();
  auto in_strides = strides_of(in_shape);
  // Effective stride per output dim: 0 where the input dim is missing or 1 (repeated).
  std::vector<int64_t> eff(rank, 0);
  for (size_t i = offset; i < rank; ++i)
    eff[i] = in_shape[i - offset] == 1 ? 0 : in_strides[i - offset];
  std::vector<int64_t> map(static_cast<size_t>(shape_size(out_shape)));
  for_each_index(out_shape, [&](const std::vector<int64_t>& idx, int64_t lin) {
    int64_t src = 0;
    for (size_t d = 0; d < rank; ++d) src += idx[d] * eff[d];
    map[static_cast<size_t>(lin)] = src;
  });
  return map;
}

Tensor broadcast_to(const Tensor& t, const Shape& out_shape) {
  Tensor out(t.dtype(), out_shape);
  auto map = broadcast_index_map(t.shape(), out_shape);
  visit_dtype(t.dtype(), [&]<class T>() {
    const T* src = t.data<T>();
    T* dst = out.data<T>();
    for (int64_t i = 0; i < out.size(); ++i) dst[i] = src[map[static_cast<size_t>(i)]];
  });
  return out;
}

Tensor legacy_broadcast(const OpContext& ctx, const Tensor& a, const Tensor& b) {
  if (ctx.attr_int("broadcast", 0) == 0) {
    if (a.shape() != b.shape()) ctx.fail("shapes " + shape_str(a.shape()) + " and " + shape_str(b.shape()) + " differ and broadcast=0");
    return b;
  }
  int64_t rank_a = a.rank(), rank_b = b.rank();
  if (rank_b > rank_a) ctx.fail("legacy broadcast: B has higher rank than A");
  int64_t axis = ctx.has_attr("axis") ? ctx.attr_int("axis", 0) : rank_a - rank_b;
  if (axis < 0) axis += rank_a;
  // A scalar-like B of one element broadcasts everywhere.
  if (b.size() == 1) return broadcast_to(b.reshaped({}), a.shape());
  if (axis < 0 || axis + rank_b > rank_a) ctx.fail("legacy broadcast: axis out of range");
  Shape b_full(static_cast<size_t>(rank_a), 1);
  for (int64_t i = 0; i < rank_b; ++i) {
    int64_t d = b.dim(i);
    if (d != a.dim(axis + i) && d != 1) ctx.fail("legacy broadcast: shapes " + shape_str(a.shape()) + " and " + shape_str(b.shape()) + " do not match at axis");
    b_full[static_cast<size_t>(axis + i)] = d;
  }
  return broadcast_to(b.reshaped(b_full), a.shape());
}

namespace {
template <class To, class From>
To convert_number(From v) {
  if constexpr (std::is_same_v<To, bool>) {
    if constexpr (is_half_v<From>) return static_cast<float>(v) != 0.0f;
    else return v != From(0);
  } else if constexpr (is_half_v<To>) {
    if constexpr (is_half_v<From>) return To(static_cast<float>(v));
    else return To(static_cast<float>(v));
  } else if constexpr (is_half_v<From>) {
    return convert_number<To>(static_cast<float>(v));
  } else if constexpr (std::is_integral_v<To> && std::is_floating_point_v<From>) {
    // Out-of-range float→int is undefined in C++; ONNX leaves it implementation-defined. We
    // saturate (and map NaN to 0) so the reference never exhibits undefined behaviour.
    if (std::isnan(v)) return To(0);
    if (v <= static_cast<From>(std::numeric_limits<To>::lowest())) return std::numeric_limits<To>::lowest();
    if (v >= static_cast<From>(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
    return static_cast<To>(v);
  } else {
    return static_cast<To>(v);
  }
}
}  // namespace

Tensor cast_tensor(const OpContext& ctx, const Tensor& t, DType to) {
  if (t.dtype() == to) return t;
  Tensor out(to, t.shape());
  auto visit_src = [&]<class To>() {
    auto body = [&]<class From>() {
      const From* s = t.data<From>();
      To* d = out.data<To>();
      for (int64_t i = 0; i < t.size(); ++i) d[i] = convert_number<To, From>(s[i]);
    };
    if (t.dtype() == DType::Bool) body.template operator()<bool>();
    else visit_real(ctx, t.dtype(), body);
  };
  if (to == DType::Bool) visit_src.template operator()<bool>();
  else visit_real(ctx, to, visit_src);
  return out;
}

std::vector<int64_t> optional_ints_input(const OpContext& ctx, size_t i, const std::vector<int64_t>& def) {
  if (!ctx.has_input(i)) return def;
  const Tensor& t = ctx.input(i);
  if (!is_integer(t.dtype())) ctx.fail("input " + std::to_string(i) + " must be an integer tensor");
  return t.to_int64_vector();
}

}  // namespace sonnx
