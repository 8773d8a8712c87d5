// MaxRoiPool (Fast R-CNN RoI max pooling). X [N, C, H, W]; rois [R, 5] rows
// [batch_index, x1, y1, x2, y2] in input-image coordinates; Y [R, C, pooled_h, pooled_w].
// Each RoI is scaled by spatial_scale and rounded to whole pixels (half away from zero), its size
// is (x2 - x1 + 1) x (y2 - y1 + 1) (at least 1), and bin (ph, pw) covers rows
// [floor(ph*bin_h), ceil((ph+1)*bin_h)) offset by y1 and clipped to the image (likewise columns).
// The output is the maximum over the bin; an empty bin gives 0.
#include "op_params.h"
#include "support/shape.h"
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {

struct MaxRoiPoolParams {
  int64_t pooled_height = 1, pooled_width = 1;  // pooled_shape (required): two positive values
  float spatial_scale = 1.0f;

  static MaxRoiPoolParams read(const AttrReader& r, int64_t /*version*/) {
    if (!r.has_attr("pooled_shape")) r.fail("attribute 'pooled_shape' is required");
    std::vector<int64_t> pooled = r.attr_ints("pooled_shape");
    if (pooled.size() != 2 || pooled[0] < 1 || pooled[1] < 1)
      r.fail("pooled_shape must hold two positive values, got " + shape_str(pooled));
    return {pooled[0], pooled[1], r.attr_float("spatial_scale", 1.0f)};
  }
};

std::vector<Value> max_roi_pool(OpContext& ctx) {
  MaxRoiPoolParams p = MaxRoiPoolParams::read(ctx, ctx.version());
  const Tensor& x = ctx.input(0);
  const Tensor& rois = ctx.input(1);
  if (x.rank() != 4) ctx.fail("input X must be 4-D [N, C, H, W], got " + shape_str(x.shape()));
  if (rois.rank() != 2 || rois.dim(1) != 5) ctx.fail("rois must be [num_rois, 5], got " + shape_str(rois.shape()));
  double scale = p.spatial_scale;
  int64_t N = x.dim(0), C = x.dim(1), H = x.dim(2), W = x.dim(3), R = rois.dim(0);
  int64_t PH = p.pooled_height, PW = p.pooled_width;
  std::vector<double> rv = real_values(ctx, rois);
  return one(visit_float(ctx, x.dtype(), [&]<class T>() {
    using CT = compute_t<T>;
    Tensor y(x.dtype(), {R, C, PH, PW});
    const T* px = x.data<T>();
    T* py = y.data<T>();
    for (int64_t r = 0; r < R; ++r) {
      const double* roi = &rv[static_cast<size_t>(r * 5)];
      if (!(roi[0] >= 0 && roi[0] < static_cast<double>(N)))
        ctx.fail("roi " + std::to_string(r) + " has batch index out of range");
      int64_t n = static_cast<int64_t>(roi[0]);
      auto px_round = [&](double v) {
        double s = std::round(v * scale);
        if (!std::isfinite(s) || std::fabs(s) > 1e15) ctx.fail("roi coordinate out of range");
        return static_cast<int64_t>(s);
      };
      int64_t x1 = px_round(roi[1]), y1 = px_round(roi[2]), x2 = px_round(roi[3]), y2 = px_round(roi[4]);
      int64_t rh = std::max<int64_t>(y2 - y1 + 1, 1), rw = std::max<int64_t>(x2 - x1 + 1, 1);
      double bin_h = static_cast<double>(rh) / static_cast<double>(PH);
      double bin_w = static_cast<double>(rw) / static_cast<double>(PW);
      for (int64_t c = 0; c < C; ++c) {
        const T* plane = px + (n * C + c) * H * W;
        for (int64_t ph = 0; ph < PH; ++ph)
          for (int64_t pw = 0; pw < PW; ++pw) {
            int64_t hs = std::clamp<int64_t>(static_cast<int64_t>(std::floor(static_cast<double>(ph) * bin_h)) + y1, 0, H);
            int64_t he = std::clamp<int64_t>(static_cast<int64_t>(std::ceil(static_cast<double>(ph + 1) * bin_h)) + y1, 0, H);
            int64_t ws = std::clamp<int64_t>(static_cast<int64_t>(std::floor(static_cast<double>(pw) * bin_w)) + x1, 0, W);
            int64_t we = std::clamp<int64_t>(static_cast<int64_t>(std::ceil(static_cast<double>(pw + 1) * bin_w)) + x1, 0, W);
            CT best = 0;
            bool found = false;
            for (int64_t h = hs; h < he; ++h)
              for (int64_t w = ws; w < we; ++w) {
                CT v = static_cast<CT>(plane[h * W + w]);
                if (!found || (!std::isnan(best) && (std::isnan(v) || v > best))) best = v;
                found = true;
              }
            py[((r * C + c) * PH + ph) * PW + pw] = to_storage<T>(found ? best : CT(0));
          }
      }
    }
    return y;
  }));
}
}  // namespace
SONNX_PARAMS("", "MaxRoiPool", (1, 22), MaxRoiPoolParams);
SONNX_KERNEL("", "MaxRoiPool", 1, max_roi_pool, Accuracy::Exact);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "MaxRoiPool", 22, max_roi_pool, Accuracy::Exact);
namespace {
// [num_rois, C, pooled_shape...].
void max_roi_pool_shape(InferContext& ctx) {
  const Dims* x = ctx.input_shape(0);
  const Dims* rois = ctx.input_shape(1);
  MaxRoiPoolParams p = MaxRoiPoolParams::read(ctx, ctx.version());
  ctx.set_output(0, ctx.input_elem(0),
                 Dims{rois && !rois->empty() ? (*rois)[0] : Dim{}, x && x->size() > 1 ? (*x)[1] : Dim{},
                      size_dim(ctx, p.pooled_height, "pooled_shape"), size_dim(ctx, p.pooled_width, "pooled_shape")});
}
}  // namespace
SONNX_SHAPE_RULE("", "MaxRoiPool", (1, 22), max_roi_pool_shape);
}  // namespace sonnx
