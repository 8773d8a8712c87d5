// ConvTranspose (versions 1, 11, 22) on oneDNN's deconvolution, float32, 1-D/2-D/3-D, any group,
// with constant weights. The output lengths and pads are resolved by the reference's own reader and
// rule (support::TransposedAttrs); oneDNN then computes
//   dst = (src - 1)·s + (k - 1)·d + 1 − pad_l − pad_r,
// so the output padding and a requested output_shape become a smaller (possibly negative) pad_r.
// The plain ONNX weights [C, M/group, k...] are described to oneDNN with strides, not copied.
// Measured with oneDNN 2.6 at one thread on AVX-512 (PP-OCR det's 2x2 stride-2 upsamplings): with
// fewer than 16 output channels a blocked layout is mostly padding (24 -> 1 channels, 320 -> 640:
// 4.6 ms blocked, 0.86 ms plain, before the reorders), so such outputs stay plain; and a bias given
// to the primitive took 2-4 times as long (1.74 against 0.86 ms), so it is added afterwards.
#include <cstring>
#include <map>
#include <mutex>
#include <unordered_map>

#include "onednn_common.h"
#include "reference/ops/params/conv.h"
#include "omp_sync.h"

namespace sonnx::fast {
namespace {

using dnnl::memory;

struct DeconvEntry {
  Shape out_shape;
  dnnl::deconvolution_forward::primitive_desc pd;
  dnnl::deconvolution_forward prim;
  memory weights;  // in pd's layout
  dnnl::reorder src_in, dst_out;
  bool reorder_src = false, reorder_dst = false;
};

class DeconvKernel final : public FastKernel {
 public:
  std::string label;
  int64_t version = 0;
  Shape w_shape;  // [C, M/group, k...]
  int64_t group = 1;
  support::TransposedAttrs attrs;   // read by the reference's reader
  const Tensor* weights = nullptr;  // the model's constant W (outlives the compiled graph's kernels)
  bool has_bias = false;
  mutable std::mutex mu;
  mutable std::map<Shape, std::shared_ptr<DeconvEntry>> cache;

  std::string name() const override { return "onednn:deconv"; }
  size_t rank() const { return w_shape.size() - 2; }
  int64_t M() const { return w_shape[1] * group; }

  // Output spatial lengths and begin pads for spatial input `in`, as the reference resolves them.
  void resolve(const Shape& in, std::vector<int64_t>& out, std::vector<int64_t>& pad_begin) const {
    size_t r = rank();
    out.assign(r, 0);
    pad_begin.assign(r, 0);
    for (size_t i = 0; i < r; ++i)
      if (std::string why = attrs.axis(i, in[i], w_shape[i + 2], version, out[i], pad_begin[i]); !why.empty())
        fail(label, version, why);
  }

  std::vector<Shape> output_shapes(const std::vector<const Tensor*>& in) const override {
    const Tensor* x = arg(in, 0);
    const Tensor* w = arg(in, 1);
    if (!x || !w) fail(label, version, "inputs X and W are required");
    if (x->dtype() != w->dtype()) fail(label, version, "X and W have different element types");
    if (x->rank() < 3)
      fail(label, version, "input X must have rank at least 3 (N, C, spatial...), got " + shape_str(x->shape()));
    if (x->rank() != w->rank())
      fail(label, version, "weight W " + shape_str(w->shape()) + " must have the rank of X " + shape_str(x->shape()));
    if (w->dim(0) != x->dim(1))
      fail(label, version,
           "weight W " + shape_str(w->shape()) + " must have C=" + std::to_string(x->dim(1)) + " as first dimension");
    if (has_bias) {
      const Tensor* b = arg(in, 2);
      if (!b || b->dtype() != x->dtype()) fail(label, version, "bias B has a different element type from X");
      if (b->size() != M())
        fail(label, version, "bias B has " + std::to_string(b->size()) + " elements, expected M=" + std::to_string(M()));
    }
    std::vector<int64_t> out, pb;
    resolve(Shape(x->shape().begin() + 2, x->shape().end()), out, pb);
    Shape y = {x->dim(0), M()};
    y.insert(y.end(), out.begin(), out.end());
    shape_size(y);
    return {y};
  }

