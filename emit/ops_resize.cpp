// C template of Resize-19 (reference/ops/Resize.cpp, resize_v18, and support/resample.h), for
// every element type c_type() names and float16 and bfloat16 (held as their uint16_t bits) in mode
// nearest (a gather: any of these types, bool included) and the real types among them in modes
// linear and cubic (bool refused, as the kernel's visit_real does).
//
// The per-axis tables of the reference ARE the template's data: the output lengths come from
// scales or sizes as resize_v18 computes them (keep_aspect_ratio_policy, axes, roi for
// tf_crop_and_resize), and each axis's taps from support::axis_taps itself, run at generation
// time: every coordinate_transformation_mode, nearest_mode, cubic_coeff_a, exclude_outside,
// antialias and the clamping of taps to the edge are the kernel's by construction. The C reads
// them from `static const` tables (source offsets, weights as exact hexadecimal doubles, tap
// counts, outside-the-crop flags) per resampled axis; an axis whose taps are the identity reads
// its coordinate directly.
//
// Exact (and fast: the same code): nearest copies the element (no conversion: float16 and bfloat16
// copy their bits), and an output outside the crop is extrapolation_value as the kernel's
// `extrapolated` (to_storage<T>, for float16 and bfloat16 its bits computed here by the reference's
// own round_from_double). Linear and cubic accumulate in double as resample() does: acc = 0, then
// for the Cartesian product of the axes' taps in the kernel's order (the first axis outermost, the
// last innermost), acc += (w_a · w_b · ...) · (double)x, the weight product left to right in axis
// order (the kernel's factors of exactly 1 left out: multiplying by 1 is exact) and each product a
// statement of its own (no contraction into an fma), x read as its compute_t<T> value
// (NodeEmitter::load: the exact float value of a float16 or bfloat16); an output outside the crop
// is extrapolation_value. The double is stored as the kernel does: (float)acc for float
// (to_storage), acc for double, for float16 and bfloat16 rounded once from double
// (NodeEmitter::store: to_storage<T>(double), never through float), and for integers round half to
// even (sonnx_resize_round_half_even, rounding.h's round_half_even) then saturating_cast (NaN to
// 0, saturated at the type's limits).
//
// Refused: scales, sizes or (for tf_crop_and_resize) roi computed at run time; a NaN
// extrapolation_value with a payload (no C99 constant spells it); whatever the kernel traps on
// (an empty axis resized to a non-empty one, a non-finite coordinate, bad scales or sizes...),
// with its message.
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "c_half.h"
#include "emit_util.h"
#include "reference/ops/registry.h"
#include "reference/ops/support/resample.h"
#include "sonnx/errors.h"

