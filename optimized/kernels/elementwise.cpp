// Float32 Add, Sub, Mul and Div with multidirectional broadcasting (opset 7 on; the older forms
// with the `broadcast` attribute stay on the reference). The output's dimensions are walked with
// runs of dimensions that broadcast alike merged into one, so a per-channel scale of an NCHW tensor
// is one loop over C of contiguous H*W blocks. Results are bitwise those of the reference: one
// IEEE float operation per element, which computing in double and rounding once also gives.
#include <algorithm>

#include "fast_kernel.h"
#include "onednn_common.h"
#include "reference/model/errors.h"

namespace sonnx::fast {

namespace {

enum class BinaryOp { Add, Sub, Mul, Div };

template <BinaryOp op>
inline float apply(float a, float b) {
  if constexpr (op == BinaryOp::Add) return a + b;
  else if constexpr (op == BinaryOp::Sub) return a - b;
  else if constexpr (op == BinaryOp::Mul) return a * b;
  else return a / b;
}

// out[i] = a[i * sa] op b[i * sb] for i < n (sa, sb are 0 or 1).
template <BinaryOp op>
void inner(const float* a, int64_t sa, const float* b, int64_t sb, float* out, int64_t n) {
  if (sa && sb)
    for (int64_t i = 0; i < n; ++i) out[i] = apply<op>(a[i], b[i]);
  else if (sa)
    for (int64_t i = 0; i < n; ++i) out[i] = apply<op>(a[i], *b);
  else if (sb)
    for (int64_t i = 0; i < n; ++i) out[i] = apply<op>(*a, b[i]);
  else
    for (int64_t i = 0; i < n; ++i) out[i] = apply<op>(*a, *b);
}

class BinaryKernel final : public FastKernel {
 public:
  BinaryKernel(BinaryOp op, std::string label) : op_(op), label_(std::move(label)) {}

  std::vector<Shape> output_shapes(const std::vector<const Tensor*>& in) const override {
    if (in.size() != 2 || !in[0] || !in[1]) throw Trap(label_ + ": needs two inputs");
    const Shape &a = in[0]->shape(), &b = in[1]->shape();
    size_t r = std::max(a.size(), b.size());
    Shape out(r);
    for (size_t d = 0; d < r; ++d) {
      int64_t x = d + a.size() >= r ? a[d + a.size() - r] : 1;
      int64_t y = d + b.size() >= r ? b[d + b.size() - r] : 1;
      if (x != y && x != 1 && y != 1)
        throw Trap(label_ + ": shapes " + shape_str(a) + " and " + shape_str(b) + " cannot be broadcast");
      out[d] = x == 1 ? y : x;
    }
    return {out};
  }

  void run(const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) const override {
    switch (op_) {
      case BinaryOp::Add: return compute<BinaryOp::Add>(*in[0], *in[1], *out[0]);
      case BinaryOp::Sub: return compute<BinaryOp::Sub>(*in[0], *in[1], *out[0]);
      case BinaryOp::Mul: return compute<BinaryOp::Mul>(*in[0], *in[1], *out[0]);
      case BinaryOp::Div: return compute<BinaryOp::Div>(*in[0], *in[1], *out[0]);
    }
  }

  std::string name() const override { return "fast:binary"; }

 private:
  template <BinaryOp op>
  static void compute(const Tensor& ta, const Tensor& tb, Tensor& ty) {
    const Shape& out = ty.shape();
    if (ty.size() == 0) return;
    size_t r = out.size();
    // Merged dimensions: (extent, a varies, b varies), outermost first.
    struct Dim {
      int64_t n;
      bool fa, fb;
    };
    std::vector<Dim> dims;
    for (size_t d = 0; d < r; ++d) {
      if (out[d] == 1) continue;
      bool fa = d + ta.shape().size() >= r && ta.shape()[d + ta.shape().size() - r] != 1;
      bool fb = d + tb.shape().size() >= r && tb.shape()[d + tb.shape().size() - r] != 1;
      if (!dims.empty() && dims.back().fa == fa && dims.back().fb == fb) dims.back().n *= out[d];
      else dims.push_back({out[d], fa, fb});
    }
    if (dims.empty()) dims.push_back({1, true, true});
    // Element strides of a and b in each merged dimension (0 where it broadcasts).
    size_t k = dims.size();
    std::vector<int64_t> sa(k), sb(k);
    int64_t na = 1, nb = 1;
    for (size_t d = k; d-- > 0;) {
      sa[d] = dims[d].fa ? na : 0;
      sb[d] = dims[d].fb ? nb : 0;
      if (dims[d].fa) na *= dims[d].n;
      if (dims[d].fb) nb *= dims[d].n;
    }
    const float* a = ta.data<float>();
    const float* b = tb.data<float>();
    float* y = ty.data<float>();
    int64_t n_inner = dims[k - 1].n, outer = ty.size() / n_inner;
    std::vector<int64_t> idx(k, 0);
    int64_t oa = 0, ob = 0;
    for (int64_t o = 0; o < outer; ++o) {
      inner<op>(a + oa, sa[k - 1], b + ob, sb[k - 1], y + o * n_inner, n_inner);
      for (size_t d = k - 1; d-- > 0;) {  // odometer over the outer dimensions
        oa += sa[d];
        ob += sb[d];
        if (++idx[d] < dims[d].n) break;
        oa -= sa[d] * dims[d].n;
        ob -= sb[d] * dims[d].n;
        idx[d] = 0;
      }
    }
  }

  BinaryOp op_;
  std::string label_;
};

}  // namespace

std::unique_ptr<FastKernel> make_binary_kernel(const FastKernelRequest& r) {
  const Node& n = *r.node;
  static const std::pair<const char*, BinaryOp> ops[] = {
      {"Add", BinaryOp::Add}, {"Sub", BinaryOp::Sub}, {"Mul", BinaryOp::Mul}, {"Div", BinaryOp::Div}};
  if (r.version < 7 || n.inputs.size() != 2 || n.outputs.size() != 1) return nullptr;
  if (!input_is_float(r, 0) || !input_is_float(r, 1)) return nullptr;
  for (const auto& [name, op] : ops)
    if (n.op_type == name) return std::make_unique<BinaryKernel>(op, n.label());
  return nullptr;
}

}  // namespace sonnx::fast
