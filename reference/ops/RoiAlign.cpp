// RoiAlign (Mask R-CNN). X [N, C, H, W]; rois [R, 4] rows [x1, y1, x2, y2] in input-image
// coordinates; batch_indices [R]; Y [R, C, output_height, output_width].
// Each RoI is scaled by spatial_scale and shifted by −0.5 pixel in coordinate_transformation_mode
// "half_pixel" (version 16's default); version 10 and "output_half_pixel" do not shift and widen
// RoIs narrower than one pixel to one. Output bin (ph, pw) samples a grid of
// sampling_ratio x sampling_ratio points (or ceil(roi_size / output_size) per axis when
// sampling_ratio is 0) at the centres of equal sub-bins; each sample is the bilinear
// interpolation of X at that point, where a point more than one pixel outside the image counts 0
// and otherwise coordinates below 0 clamp to 0 and those at or past the last row/column use it.
// mode "avg" averages the samples. mode "max" is not spelled out by the schema; we follow the
// definition shared by the ONNX reference implementation (onnx.reference, later releases) and
// onnxruntime: per sample, the largest of the four weighted corner terms w_i * X[corner_i]
// (not the interpolated value), then the maximum over the samples. NaN propagates.
#include "op_params.h"
#include "params/roi_align.h"
#include "support/shape.h"
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {

// max that propagates NaN from either side.
double max_nan(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::quiet_NaN();
  return a > b ? a : b;
}

std::vector<Value> roi_align(OpContext& ctx) {
  RoiAlignParams p = RoiAlignParams::read(ctx, ctx.version());
  bool half_pixel = p.half_pixel;
  const Tensor& x = ctx.input(0);
  const Tensor& rois = ctx.input(1);
  const Tensor& bidx = ctx.input(2);
  if (x.rank() != 4) ctx.fail("input X must be 4-D [N, C, H, W], got " + shape_str(x.shape()));
  if (rois.rank() != 2 || rois.dim(1) != 4) ctx.fail("rois must be [num_rois, 4], got " + shape_str(rois.shape()));
  if (bidx.rank() != 1 || bidx.dim(0) != rois.dim(0))
    ctx.fail("batch_indices must be [num_rois], got " + shape_str(bidx.shape()));
  if (!is_integer(bidx.dtype())) ctx.fail("batch_indices must be an integer tensor");
  if (rois.dtype() != x.dtype()) ctx.fail("rois must have the element type of X");
  bool is_max = p.max_mode;
  int64_t PH = p.output_height, PW = p.output_width;
  int64_t sampling = p.sampling_ratio;
  double scale = p.spatial_scale;
  int64_t N = x.dim(0), C = x.dim(1), H = x.dim(2), W = x.dim(3), R = rois.dim(0);
  std::vector<double> rv = real_values(ctx, rois);
  std::vector<int64_t> batches = bidx.to_int64_vector();
  std::vector<double> xd = real_values(ctx, x);

  // One bilinear sample: the four corners' plane offsets and weights (all weights 0 outside).
  struct Sample {
    int64_t o[4] = {0, 0, 0, 0};
    double w[4] = {0, 0, 0, 0};
  };
  auto make_sample = [&](double y, double xx) {
    Sample s;
    // (Written so that a NaN coordinate also counts as outside.)
    if (!(y >= -1.0 && y <= static_cast<double>(H) && xx >= -1.0 && xx <= static_cast<double>(W)) || H == 0 || W == 0) return s;
    y = std::max(y, 0.0);
    xx = std::max(xx, 0.0);
    int64_t y0 = static_cast<int64_t>(y), x0 = static_cast<int64_t>(xx), y1, x1;
    if (y0 >= H - 1) {
      y0 = y1 = H - 1;
      y = static_cast<double>(y0);
    } else {
      y1 = y0 + 1;
    }
    if (x0 >= W - 1) {
      x0 = x1 = W - 1;
      xx = static_cast<double>(x0);
    } else {
      x1 = x0 + 1;
    }
    double ly = y - static_cast<double>(y0), lx = xx - static_cast<double>(x0), hy = 1 - ly, hx = 1 - lx;
    s.o[0] = y0 * W + x0;
    s.o[1] = y0 * W + x1;
    s.o[2] = y1 * W + x0;
    s.o[3] = y1 * W + x1;
    s.w[0] = hy * hx;
    s.w[1] = hy * lx;
    s.w[2] = ly * hx;
    s.w[3] = ly * lx;
    return s;
  };

  return one(visit_float(ctx, x.dtype(), [&]<class T>() {
    Tensor y(x.dtype(), {R, C, PH, PW});
    T* py = y.data<T>();
    std::vector<Sample> samples;
    for (int64_t r = 0; r < R; ++r) {
      int64_t n = batches[static_cast<size_t>(r)];
      if (n < 0 || n >= N) ctx.fail("batch index " + std::to_string(n) + " is out of range for N=" + std::to_string(N));
      const double* roi = &rv[static_cast<size_t>(r * 4)];
      for (int i = 0; i < 4; ++i)
        if (!std::isfinite(roi[i])) ctx.fail("roi " + std::to_string(r) + " has a coordinate that is not finite");
      double offset = half_pixel ? 0.5 : 0.0;
      double sw = roi[0] * scale - offset, sh = roi[1] * scale - offset;
      double ew = roi[2] * scale - offset, eh = roi[3] * scale - offset;
      double rw = ew - sw, rh = eh - sh;
      if (!half_pixel) {
        rw = std::max(rw, 1.0);
        rh = std::max(rh, 1.0);
      }
      double bin_h = rh / static_cast<double>(PH), bin_w = rw / static_cast<double>(PW);
      double gh_d = sampling > 0 ? static_cast<double>(sampling) : std::ceil(rh / static_cast<double>(PH));
      double gw_d = sampling > 0 ? static_cast<double>(sampling) : std::ceil(rw / static_cast<double>(PW));
      if (!std::isfinite(gh_d) || !std::isfinite(gw_d) || gh_d > 1e6 || gw_d > 1e6)
        ctx.fail("roi " + std::to_string(r) + " needs an unreasonable sampling grid");
      int64_t gh = std::max<int64_t>(static_cast<int64_t>(gh_d), 0), gw = std::max<int64_t>(static_cast<int64_t>(gw_d), 0);
      if (gh * gw > 100000000) ctx.fail("roi " + std::to_string(r) + " needs an unreasonable sampling grid");
      double count = static_cast<double>(std::max<int64_t>(gh * gw, 1));
      for (int64_t ph = 0; ph < PH; ++ph)
        for (int64_t pw = 0; pw < PW; ++pw) {
          samples.clear();
          for (int64_t iy = 0; iy < gh; ++iy) {
            double yy = sh + static_cast<double>(ph) * bin_h + (static_cast<double>(iy) + 0.5) * bin_h / static_cast<double>(gh);
            for (int64_t ix = 0; ix < gw; ++ix) {
              double xx = sw + static_cast<double>(pw) * bin_w +
                          (static_cast<double>(ix) + 0.5) * bin_w / static_cast<double>(gw);
              samples.push_back(make_sample(yy, xx));
            }
          }
          for (int64_t c = 0; c < C; ++c) {
            const double* plane = &xd[static_cast<size_t>((n * C + c) * H * W)];
            double acc = 0;
            bool first = true;
            for (const Sample& s : samples) {
              if (is_max) {
                // The largest weighted corner term of the sample (see the note at the top).
                double v = s.w[0] * plane[s.o[0]];
                for (int q = 1; q < 4; ++q) v = max_nan(v, s.w[q] * plane[s.o[q]]);
                acc = first ? v : max_nan(acc, v);
                first = false;
              } else {
                acc += s.w[0] * plane[s.o[0]] + s.w[1] * plane[s.o[1]] + s.w[2] * plane[s.o[2]] + s.w[3] * plane[s.o[3]];
              }
            }
            py[((r * C + c) * PH + ph) * PW + pw] = to_storage<T>(is_max ? acc : acc / count);
          }
        }
    }
    return y;
  }));
}

}  // namespace
SONNX_PARAMS("", "RoiAlign", (10, 16, 22), RoiAlignParams);
SONNX_KERNEL("", "RoiAlign", 10, roi_align, Accuracy::Rounding);
SONNX_KERNEL("", "RoiAlign", 16, roi_align, Accuracy::Rounding);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "RoiAlign", 22, roi_align, Accuracy::Rounding);
namespace {
// [num_rois, C, output_height, output_width].
void roi_align_shape(InferContext& ctx) {
  RoiAlignParams p = RoiAlignParams::read(ctx, ctx.version());
  require_rank(ctx, 0, 4, "X");
  require_rank(ctx, 1, 2, "rois");
  require_rank(ctx, 2, 1, "batch_indices");
  const Dims* x = ctx.input_shape(0);
  const Dims* rois = ctx.input_shape(1);
  Dim n = rois ? (*rois)[0] : Dim{};
  if (const Dims* b = ctx.input_shape(2)) n = unify_dim(ctx, n, (*b)[0], "rois and batch_indices");
  ctx.set_output(0, ctx.input_elem(0),
                 Dims{n, x ? (*x)[1] : Dim{}, size_dim(ctx, p.output_height, "output_height"),
                      size_dim(ctx, p.output_width, "output_width")});
}
}  // namespace
SONNX_SHAPE_RULE("", "RoiAlign", (10, 16, 22), roi_align_shape);
}  // namespace sonnx
