// Conv (versions 1 and 11) on oneDNN, float32, 1-D/2-D/3-D, any group, with optional fused
// sum (an extra last input added before the activation) and a fused activation (Activation in
// onednn_common.h: Relu, Clip, LeakyRelu, Elu, Sigmoid, Tanh, HardSigmoid, HardSwish, Swish).
//
// Exactness: oneDNN's eltwise post-ops turn NaN into 0 (its jit max/min), where the reference's
// Relu and Clip keep NaN. So when an activation is fused and any operand (X, W, B, the sum input)
// holds a non-finite value, the call runs a primitive without the activation post-op and applies
// the activation with the reference's loop afterwards. The transcendental post-ops (logistic,
// tanh, elu, swish) are oneDNN's approximations, within a few float ULP of the reference.
// Relies on ops/ops.mlw Conv.out_size_pos: Conv output sizes are positive when the window fits.
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <unordered_map>

#include "conv_layout.h"
#include "onednn_common.h"
#include "reference/ops/params/conv.h"

namespace sonnx::fast {
namespace {

using dnnl::memory;
using Layout = FastKernel::Layout;

struct ConvEntry {
  Shape in_shape, out_shape;
  Window win;
  dnnl::convolution_forward::primitive_desc pd;
  dnnl::convolution_forward prim;
  memory weights;  // constant weights in pd's layout (empty otherwise); may be the kernel's master
  bool reorder_src = false, reorder_dst = false;
  memory::desc dst_desc;                  // pd's destination layout: the Layout token of a blocked output
  dnnl::reorder src_in, dst_in, dst_out;  // plain->blocked src, plain->blocked dst (sum), blocked->plain dst
  // 1 for a convolution too small to split over threads (made and run on one), else 0: the caller's.
  int threads = 0;
  // Without the activation post-op, for calls with non-finite data (made on first need).
  std::once_flag exact_once;
  std::unique_ptr<ConvEntry> exact;
};

// Multiply-adds ×2 of a convolution of input shape x into output shape y with this kernel's weights.
double conv_flops_of(const Shape& w_shape, int64_t group, const Shape& x, const Shape& y) {
  double f = 2.0 * static_cast<double>(x[0]) * static_cast<double>(w_shape[0]) *
             static_cast<double>(x[1] / std::max<int64_t>(group, 1));
  for (size_t i = 2; i < y.size(); ++i) f *= static_cast<double>(y[i]);
  for (size_t i = 2; i < w_shape.size(); ++i) f *= static_cast<double>(w_shape[i]);
  return f;
}

// Below this many flops a convolution runs on one thread: waking a second costs more than it saves.
// Measured at 2 threads (minimum of 40 runs, this project's models): 4·10^6 takes PP-OCR cls from
// 1.00 to 0.64 ms and leaves squeezenet, shufflenet, mobilenet, efficientnet and googlenet within
// noise; 1.6·10^7 slows efficientnet by 8 %. SONNX_SMALL_CONV_FLOPS overrides it (0: never).
double small_conv_flops() {
  static const double v = [] {
    const char* env = std::getenv("SONNX_SMALL_CONV_FLOPS");
    return env ? std::atof(env) : 4e6;
  }();
  return v;
}

class ConvKernel final : public FastKernel {
 public:
  std::string label;
  int64_t version = 0;
  KernelWindow w;
  Shape w_shape;
  int64_t M = 0, Cg = 0, group = 1;
  bool has_bias = false;
  const Tensor* const_bias = nullptr;  // when B is constant: the graph's tensor (outlives the kernel)
  bool bias_const = false;
  const Tensor* const_weights = nullptr;  // when W is constant: the graph's tensor, read where it is
  bool weights_const = false;
  // Constant W in the prepared primitive's layout (static_entry's weights). Once held
  // (FastKernel::hold_input) it is W's only copy: entries for other shapes reorder from it, and
  // plain_input rebuilds W from it; const_weights is then a Tensor::held.
  memory master;
  bool held = false;
  bool weights_finite = true, bias_finite = true;
  size_t sum_index = 0;
  bool fused_sum = false;
  Activation act;
  bool force_blocked = false;  // part of a blocked chain: always use oneDNN's preferred layouts
  bool out_blocked = false;    // write Y in pd's destination layout (its readers accept it)
  mutable std::mutex mu;
  mutable std::map<Shape, std::shared_ptr<ConvEntry>> cache;
  std::shared_ptr<ConvEntry> static_entry;

  std::string name() const override { return "onednn:conv"; }

