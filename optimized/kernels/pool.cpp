// MaxPool, AveragePool (1-D and 2-D windows) and GlobalAveragePool, float32, as direct loops
// parallel over the (n, c) planes. oneDNN's pooling differs from the reference at the edges
// (its max ignores NaN, an all-padding window gives -FLT_MAX where the reference traps, and its
// include-padding average divides by the kernel size even where ceil_mode extends the window
// past the padding), while these loops follow reference/ops exactly. One exception: MaxPool on
// finite data (checked per call) runs oneDNN's max pooling, which then selects exactly the
// reference's element (a maximum is exact, and windows with no input were refused before).
// Relies on ops/ops.mlw MaxPool.window_start: MaxPool windows start before the end padding, in both ceil modes.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <unordered_map>

#include "blocked_layout.h"
#include "onednn_common.h"
#include "reference/ops/params/pool.h"
#include "simd_clones.h"
#include "omp_sync.h"

namespace sonnx::fast {
namespace {

// The input positions a window covers along one axis, for every output index.
struct AxisTaps {
  std::vector<int64_t> begin;         // per output index: offset into `idx`
  std::vector<int64_t> idx;           // input indices
  std::vector<int64_t> padded_count;  // kernel positions inside [-pad_begin, in + pad_end)
  int64_t count(int64_t o) const { return begin[o + 1] - begin[o]; }
};

AxisTaps axis_taps(int64_t in, int64_t out, int64_t k, int64_t s, int64_t d, int64_t pb, int64_t pe) {
  AxisTaps t;
  t.begin.push_back(0);
  for (int64_t o = 0; o < out; ++o) {
    int64_t padded = 0;
    for (int64_t j = 0; j < k; ++j) {
      int64_t i = o * s - pb + j * d;
      if (i >= 0 && i < in) t.idx.push_back(i);
      if (i >= -pb && i < in + pe) ++padded;
    }
    t.begin.push_back(static_cast<int64_t>(t.idx.size()));
    t.padded_count.push_back(padded);
  }
  return t;
}

class PoolKernel final : public FastKernel {
 public:
  enum class Kind { Max, Average } kind = Kind::Max;
  std::string label;
  int64_t version = 0;
  KernelWindow w;
  bool include_pad = false;

  std::string name() const override { return kind == Kind::Max ? "fast:maxpool" : "fast:averagepool"; }

  struct OneDnnMax {
    dnnl::pooling_v2_forward::primitive_desc pd;
    dnnl::pooling_v2_forward prim;
    dnnl::memory::desc src, dst;  // dst: the layout token of a blocked output
  };
  mutable std::mutex mu;
  mutable std::map<std::pair<Shape, Layout>, std::shared_ptr<OneDnnMax>> onednn;
  bool out_blocked = false;

