// BatchNormalization in inference form, float32: Y = X * a[c] + b[c] with, per channel,
// a = scale / sqrt(var + epsilon) and b = B - mean * a, evaluated in double and rounded once.
// Declines training mode (extra outputs, training_mode=1) and spatial=0.
#include <cmath>

#include "onednn_common.h"
#include "reference/ops/params/batch_normalization.h"
#include "omp_sync.h"

namespace sonnx::fast {
namespace {

class BatchNormKernel final : public FastKernel {
 public:
  std::string label;
  int64_t version = 0;
  double epsilon = 1e-5;
  std::string name() const override { return "fast:batchnorm"; }

  int64_t features(const Shape& x) const {
    if (x.empty()) fail(label, version, "X must have at least one dimension");
    return x.size() == 1 ? 1 : x[1];
  }

  std::vector<Shape> output_shapes(const std::vector<const Tensor*>& in) const override {
    const char* names[] = {"X", "scale", "B", "mean", "var"};
    for (size_t k = 0; k < 5; ++k) {
      const Tensor* t = arg(in, k);
      if (!t) fail(label, version, std::string("input ") + names[k] + " is required");
      if (t->dtype() != DType::Float) fail(label, version, std::string("this kernel takes float32 ") + names[k]);
    }
    const Shape& x = arg(in, 0)->shape();
    int64_t f = features(x);
    for (size_t k = 1; k < 5; ++k)
      if (arg(in, k)->size() != f)
        fail(label, version,
             std::string("input ") + names[k] + " has " + std::to_string(arg(in, k)->size()) + " elements, expected " +
                 std::to_string(f));
    return {x};
  }

  void run(const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) const override {
    const Tensor& x = *arg(in, 0);
    // X viewed as [n, c, inner]; a 1-D X is [N] with one channel.
    int64_t c = features(x.shape());
    int64_t inner = x.rank() <= 2 ? 1 : shape_size(Shape(x.shape().begin() + 2, x.shape().end()));
    int64_t n = x.dim(0);
    const float* scale = arg(in, 1)->data<float>();
    const float* bias = arg(in, 2)->data<float>();
    const float* mean = arg(in, 3)->data<float>();
    const float* var = arg(in, 4)->data<float>();
    std::vector<double> a(static_cast<size_t>(c)), b(static_cast<size_t>(c));
    for (int64_t i = 0; i < c; ++i) {
      a[i] = static_cast<double>(scale[i]) / std::sqrt(static_cast<double>(var[i]) + epsilon);
      b[i] = static_cast<double>(bias[i]) - static_cast<double>(mean[i]) * a[i];
    }
    const float* px = x.data<float>();
    float* py = out.at(0)->data<float>();
    int64_t planes = n * c;
    SONNX_OMP_FORK(sync);
#pragma omp parallel for schedule(static)
    for (int64_t p = 0; p < planes; ++p) {
      SONNX_OMP_TASK(sync);
      double ac = a[static_cast<size_t>(p % c)], bc = b[static_cast<size_t>(p % c)];
      const float* src = px + p * inner;
      float* dst = py + p * inner;
      for (int64_t i = 0; i < inner; ++i) dst[i] = static_cast<float>(static_cast<double>(src[i]) * ac + bc);
    }
  }
};

}  // namespace

std::unique_ptr<FastKernel> make_batch_norm_kernel(const FastKernelRequest& r) {
  const Node& node = *r.node;
  if (node.inputs.size() != 5) return nullptr;
  for (size_t i = 0; i < 5; ++i)
    if (!has_node_input(node, i) || !input_is_float(r, i)) return nullptr;
  for (size_t k = 1; k < node.outputs.size(); ++k)
    if (!node.outputs[k].empty()) return nullptr;  // training mode
  if (node.outputs.empty() || node.outputs[0].empty()) return nullptr;
  std::optional<BatchNormParams> p = try_params<BatchNormParams>(node, r.version);
  if (!p || !p->spatial || p->training_mode) return nullptr;
  auto k = std::make_unique<BatchNormKernel>();
  k->label = node.label();
  k->version = r.version;
  k->epsilon = static_cast<double>(p->epsilon);
  return k;
}

SONNX_FAST_KERNEL("", "BatchNormalization", (1, 6, 7, 9, 14, 15), make_batch_norm_kernel);

}  // namespace sonnx::fast