  memory::desc plain_weights_desc() const {
    if (group == 1) return plain_desc(w_shape);
    Shape g = {group, M / group};
    g.insert(g.end(), w_shape.begin() + 1, w_shape.end());
    return plain_desc(g);
  }

  // Validates X against W and returns the output shape and window.
  Shape out_shape_for(const Shape& x, Window* win_out) const {
    if (x.size() < 3) fail(label, version, "input X must have rank at least 3 (N, C, spatial...), got " + shape_str(x));
    if (x.size() != w_shape.size())
      fail(label, version, "weight W " + shape_str(w_shape) + " must have the rank of X " + shape_str(x));
    int64_t C = x[1];
    if (C % group != 0)
      fail(label, version,
           "channels C=" + std::to_string(C) + " and M=" + std::to_string(M) +
               " must be divisible by group=" + std::to_string(group));
    if (C / group != Cg)
      fail(label, version,
           "weight W " + shape_str(w_shape) + " must have C/group=" + std::to_string(C / group) + " input channels");
    Window win = window_for(w, Shape(x.begin() + 2, x.end()), label, version);
    Shape out = {x[0], M};
    out.insert(out.end(), win.out.begin(), win.out.end());
    shape_size(out);
    if (win_out) *win_out = win;
    return out;
  }

  std::vector<Shape> output_shapes(const std::vector<const Tensor*>& in) const override {
    const Tensor* x = arg(in, 0);
    const Tensor* wt = arg(in, 1);
    if (!x || !wt) fail(label, version, "inputs X and W are required");
    if (x->dtype() != DType::Float || wt->dtype() != DType::Float) fail(label, version, "X and W have different element types");
    if (wt->shape() != w_shape)
      fail(label, version, "weight W " + shape_str(wt->shape()) + " differs from its declared shape " + shape_str(w_shape));
    Shape out = out_shape_for(x->shape(), nullptr);
    if (has_bias) {
      const Tensor* b = arg(in, 2);
      if (!b) fail(label, version, "bias B is missing");
      if (b->dtype() != DType::Float) fail(label, version, "bias B has a different element type from X");
      if (b->size() != M)
        fail(label, version, "bias B has " + std::to_string(b->size()) + " elements, expected M=" + std::to_string(M));
    }
    if (fused_sum) {
      const Tensor* s = arg(in, sum_index);
      if (!s || s->dtype() != DType::Float || s->shape() != out)
        fail(label, version, "the fused sum input must be a float tensor of the output's shape " + shape_str(out));
    }
    return {out};
  }

  // `like`: take its source and destination layouts (the exact variant must write what its
  // readers were told to expect, in a buffer of the same size).
  double conv_flops(const Shape& x, const Shape& y) const { return conv_flops_of(w_shape, group, x, y); }

  std::unique_ptr<ConvEntry> build(const Shape& x, bool with_act, const ConvEntry* like = nullptr) const {
    auto e = std::make_unique<ConvEntry>();
    e->in_shape = x;
    e->out_shape = out_shape_for(x, &e->win);
    const auto& eng = cpu_engine();
    size_t r = w.rank;
    memory::dims strides(r), dil(r), pl(r), pr(r);
    for (size_t i = 0; i < r; ++i) {
      strides[i] = w.strides[i];
      dil[i] = w.dilations[i] - 1;
      pl[i] = e->win.pad_begin[i];
      pr[i] = e->win.pad_end[i];
    }
    bool blocked = force_blocked ||
                   conv_prefers_blocked(ConvShape{x[1], M, group, x.size() > 2 ? x[2] : 1,
                                                  e->win.out.empty() ? 1 : e->win.out[0], w_shape.size() > 2 ? w_shape[2] : 1,
                                                  w.strides.empty() ? 1 : w.strides[0]});
    memory::desc src_plain = plain_desc(x), dst_plain = plain_desc(e->out_shape);
    memory::desc any_src(to_dims(x), memory::data_type::f32, memory::format_tag::any);
    memory::desc any_dst(to_dims(e->out_shape), memory::data_type::f32, memory::format_tag::any);
    memory::desc wdesc(plain_weights_desc().dims(), memory::data_type::f32, memory::format_tag::any);
    memory::desc bdesc = has_bias ? plain_desc({M}) : memory::desc();
    memory::desc src_d = like ? like->pd.src_desc() : blocked ? any_src : src_plain;
    memory::desc dst_d = like ? like->dst_desc : blocked ? any_dst : dst_plain;
    dnnl::convolution_forward::desc d(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, src_d, wdesc,
                                      bdesc, dst_d, strides, dil, pl, pr);
    dnnl::post_ops ops;
    if (fused_sum) ops.append_sum(1.0f);
    if (with_act) act.append_to(ops);
    dnnl::primitive_attr attr = user_scratchpad_attr();
    attr.set_post_ops(ops);
    e->threads = like ? like->threads : conv_flops(x, e->out_shape) < small_conv_flops() ? 1 : 0;
    ScopedThreads scoped(e->threads);  // oneDNN fixes a primitive's thread split when it is made
    e->pd = dnnl::convolution_forward::primitive_desc(d, attr, eng);
    e->prim = dnnl::convolution_forward(e->pd);
    e->reorder_src = e->pd.src_desc() != src_plain;
    e->reorder_dst = e->pd.dst_desc() != dst_plain;
    e->dst_desc = e->pd.dst_desc();
    if (e->reorder_src) e->src_in = make_reorder(src_plain, e->pd.src_desc());
    if (e->reorder_dst) {
      e->dst_out = make_reorder(e->pd.dst_desc(), dst_plain);
      if (fused_sum) e->dst_in = make_reorder(dst_plain, e->pd.dst_desc());
    }
    if (weights_const) e->weights = constant_weights(e->pd.weights_desc());
    return e;
  }