  // oneDNN max pooling for input shape x in `layout` (null: plain), or null when oneDNN has none.
  // A blocked input gives an output in the layout oneDNN picks for it (the input's). The right
  // padding is what makes oneDNN's floor formula give the reference's output length (ceil_mode
  // included); oneDNN's max ignores padding, as the reference's window does.
  std::shared_ptr<OneDnnMax> onednn_max(const Shape& x, const Window& g, Layout layout = nullptr) const {
    std::lock_guard lock(mu);
    auto it = onednn.find({x, layout});
    if (it != onednn.end()) return it->second;
    std::shared_ptr<OneDnnMax> e;
    try {
      size_t r = w.rank;
      dnnl::memory::dims st(r), k(r), dl(r), pl(r), pr(r);
      Shape out = {x[0], x[1]};
      for (size_t i = 0; i < r; ++i) {
        int64_t keff = (w.kernel[i] - 1) * w.dilations[i] + 1;
        st[i] = w.strides[i], k[i] = w.kernel[i], dl[i] = w.dilations[i] - 1, pl[i] = g.pad_begin[i];
        pr[i] = std::max<int64_t>(g.pad_end[i], (g.out[i] - 1) * w.strides[i] + keff - g.in[i] - g.pad_begin[i]);
        out.push_back(g.out[i]);
      }
      auto made = std::make_shared<OneDnnMax>();
      made->src = layout ? *static_cast<const dnnl::memory::desc*>(layout) : plain_desc(x);
      dnnl::memory::desc dst = layout ? dnnl::memory::desc(out, dnnl::memory::data_type::f32, dnnl::memory::format_tag::any)
                                      : plain_desc(out);
      dnnl::pooling_v2_forward::desc d(dnnl::prop_kind::forward_inference, dnnl::algorithm::pooling_max, made->src, dst, st, k,
                                       dl, pl, pr);
      made->pd = dnnl::pooling_v2_forward::primitive_desc(d, user_scratchpad_attr(), cpu_engine());
      made->prim = dnnl::pooling_v2_forward(made->pd);
      made->dst = made->pd.dst_desc();
      e = made;
    } catch (const dnnl::error&) {
      e = nullptr;  // the loops below serve it
    }
    onednn.emplace(std::make_pair(x, layout), e);
    return e;
  }

  static void run_onednn(const OneDnnMax& e, const float* px, float* py) {
    const auto& eng = cpu_engine();
    dnnl::stream& s = thread_stream();
    std::unordered_map<int, dnnl::memory> args{{DNNL_ARG_SRC, dnnl::memory(e.src, eng, const_cast<float*>(px))},
                                               {DNNL_ARG_DST, dnnl::memory(e.dst, eng, py)}};
    if (dnnl::memory sp = thread_scratchpad(e.pd.scratchpad_desc())) args[DNNL_ARG_SCRATCHPAD] = sp;
    e.prim.execute(s, args);
    s.wait();
  }

  // MaxPool passes a Conv's blocked layout through (so the convolutions around it need no
  // reorders) when its readers take it; where oneDNN cannot serve the input, or it is not finite,
  // the input becomes a plain copy and the output is plain.
  bool can_produce_blocked_output() const override { return kind == Kind::Max; }
  bool accepts_layout(size_t i) const override { return i == 0 && out_blocked; }
  void produce_blocked_output() override { out_blocked = true; }

  std::shared_ptr<OneDnnMax> blocked_max(const Tensor& x, Layout layout) const {
    Window g;
    out_shape(x.shape(), &g);
    return onednn_max(x.shape(), g, layout);
  }

  int64_t output_bytes(const std::vector<const Tensor*>& in, const std::vector<Layout>& layouts, size_t k) const override {
    if (!layouts.empty() && layouts[0] && k == 0)
      if (auto e = blocked_max(*arg(in, 0), layouts[0]))
        return std::max(static_cast<int64_t>(e->dst.get_size()), FastKernel::output_bytes(in, {}, k));
    return FastKernel::output_bytes(in, layouts, k);
  }

  void run_with_layouts(const std::vector<const Tensor*>& in, const std::vector<Layout>& layouts,
                        const std::vector<Tensor*>& out, std::vector<Layout>& out_layouts) const override {
    out_layouts.assign(out.size(), nullptr);
    Layout l = layouts.empty() ? nullptr : layouts[0];
    if (!l) return run(in, out);
    const Tensor& x = *arg(in, 0);
    auto e = blocked_max(x, l);
    if (e && out.at(0)->size() > 0 && all_finite(x.data<float>(), static_cast<int64_t>(e->src.get_size() / sizeof(float)))) {
      run_onednn(*e, x.data<float>(), out[0]->data<float>());
      out_layouts[0] = &e->dst;
      return;
    }
    Tensor plain = layout_to_plain(x, l);
    run({&plain}, out);
  }

