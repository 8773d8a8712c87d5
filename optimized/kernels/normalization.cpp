// LayerNormalization (17), InstanceNormalization (1, 6, 22) and GroupNormalization (18: scale and
// bias per group; 21: per channel) on float32. The statistics and every result are computed in
// double exactly as the reference kernels write them (the same sums in the same order, the same
// formula per element) and rounded once, so the results are bitwise the reference's.
#include <algorithm>
#include <cmath>

#include "onednn_common.h"
#include "reference/ops/params/normalization.h"
#include "omp_sync.h"

namespace sonnx::fast {

bool broadcasts_trailing(const Shape& ps, const Shape& target) {
  size_t r = target.size(), pr = ps.size();
  for (size_t d = 0; d + r < pr; ++d)
    if (ps[d] != 1) return false;
  for (size_t d = 0; d < r; ++d) {
    int64_t e = d + pr >= r ? ps[d + pr - r] : 1;
    if (e != 1 && e != target[d]) return false;
  }
  return true;
}

bool broadcast_trailing(const Tensor& p, const Shape& target, std::vector<float>& out) {
  if (!broadcasts_trailing(p.shape(), target)) return false;
  const Shape& ps = p.shape();
  size_t r = target.size(), pr = ps.size();
  if (p.size() == shape_size(target)) {  // nothing to broadcast
    out.assign(p.data<float>(), p.data<float>() + p.size());
    return true;
  }
  // Element strides of p along the target's dims (0 where p broadcasts).
  std::vector<int64_t> stride(r, 0);
  int64_t s = 1;
  for (size_t d = r; d-- > 0;) {
    int64_t e = d + pr >= r ? ps[d + pr - r] : 1;
    stride[d] = e == 1 ? 0 : s;
    s *= e;
  }
  out.resize(static_cast<size_t>(shape_size(target)));
  if (out.empty()) return true;
  const float* pv = p.data<float>();
  std::vector<int64_t> idx(r, 0);
  int64_t at = 0;
  for (float& v : out) {
    v = pv[at];
    for (size_t d = r; d-- > 0;) {  // odometer, last dim fastest
      at += stride[d];
      if (++idx[d] < target[d]) break;
      at -= stride[d] * target[d];
      idx[d] = 0;
    }
  }
  return true;
}

namespace {

// A parameter (Scale, B) of a LayerNormalization of `rows` rows by `cols` columns: its values
// broadcast to one row when they do not vary across rows (the usual case), else to all of X.
struct RowParam {
  std::vector<float> v;
  int64_t row_stride = 0;  // 0: one row for all; cols: one row per row
  float at(int64_t row, int64_t i) const { return v[static_cast<size_t>(row * row_stride + i)]; }
};

// False when p does not broadcast to x_shape (unidirectionally).
bool row_param(const Tensor& p, const Shape& x_shape, size_t axis, RowParam& out) {
  if (p.rank() > static_cast<int64_t>(x_shape.size())) return false;
  size_t lead = x_shape.size() - static_cast<size_t>(p.rank());  // p's dims sit at lead..
  bool per_row = false;
  for (size_t d = lead; d < axis; ++d) per_row = per_row || p.shape()[d - lead] != 1;
  size_t from = per_row ? 0 : axis;
  Shape tail(x_shape.begin() + static_cast<std::ptrdiff_t>(from), x_shape.end());
  if (!broadcast_trailing(p, tail, out.v)) return false;
  out.row_stride = per_row ? shape_size(Shape(x_shape.begin() + static_cast<std::ptrdiff_t>(axis), x_shape.end())) : 0;
  return true;
}

void require_float(const std::string& label, int64_t version, const Tensor* t, const char* what) {
  if (!t) fail(label, version, std::string("input ") + what + " is required");
  if (t->dtype() != DType::Float) fail(label, version, std::string("this kernel takes float32 ") + what);
}

// Mean and population variance of n doubles-from-floats, summed in order as the reference does.
struct Moments {
  double mean, var;
};
Moments moments(const float* x, int64_t n) {
  double mean = 0;
  for (int64_t i = 0; i < n; ++i) mean += x[i];
  mean /= static_cast<double>(n);
  double var = 0;
  for (int64_t i = 0; i < n; ++i) {
    double d = x[i] - mean;
    var += d * d;
  }
  return {mean, var / static_cast<double>(n)};
}

class LayerNormKernel final : public FastKernel {
 public:
  std::string label;
  int64_t version = 17, axis = -1;
  double epsilon = 1e-5;
  size_t outputs = 1;
  std::string name() const override { return "fast:layernorm"; }

