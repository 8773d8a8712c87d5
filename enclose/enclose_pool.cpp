// Enclosures of the windowed and reduced sums (dot.h): AveragePool, ReduceMean, ReduceSum and
// ConvTranspose. Their geometry (windows, taps, reduced axes) is the reference's own
// (reference/ops/support/window.h, reduce.h); each output element is one DotBound.
//
// Admissible: the sum of each output element in any order in the element type, and the division of
// an average, bounded by DotBound's γ_(n+9) (TypeSum); so their allowance is Allowance::own().
#include "enclose_sums.h"
#include "sonnx/errors.h"
#include "reference/ops/params/conv.h"
#include "reference/ops/params/reduce.h"
#include "reference/ops/support/reduce.h"
#include "reference/ops/support/window.h"

namespace sonnx::enclose {

namespace {

// ---- AveragePool ----

// Per spatial axis and output index: how many window positions fall inside the padded input
// [−pad_begin, in + pad_end) (the divisor with count_include_pad, as the reference counts it).
std::vector<std::vector<int64_t>> padded_counts(const support::WindowGeometry& g) {
  std::vector<std::vector<int64_t>> count(g.rank());
  for (size_t d = 0; d < g.rank(); ++d)
    for (int64_t o = 0; o < g.out[d]; ++o) {
      int64_t n = 0;
      for (int64_t k = 0; k < g.kernel[d]; ++k) {
        int64_t i = o * g.strides[d] - g.pad_begin[d] + k * g.dilations[d];
        if (i >= -g.pad_begin[d] && i < g.in[d] + g.pad_end[d]) ++n;
      }
      count[d].push_back(n);
    }
  return count;
}

std::vector<Bounds> average_pool(const OpCall& c) {
  const Bounds& x = float_input(c, 0);
  PoolParams params = PoolParams::read(c.ctx, c.version);
  support::PoolSetup s = support::pool_setup(c.ctx, params, x.lo.shape());
  bool include_pad = params.count_include_pad;
  if (!include_pad) support::require_windows_meet_input(c.ctx, s.g);
  std::vector<std::vector<int64_t>> padded = include_pad ? padded_counts(s.g) : std::vector<std::vector<int64_t>>{};
  std::vector<MidRad> xm = mid_rad(x);
  Bounds y = float_bounds(x.type, s.out_shape);
  TypeSum ts = type_sum(c, x.type);
  support::pool_loop(s, [&](int64_t p, int64_t o, const std::vector<int64_t>& idx, const std::vector<support::Tap>& taps) {
    DotBound dot;
    for (const support::Tap& t : taps) dot.add(xm[static_cast<size_t>(p * s.in_plane + t.in_off)], kOne);
    int64_t count = static_cast<int64_t>(taps.size());
    if (include_pad) {
      count = 1;
      for (size_t d = 0; d < idx.size(); ++d) count *= padded[d][static_cast<size_t>(idx[d])];
    }
    set(y, p * s.out_plane + o, dot.result(static_cast<double>(count), ts));
  });
  return {y};
}

// ---- ReduceSum and ReduceMean ----

// The sum (or mean) of x's elements over the reduced axes (ReduceParams). Integer and boolean
// inputs are exact values and reduce exactly in the reference (wrapping sums, truncated means).
std::vector<Bounds> reduce_sum_or_mean(const OpCall& c, bool mean) {
  if (c.input(0).exact()) return lift_exact(c);
  const Bounds& x = float_input(c, 0);
  std::optional<support::ReduceGeometry> reduction = reduction_geometry(c, x);
  if (!reduction) return {x};  // the identity
  const support::ReduceGeometry& g = *reduction;
  std::vector<DotBound> sums(static_cast<size_t>(g.out_size));
  std::vector<int64_t> counts(sums.size(), 0);
  for (int64_t i = 0; i < x.lo.size(); ++i) {
    size_t o = static_cast<size_t>(g.out_index[static_cast<size_t>(i)]);
    sums[o].add(MidRad::of(at(x, i)), kOne);
    ++counts[o];
  }
  Bounds y = float_bounds(x.type, g.out_shape);
  TypeSum ts = type_sum(c, x.type);
  for (size_t o = 0; o < sums.size(); ++o)  // an empty mean is 0/0: the divisor 0 bounds nothing
    set(y, static_cast<int64_t>(o), sums[o].result(mean ? static_cast<double>(counts[o]) : 1.0, ts));
  return {y};
}

// ---- ConvTranspose ----

// Y[n, m, o] = B[m] + Σ over c in m's group and the taps (i, k) with o + pad_begin = i·s + k·d of
// X[n, c, i]·W[c, m − g·M/group, k].
std::vector<Bounds> conv_transpose(const OpCall& c) {
  const Bounds &x = float_input(c, 0), &w = float_input(c, 1);
  const Bounds* b = c.in.size() > 2 ? c.in[2] : nullptr;
  const Shape &xs = x.lo.shape(), &ws = w.lo.shape();
  if (x.type != w.type) c.ctx.fail("X and W have different element types");
  if (xs.size() < 3 || ws.size() != xs.size()) c.ctx.fail("X " + shape_str(xs) + " and W " + shape_str(ws) + " do not fit");
  size_t r = xs.size() - 2;
  ConvParams params = ConvParams::read(c.ctx, c.version);
  int64_t N = xs[0], C = xs[1], group = params.group;
  if (ws[0] != C || C % group)
    c.ctx.fail("W " + shape_str(ws) + " does not fit X " + shape_str(xs) + " in " + std::to_string(group) + " groups");
  int64_t Cg = C / group, Mg = ws[1], M = Mg * group;
  std::vector<int64_t> in(xs.begin() + 2, xs.end()), kernel(ws.begin() + 2, ws.end());
  if (std::string why = params.check_kernel(ws); !why.empty()) c.ctx.fail(why);
  support::TransposedAttrs attrs = support::transposed_attrs(c.ctx, r);
  const std::vector<int64_t>& strides = attrs.strides;
  const std::vector<int64_t>& dilations = attrs.dilations;
  support::TransposedGeometry geo = support::transposed_geometry(c.ctx, attrs, in, kernel);
  if (b && b->type != x.type) c.ctx.fail("bias B has a different element type from X");
  if (b && b->lo.size() != M)
    c.ctx.fail("bias B has " + std::to_string(b->lo.size()) + " elements, expected M=" + std::to_string(M));
  Shape ys = {N, M};
  ys.insert(ys.end(), geo.out.begin(), geo.out.end());
  shape_size(ys);  // traps on an absurd output_shape before the tap table is built
  support::TapTable table = support::TapTable::transposed(in, kernel, geo.out, strides, dilations, geo.pad_begin);
  int64_t in_plane = support::element_count(in), out_plane = support::element_count(geo.out),
          k_plane = support::element_count(kernel);
  std::vector<MidRad> xm = mid_rad(x), wm = mid_rad(w);
  Bounds y = float_bounds(x.type, ys);
  TypeSum ts = type_sum(c, x.type);
  std::vector<support::Tap> taps;
  for (int64_t n = 0; n < N; ++n)
    support::for_each_index(Shape(geo.out.begin(), geo.out.end()), [&](const std::vector<int64_t>& idx, int64_t o) {
      table.taps(idx, taps);
      for (int64_t m = 0; m < M; ++m) {
        int64_t g = m / Mg, mm = m % Mg;
        DotBound dot;
        for (int64_t ch = g * Cg; ch < (g + 1) * Cg; ++ch)
          for (const support::Tap& t : taps)
            dot.add(xm[static_cast<size_t>((n * C + ch) * in_plane + t.in_off)],
                    wm[static_cast<size_t>((ch * Mg + mm) * k_plane + t.k_off)]);
        MidRad bias = b ? MidRad::of(at(*b, m)) : MidRad{};
        set(y, (n * M + m) * out_plane + o, dot.affine(1, bias, ts));
      }
    });
  return {y};
}

}  // namespace

// Where each element of x goes (ReduceParams: axes from the attribute, or from the optional input
// from version 18), or nullopt where the reduction is the identity (no axes, noop_with_empty_axes).
std::optional<support::ReduceGeometry> reduction_geometry(const OpCall& c, const Bounds& x) {
  ReduceParams p = ReduceParams::read(c.ctx, c.version);
  std::vector<int64_t> axes = p.axes;
  if (p.axes_from_input && c.in.size() > 1 && c.in[1]) {
    const Bounds& given = c.input(1);
    if (!given.exact()) c.ctx.fail("axes must be an integer tensor");
    axes = given.lo.to_int64_vector();
  }
  if (axes.empty() && p.noop_with_empty_axes) return std::nullopt;
  std::vector<bool> reduced(x.lo.shape().size(), true);
  if (!axes.empty()) reduced = support::axis_flags(c.ctx, axes, x.lo.rank());
  return support::reduce_geometry(x.lo.shape(), reduced, p.keepdims);
}

SONNX_ENCLOSURE("AveragePool", (1, 7, 10, 11, 19, 22), Allowance::own(), average_pool);
SONNX_ENCLOSURE("ReduceSum", (1, 11, 13), Allowance::own(), [](const OpCall& c) { return reduce_sum_or_mean(c, false); });
SONNX_ENCLOSURE("ReduceMean", (1, 11, 13, 18), Allowance::own(), [](const OpCall& c) { return reduce_sum_or_mean(c, true); });
SONNX_ENCLOSURE("ConvTranspose", (1, 11, 22), Allowance::own(), conv_transpose);

}  // namespace sonnx::enclose
