// DeformConv: a grouped N-D convolution whose taps are moved by learned offsets. For image n, output
// channel m (in group gi), output position o and kernel position k, input channel ic = gi*C/group + c
// belongs to offset group og = ic / (C/offset_group), and the tap is read at the real-valued point
//   p[d] = o[d]*stride[d] - pad_begin[d] + k[d]*dilation[d] + offset[n, (og*K + k)*r + d, o]
// (K = number of kernel positions, r = number of spatial axes), by multilinear interpolation between
// the 2^r surrounding pixels; pixels outside the input count as zero. Then
//   Y[n, m, o] = B[m] + sum_{c, k} W[m, c, k] * mask[n, og*K + k, o] * X~[n, ic](p)
// with the mask defaulting to ones. Version 22 only adds bfloat16 to the types: the same kernel.
#include <cmath>
#include <limits>

#include "op_params.h"
#include "params/conv.h"
#include "support/shape.h"
#include "support/window.h"

namespace sonnx {
using namespace support;
namespace {

// The value of the plane `x` (spatial sizes `in`, row-major strides `st`) at the real point `p`:
// multilinear interpolation over the 2^r neighbouring pixels, those outside the plane counting as
// zero. A NaN coordinate gives NaN; a point farther than one pixel outside gives zero.
double sample(const double* x, const std::vector<int64_t>& in, const std::vector<int64_t>& st, const std::vector<double>& p,
              std::vector<int64_t>& lo, std::vector<double>& frac) {
  size_t r = in.size();
  for (size_t d = 0; d < r; ++d) {
    if (std::isnan(p[d])) return std::numeric_limits<double>::quiet_NaN();
    if (p[d] <= -1.0 || p[d] >= static_cast<double>(in[d])) return 0.0;  // no neighbour inside
    double f = std::floor(p[d]);
    lo[d] = static_cast<int64_t>(f);  // in [-1, in-1]: safe to convert
    frac[d] = p[d] - f;
  }
  double sum = 0.0;
  for (size_t corner = 0; corner < (size_t{1} << r); ++corner) {
    double weight = 1.0;
    int64_t off = 0;
    bool inside = true;
    for (size_t d = 0; d < r && inside; ++d) {
      bool upper = (corner >> d) & 1;
      int64_t i = lo[d] + (upper ? 1 : 0);
      if (i < 0 || i >= in[d]) inside = false;
      weight *= upper ? frac[d] : 1.0 - frac[d];
      off += i * st[d];
    }
    if (inside) sum += weight * x[off];
  }
  return sum;
}

std::vector<Value> deform_conv(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& w = ctx.input(1);
  const Tensor& offset = ctx.input(2);
  if (x.dtype() != w.dtype()) ctx.fail("X and W have different element types");
  if (offset.dtype() != x.dtype()) ctx.fail("offset has a different element type from X");
  ConvSetup s = conv_setup(ctx, x.shape(), w.shape());
  size_t r = s.g.rank();
  int64_t K = s.k_plane;  // kernel positions
  int64_t O = s.out_plane;

  const int64_t offset_group = ConvParams::read(ctx, ctx.version()).offset_group;
  if (s.C % offset_group != 0)
    ctx.fail("channels C=" + std::to_string(s.C) + " must be divisible by offset_group=" + std::to_string(offset_group));
  int64_t c_per_og = s.C / offset_group;

  // offset: [N, offset_group*K*r, O1..Or]; mask: [N, offset_group*K, O1..Or].
  auto expected = [&](int64_t channels) {
    Shape e = {s.N, channels};
    e.insert(e.end(), s.g.out.begin(), s.g.out.end());
    return e;
  };
  Shape offset_shape = expected(offset_group * K * static_cast<int64_t>(r));
  if (offset.shape() != offset_shape)
    ctx.fail("offset has shape " + shape_str(offset.shape()) + ", expected " + shape_str(offset_shape) +
             " (N, offset_group * kernel size * spatial rank, output spatial shape)");
  std::vector<double> bias(static_cast<size_t>(s.M), 0.0);
  if (ctx.has_input(3)) {
    const Tensor& b = ctx.input(3);
    if (b.dtype() != x.dtype()) ctx.fail("bias B has a different element type from X");
    if (b.rank() != 1 || b.size() != s.M)
      ctx.fail("bias B has shape " + shape_str(b.shape()) + ", expected [" + std::to_string(s.M) + "]");
    bias = real_values(ctx, b);
  }
  std::vector<double> maskd;
  if (ctx.has_input(4)) {
    const Tensor& mk = ctx.input(4);
    if (mk.dtype() != x.dtype()) ctx.fail("mask has a different element type from X");
    Shape mask_shape = expected(offset_group * K);
    if (mk.shape() != mask_shape)
      ctx.fail("mask has shape " + shape_str(mk.shape()) + ", expected " + shape_str(mask_shape) +
               " (N, offset_group * kernel size, output spatial shape)");
    maskd = real_values(ctx, mk);
  }

  return one(visit_float(ctx, x.dtype(), [&]<class T>() {
    // Samples, products and sums in double, rounded once to T at the end.
    std::vector<double> xd = real_values(ctx, x), wd = real_values(ctx, w), od = real_values(ctx, offset);
    Tensor y(x.dtype(), s.out_shape);
    T* py = y.data<T>();
    std::vector<int64_t> in_st = strides_of(s.g.in);
    Shape kernel_sp(s.g.kernel.begin(), s.g.kernel.end()), out_sp(s.g.out.begin(), s.g.out.end());
    std::vector<double> col(static_cast<size_t>(K * O));  // one input channel's masked samples [K, O]
    std::vector<double> acc(static_cast<size_t>(s.M * O));
    std::vector<double> p(r), frac(r);
    std::vector<int64_t> lo(r);
    for (int64_t n = 0; n < s.N; ++n) {
      for (int64_t m = 0; m < s.M; ++m) std::fill_n(acc.begin() + m * O, O, bias[static_cast<size_t>(m)]);
      for (int64_t ic = 0; ic < s.C; ++ic) {
        int64_t og = ic / c_per_og;
        const double* plane = xd.data() + (n * s.C + ic) * s.in_plane;
        for_each_index(kernel_sp, [&](const std::vector<int64_t>& k, int64_t kl) {
          int64_t ch = og * K + kl;  // this kernel position's offset/mask channel (before the * r)
          for_each_index(out_sp, [&](const std::vector<int64_t>& o, int64_t ol) {
            for (size_t d = 0; d < r; ++d) {
              double base = static_cast<double>(o[d] * s.g.strides[d] - s.g.pad_begin[d] + k[d] * s.g.dilations[d]);
              p[d] = base + od[static_cast<size_t>(
                                ((n * offset_group * K + ch) * static_cast<int64_t>(r) + static_cast<int64_t>(d)) * O + ol)];
            }
            double v = sample(plane, s.g.in, in_st, p, lo, frac);
            if (!maskd.empty()) v *= maskd[static_cast<size_t>((n * offset_group * K + ch) * O + ol)];
            col[static_cast<size_t>(kl * O + ol)] = v;
          });
        });
        int64_t gi = ic / s.Cg, c = ic % s.Cg;
        for (int64_t m = gi * s.Mg; m < (gi + 1) * s.Mg; ++m)
          for (int64_t kl = 0; kl < K; ++kl) {
            double wv = wd[static_cast<size_t>((m * s.Cg + c) * K + kl)];
            for (int64_t ol = 0; ol < O; ++ol)
              acc[static_cast<size_t>(m * O + ol)] += wv * col[static_cast<size_t>(kl * O + ol)];
          }
      }
      for (int64_t i = 0; i < s.M * O; ++i) py[n * s.M * O + i] = to_storage<T>(acc[static_cast<size_t>(i)]);
    }
    return y;
  }));
}
}  // namespace
SONNX_PARAMS("", "DeformConv", (19, 22), ConvParams);
SONNX_KERNEL("", "DeformConv", 19, deform_conv, Accuracy::Rounding);
SONNX_KERNEL("", "DeformConv", 22, deform_conv, Accuracy::Rounding);

namespace {
// Y's shape is that of the plain convolution of X by W (the offsets move taps, not the window).
void deform_conv_shape(InferContext& ctx) { conv_rule(ctx, 1, common_elem(ctx, {0, 1, 2, 3, 4})); }
}  // namespace
SONNX_SHAPE_RULE("", "DeformConv", (19, 22), deform_conv_shape);
}  // namespace sonnx
