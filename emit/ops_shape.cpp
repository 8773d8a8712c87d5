// C templates of the SONNX profile's operators whose output is a constant of the static model:
// the body stores the values (a literal per element, or for longer tensors a `static const` table
// copied by a loop; one value repeated: a loop storing it). The values are the reference kernel's,
// computed at generation time by the same arithmetic, so `exact` and `fast` emit the same code.
//
//   Constant-25         reference/ops/Constant.cpp: the one value attribute (ConstantParams), of
//                       any element type with a C storage type: strings as views of constant
//                       string literals and complex numbers as { re, im }, in a `static const`
//                       table (c_element's initializers). Refused: sparse_value, and NaNs with a
//                       payload (no C99 constant spells one; a plain NaN keeps its sign).
//   ConstantOfShape-25  reference/ops/ConstantOfShape.cpp: the `value` attribute
//                       (ConstantOfShapeParams) in every element of the static output shape (a
//                       string or complex value as a named `static const` object); the shape
//                       input, when a constant, must give that shape.
//   Range-11            reference/ops/Range.cpp: start, limit and delta must be constants
//                       (refused otherwise: the output length would not be static); integers
//                       exactly (128-bit), floats as start + i·delta in double rounded once.
//   Shape-25            reference/ops/Shape.cpp: the static dims [start, end) (ShapeParams::range)
//                       as int64 values; the input is never read.
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "emit_util.h"
#include "reference/ops/params/constant.h"
#include "reference/ops/params/indexing.h"
#include "reference/ops/registry.h"
#include "reference/ops/support/indexing.h"
#include "sonnx/errors.h"

