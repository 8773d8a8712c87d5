// C templates of the SONNX profile's data-movement operators, for every element type with a C
// storage type (c_storage_type: float, double, the integers, bool, float16, bfloat16, the float8 and
// float4 types, the 4- and 2-bit integers, and the struct types: complex64 and complex128 as
// { re, im }, string as a view { data, size } whose bytes stay where they are). They move elements
// (C assignments of the storage type, bitwise as the reference's copies; a string's view is copied,
// its bytes are not), so `exact` and `fast` emit the same code; only ScatterND's reductions
// compute, for the arithmetic C types (refused for string and complex).
//
//   Concat-13      reference/ops/Concat.cpp: one block copy per input and outer index.
//   Expand-13      reference/ops/Expand.cpp: numpy broadcasting (strides 0 on dims of 1); a constant
//                  shape input must give the static output shape, a run-time one is taken as the
//                  static shape says (checked to be a broadcast of the input's).
//   Flatten-25, Identity-25, Reshape-25, Squeeze-25, Unsqueeze-25: the element copy y0[i] = x0[i]
//                  (reference/ops/Flatten.cpp, Identity.cpp, Reshape.cpp, Squeeze.cpp, Unsqueeze.cpp
//                  keep the data and change the shape). Where the shape / axes input is a constant
//                  the output shape is recomputed as the kernel does and must be the static one;
//                  where it is not, only the element counts are checked (the static shapes say it).
//   Gather-13      reference/ops/Gather.cpp: constant indices are checked and wrapped at generation
//                  time as the kernel does (support::checked_index): one out of range refuses the
//                  node (the reference traps). Run-time indices are checked the same way in the C,
//                  all before the copy: one out of range makes the node, and PREFIX_run, fail.
//   Pad-25         reference/ops/Pad.cpp: modes constant, reflect, edge, wrap; pads and axes must
//                  be constants (refused otherwise); constant_value a constant (a string or complex
//                  one as a named `static const` object) or a run-time input (read as x2[0]). Per
//                  padded axis a table of the source offset of each output coordinate
//                  (support::pad_reflect_index / pad_wrap_index at generation time, -1 for the
//                  constant fill).
//   ScatterND-18   reference/ops/ScatterND.cpp: constant indices checked at generation time
//                  (support::scatter_nd_slices), run-time ones in the C before anything is written
//                  (one out of range makes the node fail, as Gather's); the copy of data,
//                  then the updates in the kernel's order with reduction none / add / mul / max /
//                  min as support::reduce_values (integers wrap through the unsigned type, floats
//                  one operation in the type, max/min propagate NaN, bool add = max = or,
//                  mul = min = and).
//   Slice-13       reference/ops/Slice.cpp: starts, ends, axes and steps must be constants
//                  (refused otherwise); the clamping of the kernel at generation time.
//   Split-18       reference/ops/Split.cpp: split a constant input (refused when computed at run
//                  time) or num_outputs / the output count (SplitParams::lengths).
//   Transpose-25   reference/ops/Transpose.cpp: a loop nest over the output, input strides permuted.
//
// Everything the kernel would trap on (an axis out of range, shapes that do not fit, ...) refuses
// the node with the kernel's message (the support:: helpers run with an OpContext of the node).
#include <algorithm>
#include <bit>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "emit_util.h"
#include "reference/ops/params/movement.h"
#include "reference/ops/params/pad.h"
#include "reference/ops/params/scatter.h"
#include "reference/ops/registry.h"
#include "reference/ops/support/elementwise.h"
#include "reference/ops/support/indexing.h"
#include "sonnx/errors.h"