  std::shared_ptr<DeconvEntry> build(const Shape& x) const {
    auto e = std::make_shared<DeconvEntry>();
    size_t r = rank();
    std::vector<int64_t> out, pb;
    resolve(Shape(x.begin() + 2, x.end()), out, pb);
    e->out_shape = {x[0], M()};
    e->out_shape.insert(e->out_shape.end(), out.begin(), out.end());
    memory::dims s(r), d(r), pl(r), pr(r);
    for (size_t i = 0; i < r; ++i) {
      s[i] = attrs.strides[i];
      d[i] = attrs.dilations[i] - 1;
      pl[i] = pb[i];
      pr[i] = (x[i + 2] - 1) * attrs.strides[i] + (w_shape[i + 2] - 1) * attrs.dilations[i] + 1 - pb[i] - out[i];
    }
    const auto& eng = cpu_engine();
    memory::desc src_plain = plain_desc(x), dst_plain = plain_desc(e->out_shape);
    bool plain = M() < 16;
    memory::desc any_src(to_dims(x), memory::data_type::f32, memory::format_tag::any);
    memory::desc any_dst(to_dims(e->out_shape), memory::data_type::f32, memory::format_tag::any);
    memory::desc w_plain = plain_weights_desc();
    memory::desc w_any(w_plain.dims(), memory::data_type::f32, memory::format_tag::any);
    dnnl::deconvolution_forward::desc desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::deconvolution_direct,
                                           plain ? src_plain : any_src, w_any, memory::desc(), plain ? dst_plain : any_dst, s, d,
                                           pl, pr);
    e->pd = dnnl::deconvolution_forward::primitive_desc(desc, user_scratchpad_attr(), eng);
    e->prim = dnnl::deconvolution_forward(e->pd);
    e->reorder_src = e->pd.src_desc() != src_plain;
    e->reorder_dst = e->pd.dst_desc() != dst_plain;
    if (e->reorder_src) e->src_in = make_reorder(src_plain, e->pd.src_desc());
    if (e->reorder_dst) e->dst_out = make_reorder(e->pd.dst_desc(), dst_plain);
    e->weights = memory(e->pd.weights_desc(), eng);
    memory wsrc(w_plain, eng, const_cast<std::byte*>(weights->raw()));
    run_reorder(make_reorder(w_plain, e->weights.get_desc()), wsrc, e->weights);
    thread_stream().wait();
    return e;
  }

  // W [C, M/g, k...] as oneDNN's deconvolution weights: dims [M, C, k...] (or [g, M/g, C/g, k...])
  // with the strides of the ONNX layout.
  memory::desc plain_weights_desc() const {
    size_t r = rank();
    int64_t C = w_shape[0], Mg = w_shape[1], Cg = C / group, kplane = 1;
    memory::dims k_strides(r);
    for (size_t i = r; i-- > 0;) {
      k_strides[i] = kplane;
      kplane *= w_shape[i + 2];
    }
    memory::dims dims, st;
    if (group == 1) {
      dims = {Mg, C};
      st = {kplane, Mg * kplane};
    } else {
      dims = {group, Mg, Cg};
      st = {Cg * Mg * kplane, kplane, Mg * kplane};
    }
    dims.insert(dims.end(), w_shape.begin() + 2, w_shape.end());
    st.insert(st.end(), k_strides.begin(), k_strides.end());
    return memory::desc(dims, memory::data_type::f32, st);
  }

  std::shared_ptr<DeconvEntry> entry_for(const Shape& x) const {
    std::lock_guard<std::mutex> lock(mu);
    auto it = cache.find(x);
    if (it != cache.end()) return it->second;
    auto e = build(x);
    cache.emplace(x, e);
    return e;
  }

