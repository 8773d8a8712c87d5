// C templates of the SONNX profile's convolutions: Conv-22 (reference/ops/Conv.cpp, which sums
// through support::conv_loop in reference/ops/support/window.h) and ConvTranspose-22
// (reference/ops/ConvTranspose.cpp), float and double, any number of spatial axes, groups,
// strides, dilations, pads and every auto_pad, resolved by the reference's own readers
// (ConvParams, support::window_attrs / WindowAttrs::over, support::transposed_attrs / axis).
//
// The taps of every output position are computed at generation time as support::TapTable lists
// them and grouped into position classes (emit/emit_window.h), so every loop bound is a literal and
// no position loop is unrolled.
//
// Exact mode, both operators: per output position and output channel m (group g, mm), a double
// accumulator starts at 0.0 and adds, for each input channel c of the group in ascending order and
// each tap in TapTable order (kernel indices ascending, the last axis fastest),
// (double)x·(double)w; the output is (T)(acc + (double)B[m]) ((T)acc without B: acc is never −0.0,
// so adding the reference's 0.0 changes nothing). A plain C cast rounds to nearest-even, which is
// to_storage<T> for float and double.
// Fast mode: accumulation in the element type, blocks of 4 (or 2, or 1) output channels at once;
// per position class, a row of positions along the last spatial axis accumulates in a local array
// (at most 4096 bytes) from B[m] (or 0): for each input channel and tap, the block's weights times
// the row of inputs (contiguous for stride 1), then the row is stored. Neither mode allows the
// output to alias an input.
//
// Refused: element types other than float and double; X, W and B of different element types; a
// bias B not of M elements; a window that does not fit, a bad group or kernel_shape (the reference
// traps); more than kEmitWindowMaxCombos position classes on one node (code size).
#include "emit_window.h"
#include "ops_conv_fast.h"
#include "reference/ops/params/conv.h"

