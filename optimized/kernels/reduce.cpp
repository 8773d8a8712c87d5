// ReduceSum, ReduceMean and ReduceMax on float32 with constant axes: the `axes` attribute
// (ReduceSum before 13, ReduceMean/ReduceMax before 18) or a constant int64 `axes` input (later),
// keepdims, and noop_with_empty_axes where the version has it. Declines axes that are not constant.
// As the reference (support/reduce.h): each group is reduced in the input's row-major order, sums
// in double and rounded once (so the results are bitwise the reference's), an empty group gives
// 0 (Sum), NaN (Mean, 0/0) or -inf (Max), and the first NaN of a group is its maximum.
// The input is walked once, with runs of dimensions that are all reduced or all kept merged.
#include <cmath>
#include <cstring>
#include <limits>

#include "onednn_common.h"
#include "reference/ops/params/reduce.h"

namespace sonnx::fast {

namespace {

enum class ReduceOp { Sum, Mean, Max };

class ReduceKernel final : public FastKernel {
 public:
  std::string label, op_name;
  int64_t version = 0;
  ReduceOp op = ReduceOp::Sum;
  std::vector<int64_t> axes;
  bool keepdims = true, noop_with_empty_axes = false;

  std::string name() const override { return "fast:reduce"; }

  std::vector<Shape> output_shapes(const std::vector<const Tensor*>& in) const override {
    const Tensor* x = arg(in, 0);
    if (!x || x->dtype() != DType::Float) fail(label, version, "this kernel takes a float32 input");
    if (axes.empty() && noop_with_empty_axes) return {x->shape()};
    std::vector<bool> flag = reduced(x->rank());
    Shape out;
    for (size_t d = 0; d < flag.size(); ++d) {
      if (!flag[d]) out.push_back(x->shape()[d]);
      else if (keepdims) out.push_back(1);
    }
    return {out};
  }

  void run(const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) const override {
    const Tensor& x = *arg(in, 0);
    const float* px = x.data<float>();
    float* py = out[0]->data<float>();
    if (axes.empty() && noop_with_empty_axes) {  // every element is its own group: the identity
      if (x.size()) std::memcpy(py, px, static_cast<size_t>(x.size()) * sizeof(float));
      return;
    }
    std::vector<bool> flag = reduced(x.rank());
    // Merged dimensions (extent, reduced), outermost first; dimensions of extent 1 drop out.
    struct Dim {
      int64_t n;
      bool red;
    };
    std::vector<Dim> dims;
    int64_t group = 1;  // elements per output
    for (size_t d = 0; d < flag.size(); ++d) {
      int64_t e = x.shape()[d];
      if (flag[d]) group *= e;
      if (e == 1) continue;
      if (!dims.empty() && dims.back().red == flag[d]) dims.back().n *= e;
      else dims.push_back({e, flag[d]});
    }
    int64_t out_size = out[0]->size();
    double init = op == ReduceOp::Max ? -std::numeric_limits<double>::infinity() : 0.0;
    std::vector<double> acc(static_cast<size_t>(out_size), init);
    if (x.size() > 0) {
      if (dims.empty()) dims.push_back({1, false});
      walk(px, dims, acc.data());
    }
    for (int64_t o = 0; o < out_size; ++o) {
      double v = acc[static_cast<size_t>(o)];
      py[o] = static_cast<float>(op == ReduceOp::Mean ? v / static_cast<double>(group) : v);
    }
  }

 private:
  std::vector<bool> reduced(int64_t rank) const {
    std::vector<bool> flag(static_cast<size_t>(rank), axes.empty());
    for (int64_t a : axes) {
      if (a < -rank || a >= rank)
        fail(label, version, "axis " + std::to_string(a) + " is out of range for rank " + std::to_string(rank));
      auto d = static_cast<size_t>(a < 0 ? a + rank : a);
      if (flag[d]) fail(label, version, "axis " + std::to_string(a) + " is given more than once");
      flag[d] = true;
    }
    return flag;
  }

  template <class Dim>
  void walk(const float* px, const std::vector<Dim>& dims, double* acc) const {
    // Output strides of the merged dimensions (0 where reduced).
    size_t k = dims.size();
    std::vector<int64_t> os(k);
    int64_t stride = 1;
    for (size_t d = k; d-- > 0;) {
      os[d] = dims[d].red ? 0 : stride;
      if (!dims[d].red) stride *= dims[d].n;
    }
    int64_t n = dims[k - 1].n, outer = 1;
    for (size_t d = 0; d + 1 < k; ++d) outer *= dims[d].n;
    bool inner_reduced = dims[k - 1].red;
    std::vector<int64_t> idx(k, 0);
    int64_t o = 0;
    for (int64_t r = 0; r < outer; ++r, px += n) {
      if (inner_reduced) acc[o] = line(acc[o], px, n);
      else if (op == ReduceOp::Max)
        for (int64_t i = 0; i < n; ++i) acc[o + i] = max_step(acc[o + i], px[i]);
      else
        for (int64_t i = 0; i < n; ++i) acc[o + i] += px[i];
      for (size_t d = k - 1; d-- > 0;) {  // odometer over the outer dimensions
        o += os[d];
        if (++idx[d] < dims[d].n) break;
        o -= os[d] * dims[d].n;
        idx[d] = 0;
      }
    }
  }

  static double max_step(double acc, float c) {
    if (std::isnan(acc)) return acc;  // the first NaN of the group stays its maximum
    return std::isnan(c) || c > acc ? c : acc;
  }

  // acc combined with the n contiguous elements at px, in order.
  double line(double acc, const float* px, int64_t n) const {
    if (op == ReduceOp::Max)
      for (int64_t i = 0; i < n; ++i) acc = max_step(acc, px[i]);
    else
      for (int64_t i = 0; i < n; ++i) acc += px[i];
    return acc;
  }
};

}  // namespace

namespace {
// The kernel of reduction `op`, which the node's record names (the registrations below).
template <ReduceOp op>
std::unique_ptr<FastKernel> make_reduce(const FastKernelRequest& r) {
  const Node& n = *r.node;
  if (n.inputs.empty() || n.inputs.size() > 2 || n.outputs.size() != 1 || !input_is_float(r, 0)) return nullptr;
  auto k = std::make_unique<ReduceKernel>();
  k->op = op;
  std::optional<ReduceParams> p = try_params<ReduceParams>(n, r.version);
  if (!p) return nullptr;
  if (!p->axes_from_input) {
    if (n.inputs.size() != 1) return nullptr;
    k->axes = p->axes;
  } else if (has_node_input(n, 1)) {
    const Tensor* t = constant_input(r, 1);
    if (!t || t->dtype() != DType::Int64 || t->rank() > 1) return nullptr;
    k->axes = t->to_int64_vector();
  }
  k->noop_with_empty_axes = p->noop_with_empty_axes;
  k->keepdims = p->keepdims;
  k->label = n.label();
  k->version = r.version;
  return k;
}
}  // namespace

SONNX_FAST_KERNEL("", "ReduceSum", (1, 11, 13), make_reduce<ReduceOp::Sum>);
SONNX_FAST_KERNEL("", "ReduceMean", (1, 11, 13, 18), make_reduce<ReduceOp::Mean>);
SONNX_FAST_KERNEL("", "ReduceMax", (1, 11, 12, 13, 18, 20), make_reduce<ReduceOp::Max>);

}  // namespace sonnx::fast
