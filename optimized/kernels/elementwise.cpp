// Float32 Add, Sub, Mul and Div with multidirectional broadcasting (opset 7 on; the older forms
// with the `broadcast` attribute stay on the reference). The output's dimensions are walked with
// runs of dimensions that broadcast alike merged into one, so a per-channel scale of an NCHW tensor
// is one loop over C of contiguous H*W blocks. Results are bitwise those of the reference: one
// IEEE float operation per element, which computing in double and rounding once also gives.
// After a convolution the operands may be in its channel-blocked layout (blocked_layout.h): then,
// when the other operand has the same layout and shape, broadcasts per channel or per (n, c), or
// is plain of the same shape, the result is computed and kept in that layout.
// Float16 operands (both float16) are widened to float a chunk at a time and the float result
// rounded once to float16, as the reference computes them: bitwise its results too.
#include <algorithm>
#include <optional>
#include <string>
#include <type_traits>

#include "blocked_layout.h"
#include "fast_kernel.h"
#include "half_convert.h"
#include "onednn_common.h"
#include "sonnx/errors.h"
#include "omp_sync.h"

namespace sonnx::fast {

namespace {

enum class BinaryOp { Add, Sub, Mul, Div };

// Floats per OpenMP task: below this a loop is too short to be worth waking threads.
constexpr int64_t kGrain = int64_t{1} << 14;

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

// Floats per chunk of a float16 row (three chunks on the stack).
constexpr int64_t kHalfChunk = 512;

// inner() on float16 operands: chunks widened to float (exactly), computed by inner() and rounded
// once to float16, which is the reference's float operation rounded to float16.
template <BinaryOp op>
void inner_half(const float16_t* a, int64_t sa, const float16_t* b, int64_t sb, float16_t* out, int64_t n) {
  float fa[kHalfChunk], fb[kHalfChunk], fy[kHalfChunk];
  if (!sa) fa[0] = static_cast<float>(*a);
  if (!sb) fb[0] = static_cast<float>(*b);
  for (int64_t i = 0; i < n; i += kHalfChunk) {
    int64_t m = std::min(kHalfChunk, n - i);
    if (sa) half_to_float(a + i, fa, m);
    if (sb) half_to_float(b + i, fb, m);
    inner<op>(fa, sa, fb, sb, fy, m);
    float_to_half(fy, out + i, m);
  }
}

// inner() for the element type T (float or float16_t).
template <BinaryOp op, class T>
void inner_of(const T* a, int64_t sa, const T* b, int64_t sb, T* out, int64_t n) {
  if constexpr (std::is_same_v<T, float>) inner<op>(a, sa, b, sb, out, n);
  else inner_half<op>(a, sa, b, sb, out, n);
}

// How a channel-blocked operand (`main`) pairs with the other one.
struct BlockedPlan {
  enum class Other { Same, PerChannel, Plain } other = Other::Same;
  size_t main = 0;
  ChannelBlocks b;
  int64_t on = 0, oc = 0;  // PerChannel: the other's element (n, c) is at n * on + c * oc
};

// y = x op o (or o op x when `swapped`) over the blocked buffer of x, block B (Bc: 0 for
// channels-last, B = C); padding lanes become zero.
template <BinaryOp op, bool swapped, int64_t Bc>
void blocked_loop(const BlockedPlan& p, const float* x, const float* o, float* y) {
  auto f = [](float a, float b) { return swapped ? apply<op>(b, a) : apply<op>(a, b); };
  const int64_t B = Bc ? Bc : p.b.block, S = p.b.spatial, C = p.b.c, blocks = p.b.blocks;
  // Block q (image n, channels c0..c0+B-1) over spatial positions [s0, s1).
  auto body = [&](int64_t q, int64_t s0, int64_t s1) {
    int64_t n = q / blocks, c0 = (q % blocks) * B, lanes = std::min(B, C - c0);
    const float* xq = x + q * S * B;
    float* yq = y + q * S * B;
    if (p.other == BlockedPlan::Other::Same) {
      const float* oq = o + q * S * B;
      for (int64_t i = s0 * B; i < s1 * B; ++i) yq[i] = f(xq[i], oq[i]);
    } else if (p.other == BlockedPlan::Other::PerChannel) {
      float v16[Bc ? Bc : 1] = {};
      std::vector<float> vc(Bc ? 0 : static_cast<size_t>(B));
      float* v = Bc ? v16 : vc.data();
      for (int64_t l = 0; l < lanes; ++l) v[l] = o[n * p.on + (c0 + l) * p.oc];
      for (int64_t s = s0; s < s1; ++s)
        for (int64_t l = 0; l < B; ++l) yq[s * B + l] = f(xq[s * B + l], v[l]);
    } else {
      for (int64_t s = s0; s < s1; ++s)
        for (int64_t l = 0; l < lanes; ++l) yq[s * B + l] = f(xq[s * B + l], o[((n * C) + c0 + l) * S + s]);
    }
    if (lanes < B)
      for (int64_t s = s0; s < s1; ++s)
        for (int64_t l = lanes; l < B; ++l) yq[s * B + l] = 0.0f;
  };
  // Tasks of about kGrain floats: a block's spatial positions are split too, so that a
  // channels-last buffer (one block) is shared by the threads, whose caches hold the halves the
  // convolution before wrote. Small buffers run without an OpenMP region.
  const int64_t per_task = std::max<int64_t>(1, kGrain / B), chunks = (S + per_task - 1) / per_task;
  const int64_t tasks = p.b.n * blocks * chunks;
  auto task = [&](int64_t t) {
    int64_t s0 = (t % chunks) * per_task;
    body(t / chunks, s0, std::min(S, s0 + per_task));
  };
  if (p.b.floats() > kGrain) {
    SONNX_OMP_FORK(sync);
#pragma omp parallel for schedule(static)
    for (int64_t t = 0; t < tasks; ++t) {
      SONNX_OMP_TASK(sync);
      task(t);
    }
  } else {
    for (int64_t t = 0; t < tasks; ++t) task(t);
  }
}

template <BinaryOp op>
void blocked_compute(const BlockedPlan& p, const float* x, const float* o, float* y) {
  bool sw = p.main == 1;
  if (p.b.block == 16 && p.b.blocks > 1) sw ? blocked_loop<op, true, 16>(p, x, o, y) : blocked_loop<op, false, 16>(p, x, o, y);
  else if (p.b.block == 8 && p.b.blocks > 1) sw ? blocked_loop<op, true, 8>(p, x, o, y) : blocked_loop<op, false, 8>(p, x, o, y);
  else sw ? blocked_loop<op, true, 0>(p, x, o, y) : blocked_loop<op, false, 0>(p, x, o, y);
}

// One kernel per element type (Float or Float16, both operands), as declared when it was made.
class BinaryKernel final : public FastKernel {
 public:
  BinaryKernel(BinaryOp op, std::string label, int64_t version, DType elem)
      : op_(op), label_(std::move(label)), version_(version), elem_(elem) {}