  // The constant W in layout `d`: the master itself when it has that layout, else a reorder of the
  // master (once held) or of the graph's plain tensor.
  memory constant_weights(const memory::desc& d) const {
    if (master && master.get_desc() == d) return master;
    memory src = held ? master : memory(plain_weights_desc(), cpu_engine(), const_cast<float*>(const_weights->data<float>()));
    memory dst(d, cpu_engine());
    run_reorder(make_reorder(src.get_desc(), d), src, dst);
    thread_stream().wait();
    return dst;
  }

  bool hold_input(size_t k) override {
    if (k != 1 || !master) return false;
    held = true;
    return true;
  }

  Tensor plain_input(size_t k) const override {
    if (k != 1 || !held) return FastKernel::plain_input(k);
    Tensor t(DType::Float, w_shape);
    memory src = master, dst(plain_weights_desc(), cpu_engine(), t.data<float>());
    run_reorder(make_reorder(src.get_desc(), dst.get_desc()), src, dst);
    thread_stream().wait();
    return t;
  }

  std::shared_ptr<ConvEntry> entry_for(const Shape& x) const {
    if (static_entry && static_entry->in_shape == x) return static_entry;
    std::lock_guard<std::mutex> lock(mu);
    auto it = cache.find(x);
    if (it != cache.end()) return it->second;
    std::shared_ptr<ConvEntry> e = build(x, act.kind != Activation::Kind::None);
    cache.emplace(x, e);
    return e;
  }

  // Runs the entry's primitive. X and the sum may be in a blocked layout (x_layout, sum_layout:
  // null for plain); with out_blocked, Y is written in e.dst_desc.
  void execute(const ConvEntry& e, const Tensor& x, Layout x_layout, const Tensor& wt, const float* bias, const Tensor* sum,
               Layout sum_layout, Tensor& y) const {
    ScopedThreads scoped(e.threads);
    const auto& eng = cpu_engine();
    dnnl::stream& s = thread_stream();
    memory::desc x_desc = x_layout ? *static_cast<const memory::desc*>(x_layout) : plain_desc(x.shape());
    memory src_in(x_desc, eng, const_cast<float*>(x.data<float>()));
    memory dst_plain(plain_desc(y.shape()), eng, y.data<float>());
    memory src = src_in, dst = dst_plain;
    if (x_desc != e.pd.src_desc()) {
      src = memory(e.pd.src_desc(), eng, thread_scratch(0, e.pd.src_desc().get_size() / sizeof(float) + 1));
      run_reorder(x_layout ? make_reorder(x_desc, e.pd.src_desc()) : e.src_in, src_in, src);
    }
    bool write_plain = !out_blocked && e.reorder_dst;  // compute in a blocked buffer, then reorder to Y
    if (out_blocked) dst = memory(e.dst_desc, eng, y.data<float>());
    else if (write_plain) dst = memory(e.dst_desc, eng, thread_scratch(1, e.dst_desc.get_size() / sizeof(float) + 1));
    if (sum) {
      memory::desc sum_desc = sum_layout ? *static_cast<const memory::desc*>(sum_layout) : plain_desc(sum->shape());
      memory sm(sum_desc, eng, const_cast<float*>(sum->data<float>()));
      if (sum_desc == dst.get_desc()) {
        if (sm.get_data_handle() != dst.get_data_handle())
          std::memcpy(dst.get_data_handle(), sm.get_data_handle(), sum_desc.get_size());
      } else {
        run_reorder(sum_layout || out_blocked ? make_reorder(sum_desc, dst.get_desc()) : e.dst_in, sm, dst);
      }
    }
    memory weights = e.weights;
    if (!weights) {
      memory wp(plain_weights_desc(), eng, const_cast<float*>(wt.data<float>()));
      if (e.pd.weights_desc() == wp.get_desc()) {
        weights = wp;
      } else {
        weights = memory(e.pd.weights_desc(), eng, thread_scratch(2, e.pd.weights_desc().get_size() / sizeof(float) + 1));
        run_reorder(make_reorder(wp.get_desc(), weights.get_desc()), wp, weights);
      }
    }
    std::unordered_map<int, memory> args = {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, dst}};
    if (has_bias) args[DNNL_ARG_BIAS] = memory(plain_desc({M}), eng, const_cast<float*>(bias));
    if (memory sp = thread_scratchpad(e.pd.scratchpad_desc())) args[DNNL_ARG_SCRATCHPAD] = sp;
    e.prim.execute(s, args);
    if (write_plain) run_reorder(e.dst_out, dst, dst_plain);
    s.wait();
  }

