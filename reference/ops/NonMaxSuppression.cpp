// NonMaxSuppression: greedy per-(batch, class) box selection.
// boxes [B, S, 4] as [y1, x1, y2, x2] (any two opposite corners; center_point_box=0) or
// [x_center, y_center, width, height] (center_point_box=1); scores [B, classes, S].
// For each batch and class: drop boxes whose score is below score_threshold (when given; a score
// equal to the threshold stays, as the schema words it; onnxruntime and the later ONNX reference
// implementation drop it), visit the rest by decreasing score (ties: lower box index first), and
// select a box unless its intersection-over-union with an already selected box of this class
// exceeds iou_threshold; stop after max_output_boxes_per_class selections (absent or 0: select
// nothing).
// Output [num_selected, 3] rows [batch, class, box], by batch, then class, then selection order.
// Versions 10 and 11 have the same semantics.
#include "op_params.h"
#include "params/non_max_suppression.h"
#include "support/shape.h"
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {

struct Box {
  double y1, x1, y2, x2;  // y1 <= y2, x1 <= x2
};

// Whether box a suppresses box b: their intersection-over-union exceeds the threshold. Boxes
// that do not overlap, or have no area, never suppress each other (whatever the threshold).
bool suppresses(const Box& a, const Box& b, double iou_threshold) {
  double area_a = (a.y2 - a.y1) * (a.x2 - a.x1), area_b = (b.y2 - b.y1) * (b.x2 - b.x1);
  if (!(area_a > 0) || !(area_b > 0)) return false;
  double ih = std::min(a.y2, b.y2) - std::max(a.y1, b.y1);
  double iw = std::min(a.x2, b.x2) - std::max(a.x1, b.x1);
  if (!(ih > 0) || !(iw > 0)) return false;
  double inter = ih * iw;
  return inter / (area_a + area_b - inter) > iou_threshold;
}

std::vector<Value> non_max_suppression(OpContext& ctx) {
  bool center_point_box = NonMaxSuppressionParams::read(ctx, ctx.version()).center_point_box;
  const Tensor& boxes = ctx.input(0);
  const Tensor& scores = ctx.input(1);
  if (boxes.rank() != 3 || boxes.dim(2) != 4)
    ctx.fail("boxes must be [num_batches, spatial_dimension, 4], got " + shape_str(boxes.shape()));
  if (scores.rank() != 3 || scores.dim(0) != boxes.dim(0) || scores.dim(2) != boxes.dim(1))
    ctx.fail("scores " + shape_str(scores.shape()) + " must be [num_batches, num_classes, spatial_dimension] for boxes " +
             shape_str(boxes.shape()));
  if (!is_float(boxes.dtype()) || !is_float(scores.dtype())) ctx.fail("boxes and scores must be floating tensors");
  int64_t max_out = 0;
  if (ctx.has_input(2)) {
    const Tensor& t = ctx.input(2);
    if (t.size() > 1) ctx.fail("max_output_boxes_per_class must be a scalar");
    if (t.size() == 1) max_out = t.as_int64(0);
  }
  double iou_threshold = 0;
  if (ctx.has_input(3)) {
    const Tensor& t = ctx.input(3);
    if (t.size() > 1) ctx.fail("iou_threshold must be a scalar");
    if (t.size() == 1) iou_threshold = t.as_double(0);
  }
  bool has_score_threshold = false;
  double score_threshold = 0;
  if (ctx.has_input(4)) {
    const Tensor& t = ctx.input(4);
    if (t.size() > 1) ctx.fail("score_threshold must be a scalar");
    if (t.size() == 1) {
      has_score_threshold = true;
      score_threshold = t.as_double(0);
    }
  }
  int64_t B = boxes.dim(0), S = boxes.dim(1), K = scores.dim(1);
  std::vector<double> bv = real_values(ctx, boxes), sv = real_values(ctx, scores);

  std::vector<int64_t> selected;  // flattened triples
  for (int64_t b = 0; b < B; ++b) {
    std::vector<Box> bx(static_cast<size_t>(S));
    for (int64_t s = 0; s < S; ++s) {
      const double* p = &bv[static_cast<size_t>((b * S + s) * 4)];
      Box& box = bx[static_cast<size_t>(s)];
      if (!center_point_box) {
        box = {std::min(p[0], p[2]), std::min(p[1], p[3]), std::max(p[0], p[2]), std::max(p[1], p[3])};
      } else {
        box = {p[1] - p[3] / 2, p[0] - p[2] / 2, p[1] + p[3] / 2, p[0] + p[2] / 2};
        if (box.y1 > box.y2) std::swap(box.y1, box.y2);
        if (box.x1 > box.x2) std::swap(box.x1, box.x2);
      }
    }
    for (int64_t k = 0; k < K; ++k) {
      if (max_out <= 0) continue;
      const double* sc = &sv[static_cast<size_t>((b * K + k) * S)];
      std::vector<int64_t> order;
      for (int64_t s = 0; s < S; ++s)
        if (!has_score_threshold || sc[s] >= score_threshold) order.push_back(s);
      // Decreasing score, ties by index; NaN scores go last.
      std::stable_sort(order.begin(), order.end(), [&](int64_t i, int64_t j) {
        double a = sc[i], c = sc[j];
        if (std::isnan(a) || std::isnan(c)) return !std::isnan(a) && std::isnan(c);
        return a > c;
      });
      std::vector<int64_t> kept;
      for (int64_t s : order) {
        if (static_cast<int64_t>(kept.size()) >= max_out) break;
        bool suppressed = false;
        for (int64_t t : kept)
          if (suppresses(bx[static_cast<size_t>(t)], bx[static_cast<size_t>(s)], iou_threshold)) {
            suppressed = true;
            break;
          }
        if (!suppressed) kept.push_back(s);
      }
      for (int64_t s : kept) {
        selected.push_back(b);
        selected.push_back(k);
        selected.push_back(s);
      }
    }
  }
  int64_t n = static_cast<int64_t>(selected.size() / 3);
  return one(Tensor::from_vector<int64_t>({n, 3}, selected));
}
}  // namespace
SONNX_PARAMS("", "NonMaxSuppression", (10, 11), NonMaxSuppressionParams);
SONNX_KERNEL("", "NonMaxSuppression", 10, non_max_suppression, Accuracy::Exact);
namespace {
void nms_shape(InferContext& ctx) { ctx.set_output(0, DType::Int64, Dims{Dim{}, known_dim(3)}); }
}  // namespace
SONNX_SHAPE_RULE("", "NonMaxSuppression", (10, 11), nms_shape);
}  // namespace sonnx