  std::vector<Shape> output_shapes(const std::vector<const Tensor*>& in) const override {
    require_float(label, version, arg(in, 0), "X");
    require_float(label, version, arg(in, 1), "Scale");
    if (arg(in, 2)) require_float(label, version, arg(in, 2), "B");
    const Shape& x = arg(in, 0)->shape();
    size_t a = normalized_axis(x.size());
    for (size_t k = 1; k < 3; ++k) {
      RowParam p;
      if (arg(in, k) && !row_param(*arg(in, k), x, a, p))
        fail(label, version,
             std::string(k == 1 ? "Scale" : "B") + " of shape " + shape_str(arg(in, k)->shape()) +
                 " does not broadcast to X's shape " + shape_str(x));
    }
    Shape stats = x;
    for (size_t d = a; d < stats.size(); ++d) stats[d] = 1;
    std::vector<Shape> shapes{x};
    for (size_t k = 1; k < outputs; ++k) shapes.push_back(stats);
    return shapes;
  }

  void run(const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) const override {
    const Tensor& x = *arg(in, 0);
    size_t a = normalized_axis(static_cast<size_t>(x.rank()));
    RowParam scale, bias;
    row_param(*arg(in, 1), x.shape(), a, scale);
    bool has_bias = arg(in, 2) != nullptr;
    if (has_bias) row_param(*arg(in, 2), x.shape(), a, bias);
    int64_t rows = shape_size(Shape(x.shape().begin(), x.shape().begin() + static_cast<std::ptrdiff_t>(a)));
    int64_t cols = shape_size(Shape(x.shape().begin() + static_cast<std::ptrdiff_t>(a), x.shape().end()));
    const float* px = x.data<float>();
    float* py = out[0]->data<float>();
    float* mean_out = out.size() > 1 && out[1] ? out[1]->data<float>() : nullptr;
    float* inv_out = out.size() > 2 && out[2] ? out[2]->data<float>() : nullptr;
    SONNX_OMP_FORK(sync);
#pragma omp parallel for schedule(static)
    for (int64_t r = 0; r < rows; ++r) {
      SONNX_OMP_TASK(sync);
      const float* xr = px + r * cols;
      float* yr = py + r * cols;
      Moments m = moments(xr, cols);
      double inv_std = 1.0 / std::sqrt(m.var + epsilon);
      for (int64_t i = 0; i < cols; ++i) {
        double b = has_bias ? bias.at(r, i) : 0.0;  // the reference adds a zero bias too (-0 + 0 = +0)
        yr[i] = static_cast<float>((xr[i] - m.mean) * inv_std * scale.at(r, i) + b);
      }
      if (mean_out) mean_out[r] = static_cast<float>(m.mean);
      if (inv_out) inv_out[r] = static_cast<float>(inv_std);
    }
  }

 private:
  size_t normalized_axis(size_t rank) const {
    return static_cast<size_t>(norm_axis(label, version, axis, static_cast<int64_t>(rank)));
  }
};

// InstanceNormalization and GroupNormalization: X (N, C, D1...) in groups of `per_group`
// consecutive channels (1 for InstanceNormalization); scale and bias per channel or per group.
class ChannelGroupNormKernel final : public FastKernel {
 public:
  std::string label;
  int64_t version = 0;
  bool instance = true;     // InstanceNormalization: y = scale * (x - mean) / sqrt(var + eps) + B
  int64_t groups = 0;       // GroupNormalization: num_groups
  bool per_channel = true;  // scale and bias index by channel (else by group)
  double epsilon = 1e-5;
  std::string name() const override { return instance ? "fast:instancenorm" : "fast:groupnorm"; }

  std::vector<Shape> output_shapes(const std::vector<const Tensor*>& in) const override {
    require_float(label, version, arg(in, 0), "X");
    require_float(label, version, arg(in, 1), "scale");
    require_float(label, version, arg(in, 2), "B");
    const Tensor& x = *arg(in, 0);
    if (x.rank() < 2) fail(label, version, "input must have shape (N x C x D1 ... Dn)");
    int64_t c = x.dim(1);
    if (!instance && c % groups != 0)
      fail(label, version, "num_groups " + std::to_string(groups) + " must divide the " + std::to_string(c) + " channels");
    int64_t params = per_channel ? c : groups;
    for (size_t k = 1; k < 3; ++k) {
      const Tensor& p = *arg(in, k);
      if (p.size() != params || (!instance && p.rank() != 1))
        fail(label, version, "scale and B must have " + std::to_string(params) + " elements");
    }
    return {x.shape()};
  }