  Shape out_shape(const Shape& x, Window* win) const {
    if (x.size() < 3) fail(label, version, "input X must have rank at least 3 (N, C, spatial...), got " + shape_str(x));
    if (x.size() != w.rank + 2)
      fail(label, version, "kernel_shape has " + std::to_string(w.rank) + " values, expected " + std::to_string(x.size() - 2));
    Window g = window_for(w, Shape(x.begin() + 2, x.end()), label, version);
    // As the reference: no maximum, and no mean without the padding, over a window with no input.
    if (kind == Kind::Max || !include_pad)
      if (std::string why = support::any_window_without_input(g); !why.empty()) fail(label, version, why);
    Shape out = {x[0], x[1]};
    out.insert(out.end(), g.out.begin(), g.out.end());
    shape_size(out);
    if (win) *win = g;
    return out;
  }

  std::vector<Shape> output_shapes(const std::vector<const Tensor*>& in) const override {
    const Tensor* x = arg(in, 0);
    if (!x) fail(label, version, "input X is required");
    if (x->dtype() != DType::Float) fail(label, version, "this kernel takes float32 X");
    return {out_shape(x->shape(), nullptr)};
  }

  void run(const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) const override {
    const Tensor& x = *arg(in, 0);
    Tensor& y = *out.at(0);
    Window g;
    out_shape(x.shape(), &g);
    // View 1-D windows as 2-D with a height of one.
    int64_t ih = 1, iw = g.in[0], oh = 1, ow = g.out[0];
    AxisTaps th = axis_taps(1, 1, 1, 1, 1, 0, 0), tw;
    if (w.rank == 2) {
      ih = g.in[0];
      iw = g.in[1];
      oh = g.out[0];
      ow = g.out[1];
      th = axis_taps(ih, oh, w.kernel[0], w.strides[0], w.dilations[0], g.pad_begin[0], g.pad_end[0]);
      tw = axis_taps(iw, ow, w.kernel[1], w.strides[1], w.dilations[1], g.pad_begin[1], g.pad_end[1]);
    } else {
      tw = axis_taps(iw, ow, w.kernel[0], w.strides[0], w.dilations[0], g.pad_begin[0], g.pad_end[0]);
    }
    int64_t planes = x.dim(0) * x.dim(1);
    const float* px = x.data<float>();
    float* py = y.data<float>();
    bool is_max = kind == Kind::Max;
    if (is_max && y.size() > 0 && all_finite(px, x.size()))
      if (auto e = onednn_max(x.shape(), g)) return run_onednn(*e, px, py);
    bool inc = include_pad;
    SONNX_OMP_FORK(sync);
#pragma omp parallel for schedule(static)
    for (int64_t p = 0; p < planes; ++p) {
      SONNX_OMP_TASK(sync);
      const float* plane = px + p * ih * iw;
      float* dst = py + p * oh * ow;
      for (int64_t a = 0; a < oh; ++a) {
        const int64_t* hs = th.idx.data() + th.begin[a];
        int64_t nh = th.count(a);
        for (int64_t b = 0; b < ow; ++b) {
          const int64_t* ws = tw.idx.data() + tw.begin[b];
          int64_t nw = tw.count(b);
          if (is_max) {
            float best = -std::numeric_limits<float>::infinity();
            bool nan = false;
            for (int64_t u = 0; u < nh; ++u) {
              const float* row = plane + hs[u] * iw;
              for (int64_t v = 0; v < nw; ++v) {
                float val = row[ws[v]];
                nan |= val != val;
                best = val > best ? val : best;
              }
            }
            dst[a * ow + b] = nan ? std::numeric_limits<float>::quiet_NaN() : best;
          } else {
            double sum = 0;
            for (int64_t u = 0; u < nh; ++u) {
              const float* row = plane + hs[u] * iw;
              for (int64_t v = 0; v < nw; ++v) sum += static_cast<double>(row[ws[v]]);
            }
            double count = inc ? static_cast<double>(th.padded_count[a] * tw.padded_count[b]) : static_cast<double>(nh * nw);
            dst[a * ow + b] = static_cast<float>(sum / count);
          }
        }
      }
    }
  }
};

std::unique_ptr<FastKernel> make_pool(const FastKernelRequest& r, PoolKernel::Kind kind) {
  const Node& node = *r.node;
  if (node.inputs.size() != 1 || !has_node_input(node, 0)) return nullptr;
  if (node.outputs.empty() || node.outputs.size() > (kind == PoolKernel::Kind::Max ? 2u : 1u)) return nullptr;
  if (node.outputs.size() == 2 && !node.outputs[1].empty()) return nullptr;  // Indices wanted
  if (!input_is_float(r, 0)) return nullptr;
  std::optional<PoolParams> p = try_params<PoolParams>(node, r.version);
  if (!p) return nullptr;
  auto k = std::make_unique<PoolKernel>();
  k->kind = kind;
  k->label = node.label();
  k->version = r.version;
  k->w.kernel = p->kernel_shape;
  size_t rank = k->w.kernel.size();
  if (rank < 1 || rank > 2) return nullptr;
  if (auto xr = known_rank(r, 0); xr && *xr != rank + 2) return nullptr;
  if (!read_window_attrs(r, rank, k->w)) return nullptr;
  k->w.ceil_mode = p->ceil_mode;
  if (kind == PoolKernel::Kind::Average) {
    for (auto d : k->w.dilations)
      if (d != 1) return nullptr;  // this kernel has no dilated average
    k->include_pad = p->count_include_pad;
  }
  return k;
}

// GlobalAveragePool of a channel-blocked X with block B into plain Y [N, C]: per channel the
// plain loop's order and precision, B independent sums per pass.
template <int64_t B>
void sum_blocks(const ChannelBlocks& b, const float* px, float* py) {
  const int64_t S = b.spatial, C = b.c, blocks = b.blocks;
  SONNX_OMP_FORK(sync);
#pragma omp parallel for schedule(static) if (b.floats() > (int64_t{1} << 16))
  for (int64_t q = 0; q < b.n * blocks; ++q) {
    SONNX_OMP_TASK(sync);
    double sum[B] = {};
    const float* p = px + q * S * B;
    for (int64_t s = 0; s < S; ++s)
      for (int64_t l = 0; l < B; ++l) sum[l] += static_cast<double>(p[s * B + l]);
    int64_t n = q / blocks, c0 = (q % blocks) * B;
    for (int64_t l = 0; l < B && c0 + l < C; ++l) py[n * C + c0 + l] = static_cast<float>(sum[l] / static_cast<double>(S));
  }
}

// The same for channels-last X (one block of C channels): each spatial position's row of channels
// is read contiguously into per-channel sums (each channel still summed in spatial order), up to
// 256 channels per task.
SONNX_SIMD_CLONES void add_row(const float* p, double* sum, int64_t lanes) {
  for (int64_t l = 0; l < lanes; ++l) sum[l] += static_cast<double>(p[l]);
}

void sum_channels_last(const ChannelBlocks& b, const float* px, float* py) {
  constexpr int64_t kChunk = 256;
  const int64_t S = b.spatial, C = b.c, chunks = (C + kChunk - 1) / kChunk;
  SONNX_OMP_FORK(sync);
#pragma omp parallel for schedule(static) if (b.floats() > (int64_t{1} << 16))
  for (int64_t q = 0; q < b.n * chunks; ++q) {
    SONNX_OMP_TASK(sync);
    int64_t n = q / chunks, c0 = (q % chunks) * kChunk, lanes = std::min<int64_t>(kChunk, C - c0);
    double sum[kChunk] = {};
    const float* p = px + n * S * C + c0;
    for (int64_t s = 0; s < S; ++s) add_row(p + s * C, sum, lanes);
    for (int64_t l = 0; l < lanes; ++l) py[n * C + c0 + l] = static_cast<float>(sum[l] / static_cast<double>(S));
  }
}

class GlobalAveragePoolKernel final : public FastKernel {
 public:
  std::string label;
  int64_t version = 0;
  std::string name() const override { return "fast:globalaveragepool"; }

