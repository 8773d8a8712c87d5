// C templates of the SONNX profile's pools: AveragePool-22 (reference/ops/AveragePool.cpp),
// MaxPool-22 (reference/ops/MaxPool.cpp) and GlobalAveragePool-22
// (reference/ops/GlobalAveragePool.cpp, support::global_pool). The window is read as the reference
// reads it (PoolParams, support::window_attrs with PoolParams::ceil_mode, WindowAttrs::over); the
// taps of every output position are computed at generation time as support::TapTable lists them
// and grouped into position classes (emit/emit_window.h), so every loop bound is a literal.
//
// Element types: float, double, float16 and bfloat16 (the last two held as their bits, read as their
// exact float values by NodeEmitter::load, the reference's compute_t<T>, and written by
// NodeEmitter::store, the reference's to_storage<T>).
//
// AveragePool-22. Exact: per (n, c) plane and output position a double sum from 0.0 adds
// (double)x over the taps in TapTable order (kernel indices ascending, the last axis fastest), then
// sum / count rounded once to the element type (to_storage<T>(double): for float16 and bfloat16
// one rounding from double, never through float) with count the number of taps, or with
// count_include_pad the product over the axes of the window positions inside the padded input (the
// reference's padded_count), as a double literal. Fast: the same loops, the sum and the division in
// the compute type (float for float16 and bfloat16), rounded once at the store.
// Refused: other element types; without count_include_pad a window with no element of the input
// (the reference traps); a window that does not fit; too many position classes.
//
// MaxPool-22, float, double, float16, bfloat16, int8 and uint8: the first tap's value, then each
// tap in TapTable order replaces it when the current maximum is not NaN and the tap is NaN or
// greater (integers: greater), as the reference, which compares in compute_t<T> (float for float16
// and bfloat16); the value stored unchanged (float16/bfloat16: converted back from float as
// to_storage<T>(float) does, which also gives a NaN the bits the reference gives it). Both modes.
// Indices (int64): the selected tap's offset in X, (n·C + c)·plane + its offset in the plane,
// row-major (storage_order 0) or column-major (1), updated with the maximum (ties keep the first).
// Refused: other element types; a window with no element of the input (the reference traps); a
// window that does not fit; too many position classes.
//
// GlobalAveragePool-22, float, double, float16 and bfloat16. Exact: per (n, c) plane a double sum
// from 0.0 over the plane in memory order, then sum / (double)plane_size rounded once to the
// element type (to_storage<T>(double)). Fast: the sum in the compute type, rounded once at the
// store.
// Refused: other element types; an input of rank below 2.
#include "emit_window.h"
#include "reference/ops/params/pool.h"