  void run(const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) const override {
    const Tensor& x = *arg(in, 0);
    int64_t n = x.dim(0), c = x.dim(1), inner = x.size() / std::max<int64_t>(1, n * c);
    int64_t g = instance ? c : groups, per_group = c / g;
    const float* scale = arg(in, 1)->data<float>();
    const float* bias = arg(in, 2)->data<float>();
    const float* px = x.data<float>();
    float* py = out[0]->data<float>();
    int64_t count = per_group * inner;
    if (x.size() == 0) return;
    SONNX_OMP_FORK(sync);
#pragma omp parallel for schedule(static)
    for (int64_t bg = 0; bg < n * g; ++bg) {
      SONNX_OMP_TASK(sync);
      const float* xg = px + bg * count;
      float* yg = py + bg * count;
      int64_t grp = bg % g;
      Moments m = moments(xg, count);
      double sd = std::sqrt(m.var + epsilon), inv_std = 1.0 / sd;
      for (int64_t ch = 0; ch < per_group; ++ch) {
        int64_t k = per_channel ? grp * per_group + ch : grp;
        double s = scale[k], b = bias[k];
        const float* xc = xg + ch * inner;
        float* yc = yg + ch * inner;
        if (instance)
          for (int64_t i = 0; i < inner; ++i) yc[i] = static_cast<float>(s * (xc[i] - m.mean) / sd + b);
        else
          for (int64_t i = 0; i < inner; ++i) yc[i] = static_cast<float>(s * (xc[i] - m.mean) * inv_std + b);
      }
    }
  }
};

bool all_float_inputs(const FastKernelRequest& r, size_t first, size_t last) {
  for (size_t i = first; i <= last; ++i)
    if (!has_node_input(*r.node, i) || !input_is_float(r, i)) return false;
  return true;
}

}  // namespace

std::unique_ptr<FastKernel> make_layer_norm_kernel(const FastKernelRequest& r) {
  const Node& n = *r.node;
  if (r.version != 17 || n.inputs.size() < 2 || n.inputs.size() > 3 || n.outputs.empty() || n.outputs.size() > 3) return nullptr;
  if (!all_float_inputs(r, 0, 1) || (has_node_input(n, 2) && !input_is_float(r, 2))) return nullptr;
  std::optional<LayerNormParams> p = try_params<LayerNormParams>(n, r.version);
  // Mean and InvStdDev in bfloat16 stay on the reference (the executor allocates float outputs).
  if (!p || p->stash_type != DType::Float) return nullptr;
  auto k = std::make_unique<LayerNormKernel>();
  k->label = n.label();
  k->version = r.version;
  k->axis = p->axis;
  k->epsilon = static_cast<double>(p->epsilon);
  k->outputs = n.outputs.size();
  return k;
}

std::unique_ptr<FastKernel> make_instance_norm_kernel(const FastKernelRequest& r) {
  const Node& n = *r.node;
  if (n.inputs.size() != 3 || n.outputs.size() != 1 || !all_float_inputs(r, 0, 2)) return nullptr;
  std::optional<InstanceNormParams> p = try_params<InstanceNormParams>(n, r.version);
  if (!p) return nullptr;
  auto k = std::make_unique<ChannelGroupNormKernel>();
  k->label = n.label();
  k->version = r.version;
  k->epsilon = static_cast<double>(p->epsilon);
  return k;
}

std::unique_ptr<FastKernel> make_group_norm_kernel(const FastKernelRequest& r) {
  const Node& n = *r.node;
  if (n.inputs.size() != 3 || n.outputs.size() != 1 || !all_float_inputs(r, 0, 2)) return nullptr;
  if (r.version != 18 && r.version != 21) return nullptr;
  // What the reference rejects (no num_groups, bad stash_type) it reports itself.
  std::optional<GroupNormParams> p = try_params<GroupNormParams>(n, r.version);
  if (!p) return nullptr;
  auto k = std::make_unique<ChannelGroupNormKernel>();
  k->label = n.label();
  k->version = r.version;
  k->instance = false;
  k->per_channel = p->per_channel;
  k->groups = p->num_groups;
  k->epsilon = static_cast<double>(p->epsilon);
  return k;
}

SONNX_FAST_KERNEL("", "LayerNormalization", (17), make_layer_norm_kernel);
SONNX_FAST_KERNEL("", "InstanceNormalization", (1, 6, 22), make_instance_norm_kernel);
SONNX_FAST_KERNEL("", "GroupNormalization", (18, 21), make_group_norm_kernel);

}  // namespace sonnx::fast