namespace sonnx::emit {
namespace {

// A C constant of a float or double value. A NaN keeps its sign; one with a payload has no C99
// spelling and refuses the node.
std::string emit_resize_real(NodeEmitter& e, DType type, double v) {
  if (std::isnan(v)) {
    const auto bits = std::bit_cast<uint64_t>(v);
    if ((bits & 0x7fffffffffffffffULL) != 0x7ff8000000000000ULL) e.refuse("a NaN with a payload has no C99 constant");
    e.needs_math();
    const std::string nan = type == DType::Float ? "NAN" : "((double)NAN)";
    return (bits >> 63) != 0 ? "(-" + nan + ")" : nan;
  }
  if (std::isinf(v)) e.needs_math();
  return c_literal(type, v);
}

// Calls f.template operator()<T>() for the integer element types c_type() names (bool excluded).
template <class F>
void emit_resize_visit_int(const NodeEmitter& e, DType type, F&& f) {
  switch (type) {
    case DType::Int8: f.template operator()<int8_t>(); return;
    case DType::Int16: f.template operator()<int16_t>(); return;
    case DType::Int32: f.template operator()<int32_t>(); return;
    case DType::Int64: f.template operator()<int64_t>(); return;
    case DType::UInt8: f.template operator()<uint8_t>(); return;
    case DType::UInt16: f.template operator()<uint16_t>(); return;
    case DType::UInt32: f.template operator()<uint32_t>(); return;
    case DType::UInt64: f.template operator()<uint64_t>(); return;
    default: break;
  }
  e.refuse("element type " + std::string(dtype_name(type)));
}

// The value the nearest kernel stores outside the crop (resample's `extrapolated`), as a C constant.
std::string emit_resize_nearest_fill(NodeEmitter& e, DType type, double extrapolation) {
  if (type == DType::Bool) return extrapolation != 0 ? "1u" : "0u";
  if (type == DType::Float) return emit_resize_real(e, type, static_cast<double>(support::to_storage<float>(extrapolation)));
  if (type == DType::Double) return emit_resize_real(e, type, extrapolation);
  // float16 and bfloat16: the bits to_storage<T> gives (one rounding from double; a NaN as the
  // conversion makes it).
  if (type == DType::Float16) return std::to_string(support::to_storage<float16_t>(extrapolation).bits) + "u";
  if (type == DType::BFloat16) return std::to_string(support::to_storage<bfloat16_t>(extrapolation).bits) + "u";
  std::string text;
  emit_resize_visit_int(e, type, [&]<class T>() {
    text = c_literal_int(type, static_cast<int64_t>(support::saturating_cast<T>(std::trunc(extrapolation))));
  });
  return text;
}

// `static const TYPE NAME[rows][cols] = {...};` from the elements' C text (cols 0: one dimension).
void emit_resize_table(NodeEmitter& e, const std::string& type, const std::string& name, int64_t rows, int64_t cols,
                       const std::vector<std::string>& v) {
  e.line("static const " + type + " " + name + "[" + std::to_string(rows) + "]" +
         (cols > 0 ? "[" + std::to_string(cols) + "]" : "") + " = {");
  const auto n = static_cast<int64_t>(v.size());
  const int64_t per = cols > 0 ? cols : 12;
  for (int64_t i = 0; i < n; i += per) {
    std::string text = cols > 0 ? "{" : "";
    for (int64_t k = i; k < std::min(n, i + per); ++k) {
      if (k > i) text += cols > 0 ? ", " : " ";
      text += v[static_cast<size_t>(k)];
      if (cols == 0 && k + 1 < n) text += ",";
    }
    if (cols > 0) text += i + per < n ? "}," : "}";
    e.line(text);
  }
  e.line("};");
}

// What the C reads along one output axis.
struct EmitResizeAxis {
  bool identity = true;      // every coordinate o has the one tap (o, 1): read o itself
  bool outside_any = false;  // some coordinate lies outside the crop (tf_crop_and_resize)
  int64_t taps = 1;          // the most taps of a coordinate (at least 1)
  bool uniform = true;       // every coordinate inside the crop has that many
  bool unit_weights = true;  // every weight is 1
};

// The static shape's own resize_v18: the axes' lengths, scales and crops from the constant inputs.
std::vector<support::ResizeAxis> emit_resize_axes(NodeEmitter& e, const OpContext& ctx, const support::ResizeParams& p) {
  const CValue& x = e.input(0);
  const auto rank = static_cast<int64_t>(x.shape.size());
  std::vector<size_t> axes;
  if (std::string why = p.named_axes(rank, axes); !why.empty()) ctx.fail(why);
  std::vector<support::ResizeAxis> all(static_cast<size_t>(rank));
  for (size_t d = 0; d < all.size(); ++d) {
    all[d].in = x.shape[d];
    all[d].out = all[d].in;
    all[d].resized_length = static_cast<double>(all[d].in);
  }
  // Resize.cpp's optional_floats, from a constant (an empty input is empty whatever computes it).
  auto floats = [&](size_t i, const std::string& what) {
    std::vector<double> v;
    if (!e.has_input(i)) return v;
    const CValue& in = e.input(i);
    if (!is_float(in.dtype)) ctx.fail("input " + std::to_string(i) + " must be a floating tensor");
    if (in.size() == 0) return v;
    return support::real_values(ctx, e.constant_input(i, what));
  };
  if (p.coord == support::CoordMode::TfCropAndResize) {
    const std::vector<double> roi = floats(1, "roi");
    if (!roi.empty()) {
      const size_t n = axes.size();
      if (roi.size() != 2 * n) ctx.fail("roi has " + std::to_string(roi.size()) + " values, expected " + std::to_string(2 * n));
      for (size_t i = 0; i < n; ++i) {
        all[axes[i]].roi_start = roi[i];
        all[axes[i]].roi_end = roi[n + i];
      }
    }
  }
  const std::vector<double> scales = floats(2, "scales");
  std::vector<int64_t> sizes;
  if (e.has_input(3)) {
    const CValue& in = e.input(3);
    if (!is_integer(in.dtype)) ctx.fail("sizes must be an integer tensor");
    if (in.size() > 0) {
      sizes = e.constant_input(3, "sizes").to_int64_vector();
    }
  }
  if (!scales.empty() && !sizes.empty()) ctx.fail("only one of scales and sizes may be given");
  if (scales.empty() && sizes.empty()) ctx.fail("one of scales and sizes must be given");
  if (!sizes.empty()) {
    // Resize.cpp's apply_sizes.
    if (sizes.size() != axes.size())
      ctx.fail("sizes has " + std::to_string(sizes.size()) + " values for " + std::to_string(axes.size()) + " axes");
    for (int64_t s : sizes)
      if (s < 0) ctx.fail("sizes must not be negative");
    if (p.policy == support::AspectPolicy::Stretch) {
      for (size_t i = 0; i < axes.size(); ++i) {
        support::ResizeAxis& a = all[axes[i]];
        a.out = sizes[i];
        a.scale = a.in == 0 ? 1.0 : static_cast<double>(sizes[i]) / static_cast<double>(a.in);
        a.resized_length = static_cast<double>(sizes[i]);
      }
    } else {
      const bool not_larger = p.policy == support::AspectPolicy::NotLarger;
      double scale = not_larger ? std::numeric_limits<double>::infinity() : 0.0;
      for (size_t i = 0; i < axes.size(); ++i) {
        const support::ResizeAxis& a = all[axes[i]];
        if (a.in == 0) ctx.fail("cannot keep the aspect ratio of an empty axis");
        const double r = static_cast<double>(sizes[i]) / static_cast<double>(a.in);
        scale = not_larger ? std::min(scale, r) : std::max(scale, r);
      }
      for (size_t d : axes) {
        support::ResizeAxis& a = all[d];
        const auto in = static_cast<double>(a.in);
        a.out = support::scaled_length(ctx, in * scale + 0.5, 1.0);
        a.scale = scale;
        a.resized_length = in * scale;
      }
    }
  } else {
    // Resize.cpp's apply_scales.
    if (scales.size() != axes.size())
      ctx.fail("scales has " + std::to_string(scales.size()) + " values for " + std::to_string(axes.size()) + " axes");
    for (size_t i = 0; i < axes.size(); ++i) {
      support::ResizeAxis& a = all[axes[i]];
      const double s = scales[i];
      if (!(s > 0) || !std::isfinite(s)) ctx.fail("scales must be positive and finite");
      const auto in = static_cast<double>(a.in);
      const double factor = p.coord == support::CoordMode::TfCropAndResize ? (a.roi_end - a.roi_start) * s : s;
      a.out = support::scaled_length(ctx, in, factor);
      a.scale = s;
      a.resized_length = in * s;
    }
  }
  return all;
}

constexpr const char* kEmitResizeRoundHalfEven =
    "/* rounding.h's round_half_even: to the nearest integer, ties to even, -0 kept. */\n"
    "static double sonnx_resize_round_half_even(double x) {\n"
    "  double r = x;\n"
    "  if (isfinite(x)) {\n"
    "    const double f = floor(x);\n"
    "    const double diff = x - f;\n"
    "    double n;\n"
    "    if (diff < 0.5) {\n"
    "      n = f;\n"
    "    } else if (diff > 0.5) {\n"
    "      n = f + 1.0;\n"
    "    } else if (fmod(f, 2.0) == 0.0) {\n"
    "      n = f;\n"
    "    } else {\n"
    "      n = f + 1.0;\n"
    "    }\n"
    "    r = copysign(n, x);\n"
    "  }\n"
    "  return r;\n"
    "}\n";

// y = the double `acc` stored as resample() stores it.
void emit_resize_store(NodeEmitter& e, DType type, const std::string& y) {
  if (type == DType::Float) {
    e.line(y + " = (float)acc;");
    return;
  }
  if (type == DType::Double) {
    e.line(y + " = acc;");
    return;
  }
  if (is_half_type(type)) {  // to_storage<T>(double): one rounding
    e.line(e.store(type, y, "acc", true));
    return;
  }
  emit_resize_visit_int(e, type, [&]<class T>() {
    e.needs_math();
    e.helper("sonnx_resize_round_half_even", kEmitResizeRoundHalfEven);
    using L = std::numeric_limits<T>;
    e.line("const double r = sonnx_resize_round_half_even(acc);");
    e.line("if (isnan(r)) {");
    e.line(y + " = " + c_literal_int(type, 0) + ";");
    e.line("} else if (r <= " + c_literal(DType::Double, static_cast<double>(L::lowest())) + ") {");
    e.line(y + " = " + c_literal_int(type, static_cast<int64_t>(L::lowest())) + ";");
    e.line("} else if (r >= " + c_literal(DType::Double, static_cast<double>(L::max())) + ") {");
    e.line(y + " = " + c_literal_int(type, static_cast<int64_t>(L::max())) + ";");
    e.line("} else {");
    e.line(y + " = (" + std::string(c_type(type)) + ")r;");
    e.line("}");
  });
}

void emit_resize(NodeEmitter& e, const OpContext& ctx) {
  const support::ResizeParams p = e.params<support::ResizeParams>();
  const CValue &x = e.input(0), &y = e.output(0);
  if (x.dtype != y.dtype) e.refuse("input and output element types differ");
  if (!is_half_type(y.dtype)) c_type(y.dtype);  // EmitRefused for a type without a C type
  const bool interpolate = p.mode != support::ResizeMode::Nearest;
  if (interpolate && y.dtype == DType::Bool) ctx.fail("element type bool is not supported by this operator");
  const std::vector<support::ResizeAxis> all = emit_resize_axes(e, ctx, p);
  Shape out_shape;
  for (const support::ResizeAxis& a : all) out_shape.push_back(a.out);
  if (out_shape != y.shape)
    e.refuse("the static shape " + shape_str(y.shape) + " of the output is not the kernel's " + shape_str(out_shape));
  shape_size(out_shape);
  std::vector<support::AxisTaps> taps;
  for (const support::ResizeAxis& a : all) taps.push_back(support::axis_taps(ctx, a, p));
  if (y.size() == 0) return;

  // The axes' tables.
  const std::vector<int64_t> in_strides = row_major_strides(x.shape);
  const size_t r = all.size();
  std::vector<EmitResizeAxis> ax(r);
  for (size_t d = 0; d < r; ++d) {
    EmitResizeAxis& a = ax[d];
    int64_t most = 0;
    for (int64_t o = 0; o < all[d].out; ++o) {
      const auto& list = taps[d].taps[static_cast<size_t>(o)];
      if (taps[d].outside[static_cast<size_t>(o)]) {
        a.outside_any = true;
        a.identity = false;
        continue;
      }
      if (list.size() != 1 || list[0].first != o || list[0].second != 1.0) a.identity = false;
      most = std::max(most, static_cast<int64_t>(list.size()));
      for (const auto& tap : list)
        if (tap.second != 1.0) a.unit_weights = false;
    }
    a.taps = std::max<int64_t>(most, 1);
    for (int64_t o = 0; o < all[d].out; ++o)
      if (!taps[d].outside[static_cast<size_t>(o)] &&
          static_cast<int64_t>(taps[d].taps[static_cast<size_t>(o)].size()) != a.taps)
        a.uniform = false;
    if (a.identity) continue;
    const std::string n = std::to_string(d);
    const int64_t out = all[d].out;
    if (!interpolate) {
      std::vector<std::string> at;
      for (int64_t o = 0; o < out; ++o)
        at.push_back(taps[d].outside[static_cast<size_t>(o)]
                         ? "-1"
                         : std::to_string(taps[d].taps[static_cast<size_t>(o)][0].first * in_strides[d]));
      emit_resize_table(e, "int64_t", "rs_at" + n, out, 0, at);
      continue;
    }
    std::vector<std::string> off, w, count, outside;
    for (int64_t o = 0; o < out; ++o) {
      const auto& list = taps[d].taps[static_cast<size_t>(o)];
      for (int64_t k = 0; k < a.taps; ++k) {
        const bool real = k < static_cast<int64_t>(list.size());
        off.push_back(real ? std::to_string(list[static_cast<size_t>(k)].first * in_strides[d]) : "0");
        w.push_back(real ? emit_resize_real(e, DType::Double, list[static_cast<size_t>(k)].second) : "0.0");
      }
      count.push_back(std::to_string(list.size()));
      outside.push_back(taps[d].outside[static_cast<size_t>(o)] ? "1u" : "0u");
    }
    emit_resize_table(e, "int64_t", "rs_off" + n, out, a.taps, off);
    if (!a.unit_weights) emit_resize_table(e, "double", "rs_w" + n, out, a.taps, w);
    if (!a.uniform) emit_resize_table(e, "int64_t", "rs_n" + n, out, 0, count);
    if (a.outside_any) emit_resize_table(e, "uint8_t", "rs_out" + n, out, 0, outside);
  }

  const LoopNest loops = open_loops(e, y.shape);
  const std::string dst = "y0[" + offset_expr(loops, row_major_strides(y.shape)) + "]";
  std::string outside_cond;
  for (size_t d = 0; d < r; ++d) {
    if (!ax[d].outside_any) continue;
    const std::string n = std::to_string(d), i = loops.index[d];
    outside_cond += (outside_cond.empty() ? "" : " || ") +
                    (interpolate ? "rs_out" + n + "[" + i + "] != 0u" : "rs_at" + n + "[" + i + "] < 0");
  }
  // The source offset: identity axes read their coordinate, the others their table.
  auto source = [&](const std::vector<std::string>& k) {
    std::string s;
    for (size_t d = 0; d < r; ++d) {
      const std::string& i = loops.index[d];
      std::string term;
      if (ax[d].identity) {
        if (i == "0") continue;
        term = in_strides[d] == 1 ? i : "(" + i + " * " + std::to_string(in_strides[d]) + ")";
      } else {
        term = interpolate ? "rs_off" + std::to_string(d) + "[" + i + "][" + k[d] + "]"
                           : "rs_at" + std::to_string(d) + "[" + i + "]";
      }
      s += (s.empty() ? "" : " + ") + term;
    }
    return s.empty() ? std::string("0") : s;
  };

  if (!interpolate) {
    const std::string read = "x0[" + source(std::vector<std::string>(r, "0")) + "]";
    if (outside_cond.empty()) {
      e.line(dst + " = " + read + ";");
    } else {
      e.line("if (" + outside_cond + ") {");
      e.line(dst + " = " + emit_resize_nearest_fill(e, y.dtype, p.extrapolation) + ";");
      e.line("} else {");
      e.line(dst + " = " + read + ";");
      e.line("}");
    }
    close_loops(e, loops);
    return;
  }

  e.line("double acc = 0.0;");
  if (!outside_cond.empty()) {
    e.line("if (" + outside_cond + ") {");
    e.line("acc = " + emit_resize_real(e, DType::Double, p.extrapolation) + ";");
    e.line("} else {");
  }
  std::vector<std::string> k(r, "0");
  std::string weights;
  int opened = 0;
  for (size_t d = 0; d < r; ++d) {
    if (ax[d].identity) continue;
    const std::string n = std::to_string(d), i = loops.index[d];
    if (ax[d].taps > 1) {
      k[d] = "k" + n;
      e.line(for_loop(k[d], ax[d].taps));
      ++opened;
    }
    if (!ax[d].uniform) {
      e.line("if (" + k[d] + " < rs_n" + n + "[" + i + "]) {");
      ++opened;
    }
    if (!ax[d].unit_weights) weights += "rs_w" + n + "[" + i + "][" + k[d] + "] * ";
  }
  e.line("const double term = " + weights + "(double)" +
         (is_half_type(y.dtype) ? e.load(y.dtype, "x0[" + source(k) + "]") : "x0[" + source(k) + "]") + ";");
  e.line("acc = acc + term;");
  for (int j = 0; j < opened; ++j) e.line("}");
  if (!outside_cond.empty()) e.line("}");
  emit_resize_store(e, y.dtype, dst);
  close_loops(e, loops);
}

}  // namespace

SONNX_EMIT_C("", "Resize", (19), emit_guarded<emit_resize>);

}  // namespace sonnx::emit