  std::vector<Shape> output_shapes(const std::vector<const Tensor*>& in) const override {
    const Tensor* x = arg(in, 0);
    if (!x) fail(label, version, "input X is required");
    if (x->dtype() != DType::Float) fail(label, version, "this kernel takes float32 X");
    if (x->rank() < 2) fail(label, version, "input X must have rank at least 2 (N, C, ...), got " + shape_str(x->shape()));
    Shape out(static_cast<size_t>(x->rank()), 1);
    out[0] = x->dim(0);
    out[1] = x->dim(1);
    return {out};
  }

  void run(const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) const override {
    const Tensor& x = *arg(in, 0);
    int64_t planes = x.dim(0) * x.dim(1);
    int64_t n = shape_size(Shape(x.shape().begin() + 2, x.shape().end()));
    const float* px = x.data<float>();
    float* py = out.at(0)->data<float>();
    SONNX_OMP_FORK(sync);
#pragma omp parallel for schedule(static)
    for (int64_t p = 0; p < planes; ++p) {
      SONNX_OMP_TASK(sync);
      const float* plane = px + p * n;
      double sum = 0;
      for (int64_t i = 0; i < n; ++i) sum += static_cast<double>(plane[i]);
      py[p] = static_cast<float>(sum / static_cast<double>(n));
    }
  }