  std::vector<Shape> output_shapes(const std::vector<const Tensor*>& in) const override {
    if (in.size() != 2 || !in[0] || !in[1]) throw Trap(label_ + ": needs two inputs");
    // The executor checks X's type only; operands of two types trap as in the reference.
    if (in[0]->dtype() != in[1]->dtype()) fail(label_, version_, different_types(*in[0], *in[1]));
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
    if (in[0]->dtype() == DType::Float16) return run_typed<float16_t>(*in[0], *in[1], *out[0]);
    run_typed<float>(*in[0], *in[1], *out[0]);
  }

  std::string name() const override { return "fast:binary"; }

  bool takes_float16() const override { return elem_ == DType::Float16; }
  DType output_dtype(const std::vector<const Tensor*>& in, size_t) const override {
    return arg(in, 0) && in[0]->dtype() == DType::Float16 ? DType::Float16 : DType::Float;
  }

  // Passes a layout through: blocked inputs are taken only when the result may be written
  // blocked too (choose_layouts asks the readers first), else the producer writes plain itself.
  // Blocked layouts are float32 only.
  bool can_produce_blocked_output() const override { return elem_ == DType::Float; }
  bool accepts_layout(size_t i) const override { return blocked_out_ && i < 2; }
  void produce_blocked_output() override { blocked_out_ = true; }

  int64_t output_bytes(const std::vector<const Tensor*>& in, const std::vector<Layout>& layouts, size_t k) const override {
    if (auto p = blocked_plan(in, layouts)) return p->b.floats() * static_cast<int64_t>(sizeof(float));
    if (output_dtype(in, k) == DType::Float16)
      return shape_size(output_shapes(in).at(k)) * static_cast<int64_t>(sizeof(float16_t));
    return FastKernel::output_bytes(in, layouts, k);
  }