namespace sonnx::emit {

// The window of a pool (support::pool_setup): refuses where the reference traps.
static support::WindowGeometry emit_pool_geometry(NodeEmitter& e, const PoolParams& params) {
  const Shape& x = e.input(0).shape;
  if (x.size() < 3) e.refuse("input X must have rank at least 3 (N, C, spatial...), got " + shape_str(x));
  const size_t r = x.size() - 2;
  if (params.kernel_shape.size() != r)
    e.refuse("kernel_shape has " + std::to_string(params.kernel_shape.size()) + " values, expected " + std::to_string(r));
  support::WindowAttrs attrs = support::window_attrs(e.attrs(), r);
  attrs.ceil_mode = params.ceil_mode;
  std::string why;
  support::WindowGeometry g = attrs.over(Shape(x.begin() + 2, x.end()), params.kernel_shape, why);
  if (!why.empty()) e.refuse(why);
  Shape out_shape = {x[0], x[1]};
  out_shape.insert(out_shape.end(), g.out.begin(), g.out.end());
  if (e.output(0).shape != out_shape)
    e.refuse("the output's static shape " + shape_str(e.output(0).shape) + " is not the window's " + shape_str(out_shape));
  return g;
}

static int64_t emit_pool_product(const std::vector<int64_t>& v) {
  int64_t p = 1;
  for (int64_t x : v) p *= x;
  return p;
}

static std::vector<std::vector<EmitWindowAxisClass>> emit_pool_combos(NodeEmitter& e, const support::WindowGeometry& g,
                                                                      const std::vector<std::vector<int64_t>>& extra) {
  std::vector<std::vector<EmitWindowAxisClass>> axes;
  if (!emit_window_forward_classes(g, extra, axes)) e.refuse("a window's taps are not evenly spaced");
  if (emit_window_combo_count(axes, kEmitWindowMaxCombos) > kEmitWindowMaxCombos)
    e.refuse("the window has more than " + std::to_string(kEmitWindowMaxCombos) + " classes of output positions");
  return emit_window_combos(axes);
}

static bool emit_pool_is_float(DType t) {
  return t == DType::Float || t == DType::Double || t == DType::Float16 || t == DType::BFloat16;
}

static void emit_pool_check_float(NodeEmitter& e) {
  const DType t = e.input(0).dtype;
  if (!emit_pool_is_float(t))
    e.refuse("element type " + std::string(dtype_name(t)) + " (float, double, float16 and bfloat16 only)");
}

// The type the sum of the fast mode is in (c_compute_type's: float for float16 and bfloat16), for
// its literals.
static DType emit_pool_compute_dtype(DType t) { return t == DType::Double ? DType::Double : DType::Float; }

// AveragePool-22.
static void emit_pool_average(NodeEmitter& e) {
  emit_pool_check_float(e);
  const PoolParams params = e.params<PoolParams>();
  const support::WindowGeometry g = emit_pool_geometry(e, params);
  const bool include_pad = params.count_include_pad;
  if (!include_pad)
    if (std::string why = support::any_window_without_input(g); !why.empty()) e.refuse(why);
  // Per axis and output index: the kernel positions inside the padded input (the reference's padded_count).
  std::vector<std::vector<int64_t>> padded(g.rank());
  for (size_t d = 0; d < g.rank(); ++d)
    for (int64_t o = 0; o < g.out[d]; ++o) {
      int64_t cnt = 0;
      for (int64_t k = 0; k < g.kernel[d]; ++k) {
        const int64_t i = o * g.strides[d] - g.pad_begin[d] + k * g.dilations[d];
        if (i >= -g.pad_begin[d] && i < g.in[d] + g.pad_end[d]) ++cnt;
      }
      padded[d].push_back(include_pad ? cnt : 0);
    }
  const auto combos = emit_pool_combos(e, g, padded);
  if (e.output(0).size() == 0) return;
  const DType type = e.input(0).dtype;
  const bool exact = e.mode() == Mode::Exact;
  const DType acc_type = exact ? DType::Double : emit_pool_compute_dtype(type);
  const std::string acc_t = c_type(acc_type);
  const int64_t in_plane = emit_pool_product(g.in), out_plane = emit_pool_product(g.out);
  const std::vector<int64_t> in_strides = row_major_strides(g.in), out_strides = row_major_strides(g.out);
  const std::vector<int64_t> no_kernel(g.rank(), 0);
  std::vector<int64_t> index_strides = in_strides;  // Indices' order: row-major, or column-major
  if (params.storage_order == 1)
    for (size_t d = 0; d < g.rank(); ++d) index_strides[d] = d == 0 ? 1 : index_strides[d - 1] * g.in[d - 1];
  int outer = 0;
  const std::string p = emit_window_loop(e, "p", e.input(0).shape[0] * e.input(0).shape[1], outer);
  for (const auto& combo : combos) {
    e.line("{");
    int open = 0;
    EmitAffine out_off, in_off, k_off;
    emit_window_open_positions(e, combo, out_strides, in_strides, out_off, in_off, open);
    int64_t count = emit_window_tap_count(combo);
    if (include_pad) {
      count = 1;
      for (const EmitWindowAxisClass& c : combo) count *= c.extra;
    }
    e.line(acc_t + " sum = " + c_literal(acc_type, 0.0) + ";");
    if (emit_window_has_taps(combo)) {
      int inner = 0;
      emit_window_open_taps(e, combo, in_strides, no_kernel, in_off, k_off, inner);
      const std::string x = e.load(type, "x0[" + EmitAffine().add(p, in_plane).add(in_off).str() + "]");
      e.line(exact ? "sum += (double)" + x + ";" : "sum += " + x + ";");
      emit_window_close(e, inner);
    }
    const std::string yi = EmitAffine().add(p, out_plane).add(out_off).str();
    const std::string div = c_literal(acc_type, static_cast<double>(count));
    e.line(e.store(type, "y0[" + yi + "]", "sum / " + div, exact));
    emit_window_close(e, open);
    e.line("}");
  }
  emit_window_close(e, outer);
}

// The input offset, strides `s`, of the tap the loops of emit_window_open_positions and (when
// `taps`) emit_window_open_taps are at: their variables wj<d> and wt<d>, absent where a loop has
// one iteration.
static EmitAffine emit_pool_tap_offset(const std::vector<EmitWindowAxisClass>& combo, const std::vector<int64_t>& s, bool taps) {
  EmitAffine a;
  for (size_t d = 0; d < combo.size(); ++d) {
    const EmitWindowAxisClass& c = combo[d];
    a.add(c.i0 * s[d]);
    if (c.count != 1) a.add("wj" + std::to_string(d), c.ijstep * s[d]);
    if (taps && c.taps != 1) a.add("wt" + std::to_string(d), c.itstep * s[d]);
  }
  return a;
}

// MaxPool-22.
static void emit_pool_max(NodeEmitter& e) {
  const bool indices = e.has_output(1);
  if (indices && e.output(1).dtype != DType::Int64) e.refuse("the Indices output is not int64");
  const DType type = e.input(0).dtype;
  const bool is_float = emit_pool_is_float(type);
  if (!is_float && type != DType::Int8 && type != DType::UInt8)
    e.refuse("element type " + std::string(dtype_name(type)) + " (float, double, float16, bfloat16, int8 and uint8 only)");
  const PoolParams params = e.params<PoolParams>();
  const support::WindowGeometry g = emit_pool_geometry(e, params);
  if (std::string why = support::any_window_without_input(g); !why.empty()) e.refuse(why);
  const auto combos = emit_pool_combos(e, g, {});
  if (e.output(0).size() == 0) return;
  // The maximum in the compute type (float for float16 and bfloat16), as the reference's C.
  const std::string t = is_float ? c_compute_type(type) : c_type(type);
  auto read = [&](const std::string& x) { return is_float ? e.load(type, x) : x; };
  if (is_float) e.needs_math();
  const int64_t in_plane = emit_pool_product(g.in), out_plane = emit_pool_product(g.out);
  const std::vector<int64_t> in_strides = row_major_strides(g.in), out_strides = row_major_strides(g.out);
  const std::vector<int64_t> no_kernel(g.rank(), 0);
  std::vector<int64_t> index_strides = in_strides;  // Indices' order: row-major, or column-major
  if (params.storage_order == 1)
    for (size_t d = 0; d < g.rank(); ++d) index_strides[d] = d == 0 ? 1 : index_strides[d - 1] * g.in[d - 1];
  int outer = 0;
  const std::string p = emit_window_loop(e, "p", e.input(0).shape[0] * e.input(0).shape[1], outer);
  for (const auto& combo : combos) {
    e.line("{");
    int open = 0;
    EmitAffine out_off, in_off, k_off;
    emit_window_open_positions(e, combo, out_strides, in_strides, out_off, in_off, open);
    // Every window has a tap (any_window_without_input): the first one starts the maximum; taking
    // it again changes nothing (it is not greater than itself, and a NaN maximum stays).
    e.line(t + " best = " + read("x0[" + EmitAffine().add(p, in_plane).add(in_off).str() + "]") + ";");
    if (indices) e.line("int64_t at = " + emit_pool_tap_offset(combo, index_strides, false).str() + ";");
    int inner = 0;
    emit_window_open_taps(e, combo, in_strides, no_kernel, in_off, k_off, inner);
    e.line("const " + t + " v = " + read("x0[" + EmitAffine().add(p, in_plane).add(in_off).str() + "]") + ";");
    if (is_float) e.line("if (!isnan(best) && (isnan(v) || v > best)) {");
    else e.line("if (v > best) {");
    e.line("best = v;");
    if (indices) e.line("at = " + emit_pool_tap_offset(combo, index_strides, true).str() + ";");
    e.line("}");
    emit_window_close(e, inner);
    const std::string y = "y0[" + EmitAffine().add(p, out_plane).add(out_off).str() + "]";
    e.line(is_float ? e.store(type, y, "best", false) : y + " = best;");
    if (indices)
      e.line("y1[" + EmitAffine().add(p, out_plane).add(out_off).str() + "] = (" + EmitAffine().add(p, in_plane).str() +
             ") + at;");
    emit_window_close(e, open);
    e.line("}");
  }
  emit_window_close(e, outer);
}

// GlobalAveragePool-22.
static void emit_pool_global_average(NodeEmitter& e) {
  emit_pool_check_float(e);
  const Shape& x = e.input(0).shape;
  if (x.size() < 2) e.refuse("input X must have rank at least 2 (N, C, ...), got " + shape_str(x));
  Shape out_shape(x.size(), 1);
  out_shape[0] = x[0];
  out_shape[1] = x[1];
  if (e.output(0).shape != out_shape) e.refuse("the output's static shape is not " + shape_str(out_shape));
  const int64_t planes = x[0] * x[1];
  int64_t plane = 1;
  for (size_t d = 2; d < x.size(); ++d) plane *= x[d];
  if (planes == 0) return;
  const DType type = e.input(0).dtype;
  const bool exact = e.mode() == Mode::Exact;
  const DType acc_type = exact ? DType::Double : emit_pool_compute_dtype(type);
  int open = 0;
  const std::string p = emit_window_loop(e, "p", planes, open);
  e.line(std::string(c_type(acc_type)) + " sum = " + c_literal(acc_type, 0.0) + ";");
  int inner = 0;
  const std::string i = emit_window_loop(e, "i", plane, inner);
  const std::string xv = e.load(type, "x0[" + EmitAffine().add(p, plane).add(i, 1).str() + "]");
  e.line(exact ? "sum += (double)" + xv + ";" : "sum += " + xv + ";");
  emit_window_close(e, inner);
  const std::string div = c_literal(acc_type, static_cast<double>(plane));
  e.line(e.store(type, "y0[" + EmitAffine().add(p, 1).str() + "]", "sum / " + div, exact));
  emit_window_close(e, open);
}

SONNX_EMIT_C("", "AveragePool", (22), emit_pool_average);
SONNX_EMIT_C("", "MaxPool", (22), emit_pool_max);
SONNX_EMIT_C("", "GlobalAveragePool", (22), emit_pool_global_average);

}  // namespace sonnx::emit