namespace sonnx::emit {
namespace {

// One term coef * expr of an index expression ("i0", "pad_d1[i1]", ...).
struct EmitMovementTerm {
  std::string expr;
  int64_t coef = 1;
};

// constant + Σ coef·expr as a C expression (terms of coefficient 0 or expression "0" left out). The
// constant comes first: with it, every partial sum of a valid offset is non-negative (a negative
// coefficient only walks back from a start the constant holds). Each product is parenthesised when
// it is not alone, as MISRA C 2012 rule 12.1 asks (emit_util's offset_expr does the same).
std::string emit_movement_index(const std::vector<EmitMovementTerm>& terms, int64_t constant) {
  std::vector<std::pair<bool, std::string>> parts;  // (negative, text)
  if (constant != 0) parts.emplace_back(constant < 0, std::to_string(constant < 0 ? -constant : constant));
  for (const EmitMovementTerm& t : terms) {
    if (t.coef == 0 || t.expr == "0") continue;
    const int64_t m = t.coef < 0 ? -t.coef : t.coef;
    parts.emplace_back(t.coef < 0, m == 1 ? t.expr : t.expr + " * " + std::to_string(m));
  }
  if (parts.empty()) return "0";
  if (parts.size() == 1 && !parts[0].first) return parts[0].second;
  std::string s;
  for (const auto& [negative, text] : parts) {
    const std::string item = text.find(' ') == std::string::npos ? text : "(" + text + ")";
    if (s.empty()) s = negative ? "-" + item : item;
    else s += (negative ? " - " : " + ") + item;
  }
  return s;
}

// The storage type of y's elements, which must be x's (any type with a C storage type: string and
// complex included, which these templates only assign).
std::string emit_movement_type(const NodeEmitter& e, const CValue& x, const CValue& y) {
  if (x.dtype != y.dtype) e.refuse("input and output element types differ");
  if (!has_c_storage_type(y.dtype)) e.refuse("element type " + std::string(dtype_name(y.dtype)) + " (no C template for it)");
  return c_storage_type(y.dtype);
}

void emit_movement_same_shape(const NodeEmitter& e, const CValue& y, const Shape& want, const std::string& what) {
  if (y.shape != want)
    e.refuse("the static shape " + shape_str(y.shape) + " of " + what + " is not the kernel's " + shape_str(want));
}

// dst[dst_at + o·dst_row + j] = src[src_at + o·src_row + j] for o < outer, j < count (a loop of one
// iteration is left out; nothing when there is nothing to copy).
void emit_movement_blocks(NodeEmitter& e, const std::string& dst, int64_t dst_at, int64_t dst_row, const std::string& src,
                          int64_t src_at, int64_t src_row, int64_t outer, int64_t count) {
  if (outer <= 0 || count <= 0) return;
  std::vector<EmitMovementTerm> d, s;
  if (outer > 1) {
    e.line(for_loop("o", outer));
    d.push_back({"o", dst_row});
    s.push_back({"o", src_row});
  }
  if (count > 1) {
    e.line(for_loop("j", count));
    d.push_back({"j", 1});
    s.push_back({"j", 1});
  }
  e.line(dst + "[" + emit_movement_index(d, dst_at) + "] = " + src + "[" + emit_movement_index(s, src_at) + "];");
  if (count > 1) e.line("}");
  if (outer > 1) e.line("}");
}

// y0[i] = x0[i] for every element: the operators that keep the data and change the shape.
void emit_movement_copy_all(NodeEmitter& e, const CValue& x, const CValue& y) {
  emit_movement_type(e, x, y);
  if (x.size() != y.size())
    e.refuse("input " + shape_str(x.shape) + " and output " + shape_str(y.shape) + " have different element counts");
  emit_movement_blocks(e, "y0", 0, 0, "x0", 0, 0, 1, y.size());
}

// `static const int64_t NAME[n] = {...};` (16 values a line).
void emit_movement_table(NodeEmitter& e, const std::string& name, const std::vector<int64_t>& v) {
  e.line("static const int64_t " + name + "[" + std::to_string(v.size()) + "] = {");
  for (size_t i = 0; i < v.size(); i += 16) {
    std::string text;
    for (size_t k = i; k < std::min(v.size(), i + 16); ++k) {
      if (k > i) text += " ";
      text += std::to_string(v[k]);
      if (k + 1 < v.size()) text += ",";
    }
    e.line(text);
  }
  e.line("};");
}

// A constant integer input read as the kernel reads it (int_values); refused when computed at run time.
std::vector<int64_t> emit_movement_ints(const NodeEmitter& e, const OpContext& ctx, size_t i, const std::string& what,
                                        bool one_d) {
  const Tensor& t = e.constant_input(i, what);
  if (one_d && t.rank() != 1) ctx.fail(what + " must be a 1-D tensor");
  return support::int_values(ctx, t, what);
}

// ---------------------------------------------------------------------------------------------
// The operators that keep the data: an element copy.

void emit_identity(NodeEmitter& e, const OpContext&) {
  const CValue &x = e.input(0), &y = e.output(0);
  emit_movement_same_shape(e, y, x.shape, "the output");
  emit_movement_copy_all(e, x, y);
}

void emit_reshape(NodeEmitter& e, const OpContext& ctx) {
  const ReshapeParams p = e.params<ReshapeParams>();
  const CValue &x = e.input(0), &y = e.output(0);
  if (e.input(1).constant)
    emit_movement_same_shape(e, y,
                             support::reshaped_shape(ctx, x.shape, emit_movement_ints(e, ctx, 1, "shape", true), p.allow_zero),
                             "the output");
  emit_movement_copy_all(e, x, y);
}

void emit_flatten(NodeEmitter& e, const OpContext& ctx) {
  const FlattenParams p = e.params<FlattenParams>();
  const CValue &x = e.input(0), &y = e.output(0);
  const auto rank = static_cast<int64_t>(x.shape.size());
  const std::optional<int64_t> a = p.axis_for(rank);
  if (!a)
    ctx.fail("axis " + std::to_string(p.axis) + " is out of range [-" + std::to_string(rank) + ", " + std::to_string(rank) +
             "]");
  const auto axis = static_cast<size_t>(*a);
  emit_movement_same_shape(e, y,
                           Shape{support::element_count(x.shape, 0, axis),
                                 support::element_count(x.shape, axis, x.shape.size())},
                           "the output");
  emit_movement_copy_all(e, x, y);
}

void emit_squeeze(NodeEmitter& e, const OpContext& ctx) {
  e.params<SqueezeParams>();  // version 25: the axes are input 1
  const CValue &x = e.input(0), &y = e.output(0);
  const auto rank = static_cast<int64_t>(x.shape.size());
  const bool axes_given = e.has_input(1);
  if (!axes_given || e.input(1).constant) {
    std::vector<bool> drop(static_cast<size_t>(rank), false);
    if (axes_given) {
      const Tensor& a = *e.input(1).constant;
      if (a.rank() > 1) ctx.fail("axes must be a 1-D tensor (or a scalar, as Unsqueeze accepts)");
      for (int64_t d : support::normalize_axes(ctx, support::int_values(ctx, a, "axes"), rank)) {
        if (drop[static_cast<size_t>(d)]) ctx.fail("axis " + std::to_string(d) + " appears twice");
        if (x.shape[static_cast<size_t>(d)] != 1)
          ctx.fail("cannot squeeze axis " + std::to_string(d) + " of size " + std::to_string(x.shape[static_cast<size_t>(d)]));
        drop[static_cast<size_t>(d)] = true;
      }
    } else {
      for (size_t d = 0; d < x.shape.size(); ++d) drop[d] = x.shape[d] == 1;
    }
    Shape out;
    for (size_t d = 0; d < x.shape.size(); ++d)
      if (!drop[d]) out.push_back(x.shape[d]);
    emit_movement_same_shape(e, y, out, "the output");
  }
  emit_movement_copy_all(e, x, y);
}

void emit_unsqueeze(NodeEmitter& e, const OpContext& ctx) {
  e.params<SqueezeParams>();  // version 25: the axes are input 1
  const CValue &x = e.input(0), &y = e.output(0);
  if (const Tensor* a = e.input(1).constant) {
    if (a->rank() > 1) ctx.fail("axes must be a 1-D tensor");
    const std::vector<int64_t> axes = support::int_values(ctx, *a, "axes");
    const auto out_rank = static_cast<int64_t>(x.shape.size() + axes.size());
    std::vector<bool> inserted(static_cast<size_t>(out_rank), false);
    for (int64_t d : support::normalize_axes(ctx, axes, out_rank)) {
      if (inserted[static_cast<size_t>(d)]) ctx.fail("axis " + std::to_string(d) + " is listed twice");
      inserted[static_cast<size_t>(d)] = true;
    }
    Shape out;
    size_t next = 0;
    for (int64_t d = 0; d < out_rank; ++d) out.push_back(inserted[static_cast<size_t>(d)] ? 1 : x.shape[next++]);
    emit_movement_same_shape(e, y, out, "the output");
  }
  emit_movement_copy_all(e, x, y);
}

// ---------------------------------------------------------------------------------------------
// Concat and Split: block copies along an axis.

void emit_concat(NodeEmitter& e, const OpContext& ctx) {
  const ConcatParams p = e.params<ConcatParams>();
  const CValue& y = e.output(0);
  if (e.input_count() == 0) ctx.fail("at least one input is required");
  const CValue& first = e.input(0);
  const auto rank = static_cast<int64_t>(first.shape.size());
  if (rank == 0) ctx.fail("cannot concatenate scalars");
  const auto axis = static_cast<size_t>(support::normalize_axis(ctx, p.axis, rank));
  Shape out_shape = first.shape;
  out_shape[axis] = 0;
  for (size_t k = 0; k < e.input_count(); ++k) {
    const CValue& t = e.input(k);
    if (t.dtype != first.dtype) ctx.fail("inputs have different element types");
    if (t.shape.size() != first.shape.size()) ctx.fail("inputs have different ranks");
    for (size_t d = 0; d < t.shape.size(); ++d)
      if (d != axis && t.shape[d] != first.shape[d])
        ctx.fail("input shapes " + shape_str(first.shape) + " and " + shape_str(t.shape) +
                 " differ outside the concatenation axis");
    out_shape[axis] += t.shape[axis];
  }
  emit_movement_type(e, first, y);
  emit_movement_same_shape(e, y, out_shape, "the output");
  const int64_t outer = support::element_count(out_shape, 0, axis);
  const int64_t inner = support::element_count(out_shape, axis + 1, out_shape.size());
  const int64_t out_row = out_shape[axis] * inner;
  int64_t offset = 0;
  for (size_t k = 0; k < e.input_count(); ++k) {
    const int64_t row = e.input(k).shape[axis] * inner;
    emit_movement_blocks(e, "y0", offset, out_row, "x" + std::to_string(k), 0, row, outer, row);
    offset += row;
  }
}

void emit_split(NodeEmitter& e, const OpContext& ctx) {
  const SplitParams p = e.params<SplitParams>();
  const CValue& x = e.input(0);
  std::optional<std::vector<int64_t>> given;
  if (e.has_input(1)) given = emit_movement_ints(e, ctx, 1, "split", true);
  if (x.shape.empty()) ctx.fail("cannot split a scalar");
  const auto axis = static_cast<size_t>(support::normalize_axis(ctx, p.axis, static_cast<int64_t>(x.shape.size())));
  const int64_t dim = x.shape[axis];
  std::vector<int64_t> lengths;
  if (std::string why = p.lengths(dim, e.output_count(), given ? &*given : nullptr, lengths); !why.empty()) ctx.fail(why);
  const int64_t outer = support::element_count(x.shape, 0, axis);
  const int64_t inner = support::element_count(x.shape, axis + 1, x.shape.size());
  int64_t start = 0;
  for (size_t k = 0; k < lengths.size(); ++k) {
    const CValue& y = e.output(k);
    emit_movement_type(e, x, y);
    Shape s = x.shape;
    s[axis] = lengths[k];
    emit_movement_same_shape(e, y, s, "output " + std::to_string(k));
    const int64_t row = lengths[k] * inner;
    emit_movement_blocks(e, "y" + std::to_string(k), 0, row, "x0", start * inner, dim * inner, outer, row);
    start += lengths[k];
  }
}

// ---------------------------------------------------------------------------------------------
// Expand and Transpose: a loop nest over the output.

void emit_expand(NodeEmitter& e, const OpContext& ctx) {
  const CValue &x = e.input(0), &y = e.output(0);
  emit_movement_type(e, x, y);
  Shape out_shape;
  if (e.input(1).constant) {
    const Shape shape = emit_movement_ints(e, ctx, 1, "shape", true);
    for (int64_t d : shape)
      if (d < 0) ctx.fail("shape entries must be non-negative, got " + shape_str(shape));
    out_shape = support::broadcast_shapes(ctx, x.shape, shape);
  } else {
    out_shape = support::broadcast_shapes(ctx, x.shape, y.shape);  // the static shapes say the rest
  }
  emit_movement_same_shape(e, y, out_shape, "the output");
  if (y.size() == 0) return;
  const LoopNest loops = open_loops(e, y.shape);
  e.line("y0[" + offset_expr(loops, row_major_strides(y.shape)) + "] = x0[" +
         offset_expr(loops, broadcast_strides(x.shape, y.shape)) + "];");
  close_loops(e, loops);
}

void emit_transpose(NodeEmitter& e, const OpContext& ctx) {
  const TransposeParams p = e.params<TransposeParams>();
  const CValue &x = e.input(0), &y = e.output(0);
  emit_movement_type(e, x, y);
  std::vector<int64_t> perm;
  if (std::string why = p.permutation(static_cast<int64_t>(x.shape.size()), perm); !why.empty()) ctx.fail(why);
  const std::vector<int64_t> in_strides = row_major_strides(x.shape);
  Shape out_shape;
  std::vector<int64_t> stride_for_out;
  for (int64_t a : perm) {
    out_shape.push_back(x.shape[static_cast<size_t>(a)]);
    stride_for_out.push_back(in_strides[static_cast<size_t>(a)]);
  }
  emit_movement_same_shape(e, y, out_shape, "the output");
  if (y.size() == 0) return;
  const LoopNest loops = open_loops(e, y.shape);
  e.line("y0[" + offset_expr(loops, row_major_strides(y.shape)) + "] = x0[" + offset_expr(loops, stride_for_out) + "];");
  close_loops(e, loops);
}

// ---------------------------------------------------------------------------------------------
// Gather.

// "if ((v < -dim) || (v >= dim)) { status = 1; }" for the index v (support::checked_index's test):
// the node fails, as the reference traps, before anything is read at v.
void emit_movement_check_index(NodeEmitter& e, const std::string& v, int64_t dim) {
  e.line("if ((" + v + " < " + c_literal_int(DType::Int64, -dim) + ") || (" + v + " >= " + c_literal_int(DType::Int64, dim) +
         ")) {");
  e.line("status = 1;");
  e.line("}");
}

// Indices read at run time: every one checked first (the node fails on one out of range, writing
// nothing), then the copy with negative ones counted from the end.
void emit_gather_run_time(NodeEmitter& e, size_t axis, const CValue& x, const CValue& ind, const CValue& y) {
  if (ind.dtype != DType::Int32 && ind.dtype != DType::Int64) e.refuse("indices must be int32 or int64");
  Shape out_shape(x.shape.begin(), x.shape.begin() + static_cast<std::ptrdiff_t>(axis));
  out_shape.insert(out_shape.end(), ind.shape.begin(), ind.shape.end());
  out_shape.insert(out_shape.end(), x.shape.begin() + static_cast<std::ptrdiff_t>(axis) + 1, x.shape.end());
  emit_movement_same_shape(e, y, out_shape, "the output");
  if (y.size() == 0) return;
  const int64_t dim = x.shape[axis], count = ind.size();
  const int64_t outer = support::element_count(x.shape, 0, axis);
  const int64_t inner = support::element_count(x.shape, axis + 1, x.shape.size());
  e.may_fail();
  e.line(for_loop("k", count));
  e.line("const int64_t v = (int64_t)x1[k];");
  emit_movement_check_index(e, "v", dim);
  e.line("}");
  e.line("if (status == 0) {");
  if (outer > 1) e.line(for_loop("o", outer));
  e.line(for_loop("k", count));
  e.line("int64_t v = (int64_t)x1[k];");
  e.line("if (v < 0) {");
  e.line("v += " + c_literal_int(DType::Int64, dim) + ";");
  e.line("}");
  if (inner > 1) e.line(for_loop("j", inner));
  const std::vector<EmitMovementTerm> o = {{outer > 1 ? "o" : "0", 1}}, j = {{inner > 1 ? "j" : "0", 1}};
  const auto terms = [&](int64_t row, const std::string& at) {
    std::vector<EmitMovementTerm> t = {{o[0].expr, row}, {at, inner}, j[0]};
    return emit_movement_index(t, 0);
  };
  e.line("y0[" + terms(count * inner, "k") + "] = x0[" + terms(dim * inner, "v") + "];");
  if (inner > 1) e.line("}");
  e.line("}");
  if (outer > 1) e.line("}");
  e.line("}");
}

// Constant indices: checked and wrapped at generation time.

void emit_gather(NodeEmitter& e, const OpContext& ctx) {
  const GatherParams p = e.params<GatherParams>();
  const CValue &x = e.input(0), &ind = e.input(1), &y = e.output(0);
  emit_movement_type(e, x, y);
  if (x.shape.empty()) ctx.fail("data must have rank >= 1");
  const auto axis = static_cast<size_t>(support::normalize_axis(ctx, p.axis, static_cast<int64_t>(x.shape.size())));
  if (!ind.constant) {
    emit_gather_run_time(e, axis, x, ind, y);
    return;
  }
  std::vector<int64_t> idx = support::int_values(ctx, *ind.constant, "indices");
  const int64_t dim = x.shape[axis];
  for (int64_t& i : idx) i = support::checked_index(ctx, i, dim, "index");
  Shape out_shape(x.shape.begin(), x.shape.begin() + static_cast<std::ptrdiff_t>(axis));
  out_shape.insert(out_shape.end(), ind.constant->shape().begin(), ind.constant->shape().end());
  out_shape.insert(out_shape.end(), x.shape.begin() + static_cast<std::ptrdiff_t>(axis) + 1, x.shape.end());
  emit_movement_same_shape(e, y, out_shape, "the output");
  if (y.size() == 0) return;
  const int64_t outer = support::element_count(x.shape, 0, axis);
  const int64_t inner = support::element_count(x.shape, axis + 1, x.shape.size());
  const auto count = static_cast<int64_t>(idx.size());
  std::vector<EmitMovementTerm> dst, src;
  int64_t src_at = 0;
  if (count > 1) {
    std::vector<int64_t> at;
    for (int64_t i : idx) at.push_back(i * inner);
    emit_movement_table(e, "gather_at", at);
  } else {
    src_at = idx[0] * inner;
  }
  if (outer > 1) {
    e.line(for_loop("o", outer));
    dst.push_back({"o", count * inner});
    src.push_back({"o", dim * inner});
  }
  if (count > 1) {
    e.line(for_loop("k", count));
    dst.push_back({"k", inner});
    src.push_back({"gather_at[k]", 1});
  }
  if (inner > 1) {
    e.line(for_loop("j", inner));
    dst.push_back({"j", 1});
    src.push_back({"j", 1});
  }
  e.line("y0[" + emit_movement_index(dst, 0) + "] = x0[" + emit_movement_index(src, src_at) + "];");
  if (inner > 1) e.line("}");
  if (count > 1) e.line("}");
  if (outer > 1) e.line("}");
}

// ---------------------------------------------------------------------------------------------
// Slice: constant starts, ends, axes, steps.

void emit_slice(NodeEmitter& e, const OpContext& ctx) {
  e.params<SliceParams>();  // version 13: everything is an input
  const CValue &x = e.input(0), &y = e.output(0);
  emit_movement_type(e, x, y);
  auto vec = [&](size_t i, const char* what) {
    if (!e.has_input(i)) return std::vector<int64_t>{};
    return emit_movement_ints(e, ctx, i, what, true);
  };
  if (!e.has_input(1) || !e.has_input(2)) ctx.fail("inputs 'starts' and 'ends' are required");
  const std::vector<int64_t> starts = vec(1, "starts"), ends = vec(2, "ends");
  std::vector<int64_t> axes = vec(3, "axes"), steps = vec(4, "steps");
  if (e.has_input(3) && axes.size() != starts.size()) ctx.fail("axes and starts have different lengths");
  if (e.has_input(4) && steps.size() != starts.size()) ctx.fail("steps and starts have different lengths");
  const support::SliceWindow w = support::slice_window(ctx, x.shape, starts, ends, axes, steps);
  const std::vector<int64_t>&first = w.first, &step = w.step;
  const Shape& out_shape = w.out_shape;
  emit_movement_same_shape(e, y, out_shape, "the output");
  if (y.size() == 0) return;
  // Every position first + idx·step read lies inside its axis (idx < len), so the products below
  // are bounded by the input's size.
  const std::vector<int64_t> in_strides = row_major_strides(x.shape);
  const LoopNest loops = open_loops(e, y.shape);
  std::vector<EmitMovementTerm> src;
  int64_t src_at = 0;
  for (size_t d = 0; d < x.shape.size(); ++d) {
    src_at += first[d] * in_strides[d];
    src.push_back({loops.index[d], step[d] * in_strides[d]});
  }
  e.line("y0[" + offset_expr(loops, row_major_strides(y.shape)) + "] = x0[" + emit_movement_index(src, src_at) + "];");
  close_loops(e, loops);
}

// ---------------------------------------------------------------------------------------------
// Pad: per padded axis a table of source offsets.

void emit_pad(NodeEmitter& e, const OpContext& ctx) {
  const PadParams p = e.params<PadParams>();
  const CValue &x = e.input(0), &y = e.output(0);
  emit_movement_type(e, x, y);
  const auto rank = static_cast<int64_t>(x.shape.size());
  const std::vector<int64_t> given = emit_movement_ints(e, ctx, 1, "pads", true);
  // The fill: constant_value (a constant, or x2[0] at run time), else the type's zero (0, false,
  // { 0, 0 } or the empty string); written below only where an element takes it.
  const Tensor zero(x.dtype, {});
  const Tensor* fill_value = &zero;
  if (e.has_input(2)) {
    const CValue& c = e.input(2);
    if (c.dtype != x.dtype) ctx.fail("constant_value has a different element type than data");
    if (c.size() != 1) ctx.fail("constant_value must hold exactly one value");
    fill_value = c.constant;  // null: read at run time
  }
  // Pad.cpp's pads_for_all_axes (version 25 >= 18).
  std::vector<int64_t> pads = given;
  if (e.has_input(3)) {
    const std::vector<int64_t> axes = support::normalize_axes(ctx, emit_movement_ints(e, ctx, 3, "axes", false), rank);
    const size_t n = axes.size();
    if (given.size() != 2 * n)
      ctx.fail("pads has " + std::to_string(given.size()) + " entries for " + std::to_string(n) + " axes, expected " +
               std::to_string(2 * n));
    pads.assign(static_cast<size_t>(2 * rank), 0);
    std::vector<bool> seen(static_cast<size_t>(rank), false);
    for (size_t k = 0; k < n; ++k) {
      const auto a = static_cast<size_t>(axes[k]);
      if (seen[a]) ctx.fail("axis " + std::to_string(a) + " is given more than once");
      seen[a] = true;
      pads[a] = given[k];
      pads[a + static_cast<size_t>(rank)] = given[k + n];
    }
  }
  Shape out_shape;
  if (std::string why = p.padded_shape(x.shape, pads, out_shape); !why.empty()) ctx.fail(why);
  emit_movement_same_shape(e, y, out_shape, "the output");
  if (y.size() == 0) return;

  // Per axis: the source offset of each output coordinate as Pad.cpp's pad() finds it, -1 for the
  // constant fill; an axis without padding reads coordinate i itself.
  const std::vector<int64_t> in_strides = row_major_strides(x.shape);
  const auto r = static_cast<size_t>(rank);
  std::vector<bool> table(r, false), may_fill(r, false);
  for (size_t d = 0; d < r; ++d) {
    const int64_t dim = x.shape[d];
    if (pads[d] == 0 && pads[d + r] == 0) continue;
    table[d] = true;
    std::vector<int64_t> at;
    for (int64_t o = 0; o < out_shape[d]; ++o) {
      int64_t i = o - pads[d];
      if (i < 0 || i >= dim) {
        if (p.mode == PadMode::Constant) {
          at.push_back(-1);
          may_fill[d] = true;
          continue;
        }
        if (p.mode == PadMode::Edge) i = std::clamp<int64_t>(i, 0, dim - 1);
        else if (p.mode == PadMode::Wrap) i = support::pad_wrap_index(i, dim, pads[d], pads[d + r]);
        else i = support::pad_reflect_index(i, dim);
      }
      at.push_back(i * in_strides[d]);
    }
    emit_movement_table(e, "pad_at" + std::to_string(d), at);
  }
  std::string fill;  // a constant (a named `static const` object for the struct types), or x2[0]
  if (std::find(may_fill.begin(), may_fill.end(), true) != may_fill.end())
    fill = fill_value ? e.constant_object(*fill_value, 0, "pad_value") : "x2[0]";
  const LoopNest loops = open_loops(e, y.shape);
  std::vector<EmitMovementTerm> src;
  std::string cond;
  for (size_t d = 0; d < r; ++d) {
    if (!table[d]) {
      src.push_back({loops.index[d], in_strides[d]});
      continue;
    }
    const std::string at = "pad_at" + std::to_string(d) + "[" + loops.index[d] + "]";
    src.push_back({at, 1});
    if (may_fill[d]) cond += (cond.empty() ? "" : " || ") + at + " < 0";
  }
  const std::string dst = "y0[" + offset_expr(loops, row_major_strides(y.shape)) + "]";
  const std::string read = "x0[" + emit_movement_index(src, 0) + "]";
  if (cond.empty()) {
    e.line(dst + " = " + read + ";");
  } else {
    e.line("if (" + cond + ") {");
    e.line(dst + " = " + fill + ";");
    e.line("} else {");
    e.line(dst + " = " + read + ";");
    e.line("}");
  }
  close_loops(e, loops);
}

// ---------------------------------------------------------------------------------------------
// ScatterND: constant indices.

// The statement D = reduce(D, U) of support::reduce_values for elements of `type` (the caller
// refuses a reduction on the struct types).
std::string emit_movement_reduce(Reduction r, DType type, const std::string& d, const std::string& u) {
  if (r == Reduction::None) return d + " = " + u + ";";
  const std::string t = c_type(type);  // the reductions compute: an arithmetic C type
  if (type == DType::Bool)
    return d + " = (uint8_t)(" + d + (r == Reduction::Add || r == Reduction::Max ? " || " : " && ") + u + ");";
  const bool floating = type == DType::Float || type == DType::Double;
  if (r == Reduction::Max || r == Reduction::Min) {
    const std::string better = r == Reduction::Max ? u + " > " + d : u + " < " + d;
    // NaN propagates: a NaN already there stays, a NaN update replaces.
    if (floating) return "if ((!isnan(" + d + ")) && (isnan(" + u + ") || (" + better + "))) { " + d + " = " + u + "; }";
    return "if (" + better + ") { " + d + " = " + u + "; }";
  }
  const char* op = r == Reduction::Add ? " + " : " * ";
  if (floating) return d + " = " + d + op + u + ";";  // one operation in the type, as to_storage<T>(x op y)
  // Integers wrap (support::wrap_add / wrap_mul): in an unsigned type at least as wide as unsigned int.
  const size_t width = dtype_size(type);
  const std::string w = width < 4 ? "unsigned int" : width == 4 ? "uint32_t" : "uint64_t";
  return d + " = (" + t + ")((" + w + ")" + d + op + "(" + w + ")" + u + ");";
}

// Indices read at run time: every tuple checked first (the node fails on an index out of range,
// writing nothing, as the reference traps before it writes), then the copy of data and the updates
// tuple by tuple, each tuple's offset Σ index_j·stride_j with negative indices counted from the end.
void emit_scatter_nd_run_time(NodeEmitter& e, Reduction reduction, const CValue& data, const CValue& ind, const CValue& y) {
  if (ind.dtype != DType::Int64) e.refuse("indices must be int64");
  emit_movement_same_shape(e, y, data.shape, "the output");
  const auto k = static_cast<size_t>(ind.shape.back());
  const int64_t tuples = support::element_count(ind.shape, 0, ind.shape.size() - 1);
  const int64_t slice = support::element_count(data.shape, k, data.shape.size());
  const std::vector<int64_t> strides = row_major_strides(data.shape);
  const auto at = [&](size_t j) { return "x1[t * " + std::to_string(k) + " + " + std::to_string(j) + "]"; };
  e.may_fail();
  if (tuples > 0) {
    e.line(for_loop("t", tuples));
    for (size_t j = 0; j < k; ++j) {
      e.line("{");
      e.line("const int64_t v = " + at(j) + ";");
      emit_movement_check_index(e, "v", data.shape[j]);
      e.line("}");
    }
    e.line("}");
  }
  e.line("if (status == 0) {");
  emit_movement_blocks(e, "y0", 0, 0, "x0", 0, 0, 1, y.size());
  if (tuples > 0 && slice > 0) {
    if ((reduction == Reduction::Max || reduction == Reduction::Min) &&
        (data.dtype == DType::Float || data.dtype == DType::Double))
      e.needs_math();  // isnan
    e.line(for_loop("t", tuples));
    e.line("int64_t base = 0;");
    for (size_t j = 0; j < k; ++j) {
      e.line("{");
      e.line("int64_t v = " + at(j) + ";");
      e.line("if (v < 0) {");
      e.line("v += " + c_literal_int(DType::Int64, data.shape[j]) + ";");
      e.line("}");
      e.line("base += v * " + c_literal_int(DType::Int64, strides[j]) + ";");
      e.line("}");
    }
    if (slice > 1) e.line(for_loop("j", slice));
    const std::string j = slice > 1 ? " + j" : "";
    e.line(emit_movement_reduce(reduction, data.dtype, "y0[base" + j + "]", "x2[t * " + std::to_string(slice) + j + "]"));
    if (slice > 1) e.line("}");
    e.line("}");
  }
  e.line("}");
}

void emit_scatter_nd(NodeEmitter& e, const OpContext& ctx) {
  const Reduction reduction = e.params<ScatterParams>().reduction;
  const CValue &data = e.input(0), &ind = e.input(1), &updates = e.input(2), &y = e.output(0);
  emit_movement_type(e, data, y);
  if (reduction != Reduction::None && is_c_struct_type(data.dtype))
    e.refuse("a reduction on element type " + std::string(dtype_name(data.dtype)) + " (no C template for it)");
  const auto r = static_cast<int64_t>(data.shape.size());
  const auto q = static_cast<int64_t>(ind.shape.size());
  if (r < 1 || q < 1) ctx.fail("data and indices must have rank >= 1");
  if (updates.dtype != data.dtype) ctx.fail("updates and data have different element types");
  const int64_t k = ind.shape.back();
  if (k < 1 || k > r) ctx.fail("indices.shape[-1] must be in [1, rank(data)]");
  Shape want(ind.shape.begin(), ind.shape.end() - 1);
  want.insert(want.end(), data.shape.begin() + k, data.shape.end());
  if (updates.shape != want) ctx.fail("updates has shape " + shape_str(updates.shape) + ", expected " + shape_str(want));
  if (!ind.constant) {
    emit_scatter_nd_run_time(e, reduction, data, ind, y);
    return;
  }
  const Tensor& indices = *ind.constant;
  const support::ScatterSlices slices = support::scatter_nd_slices(ctx, data.shape, indices);
  emit_movement_same_shape(e, y, data.shape, "the output");
  emit_movement_blocks(e, "y0", 0, 0, "x0", 0, 0, 1, y.size());
  const auto tuples = static_cast<int64_t>(slices.base.size());
  const int64_t slice = slices.slice;
  if (tuples == 0 || slice == 0) return;
  if ((reduction == Reduction::Max || reduction == Reduction::Min) &&
      (data.dtype == DType::Float || data.dtype == DType::Double))
    e.needs_math();  // isnan
  // The updates in the kernel's order: tuple by tuple (a later duplicate meets the earlier result).
  if (tuples > 8) {
    emit_movement_table(e, "scatter_at", slices.base);
    e.line(for_loop("t", tuples));
    if (slice > 1) e.line(for_loop("j", slice));
    e.line(emit_movement_reduce(reduction, data.dtype,
                                "y0[" + emit_movement_index({{"scatter_at[t]", 1}, {"j", slice > 1 ? 1 : 0}}, 0) + "]",
                                "x2[" + emit_movement_index({{"t", slice}, {"j", slice > 1 ? 1 : 0}}, 0) + "]"));
    if (slice > 1) e.line("}");
    e.line("}");
    return;
  }
  for (int64_t t = 0; t < tuples; ++t) {
    const std::vector<EmitMovementTerm> j = {{"j", slice > 1 ? 1 : 0}};
    if (slice > 1) e.line(for_loop("j", slice));
    e.line(emit_movement_reduce(reduction, data.dtype, "y0[" + emit_movement_index(j, slices.base[static_cast<size_t>(t)]) + "]",
                                "x2[" + emit_movement_index(j, t * slice) + "]"));
    if (slice > 1) e.line("}");
  }
}

}  // namespace

SONNX_EMIT_C("", "Concat", (13), emit_guarded<emit_concat>);
SONNX_EMIT_C("", "Expand", (13), emit_guarded<emit_expand>);
SONNX_EMIT_C("", "Flatten", (25), emit_guarded<emit_flatten>);
SONNX_EMIT_C("", "Gather", (13), emit_guarded<emit_gather>);
SONNX_EMIT_C("", "Identity", (25), emit_guarded<emit_identity>);
SONNX_EMIT_C("", "Pad", (25), emit_guarded<emit_pad>);
SONNX_EMIT_C("", "Reshape", (25), emit_guarded<emit_reshape>);
SONNX_EMIT_C("", "ScatterND", (18), emit_guarded<emit_scatter_nd>);
SONNX_EMIT_C("", "Slice", (13), emit_guarded<emit_slice>);
SONNX_EMIT_C("", "Split", (18), emit_guarded<emit_split>);
SONNX_EMIT_C("", "Squeeze", (25), emit_guarded<emit_squeeze>);
SONNX_EMIT_C("", "Transpose", (25), emit_guarded<emit_transpose>);
SONNX_EMIT_C("", "Unsqueeze", (25), emit_guarded<emit_unsqueeze>);

}  // namespace sonnx::emit