  // X or the output has no elements, or the sum has no input channel: Y = B (+ sum), activated.
  void degenerate(const float* bias, const Tensor* sum, Tensor& y) const {
    float* py = y.data<float>();
    int64_t n = y.dim(0), plane = y.size() / std::max<int64_t>(1, n * M);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t m = 0; m < M; ++m) {
        float b = has_bias ? bias[m] : 0.0f;
        float* p = py + (i * M + m) * plane;
        const float* ps = sum ? sum->data<float>() + (i * M + m) * plane : nullptr;
        for (int64_t k = 0; k < plane; ++k) p[k] = ps ? b + ps[k] : b;
      }
    act.apply(py, y.size());
  }

  void run(const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) const override {
    std::vector<Layout> out_layouts;
    run_with_layouts(in, std::vector<Layout>(in.size(), nullptr), out, out_layouts);
  }

  bool can_produce_blocked_output() const override { return true; }
  bool accepts_layout(size_t i) const override { return i == 0 || (fused_sum && i == sum_index); }
  void produce_blocked_output() override {
    out_blocked = true;
    expect_blocked_input();
  }
  void expect_blocked_input() override {
    if (force_blocked) return;
    force_blocked = true;  // remake the prepared primitive in oneDNN's preferred layouts
    if (!static_entry) return;
    static_entry = build(static_entry->in_shape, act.kind != Activation::Kind::None);
    if (weights_const) master = static_entry->weights;  // (built from the old master, which goes now)
  }

  int64_t output_bytes(const std::vector<const Tensor*>& in, const std::vector<Layout>& layouts, size_t k) const override {
    int64_t plain = FastKernel::output_bytes(in, layouts, k);
    const Tensor* x = arg(in, 0);
    if (!out_blocked || !x || x->size() == 0 || Cg == 0 || plain == 0) return plain;
    return std::max<int64_t>(plain, static_cast<int64_t>(entry_for(x->shape())->dst_desc.get_size()));
  }

  void run_with_layouts(const std::vector<const Tensor*>& in, const std::vector<Layout>& layouts,
                        const std::vector<Tensor*>& out, std::vector<Layout>& out_layouts) const override {
    const Tensor& x = *arg(in, 0);
    const Tensor& wt = *arg(in, 1);
    Tensor& y = *out.at(0);
    Layout x_layout = layouts.empty() ? nullptr : layouts[0];
    Layout sum_layout = fused_sum && sum_index < layouts.size() ? layouts[sum_index] : nullptr;
    const float* bias = has_bias ? (bias_const ? const_bias->data<float>() : arg(in, 2)->data<float>()) : nullptr;
    const Tensor* sum = fused_sum ? arg(in, sum_index) : nullptr;
    out_layouts.assign(out.size(), nullptr);
    if (y.size() == 0) return;
    if (x.size() == 0 || Cg == 0) {  // rare shapes: plain in, plain out
      Tensor plain_sum = sum && sum_layout ? layout_to_plain(*sum, sum_layout) : Tensor();
      return degenerate(bias, sum && sum_layout ? &plain_sum : sum, y);
    }
    std::shared_ptr<ConvEntry> e = entry_for(x.shape());
    const ConvEntry* used = e.get();
    // Elements to scan for NaN/inf: a blocked tensor's whole buffer (its padding is zero).
    auto count = [](const Tensor& t, Layout l) {
      return l ? static_cast<int64_t>(static_cast<const memory::desc*>(l)->get_size() / sizeof(float)) : t.size();
    };
    bool finite = act.kind == Activation::Kind::None ||
                  (weights_finite && bias_finite && all_finite(x.data<float>(), count(x, x_layout)) &&
                   (weights_const || all_finite(wt.data<float>(), wt.size())) &&
                   (!has_bias || bias_const || all_finite(bias, M)) &&
                   (!sum || all_finite(sum->data<float>(), count(*sum, sum_layout))));
    if (!finite) {
      std::call_once(e->exact_once, [&] { e->exact = build(x.shape(), false, e.get()); });
      used = e->exact.get();
    }
    execute(*used, x, x_layout, wt, bias, sum, sum_layout, y);
    if (out_blocked) out_layouts[0] = &used->dst_desc;
    if (!finite) act.apply(y.data<float>(), out_blocked ? count(y, out_layouts[0]) : y.size());
  }
};

}  // namespace