  void run(const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) const override {
    const Tensor& x = *arg(in, 0);
    Tensor& y = *out.at(0);
    if (y.size() == 0) return;
    const float* b = has_bias ? arg(in, 2)->data<float>() : nullptr;
    if (x.size() == 0) {  // no input reaches the output: Y = B
      int64_t plane = y.size() / (y.dim(0) * M());
      float* py = y.data<float>();
      for (int64_t i = 0; i < y.size(); ++i) py[i] = b ? b[(i / plane) % M()] : 0.0f;
      return;
    }
    std::shared_ptr<DeconvEntry> e = entry_for(x.shape());
    const auto& eng = cpu_engine();
    dnnl::stream& s = thread_stream();
    memory src(plain_desc(x.shape()), eng, const_cast<float*>(x.data<float>()));
    memory dst(plain_desc(y.shape()), eng, y.data<float>());
    if (e->reorder_src) {
      memory blocked(e->pd.src_desc(), eng, thread_scratch(0, e->pd.src_desc().get_size() / sizeof(float) + 1));
      run_reorder(e->src_in, src, blocked);
      src = blocked;
    }
    memory out_mem = e->reorder_dst
                         ? memory(e->pd.dst_desc(), eng, thread_scratch(1, e->pd.dst_desc().get_size() / sizeof(float) + 1))
                         : dst;
    std::unordered_map<int, memory> args{{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, e->weights}, {DNNL_ARG_DST, out_mem}};
    if (memory sp = thread_scratchpad(e->pd.scratchpad_desc())) args[DNNL_ARG_SCRATCHPAD] = sp;
    e->prim.execute(s, args);
    if (e->reorder_dst) run_reorder(e->dst_out, out_mem, dst);
    s.wait();
    if (b) add_bias(b, y);
  }

  // Y[n, m, ...] += B[m] on the plain output.
  void add_bias(const float* b, Tensor& y) const {
    int64_t planes = y.dim(0) * M(), plane = y.size() / planes;
    float* py = y.data<float>();
    SONNX_OMP_FORK(sync);
#pragma omp parallel for schedule(static) if (y.size() > (int64_t{1} << 16))
    for (int64_t p = 0; p < planes; ++p) {
      SONNX_OMP_TASK(sync);
      float v = b[p % M()];
      for (int64_t i = 0; i < plane; ++i) py[p * plane + i] += v;
    }
  }
};

}  // namespace

std::unique_ptr<FastKernel> make_conv_transpose_kernel(const FastKernelRequest& r) {
  const Node& node = *r.node;
  if (node.outputs.size() != 1 || node.inputs.size() < 2 || node.inputs.size() > 3) return nullptr;
  if (!has_node_input(node, 0) || !input_is_float(r, 0) || !input_is_float(r, 1)) return nullptr;
  const Tensor* w = constant_input(r, 1);
  if (!w || w->rank() < 3 || w->rank() > 5) return nullptr;
  auto k = std::make_unique<DeconvKernel>();
  k->label = node.label();
  k->version = r.version;
  k->w_shape = w->shape();
  k->weights = w;
  k->has_bias = has_node_input(node, 2);
  if (k->has_bias && !input_is_float(r, 2)) return nullptr;
  size_t rank = k->rank();
  std::optional<ConvParams> params = try_params<ConvParams>(node, r.version);
  if (!params || k->w_shape[0] % params->group != 0 || !params->check_kernel(k->w_shape).empty()) return nullptr;
  k->group = params->group;
  std::optional<support::TransposedAttrs> attrs = try_read(node, [&](const AttrReader& g) {
    return support::transposed_attrs(g, rank);
  });
  if (!attrs) return nullptr;  // the reference reports them
  k->attrs = std::move(*attrs);
  // Prepare the primitive now when X's shape is known (oneDNN may refuse a configuration: decline).
  if (std::optional<Shape> xs = static_shape(r, 0)) {
    if (xs->size() != k->w_shape.size() || (*xs)[1] != k->w_shape[0] || shape_size(*xs) == 0) return nullptr;
    try {
      k->cache.emplace(*xs, k->build(*xs));
    } catch (const Trap&) {
      return nullptr;
    }
  }
  return k;
}

SONNX_FAST_KERNEL("", "ConvTranspose", (1, 11, 22), make_conv_transpose_kernel);

}  // namespace sonnx::fast
