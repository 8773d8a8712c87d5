// Helpers shared by the control-flow, sequence, random and training kernels (group e1): moving
// blocks of elements of any type between tensors, slicing/concatenating/stacking along an axis,
// reading scalar index inputs, and the random-number recipes. Header-only.
#pragma once
#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernel_util.h"

namespace sonnx::e1 {

// Copies `count` consecutive elements from src[src_off...] to dst[dst_off...]. Both tensors must
// have the same element type. Strings are copied as strings, everything else as bytes.
inline void copy_elements(const Tensor& src, int64_t src_off, Tensor& dst, int64_t dst_off, int64_t count) {
  if (count <= 0) return;
  if (src.dtype() == DType::String) {
    const std::string* s = src.data<std::string>();
    std::string* d = dst.data<std::string>();
    for (int64_t i = 0; i < count; ++i) d[dst_off + i] = s[src_off + i];
    return;
  }
  size_t es = dtype_size(src.dtype());
  std::memcpy(dst.raw() + static_cast<size_t>(dst_off) * es, src.raw() + static_cast<size_t>(src_off) * es,
              static_cast<size_t>(count) * es);
}

// Product of dims [from, to).
inline int64_t dims_product(const Shape& s, size_t from, size_t to) {
  int64_t p = 1;
  for (size_t i = from; i < to; ++i) p *= s[i];
  return p;
}

// The sub-tensor t[..., start:start+len, ...] along `axis` (axis already normalized; range checked by
// the caller). The axis is kept, with size len.
inline Tensor slice_axis(const Tensor& t, int64_t axis, int64_t start, int64_t len) {
  Shape out_shape = t.shape();
  size_t ax = static_cast<size_t>(axis);
  int64_t dim = out_shape[ax];
  out_shape[ax] = len;
  Tensor out(t.dtype(), out_shape);
  int64_t outer = dims_product(t.shape(), 0, ax);
  int64_t inner = dims_product(t.shape(), ax + 1, t.shape().size());
  for (int64_t o = 0; o < outer; ++o)
    copy_elements(t, (o * dim + start) * inner, out, o * len * inner, len * inner);
  return out;
}

// t indexed at position `index` along `axis`: rank one less than t.
inline Tensor take_axis(const Tensor& t, int64_t axis, int64_t index) {
  Tensor s = slice_axis(t, axis, index, 1);
  Shape shape = t.shape();
  shape.erase(shape.begin() + axis);
  return s.reshaped(shape);
}

// Concatenates tensors along an existing axis (normalized). All parts must share element type, rank
// and every dim but `axis`; traps through ctx otherwise. At least one part is required.
inline Tensor concat_axis(const OpContext& ctx, const std::vector<Tensor>& parts, int64_t axis) {
  if (parts.empty()) ctx.fail("nothing to concatenate");
  const Tensor& first = parts[0];
  size_t ax = static_cast<size_t>(axis);
  Shape out_shape = first.shape();
  out_shape[ax] = 0;
  for (const Tensor& p : parts) {
    if (p.dtype() != first.dtype())
      ctx.fail("tensors of different element types (" + std::string(dtype_name(first.dtype())) + ", " +
               std::string(dtype_name(p.dtype())) + ") cannot be concatenated");
    if (p.rank() != first.rank()) ctx.fail("tensors of different ranks cannot be concatenated");
    for (size_t d = 0; d < out_shape.size(); ++d)
      if (d != ax && p.shape()[d] != first.shape()[d])
        ctx.fail("shapes " + shape_str(first.shape()) + " and " + shape_str(p.shape()) +
                 " differ outside the concatenation axis");
    out_shape[ax] += p.shape()[ax];
  }
  Tensor out(first.dtype(), out_shape);
  int64_t outer = dims_product(out_shape, 0, ax);
  int64_t inner = dims_product(out_shape, ax + 1, out_shape.size());
  int64_t pos = 0;
  for (int64_t o = 0; o < outer; ++o)
    for (const Tensor& p : parts) {
      int64_t n = p.shape()[ax] * inner;
      copy_elements(p, o * n, out, pos, n);
      pos += n;
    }
  return out;
}

// Stacks equally shaped tensors along a new axis inserted at `axis` (in [0, rank]).
inline Tensor stack_axis(const OpContext& ctx, const std::vector<Tensor>& parts, int64_t axis) {
  if (parts.empty()) ctx.fail("nothing to stack");
  std::vector<Tensor> expanded;
  expanded.reserve(parts.size());
  for (const Tensor& p : parts) {
    if (p.shape() != parts[0].shape())
      ctx.fail("values to stack have different shapes " + shape_str(parts[0].shape()) + " and " + shape_str(p.shape()));
    Shape s = p.shape();
    s.insert(s.begin() + axis, 1);
    expanded.push_back(p.reshaped(s));
  }
  return concat_axis(ctx, expanded, axis);
}

// An empty tensor standing for a scan output no iteration produced: the subgraph output's declared
// element type and dims (an unknown dim is taken as 0; the tensor has no elements either way) with
// a new axis of size 0 inserted at `axis`.
inline Tensor empty_scan_output(const OpContext& ctx, const ValueInfo& body_out, int64_t axis) {
  const TypeInfo& t = body_out.type;
  if (t.kind != TypeInfo::Kind::Tensor || t.elem == DType::Undefined)
    ctx.fail("no iteration ran and the element type of scan output '" + body_out.name + "' is not declared");
  Shape shape;
  if (t.shape)
    for (const Dim& d : *t.shape) shape.push_back(d.value ? *d.value : 0);
  if (axis < 0 || axis > static_cast<int64_t>(shape.size()))
    ctx.fail("no iteration ran and the rank of scan output '" + body_out.name + "' is not declared");
  shape.insert(shape.begin() + axis, 0);
  return Tensor(t.elem, shape);
}

// A scalar (or single-element) integer input read as int64: positions, trip counts.
inline int64_t scalar_int_input(const OpContext& ctx, size_t i, const char* what) {
  const Tensor& t = ctx.input(i);
  if (t.size() != 1) ctx.fail(std::string(what) + " must hold exactly one element, got shape " + shape_str(t.shape()));
  if (!is_integer(t.dtype())) ctx.fail(std::string(what) + " must be an integer tensor");
  return t.as_int64(0);
}

// A scalar (or single-element) boolean input.
inline bool scalar_bool(const OpContext& ctx, const Tensor& t, const char* what) {
  if (t.dtype() != DType::Bool) ctx.fail(std::string(what) + " must be a bool tensor");
  if (t.size() != 1) ctx.fail(std::string(what) + " must hold exactly one element, got shape " + shape_str(t.shape()));
  return t.data<bool>()[0];
}

// The element type of a sequence value: its declared element type, else the type of its first
// element; Undefined when neither is known.
inline DType sequence_elem_type(const Value& seq) {
  if (seq.sequence_elem != DType::Undefined) return seq.sequence_elem;
  if (!seq.sequence.empty() && seq.sequence[0].is_tensor()) return seq.sequence[0].tensor.dtype();
  return DType::Undefined;
}

// The input i as a sequence (traps otherwise).
inline const Value& sequence_input(const OpContext& ctx, size_t i) {
  const Value& v = ctx.value(i);
  if (!v.is_sequence()) ctx.fail("input " + std::to_string(i) + " must be a sequence");
  return v;
}

// --- Random numbers -------------------------------------------------------------------------------
// The generator a sampling node uses: a fresh one seeded from the float `seed` attribute (its bit
// pattern, so every distinct seed gives a distinct stream) when present, else the run's generator.
struct NodeRng {
  std::mt19937_64 own;
  std::mt19937_64* gen;
  explicit NodeRng(const OpContext& ctx) {
    if (ctx.has_attr("seed")) {
      own.seed(static_cast<uint64_t>(std::bit_cast<uint32_t>(ctx.attr_float("seed", 0.f))));
      gen = &own;
    } else {
      gen = &ctx.rng();
    }
  }
  // Uniform on [0, 1) with 53 random bits (written out so results do not depend on the standard
  // library's distribution implementations).
  double uniform01() { return static_cast<double>((*gen)() >> 11) * 0x1.0p-53; }
  // Standard normal by the Box-Muller transform (one value per call; 1 - u avoids log(0)).
  double normal01() {
    double u1 = 1.0 - uniform01();
    double u2 = uniform01();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
  }
};

// The output element type of a sampling op: the `dtype` attribute when present, else `def`.
inline DType dtype_attr(const OpContext& ctx, DType def) {
  if (!ctx.has_attr("dtype")) return def;
  int64_t v = ctx.attr_int("dtype", 0);
  if (v < 0 || v > 0x7fffffff || !is_valid_dtype(static_cast<int32_t>(v)))
    ctx.fail("dtype " + std::to_string(v) + " is not a valid element type");
  return static_cast<DType>(v);
}

// A tensor of a floating element type filled with draws from `draw()` (a double, rounded to the
// element type) in row-major order.
template <class F>
Tensor random_float_tensor(const OpContext& ctx, DType type, const Shape& shape, F draw) {
  if (type != DType::Float && type != DType::Double && type != DType::Float16)
    ctx.fail("output element type " + std::string(dtype_name(type)) + " is not float16, float or double");
  return visit_float(ctx, type, [&]<class T>() {
    Tensor out(type, shape);
    T* p = out.data<T>();
    for (int64_t i = 0; i < out.size(); ++i) p[i] = to_storage<T>(static_cast<compute_t<T>>(draw()));
    return out;
  });
}

// The `shape` attribute of a generator op: required, every dim non-negative.
inline Shape shape_attr(const OpContext& ctx) {
  if (!ctx.has_attr("shape")) ctx.fail("attribute 'shape' is required");
  Shape s = ctx.attr_ints("shape");
  for (int64_t d : s)
    if (d < 0) ctx.fail("shape " + shape_str(s) + " has a negative dim");
  return s;
}

// --- ai.onnx.preview.training optimizers ---------------------------------------------------------
// The scalar inputs R (learning rate, float or double) and T (update count, int64).
inline double learning_rate_input(const OpContext& ctx) {
  const Tensor& r = ctx.input(0);
  if ((r.dtype() != DType::Float && r.dtype() != DType::Double) || r.size() != 1)
    ctx.fail("R must be a float or double scalar");
  return r.as_double(0);
}
inline int64_t update_count_input(const OpContext& ctx) {
  const Tensor& t = ctx.input(1);
  if (t.dtype() != DType::Int64 || t.size() != 1) ctx.fail("T must be an int64 scalar");
  return t.data<int64_t>()[0];
}

// The optimized tensors of an optimizer node: inputs after R and T come in `groups` blocks of n
// (X_1..X_n, G_1..G_n, ...); returns n after checking the counts. Outputs come in `out_groups`
// blocks of n.
inline size_t optimizer_tensor_count(const OpContext& ctx, size_t groups, size_t out_groups) {
  if (ctx.num_inputs() < 2 || (ctx.num_inputs() - 2) % groups != 0)
    ctx.fail("expected R, T and " + std::to_string(groups) + " inputs per optimized tensor");
  size_t n = (ctx.num_inputs() - 2) / groups;
  if (ctx.num_outputs() != n * out_groups)
    ctx.fail("expected " + std::to_string(out_groups) + " outputs per optimized tensor");
  return n;
}

// Input `idx` of an optimizer as doubles, checking it has X's element type and shape.
inline std::vector<double> optimizer_operand(const OpContext& ctx, size_t idx, const Tensor& x) {
  const Tensor& t = ctx.input(idx);
  if (t.dtype() != x.dtype() || t.shape() != x.shape())
    ctx.fail("input " + std::to_string(idx) + " (" + std::string(dtype_name(t.dtype())) + shape_str(t.shape()) +
             ") must have the element type and shape of the optimized tensor (" + std::string(dtype_name(x.dtype())) +
             shape_str(x.shape()) + ")");
  std::vector<double> v(static_cast<size_t>(t.size()));
  for (int64_t i = 0; i < t.size(); ++i) v[static_cast<size_t>(i)] = t.as_double(i);
  return v;
}

// Doubles rounded into a tensor of element type `type` (float or double) and shape `shape`.
inline Tensor optimizer_result(const OpContext& ctx, DType type, const Shape& shape, const std::vector<double>& v) {
  if (type != DType::Float && type != DType::Double) ctx.fail("optimized tensors must be float or double");
  Tensor out(type, shape);
  for (size_t i = 0; i < v.size(); ++i) {
    if (type == DType::Float) out.data<float>()[i] = static_cast<float>(v[i]);
    else out.data<double>()[i] = v[i];
  }
  return out;
}

}  // namespace sonnx::e1