  void run_with_layouts(const std::vector<const Tensor*>& in, const std::vector<Layout>& layouts,
                        const std::vector<Tensor*>& out, std::vector<Layout>& out_layouts) const override {
    out_layouts.assign(out.size(), nullptr);
    if (std::none_of(layouts.begin(), layouts.end(), [](Layout l) { return l != nullptr; })) return run(in, out);
    if (auto p = blocked_plan(in, layouts)) {
      const float* x = in[p->main]->data<float>();
      const float* o = in[1 - p->main]->data<float>();
      float* y = out[0]->data<float>();
      switch (op_) {
        case BinaryOp::Add: blocked_compute<BinaryOp::Add>(*p, x, o, y); break;
        case BinaryOp::Sub: blocked_compute<BinaryOp::Sub>(*p, x, o, y); break;
        case BinaryOp::Mul: blocked_compute<BinaryOp::Mul>(*p, x, o, y); break;
        case BinaryOp::Div: blocked_compute<BinaryOp::Div>(*p, x, o, y); break;
      }
      out_layouts[0] = layouts[p->main];
      return;
    }
    // Any other pairing (or a plain result wanted): plain copies of the blocked operands.
    std::vector<Tensor> plain;
    plain.reserve(2);
    std::vector<const Tensor*> args(in);
    for (size_t k = 0; k < in.size() && k < layouts.size(); ++k)
      if (layouts[k]) args[k] = &plain.emplace_back(layout_to_plain(*in[k], layouts[k]));
    run(args, out);
  }

 private:
  // The blocked computation for these operands when the result is to stay blocked.
  std::optional<BlockedPlan> blocked_plan(const std::vector<const Tensor*>& in, const std::vector<Layout>& layouts) const {
    if (!blocked_out_ || in.size() != 2 || layouts.size() != 2 || !in[0] || !in[1]) return std::nullopt;
    for (size_t m = 0; m < 2; ++m) {
      auto b = channel_blocks(in[m]->shape(), layouts[m]);
      if (!b) continue;
      const Shape& xs = in[m]->shape();
      const Tensor& o = *in[1 - m];
      Layout ol = layouts[1 - m];
      BlockedPlan p;
      p.main = m;
      p.b = *b;
      size_t r = xs.size();
      if (o.shape().size() > r) continue;
      Shape od(r - o.shape().size(), 1);  // the other's dimensions aligned to r
      od.insert(od.end(), o.shape().begin(), o.shape().end());
      bool per_nc = (od[0] == 1 || od[0] == xs[0]) && (od[1] == 1 || od[1] == xs[1]);
      for (size_t d = 2; d < r; ++d) per_nc = per_nc && od[d] == 1;
      p.other = BlockedPlan::Other::PerChannel;
      p.oc = od[1] != 1 ? 1 : 0;
      if (ol) {
        if (o.shape() == xs && same_layout(ol, layouts[m])) {
          p.other = BlockedPlan::Other::Same;
          return p;
        }
        // A blocked [N, C, 1, ...] (a Conv on pooled values): element (n, c) is at n * padded C + c.
        auto ob = channel_blocks(o.shape(), ol);
        if (!ob || o.shape().size() != r || !per_nc) continue;
        p.on = od[0] != 1 ? ob->blocks * ob->block : 0;
        return p;
      }
      if (o.shape() == xs) {
        p.other = BlockedPlan::Other::Plain;
        return p;
      }
      if (!per_nc) continue;
      p.on = od[0] != 1 ? od[1] : 0;
      return p;
    }
    return std::nullopt;
  }

  // The reference's message for operands of two element types (Add's names neither type).
  std::string different_types(const Tensor& a, const Tensor& b) const {
    if (op_ == BinaryOp::Add) return "inputs have different element types";
    return "inputs have different element types (" + std::string(dtype_name(a.dtype())) + " and " +
           std::string(dtype_name(b.dtype())) + ")";
  }