  // A channel-blocked X (a Conv's output) is summed in place: each channel in the same order and
  // precision as above, a whole block of channels per pass. Y stays plain (it is tiny).
  bool accepts_layout(size_t i) const override { return i == 0; }
  void run_with_layouts(const std::vector<const Tensor*>& in, const std::vector<Layout>& layouts,
                        const std::vector<Tensor*>& out, std::vector<Layout>& out_layouts) const override {
    out_layouts.assign(out.size(), nullptr);
    Layout l = layouts.empty() ? nullptr : layouts[0];
    if (!l) return run(in, out);
    const Tensor& x = *arg(in, 0);
    auto b = channel_blocks(x.shape(), l);
    if (!b) {
      Tensor plain = layout_to_plain(x, l);
      return run({&plain}, out);
    }
    if (b->block == 16) sum_blocks<16>(*b, x.data<float>(), out.at(0)->data<float>());
    else if (b->block == 8) sum_blocks<8>(*b, x.data<float>(), out.at(0)->data<float>());
    else sum_channels_last(*b, x.data<float>(), out.at(0)->data<float>());
  }
};

}  // namespace

std::unique_ptr<FastKernel> make_max_pool_kernel(const FastKernelRequest& r) { return make_pool(r, PoolKernel::Kind::Max); }
std::unique_ptr<FastKernel> make_average_pool_kernel(const FastKernelRequest& r) {
  return make_pool(r, PoolKernel::Kind::Average);
}

std::unique_ptr<FastKernel> make_global_average_pool_kernel(const FastKernelRequest& r) {
  const Node& node = *r.node;
  if (node.inputs.size() != 1 || !has_node_input(node, 0) || node.outputs.size() != 1) return nullptr;
  if (!input_is_float(r, 0)) return nullptr;
  auto k = std::make_unique<GlobalAveragePoolKernel>();
  k->label = node.label();
  k->version = r.version;
  return k;
}

SONNX_FAST_KERNEL("", "MaxPool", (1, 8, 10, 11, 12, 22), make_max_pool_kernel);
SONNX_FAST_KERNEL("", "AveragePool", (1, 7, 10, 11, 19, 22), make_average_pool_kernel);
SONNX_FAST_KERNEL("", "GlobalAveragePool", (1, 22), make_global_average_pool_kernel);

}  // namespace sonnx::fast