namespace sonnx::emit {

// Element type checks shared by both operators: X, W (and B) of one floating type.
static std::string emit_conv_check_types(NodeEmitter& e) {
  const DType t = e.input(0).dtype;
  if (t != DType::Float && t != DType::Double)
    e.refuse("element type " + std::string(dtype_name(t)) + " (float and double only)");
  if (e.input(1).dtype != t) e.refuse("X and W have different element types");
  if (e.has_input(2) && e.input(2).dtype != t) e.refuse("bias B has a different element type from X");
  return c_type(t);
}

// The channel layout both operators share, for the body writer.
struct EmitConvLayout {
  int64_t N = 0, C = 0, M = 0, group = 1, Cg = 0, Mg = 0;
  int64_t in_plane = 1, out_plane = 1, k_plane = 1;
  bool transposed = false;  // W is [C, Mg, k...] (ConvTranspose), else [M, Cg, k...]
  std::vector<int64_t> in_strides, out_strides, k_strides;
};

static int64_t emit_conv_product(const std::vector<int64_t>& v) {
  int64_t p = 1;
  for (int64_t x : v) p *= x;
  return p;
}

// The input offset of channel c (absolute index g·Cg + c) of image n, and W's offset of (m, c).
static EmitAffine emit_conv_x_base(const EmitConvLayout& L, const std::string& n, const std::string& g, const std::string& c) {
  EmitAffine a;
  a.add(n, L.C * L.in_plane).add(g, L.Cg * L.in_plane).add(c, L.in_plane);
  return a;
}

static EmitAffine emit_conv_w_base(const EmitConvLayout& L, const std::string& g, const std::string& mm, const std::string& c) {
  EmitAffine a;
  if (L.transposed)  // W[(g·Cg + c), mm, k]
    a.add(g, L.Cg * L.Mg * L.k_plane).add(c, L.Mg * L.k_plane).add(mm, L.k_plane);
  else  // W[(g·Mg + mm), c, k]
    a.add(g, L.Mg * L.Cg * L.k_plane).add(mm, L.Cg * L.k_plane).add(c, L.k_plane);
  return a;
}

static EmitAffine emit_conv_y_base(const EmitConvLayout& L, const std::string& n, const std::string& g, const std::string& mm) {
  EmitAffine a;
  a.add(n, L.M * L.out_plane).add(g, L.Mg * L.out_plane).add(mm, L.out_plane);
  return a;
}

static std::string emit_conv_m_index(const EmitConvLayout& L, const std::string& g, const std::string& mm) {
  EmitAffine a;
  a.add(g, L.Mg).add(mm, 1);
  return a.str();
}

// Exact: per output position and channel, acc in double over c then taps, rounded once.
static void emit_conv_exact(NodeEmitter& e, const EmitConvLayout& L, const std::vector<std::vector<EmitWindowAxisClass>>& combos,
                            const std::string& t) {
  const bool bias = e.has_input(2);
  int outer = 0;
  const std::string n = emit_window_loop(e, "n", L.N, outer);
  for (const auto& combo : combos) {
    e.line("{");
    int open = 0;
    EmitAffine out_off, in_first;
    emit_window_open_positions(e, combo, L.out_strides, L.in_strides, out_off, in_first, open);
    const std::string g = emit_window_loop(e, "g", L.group, open);
    const std::string mm = emit_window_loop(e, "mm", L.Mg, open);
    e.line("double acc = 0.0;");
    if (emit_window_has_taps(combo) && L.Cg > 0) {
      int inner = 0;
      const std::string c = emit_window_loop(e, "c", L.Cg, inner);
      EmitAffine in_off = in_first, k_off;
      emit_window_open_taps(e, combo, L.in_strides, L.k_strides, in_off, k_off, inner);
      const EmitAffine xi = emit_conv_x_base(L, n, g, c).add(in_off);
      const EmitAffine wi = emit_conv_w_base(L, g, mm, c).add(k_off);
      e.line("acc += (double)x0[" + xi.str() + "] * (double)x1[" + wi.str() + "];");
      emit_window_close(e, inner);
    }
    const EmitAffine yi = emit_conv_y_base(L, n, g, mm).add(out_off);
    if (bias) e.line("y0[" + yi.str() + "] = (" + t + ")(acc + (double)x2[" + emit_conv_m_index(L, g, mm) + "]);");
    else e.line("y0[" + yi.str() + "] = (" + t + ")acc;");
    emit_window_close(e, open);
    e.line("}");
  }
  emit_window_close(e, outer);
}

// Fast: blocks of MB output channels (4, 2 or 1, dividing Mg) and, per position class, a row of
// positions along the last spatial axis (at most 4096 bytes of accumulators in all) accumulated in
// a local array in the element type, starting at B[m] (or 0): for each input channel and tap, the
// MB weights times the row of inputs (contiguous for stride 1), the last axis innermost. Then the
// row is stored.
static void emit_conv_fast(NodeEmitter& e, const EmitConvLayout& L, const std::vector<std::vector<EmitWindowAxisClass>>& axes,
                           const std::string& t, DType type) {
  const bool bias = e.has_input(2);
  const int64_t MB = L.Mg % 4 == 0 ? 4 : L.Mg % 2 == 0 ? 2 : 1;
  const auto cap = static_cast<int64_t>(4096 / (dtype_size(type) * static_cast<size_t>(MB)));
  // The last axis' classes cut into rows of at most `cap` positions: a class longer than that is
  // `chunks` rows of `cap` (a loop) and a shorter rest.
  struct Row {
    EmitWindowAxisClass c;
    int64_t chunks = 1;
  };
  std::vector<Row> rows;
  for (const EmitWindowAxisClass& c : axes.back()) {
    const int64_t full = c.count / cap, rest = c.count % cap;
    if (full > 0) {
      EmitWindowAxisClass a = c;
      a.count = std::min(cap, c.count);
      rows.push_back({a, full});
    }
    if (full > 0 && rest > 0) {
      EmitWindowAxisClass b = c;
      b.o0 = c.o0 + full * cap * c.ostep;
      b.i0 = c.i0 + full * cap * c.ijstep;
      b.count = rest;
      rows.push_back({b, 1});
    } else if (full == 0) {
      rows.push_back({c, 1});
    }
  }
  const auto heads = emit_window_combos(std::vector<std::vector<EmitWindowAxisClass>>(axes.begin(), axes.end() - 1));
  const size_t r = L.out_strides.size();
  const std::vector<int64_t> out_outer(L.out_strides.begin(), L.out_strides.end() - 1);
  const std::vector<int64_t> in_outer(L.in_strides.begin(), L.in_strides.end() - 1);
  // The coefficients of mm in W's and Y's indices.
  const int64_t w_mm = L.transposed ? L.k_plane : L.Cg * L.k_plane;
  int outer = 0;
  const std::string n = emit_window_loop(e, "n", L.N, outer);
  const std::string g = emit_window_loop(e, "g", L.group, outer);
  const std::string mb = emit_window_loop(e, "mb", L.Mg / MB, outer);
  // Output channel mm = mb·MB + q.
  auto mm_of = [&](EmitAffine base, int64_t coef, int64_t q) { return base.add(mb, MB * coef).add(q * coef); };
  for (const auto& head : heads)
    for (const Row& rw : rows) {
      const EmitWindowAxisClass& row = rw.c;
      const int64_t W = row.count;
      std::vector<EmitWindowAxisClass> combo = head;
      combo.push_back(row);
      e.line("{");
      int open = 0;
      EmitAffine out_off, in_first;
      emit_window_open_positions(e, head, out_outer, in_outer, out_off, in_first, open);
      const std::string jb = emit_window_loop(e, "jb", rw.chunks, open);
      out_off.add(row.o0 * L.out_strides[r - 1]).add(jb, W * row.ostep * L.out_strides[r - 1]);
      in_first.add(row.i0 * L.in_strides[r - 1]).add(jb, W * row.ijstep * L.in_strides[r - 1]);
      e.line(t + " acc[" + std::to_string(MB * W) + "];");
      for (int64_t q = 0; q < MB; ++q) {
        int inner = 0;
        const std::string j = emit_window_loop(e, "j", W, inner);
        const std::string init = bias ? "x2[" + mm_of(EmitAffine().add(g, L.Mg), 1, q).str() + "]" : c_literal(type, 0.0);
        e.line("acc[" + EmitAffine().add(j, 1).add(q * W).str() + "] = " + init + ";");
        emit_window_close(e, inner);
      }
      if (emit_window_has_taps(combo) && L.Cg > 0) {
        int inner = 0;
        const std::string c = emit_window_loop(e, "c", L.Cg, inner);
        EmitAffine in_taps, k_off;
        emit_window_open_taps(e, combo, L.in_strides, L.k_strides, in_taps, k_off, inner);
        const EmitAffine w0 = emit_conv_w_base(L, g, "0", c).add(k_off);
        for (int64_t q = 0; q < MB; ++q)
          e.line("const " + t + " w" + std::to_string(q) + " = x1[" + mm_of(w0, w_mm, q).str() + "];");
        const std::string j = emit_window_loop(e, "j", W, inner);
        const EmitAffine xi = emit_conv_x_base(L, n, g, c).add(in_first).add(in_taps).add(j, row.ijstep * L.in_strides[r - 1]);
        if (MB == 1) {
          e.line("acc[" + j + "] += w0 * x0[" + xi.str() + "];");
        } else {
          e.line("const " + t + " xv = x0[" + xi.str() + "];");
          for (int64_t q = 0; q < MB; ++q)
            e.line("acc[" + EmitAffine().add(j, 1).add(q * W).str() + "] += w" + std::to_string(q) + " * xv;");
        }
        emit_window_close(e, inner);
      }
      const EmitAffine y0 = emit_conv_y_base(L, n, g, "0").add(out_off);
      for (int64_t q = 0; q < MB; ++q) {
        int inner = 0;
        const std::string j = emit_window_loop(e, "j", W, inner);
        const EmitAffine yi = mm_of(y0, L.out_plane, q).add(j, row.ostep * L.out_strides[r - 1]);
        e.line("y0[" + yi.str() + "] = acc[" + EmitAffine().add(j, 1).add(q * W).str() + "];");
        emit_window_close(e, inner);
      }
      emit_window_close(e, open);
      e.line("}");
    }
  emit_window_close(e, outer);
}

// `geo`: Conv's window, for the register-tiled fast form of emit/ops_conv_fast.cpp (null for
// ConvTranspose, and where that form declines the general fast form below is written).
static void emit_conv_body(NodeEmitter& e, const EmitConvLayout& L, const std::vector<std::vector<EmitWindowAxisClass>>& axes,
                           const support::WindowGeometry* geo) {
  const std::string t = emit_conv_check_types(e);
  if (emit_window_combo_count(axes, kEmitWindowMaxCombos) > kEmitWindowMaxCombos)
    e.refuse("the window has more than " + std::to_string(kEmitWindowMaxCombos) + " classes of output positions");
  if (e.output(0).size() == 0) return;
  if (e.mode() == Mode::Exact) emit_conv_exact(e, L, emit_window_combos(axes), t);
  else if (geo == nullptr || !emit_conv_fast_gemm(e, L.N, L.C, L.M, L.group, *geo))
    emit_conv_fast(e, L, axes, t, e.input(0).dtype);
}

static void emit_conv_check_bias(NodeEmitter& e, int64_t M) {
  if (e.has_input(2) && e.input(2).size() != M)
    e.refuse("bias B has " + std::to_string(e.input(2).size()) + " elements, expected M=" + std::to_string(M));
}

static void emit_conv_check_output(NodeEmitter& e, const Shape& out_shape) {
  if (e.output(0).shape != out_shape)
    e.refuse("the output's static shape " + shape_str(e.output(0).shape) + " is not the window's " + shape_str(out_shape));
}

// Conv-22: Y[n, m, o] = B[m] + Σ_{c, taps} X[n, g·Cg + c, tap] · W[m, c, tap] (support::conv_setup).
static void emit_conv_conv(NodeEmitter& e) {
  const Shape& x = e.input(0).shape;
  const Shape& w = e.input(1).shape;
  if (x.size() < 3) e.refuse("input X must have rank at least 3 (N, C, spatial...), got " + shape_str(x));
  if (w.size() != x.size()) e.refuse("weight W " + shape_str(w) + " must have the rank of X " + shape_str(x));
  const size_t r = x.size() - 2;
  const ConvParams params = e.params<ConvParams>();
  EmitConvLayout L;
  L.N = x[0];
  L.C = x[1];
  L.M = w[0];
  L.group = params.group;
  if (L.C % L.group != 0 || L.M % L.group != 0) e.refuse("channels C and M must be divisible by group");
  L.Cg = L.C / L.group;
  L.Mg = L.M / L.group;
  if (w[1] != L.Cg) e.refuse("weight W " + shape_str(w) + " must have C/group=" + std::to_string(L.Cg) + " input channels");
  if (std::string why = params.check_kernel(w); !why.empty()) e.refuse(why);
  const std::vector<int64_t> kernel(w.begin() + 2, w.end());
  std::string why;
  const support::WindowGeometry geo = support::window_attrs(e.attrs(), r).over(Shape(x.begin() + 2, x.end()), kernel, why);
  if (!why.empty()) e.refuse(why);
  emit_conv_check_bias(e, L.M);
  Shape out_shape = {L.N, L.M};
  out_shape.insert(out_shape.end(), geo.out.begin(), geo.out.end());
  emit_conv_check_output(e, out_shape);
  L.in_plane = emit_conv_product(geo.in);
  L.out_plane = emit_conv_product(geo.out);
  L.k_plane = emit_conv_product(kernel);
  L.in_strides = row_major_strides(geo.in);
  L.out_strides = row_major_strides(geo.out);
  L.k_strides = row_major_strides(kernel);
  std::vector<std::vector<EmitWindowAxisClass>> axes;
  if (!emit_window_forward_classes(geo, {}, axes)) e.refuse("a window's taps are not evenly spaced");
  emit_conv_body(e, L, axes, &geo);
}

// ConvTranspose-22: Y[n, m, o] = B[m] + Σ over c in m's group and (i, k) with o + pad_begin = i·s + k·d
// of X[n, c, i] · W[c, m − g·Mg, k] (reference/ops/ConvTranspose.cpp).
static void emit_conv_transpose(NodeEmitter& e) {
  const Shape& x = e.input(0).shape;
  const Shape& w = e.input(1).shape;
  if (x.size() < 3) e.refuse("input X must have rank at least 3 (N, C, spatial...), got " + shape_str(x));
  if (w.size() != x.size()) e.refuse("weight W " + shape_str(w) + " must have the rank of X " + shape_str(x));
  const size_t r = x.size() - 2;
  const ConvParams params = e.params<ConvParams>();
  EmitConvLayout L;
  L.transposed = true;
  L.N = x[0];
  L.C = x[1];
  L.group = params.group;
  if (w[0] != L.C) e.refuse("weight W " + shape_str(w) + " must have C=" + std::to_string(L.C) + " as first dimension");
  if (L.C % L.group != 0) e.refuse("channels C must be divisible by group");
  L.Cg = L.C / L.group;
  L.Mg = w[1];
  L.M = L.Mg * L.group;
  if (std::string why = params.check_kernel(w); !why.empty()) e.refuse(why);
  const std::vector<int64_t> in(x.begin() + 2, x.end());
  const std::vector<int64_t> kernel(w.begin() + 2, w.end());
  const support::TransposedAttrs attrs = support::transposed_attrs(e.attrs(), r);
  std::vector<int64_t> out(r), pad_begin(r, 0);
  for (size_t i = 0; i < r; ++i)
    if (std::string why = attrs.axis(i, in[i], kernel[i], e.version(), out[i], pad_begin[i]); !why.empty()) e.refuse(why);
  emit_conv_check_bias(e, L.M);
  Shape out_shape = {L.N, L.M};
  out_shape.insert(out_shape.end(), out.begin(), out.end());
  emit_conv_check_output(e, out_shape);
  L.in_plane = emit_conv_product(in);
  L.out_plane = emit_conv_product(out);
  L.k_plane = emit_conv_product(kernel);
  L.in_strides = row_major_strides(in);
  L.out_strides = row_major_strides(out);
  L.k_strides = row_major_strides(kernel);
  std::vector<std::vector<EmitWindowAxisClass>> axes;
  if (!emit_window_transposed_classes(in, kernel, out, attrs.strides, attrs.dilations, pad_begin, axes))
    e.refuse("a window's taps are not evenly spaced");
  emit_conv_body(e, L, axes, nullptr);
}

SONNX_EMIT_C("", "Conv", (22), emit_conv_conv);
SONNX_EMIT_C("", "ConvTranspose", (22), emit_conv_transpose);

}  // namespace sonnx::emit