  template <class T>
  void run_typed(const Tensor& a, const Tensor& b, Tensor& y) const {
    switch (op_) {
      case BinaryOp::Add: return compute<BinaryOp::Add, T>(a, b, y);
      case BinaryOp::Sub: return compute<BinaryOp::Sub, T>(a, b, y);
      case BinaryOp::Mul: return compute<BinaryOp::Mul, T>(a, b, y);
      case BinaryOp::Div: return compute<BinaryOp::Div, T>(a, b, y);
    }
  }

  template <BinaryOp op, class T>
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
    const T* a = ta.data<T>();
    const T* b = tb.data<T>();
    T* y = ty.data<T>();
    int64_t n_inner = dims[k - 1].n, outer = ty.size() / n_inner;
    // Rows [o0, o1) of the output, the operands' offsets walked by an odometer over the outer
    // dimensions; long outputs are split over threads in rows of about kGrain floats.
    auto rows = [&](int64_t o0, int64_t o1) {
      std::vector<int64_t> idx(k, 0);
      int64_t oa = 0, ob = 0;
      for (size_t d = k - 1, rest = static_cast<size_t>(o0); d-- > 0;) {
        idx[d] = static_cast<int64_t>(rest % static_cast<size_t>(dims[d].n));
        rest /= static_cast<size_t>(dims[d].n);
        oa += idx[d] * sa[d];
        ob += idx[d] * sb[d];
      }
      for (int64_t o = o0; o < o1; ++o) {
        inner_of<op, T>(a + oa, sa[k - 1], b + ob, sb[k - 1], y + o * n_inner, n_inner);
        for (size_t d = k - 1; d-- > 0;) {
          oa += sa[d];
          ob += sb[d];
          if (++idx[d] < dims[d].n) break;
          oa -= sa[d] * dims[d].n;
          ob -= sb[d] * dims[d].n;
          idx[d] = 0;
        }
      }
    };
    if (ty.size() <= kGrain) return rows(0, outer);
    if (outer == 1) {  // one long row (same shapes, or a scalar operand): split it
      const int64_t sa1 = sa[k - 1], sb1 = sb[k - 1], tasks = (n_inner + kGrain - 1) / kGrain;
      SONNX_OMP_FORK(sync);
#pragma omp parallel for schedule(static)
      for (int64_t t = 0; t < tasks; ++t) {
        SONNX_OMP_TASK(sync);
        int64_t i0 = t * kGrain;
        inner_of<op, T>(a + i0 * sa1, sa1, b + i0 * sb1, sb1, y + i0, std::min(kGrain, n_inner - i0));
      }
      return;
    }
    int64_t per_task = std::max<int64_t>(1, kGrain / n_inner), tasks = (outer + per_task - 1) / per_task;
    SONNX_OMP_FORK(sync);
#pragma omp parallel for schedule(static)
    for (int64_t t = 0; t < tasks; ++t) {
      SONNX_OMP_TASK(sync);
      rows(t * per_task, std::min(outer, (t + 1) * per_task));
    }
  }

  BinaryOp op_;
  std::string label_;
  int64_t version_;
  DType elem_;                // both operands' element type: Float or Float16
  bool blocked_out_ = false;  // writes its result blocked where the operands allow
};

}  // namespace

namespace {
// The kernel of binary operator `op`, which the node's record names (from version 7: the ones
// before broadcast only with an attribute).
template <BinaryOp op>
std::unique_ptr<FastKernel> make_binary(const FastKernelRequest& r) {
  const Node& n = *r.node;
  if (n.inputs.size() != 2 || n.outputs.size() != 1) return nullptr;
  const bool both_float = input_is_float(r, 0) && input_is_float(r, 1);
  if (!both_float && !(input_is_half(r, 0) && input_is_half(r, 1))) return nullptr;  // mixed types: the reference traps
  const DType elem = both_float ? DType::Float : DType::Float16;
  return std::make_unique<BinaryKernel>(op, n.label(), r.version, elem);
}
}  // namespace

SONNX_FAST_KERNEL("", "Add", (7, 13, 14), make_binary<BinaryOp::Add>);
SONNX_FAST_KERNEL("", "Sub", (7, 13, 14), make_binary<BinaryOp::Sub>);
SONNX_FAST_KERNEL("", "Mul", (7, 13, 14), make_binary<BinaryOp::Mul>);
SONNX_FAST_KERNEL("", "Div", (7, 13, 14), make_binary<BinaryOp::Div>);

}  // namespace sonnx::fast
