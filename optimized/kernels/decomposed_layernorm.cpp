// The layer normalization exporters write as nine nodes, run as one step (the group is found by
// optimized/plan/fusion_layernorm.cpp):
//   m = ReduceMean(x, [last axis]); d = Sub(x, m); v = ReduceMean(Pow(d, 2), [last axis]);
//   y = Div(d, Sqrt(Add(v, eps))) [; y = Mul(y, scale)] [; y = Add(y, bias)]
// Each node's arithmetic is kept: the two means are sums in double rounded once (ReduceMean), the
// rest are float operations (Sub, Pow by 2 = one rounded product, Add, Sqrt, Div, Mul), so the
// result is bitwise that of the nodes run one by one. Whatever the kernel does not cover at run
// time (an axis other than the last, an exponent other than 2, parameters that broadcast another
// way) it reports from output_shapes, and the executor then runs the nodes one by one.
#include <algorithm>
#include <cmath>

#include "onednn_common.h"
#include "reference/ops/params/reduce.h"
#include "sonnx/errors.h"
#include "omp_sync.h"

namespace sonnx::fast {

namespace {

// Where the kernel's inputs sit in the step's input list (-1: absent).
struct LayerNormInputs {
  int axes1 = -1, exponent = -1, axes2 = -1, eps = -1, scale = -1, bias = -1;
};

class DecomposedLayerNormKernel final : public FastKernel {
 public:
  std::string label;
  LayerNormInputs at;
  std::vector<int64_t> axes1, axes2;  // the ReduceMeans' axes attributes (versions before 18)
  bool scale_first = false;           // Mul(scale, y) rather than Mul(y, scale)
  bool bias_first = false;            // Add(bias, y)

  std::string name() const override { return "fast:layernorm-nodes"; }

  std::vector<Shape> output_shapes(const std::vector<const Tensor*>& in) const override {
    const Tensor* x = arg(in, 0);
    if (!x || x->dtype() != DType::Float || x->rank() < 1) fail("x must be a float32 tensor of rank ≥ 1");
    int64_t r = x->rank();
    check_axes(at.axes1 >= 0 ? values(in, at.axes1) : axes1, r);
    check_axes(at.axes2 >= 0 ? values(in, at.axes2) : axes2, r);
    const Tensor* e = arg(in, static_cast<size_t>(at.exponent));
    if (!e || e->size() != 1 || e->rank() > r || e->dtype() == DType::String || e->as_double(0) != 2.0)
      fail("the exponent must be a single 2");
    const Tensor* eps = arg(in, static_cast<size_t>(at.eps));
    if (!eps || eps->dtype() != DType::Float || eps->size() != 1 || eps->rank() > r) fail("epsilon must be a single float32");
    for (int k : {at.scale, at.bias}) {
      if (k < 0) continue;
      const Tensor* p = arg(in, static_cast<size_t>(k));
      if (!p || p->dtype() != DType::Float || p->rank() > r || !broadcasts_trailing(p->shape(), x->shape()))
        fail("scale and bias must be float32 tensors that broadcast to x's shape");
    }
    return {x->shape()};
  }

  void run(const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) const override {
    const Tensor& x = *arg(in, 0);
    const float eps = arg(in, static_cast<size_t>(at.eps))->data<float>()[0];
    int64_t cols = x.shape().back(), rows = cols ? x.size() / cols : 0;
    std::vector<float> scale, bias;
    Shape last{cols};
    // Parameters that vary only along the last axis are one row; others cover all of x.
    auto load = [&](int k, std::vector<float>& v, int64_t& stride) {
      stride = 0;
      if (k < 0) return;
      const Tensor& p = *arg(in, static_cast<size_t>(k));
      if (!broadcast_trailing(p, last, v)) {
        broadcast_trailing(p, x.shape(), v);
        stride = cols;
      }
    };
    int64_t scale_stride = 0, bias_stride = 0;
    load(at.scale, scale, scale_stride);
    load(at.bias, bias, bias_stride);
    const float* px = x.data<float>();
    float* py = out[0]->data<float>();
    auto n = static_cast<double>(cols);
    // Rows go kRows at a time: each row's sums run in the reference's order, but the rows' chains
    // of additions interleave, so the loop is not bound by the latency of one addition.
    int64_t blocks = (rows + kRows - 1) / kRows;
    SONNX_OMP_FORK(sync);
#pragma omp parallel for schedule(static)
    for (int64_t blk = 0; blk < blocks; ++blk) {
      SONNX_OMP_TASK(sync);
      int64_t r0 = blk * kRows, count = std::min<int64_t>(kRows, rows - r0);
      const float* xr[kRows];
      float* yr[kRows];
      for (int64_t j = 0; j < kRows; ++j) {  // a short last block repeats its last row
        int64_t r = r0 + std::min(j, count - 1);
        xr[j] = px + r * cols;
        yr[j] = py + r * cols;
      }
      double sum[kRows] = {}, sq[kRows] = {};
      for (int64_t i = 0; i < cols; ++i)
        for (int j = 0; j < kRows; ++j) sum[j] += xr[j][i];
      for (int j = 0; j < kRows; ++j) {
        auto mean = static_cast<float>(sum[j] / n);
        for (int64_t i = 0; i < cols; ++i) yr[j][i] = xr[j][i] - mean;
      }
      for (int64_t i = 0; i < cols; ++i)
        for (int j = 0; j < kRows; ++j) {
          float p = yr[j][i] * yr[j][i];
          sq[j] += p;
        }
      for (int64_t j = 0; j < count; ++j)
        finish_row(yr[j], cols, r0 + j, static_cast<float>(sq[j] / n), eps, scale, scale_stride, bias, bias_stride);
    }
  }