namespace sonnx::emit {
namespace {

// Whether elements i and j of t have the same bits (strings: the same bytes).
bool emit_shape_same_bits(const Tensor& t, int64_t i, int64_t j) {
  if (t.dtype() == DType::String) return t.data<std::string>()[i] == t.data<std::string>()[j];
  const size_t w = dtype_size(t.dtype());
  const std::byte* p = t.raw();
  for (size_t b = 0; b < w; ++b)
    if (p[static_cast<size_t>(i) * w + b] != p[static_cast<size_t>(j) * w + b]) return false;
  return true;
}

// y0 := the values of t, which must have y0's element type and static shape.
void emit_shape_store(NodeEmitter& e, const Tensor& t) {
  const CValue& y = e.output(0);
  if (t.dtype() != y.dtype)
    e.refuse("the value's element type " + std::string(dtype_name(t.dtype())) + " is not the output's " +
             std::string(dtype_name(y.dtype)));
  if (t.shape() != y.shape)
    e.refuse("the value's shape " + shape_str(t.shape()) + " is not the output's static " + shape_str(y.shape));
  const std::string type = c_storage_type(y.dtype);
  const int64_t n = t.size();
  if (n == 0) return;
  bool uniform = true;
  for (int64_t i = 1; i < n && uniform; ++i) uniform = emit_shape_same_bits(t, 0, i);
  if (is_c_struct_type(y.dtype) && uniform && n > 1) {  // one named constant stored n times
    const std::string v = e.constant_object(t, 0, "value");
    e.line(for_loop("i", n));
    e.line("y0[i] = " + v + ";");
    e.line("}");
    return;
  }
  if (is_c_struct_type(y.dtype)) {  // a table of initializers ({ re, im }, { "text", 4u }) copied
    e.line("static const " + type + " value[" + std::to_string(n) + "] = {");
    const int64_t per_line = y.dtype == DType::String ? 1 : 4;
    for (int64_t i = 0; i < n; i += per_line) {
      std::string text;
      for (int64_t k = i; k < std::min(n, i + per_line); ++k)
        text += (k > i ? " " : "") + e.initializer(t, k) + (k + 1 < n ? "," : "");
      e.line(text);
    }
    e.line("};");
    if (n == 1) {
      e.line("y0[0] = value[0];");
      return;
    }
    e.line(for_loop("i", n));
    e.line("y0[i] = value[i];");
    e.line("}");
    return;
  }
  if (n <= 16 && !(uniform && n > 4)) {
    for (int64_t i = 0; i < n; ++i) e.line("y0[" + std::to_string(i) + "] = " + e.literal(t, i) + ";");
    return;
  }
  if (uniform) {
    e.line(for_loop("i", n));
    e.line("y0[i] = " + e.literal(t, 0) + ";");
    e.line("}");
    return;
  }
  e.line("static const " + type + " value[" + std::to_string(n) + "] = {");
  for (int64_t i = 0; i < n; i += 8) {
    std::string text;
    for (int64_t k = i; k < std::min(n, i + 8); ++k) {
      if (k > i) text += " ";
      text += e.literal(t, k);
      if (k + 1 < n) text += ",";
    }
    e.line(text);
  }
  e.line("};");
  e.line(for_loop("i", n));
  e.line("y0[i] = value[i];");
  e.line("}");
}

void emit_constant(NodeEmitter& e, const OpContext& ctx) {
  const ConstantParams p = e.params<ConstantParams>();
  if (p.sparse) ctx.fail("unsupported attribute 'sparse_value' (sparse constants are not supported)");
  emit_shape_store(e, p.value());
}

void emit_constant_of_shape(NodeEmitter& e, const OpContext& ctx) {
  const ConstantOfShapeParams p = e.params<ConstantOfShapeParams>();
  const CValue &s = e.input(0), &y = e.output(0);
  Shape shape = y.shape;  // the static shape: what the shape input holds
  if (s.constant) {
    if (s.constant->rank() != 1) ctx.fail("the shape input must be 1-D");
    shape = support::int_values(ctx, *s.constant, "shape");
    for (int64_t d : shape)
      if (d < 0) ctx.fail("shape entries must be non-negative, got " + shape_str(shape));
  } else if (s.shape.size() != 1) {
    ctx.fail("the shape input must be 1-D");
  }
  if (shape != y.shape)
    e.refuse("the shape input " + shape_str(shape) + " is not the output's static shape " + shape_str(y.shape));
  if (p.value.dtype() != y.dtype) e.refuse("the value attribute's element type is not the output's");
  if (p.value.size() != 1) e.refuse("the value attribute holds " + std::to_string(p.value.size()) + " elements, not one");
  const int64_t n = y.size();
  if (n == 0) return;
  const std::string v = e.constant_object(p.value, 0, "value");  // a string or complex value: a named constant
  if (n == 1) {
    e.line("y0[0] = " + v + ";");
    return;
  }
  e.line(for_loop("i", n));
  e.line("y0[i] = " + v + ";");
  e.line("}");
}

// Range.cpp's range() for element type T.
template <class T>
Tensor emit_shape_range_of(const OpContext& ctx, DType type, const Tensor& start_t, const Tensor& limit_t,
                           const Tensor& delta_t) {
  const T start = start_t.data<T>()[0], limit = limit_t.data<T>()[0], delta = delta_t.data<T>()[0];
  if constexpr (std::is_integral_v<T>) {
    using Wide = __int128;
    if (delta == 0) ctx.fail("delta cannot be 0");
    const Wide diff = static_cast<Wide>(limit) - static_cast<Wide>(start);
    const auto d = static_cast<Wide>(delta);
    Wide n = 0;
    if ((diff > 0 && d > 0) || (diff < 0 && d < 0)) {
      const Wide ad = d < 0 ? -d : d, adiff = diff < 0 ? -diff : diff;
      n = (adiff + ad - 1) / ad;
    }
    if (n > static_cast<Wide>(std::numeric_limits<int64_t>::max())) ctx.fail("range is too large");
    Tensor out(type, {static_cast<int64_t>(n)});
    T* o = out.data<T>();
    for (int64_t i = 0; i < out.size(); ++i) o[i] = static_cast<T>(static_cast<Wide>(start) + static_cast<Wide>(i) * d);
    return out;
  } else {
    const auto s = static_cast<double>(start), l = static_cast<double>(limit), d = static_cast<double>(delta);
    if (d == 0) ctx.fail("delta cannot be 0");
    const double count = std::ceil((l - s) / d);
    if (std::isnan(count)) ctx.fail("the number of elements is not a number (NaN or infinite inputs)");
    if (count > 9.0e15) ctx.fail("range is too large");
    const int64_t n = count > 0 ? static_cast<int64_t>(count) : 0;
    Tensor out(type, {n});
    T* o = out.data<T>();
    for (int64_t i = 0; i < n; ++i) o[i] = static_cast<T>(s + static_cast<double>(i) * d);
    return out;
  }
}

void emit_range(NodeEmitter& e, const OpContext& ctx) {
  // A run-time one would not give a static output length.
  const Tensor* in[3] = {&e.constant_input(0, "start"), &e.constant_input(1, "limit"), &e.constant_input(2, "delta")};
  const DType type = in[0]->dtype();
  if (in[1]->dtype() != type || in[2]->dtype() != type) ctx.fail("start, limit and delta must have the same type");
  if (in[0]->size() != 1 || in[1]->size() != 1 || in[2]->size() != 1) ctx.fail("start, limit and delta must be scalars");
  Tensor out;
  switch (type) {
    case DType::Float: out = emit_shape_range_of<float>(ctx, type, *in[0], *in[1], *in[2]); break;
    case DType::Double: out = emit_shape_range_of<double>(ctx, type, *in[0], *in[1], *in[2]); break;
    case DType::Int8: out = emit_shape_range_of<int8_t>(ctx, type, *in[0], *in[1], *in[2]); break;
    case DType::Int16: out = emit_shape_range_of<int16_t>(ctx, type, *in[0], *in[1], *in[2]); break;
    case DType::Int32: out = emit_shape_range_of<int32_t>(ctx, type, *in[0], *in[1], *in[2]); break;
    case DType::Int64: out = emit_shape_range_of<int64_t>(ctx, type, *in[0], *in[1], *in[2]); break;
    case DType::UInt8: out = emit_shape_range_of<uint8_t>(ctx, type, *in[0], *in[1], *in[2]); break;
    case DType::UInt16: out = emit_shape_range_of<uint16_t>(ctx, type, *in[0], *in[1], *in[2]); break;
    case DType::UInt32: out = emit_shape_range_of<uint32_t>(ctx, type, *in[0], *in[1], *in[2]); break;
    case DType::UInt64: out = emit_shape_range_of<uint64_t>(ctx, type, *in[0], *in[1], *in[2]); break;
    default: e.refuse("element type " + std::string(dtype_name(type)));
  }
  emit_shape_store(e, out);
}

void emit_shape(NodeEmitter& e, const OpContext&) {
  const ShapeParams p = e.params<ShapeParams>();
  const CValue& x = e.input(0);
  const auto rank = static_cast<int64_t>(x.shape.size());
  int64_t start = 0, end = rank;
  p.range(rank, start, end);
  std::vector<int64_t> dims;
  for (int64_t d = start; d < end; ++d) dims.push_back(x.shape[static_cast<size_t>(d)]);
  emit_shape_store(e, Tensor::from_vector<int64_t>({static_cast<int64_t>(dims.size())}, dims));
}

}  // namespace

SONNX_EMIT_C("", "Constant", (25), emit_guarded<emit_constant>);
SONNX_EMIT_C("", "ConstantOfShape", (25), emit_guarded<emit_constant_of_shape>);
SONNX_EMIT_C("", "Range", (11), emit_guarded<emit_range>);
SONNX_EMIT_C("", "Shape", (25), emit_guarded<emit_shape>);

}  // namespace sonnx::emit