std::unique_ptr<FastKernel> make_conv_kernel(const FastKernelRequest& r) {
  const Node& node = *r.node;
  auto k = std::make_unique<ConvKernel>();
  k->label = node.label();
  k->version = r.version;
  k->fused_sum = r.fused_sum;
  size_t regular = node.inputs.size() - (r.fused_sum ? 1 : 0);
  if (node.inputs.size() < (r.fused_sum ? 3u : 2u) || regular > 3) return nullptr;
  if (!has_node_input(node, 0) || !has_node_input(node, 1)) return nullptr;
  if (r.fused_sum) {
    k->sum_index = node.inputs.size() - 1;
    if (!has_node_input(node, k->sum_index)) return nullptr;
  }
  if (node.outputs.size() != 1) return nullptr;
  if (!read_activation(r, k->act)) return nullptr;
  // Element types: W (and X when known) float32.
  if (!input_is_float(r, 1)) return nullptr;
  if (const TypeInfo* t = input_type(r, 0); t && t->elem != DType::Undefined && t->elem != DType::Float) return nullptr;
  k->has_bias = regular == 3 && has_node_input(node, 2);
  if (k->has_bias) {
    if (const TypeInfo* t = input_type(r, 2); t && t->elem != DType::Undefined && t->elem != DType::Float) return nullptr;
    if (const Tensor* b = constant_input(r, 2); b && b->dtype() != DType::Float) return nullptr;
  }
  std::optional<Shape> ws = static_shape(r, 1);
  if (!ws || ws->size() < 3 || ws->size() > 5) return nullptr;
  k->w_shape = *ws;
  size_t rank = ws->size() - 2;
  std::optional<ConvParams> params = try_params<ConvParams>(node, r.version);
  if (!params) return nullptr;
  k->group = params->group;
  k->M = (*ws)[0];
  k->Cg = (*ws)[1];
  if (k->M % k->group != 0 || k->M == 0) return nullptr;
  k->w.kernel.assign(ws->begin() + 2, ws->end());
  if (!params->check_kernel(*ws).empty()) return nullptr;
  if (!read_window_attrs(r, rank, k->w)) return nullptr;
  if (const Tensor* wt = constant_input(r, 1)) {
    k->weights_const = true;
    k->const_weights = wt;
    k->weights_finite = all_finite(wt->data<float>(), wt->size());
  }
  if (k->has_bias) {
    if (const Tensor* b = constant_input(r, 2)) {
      if (b->size() != k->M) return nullptr;  // the reference reports it
      k->bias_const = true;
      k->const_bias = b;
      k->bias_finite = all_finite(b->data<float>(), b->size());
    }
  }
  // Prepare the primitive now when X's shape is known.
  if (std::optional<Shape> xs = static_shape(r, 0)) {
    if (xs->size() != ws->size() || (*xs)[1] != k->Cg * k->group) return nullptr;
    try {
      Window win = window_for(k->w, Shape(xs->begin() + 2, xs->end()), k->label, k->version);
      (void)win;
    } catch (const Trap&) {
      return nullptr;
    }
    if (shape_size(*xs) > 0 && k->Cg > 0) {
      try {
        k->static_entry = k->build(*xs, k->act.kind != Activation::Kind::None);
        if (k->weights_const) k->master = k->static_entry->weights;
      } catch (const dnnl::error&) {
        return nullptr;
      }
    }
  }
  return k;
}

SONNX_FAST_KERNEL_FUSED("", "Conv", (1, 11, 22), make_conv_kernel);

}  // namespace sonnx::fast