 private:
  static constexpr int64_t kRows = 4;

  // y = d / sqrt(var + eps) [· scale] [+ bias] over one row of d (in place).
  void finish_row(float* yr, int64_t cols, int64_t r, float var, float eps, const std::vector<float>& scale,
                  int64_t scale_stride, const std::vector<float>& bias, int64_t bias_stride) const {
    float s = std::sqrt(var + eps);
    for (int64_t i = 0; i < cols; ++i) yr[i] = yr[i] / s;
    if (at.scale >= 0) {
      const float* sr = scale.data() + r * scale_stride;
      if (scale_first)
        for (int64_t i = 0; i < cols; ++i) yr[i] = sr[i] * yr[i];
      else
        for (int64_t i = 0; i < cols; ++i) yr[i] = yr[i] * sr[i];
    }
    if (at.bias >= 0) {
      const float* br = bias.data() + r * bias_stride;
      if (bias_first)
        for (int64_t i = 0; i < cols; ++i) yr[i] = br[i] + yr[i];
      else
        for (int64_t i = 0; i < cols; ++i) yr[i] = yr[i] + br[i];
    }
  }

  [[noreturn]] void fail(const std::string& why) const {
    throw Trap(label + ": the fused layer normalization does not apply: " + why);
  }

  std::vector<int64_t> values(const std::vector<const Tensor*>& in, int k) const {
    const Tensor* t = arg(in, static_cast<size_t>(k));
    if (!t || t->dtype() != DType::Int64) fail("axes must be an int64 tensor");
    return t->to_int64_vector();
  }

  void check_axes(const std::vector<int64_t>& axes, int64_t rank) const {
    if (axes.size() != 1 || (axes[0] != -1 && axes[0] != rank - 1)) fail("the means must be over the last axis alone");
  }
};

// The position of `name` in the step's inputs, or -1.
int position(const Node& n, const std::string& name) {
  for (size_t i = 0; i < n.inputs.size(); ++i)
    if (n.inputs[i] == name) return static_cast<int>(i);
  return -1;
}

// The input of `n` other than `from` (n has two inputs, one of them `from`).
const std::string& other_input(const Node& n, const std::string& from) {
  return n.inputs[0] == from ? n.inputs[1] : n.inputs[0];
}

}  // namespace

std::unique_ptr<FastKernel> make_decomposed_layer_norm_kernel(const FastKernelRequest& r) {
  const Node& first = *r.node;
  const auto& f = r.fused_nodes;
  static const char* ops[] = {"Sub", "Pow", "ReduceMean", "Add", "Sqrt", "Div", "Mul", "Add"};
  if (f.size() < 6 || f.size() > 8 || r.fused_versions.size() != f.size() || first.op_type != "ReduceMean" ||
      !input_is_float(r, 0))
    return nullptr;
  for (size_t k = 0; k < f.size(); ++k)
    if (f[k]->op_type != ops[k] || f[k]->outputs.size() != 1) return nullptr;
  const Node &power = *f[1], &mean2 = *f[2], &add_eps = *f[3], &div = *f[5];
  // Both means keep the reduced dimensions, and reduce over all axes when none are given.
  std::optional<ReduceParams> p1 = try_params<ReduceParams>(first, r.version),
                              p2 = try_params<ReduceParams>(mean2, r.fused_versions[2]);
  if (!p1 || !p2 || !p1->keepdims || !p2->keepdims || p1->noop_with_empty_axes || p2->noop_with_empty_axes) return nullptr;
  auto k = std::make_unique<DecomposedLayerNormKernel>();
  k->label = first.label() + " (decomposed layer normalization)";
  // node->inputs has the group's other inputs appended: the parameters tell whether input 1 is axes.
  if (p1->axes_from_input && first.inputs.size() > 1 && !first.inputs[1].empty()) k->at.axes1 = 1;
  else k->axes1 = p1->axes;
  if (p2->axes_from_input && mean2.inputs.size() > 1 && !mean2.inputs[1].empty()) k->at.axes2 = position(first, mean2.inputs[1]);
  else k->axes2 = p2->axes;
  k->at.exponent = position(first, power.inputs[1]);
  k->at.eps = position(first, other_input(add_eps, mean2.outputs[0]));
  std::string y = div.outputs[0];
  if (f.size() > 6) {  // Mul by scale
    k->scale_first = f[6]->inputs[1] == y;
    k->at.scale = position(first, other_input(*f[6], y));
    y = f[6]->outputs[0];
  }
  if (f.size() > 7) {  // Add bias
    k->bias_first = f[7]->inputs[1] == y;
    k->at.bias = position(first, other_input(*f[7], y));
  }
  bool found = k->at.exponent > 0 && k->at.eps > 0 && (f.size() < 7 || k->at.scale > 0) && (f.size() < 8 || k->at.bias > 0) &&
               (mean2.inputs.size() < 2 || mean2.inputs[1].empty() || k->at.axes2 > 0);
  if (!found) return nullptr;
  return k;
}

}  // namespace sonnx::fast
