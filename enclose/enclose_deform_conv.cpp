// Enclosure of DeformConv (versions 19 and 22; reference/ops/DeformConv.cpp): for image n, output
// channel m and output position o,
//   Y = B[m] + Σ_{c, k} W[m, c, k]·mask[k, o]·S(c, p_k),   p_k[d] = base_k[d] + offset[k, d, o],
// S the multilinear interpolation of input channel c at the point p (pixels outside count as 0, a
// point at or beyond −1 or the size on some axis samples 0). The position is an interval (the
// offsets are bounds); where its floor is not decided on an axis, every candidate cell is
// enclosed and S is their hull (as enclose_resize.cpp does for a floor the rounding may move), a
// position that may lie outside adding 0. Within a cell the weights frac = p − floor(p) and
// 1 − frac are intervals, the sample Σ_corners Π_d weight_d·x the interval sum (bilinear.h).
//
// Admissible (spec/accuracy.md, "Admissible results"): an implementation in the element type
// computes the position, frac and 1 − frac rounded to the type (or wider: rounded_interval.h encloses
// what it holds); each sample's 2^r corner terms, r products each, summed in any order, err by at
// most γ_(2^r + r)·Σ|corner terms| plus an underflow per rounding (the interpolation's roundings,
// folded into the sample); the sum over (c, k) of W·(mask·S) and the bias in any order is a sum of
// products, γ_(n+9)·Σ|terms| (dot.h), its spare roundings covering the product by the mask.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "bilinear.h"
#include "enclose_sums.h"
#include "rounded_interval.h"
#include "reference/ops/params/conv.h"
#include "reference/ops/support/kernel.h"
#include "reference/ops/support/window.h"
#include "sonnx/errors.h"

namespace sonnx::enclose::deform {
namespace {

std::vector<Bounds> deform_conv(const OpCall& c) {
  run_on_bounds(c, false);  // the reference's own checks and traps
  const Bounds &x = float_input(c, 0), &w = float_input(c, 1), &offset = float_input(c, 2);
  const support::ConvSetup s = support::conv_setup(c.ctx, x.lo.shape(), w.lo.shape());
  const size_t r = s.g.rank();
  const int64_t K = s.k_plane, O = s.out_plane, og_count = ConvParams::read(c.ctx, c.version).offset_group;
  const int64_t c_per_og = s.C / og_count;
  const bool has_bias = c.in.size() > 3 && c.in[3], has_mask = c.in.size() > 4 && c.in[4];
  std::optional<FloatFormat> format;
  if (c.semantics == Semantics::Admissible) format = float_format(x.type);
  const FloatFormat* f = format ? &*format : nullptr;
  const TypeSum ts = type_sum(c, x.type);

  const std::vector<int64_t> in_st = support::strides_of(s.g.in);
  const Shape kernel_sp(s.g.kernel.begin(), s.g.kernel.end()), out_sp(s.g.out.begin(), s.g.out.end());
  const std::vector<MidRad> wm = mid_rad(w);
  Bounds y = float_bounds(x.type, s.out_shape);
  std::vector<MidRad> col(static_cast<size_t>(s.C * K * O));  // mask·S per input channel, tap, position
  std::vector<SampleAxis> axes(r);
  for (int64_t n = 0; n < s.N; ++n) {
    for (int64_t ic = 0; ic < s.C; ++ic) {
      const int64_t og = ic / c_per_og, plane = (n * s.C + ic) * s.in_plane;
      support::for_each_index(kernel_sp, [&](const std::vector<int64_t>& k, int64_t kl) {
        const int64_t ch = og * K + kl;
        support::for_each_index(out_sp, [&](const std::vector<int64_t>& o, int64_t ol) {
          bool undefined = false;
          for (size_t d = 0; d < r; ++d) {
            const auto base = static_cast<double>(o[d] * s.g.strides[d] - s.g.pad_begin[d] + k[d] * s.g.dilations[d]);
            const Interval off = at(offset,
                                    ((n * og_count * K + ch) * static_cast<int64_t>(r) + static_cast<int64_t>(d)) * O + ol);
            undefined = undefined || off.has_nan();
            const RI p = RI{Interval::point(base), f} + RI{off, f};
            if (!undefined) axes[d] = sample_axis(p.v, s.g.in[d], f);
          }
          Interval v = undefined ? Interval::undefined() : multilinear_sample(x, plane, s.g.in, in_st, axes, f);
          if (has_mask) v = v * at(c.input(4), (n * og_count * K + ch) * O + ol);
          col[static_cast<size_t>((ic * K + kl) * O + ol)] = MidRad::of(v);
        });
      });
    }
    for (int64_t m = 0; m < s.M; ++m) {
      const int64_t gi = m / s.Mg;
      for (int64_t ol = 0; ol < O; ++ol) {
        DotBound d;
        for (int64_t cc = 0; cc < s.Cg; ++cc)
          for (int64_t kl = 0; kl < K; ++kl)
            d.add(wm[static_cast<size_t>((m * s.Cg + cc) * K + kl)],
                  col[static_cast<size_t>(((gi * s.Cg + cc) * K + kl) * O + ol)]);
        if (has_bias) d.add(MidRad::of(at(c.input(3), m)), kOne);
        set(y, (n * s.M + m) * O + ol, d.result(1, ts));
      }
    }
  }
  return {y};
}

}  // namespace
}  // namespace sonnx::enclose::deform

namespace sonnx::enclose {
SONNX_ENCLOSURE("DeformConv", (19, 22), Allowance::own(), deform::deform_conv);
}  // namespace sonnx::enclose
