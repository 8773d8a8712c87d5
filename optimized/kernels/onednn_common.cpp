#include "onednn_common.h"
#include "simd_clones.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <unordered_map>

namespace sonnx::fast {

const dnnl::engine& cpu_engine() {
  static const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

dnnl::stream& thread_stream() {
  thread_local dnnl::stream stream(cpu_engine());
  return stream;
}

float* thread_scratch(int slot, size_t count) {
  constexpr size_t kAlign = 64 / sizeof(float);  // 64-byte aligned, as oneDNN prefers
  thread_local std::vector<float> buffers[5];
  auto& b = buffers[slot];
  if (b.size() < count + kAlign) {
    b.clear();
    b.shrink_to_fit();
    b.resize(count + kAlign);
  }
  auto p = reinterpret_cast<uintptr_t>(b.data());
  return b.data() + ((64 - p % 64) % 64) / sizeof(float);
}

dnnl::primitive_attr user_scratchpad_attr() {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

dnnl::memory thread_scratchpad(const dnnl::memory::desc& d) {
  size_t bytes = d.get_size();
  if (bytes == 0) return {};
  return dnnl::memory(d, cpu_engine(), thread_scratch(4, bytes / sizeof(float) + 1));
}

dnnl::reorder make_reorder(const dnnl::memory::desc& src, const dnnl::memory::desc& dst) {
  return dnnl::reorder(dnnl::reorder::primitive_desc(cpu_engine(), src, cpu_engine(), dst, user_scratchpad_attr()));
}

void run_reorder(const dnnl::reorder& r, dnnl::memory& src, dnnl::memory& dst) {
  std::unordered_map<int, dnnl::memory> args{{DNNL_ARG_FROM, src}, {DNNL_ARG_TO, dst}};
  const dnnl_memory_desc_t* md = dnnl_primitive_desc_query_md(r.get_primitive_desc(), dnnl_query_scratchpad_md, 0);
  if (md)
    if (dnnl::memory sp = thread_scratchpad(dnnl::memory::desc(*md))) args[DNNL_ARG_SCRATCHPAD] = sp;
  r.execute(thread_stream(), args);
}

void fail(const std::string& label, int64_t version, const std::string& message) {
  throw Trap(label + " version " + std::to_string(version) + ": " + message);
}

void fail(const Node& node, int64_t version, const std::string& message) { fail(node.label(), version, message); }

// ---- window attributes (the reference's rules: support/window.h) ----

bool read_window_attrs(const FastKernelRequest& r, size_t rank, KernelWindow& w) {
  w.rank = rank;
  for (auto k : w.kernel)
    if (k < 1 || k > support::kMaxWindowValue) return false;
  std::optional<support::WindowAttrs> attrs = try_read(*r.node,
                                                       [&](const AttrReader& g) { return support::window_attrs(g, rank); });
  if (!attrs) return false;
  static_cast<support::WindowAttrs&>(w) = std::move(*attrs);
  return true;
}

Window window_for(const KernelWindow& w, const std::vector<int64_t>& in, const std::string& node, int64_t version) {
  std::string why;
  Window g = w.over(in, w.kernel, why);
  if (!why.empty()) fail(node, version, why);
  return g;
}

// ---- descriptors ----

dnnl::memory::dims to_dims(const std::vector<int64_t>& v) { return dnnl::memory::dims(v.begin(), v.end()); }

dnnl::memory::desc plain_desc(const std::vector<int64_t>& dims) {
  dnnl::memory::dims strides(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;) strides[i - 1] = strides[i] * std::max<int64_t>(dims[i], 1);
  return dnnl::memory::desc(to_dims(dims), dnnl::memory::data_type::f32, strides);
}

// ---- float loops ----

namespace {
// GCC gives the dispatcher of a function with target_clones default visibility whatever the
// function's own: the clones stay internal to this file, so libsonnx.so does not export it.
SONNX_SIMD_CLONES bool all_finite_loop(const float* p, int64_t n) {
  uint32_t bad = 0;
  for (int64_t i = 0; i < n; ++i) {
    uint32_t bits;
    std::memcpy(&bits, p + i, sizeof bits);
    bad |= static_cast<uint32_t>((bits & 0x7f800000u) == 0x7f800000u);
  }
  return bad == 0;
}
}  // namespace

bool all_finite(const float* p, int64_t n) { return all_finite_loop(p, n); }

void relu_inplace(float* p, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    if (p[i] < 0.0f) p[i] = 0.0f;
}

void clip_inplace(float* p, int64_t n, float lo, float hi) {
  for (int64_t i = 0; i < n; ++i) {
    float c = p[i];
    if (c < lo) c = lo;
    if (c > hi) c = hi;
    p[i] = c;
  }
}

namespace {

// Add(x, 3) → Clip(0, 6) → Mul(x, ·) → Div(·, 6), each rounded to float as the nodes do (NaN stays).
void decomposed_hard_swish_inplace(float* p, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    float x = p[i], t = x + 3.0f;
    if (t < 0.0f) t = 0.0f;
    if (t > 6.0f) t = 6.0f;
    p[i] = (x * t) / 6.0f;
  }
}

// x · HardSigmoid(x) with the reference's HardSigmoid, in chunks (no allocation).
void x_hard_sigmoid_inplace(float* p, int64_t n, float alpha, float beta) {
  constexpr int64_t kChunk = 1024;
  float h[kChunk];
  for (int64_t start = 0; start < n; start += kChunk) {
    int64_t len = std::min(kChunk, n - start);
    UnaryFn{UnaryOp::HardSigmoid, alpha, beta}.apply(p + start, h, len);
    for (int64_t i = 0; i < len; ++i) p[start + i] *= h[i];
  }
}

// Div(x, c) → Erf → Add(·, 1) → Mul(x, ·) → Mul(·, 0.5), each rounded to float as the nodes do,
// in chunks (no allocation).
void gelu_erf_inplace(float* p, int64_t n, float c) {
  constexpr int64_t kChunk = 1024;
  float t[kChunk];
  for (int64_t start = 0; start < n; start += kChunk) {
    int64_t len = std::min(kChunk, n - start);
    for (int64_t i = 0; i < len; ++i) t[i] = p[start + i] / c;
    UnaryFn{UnaryOp::Erf}.apply(t, t, len);
    for (int64_t i = 0; i < len; ++i) p[start + i] = (p[start + i] * (t[i] + 1.0f)) * 0.5f;
  }
}

}  // namespace

void Activation::apply(float* p, int64_t n) const {
  switch (kind) {
    case Kind::None: return;
    case Kind::Relu: return relu_inplace(p, n);
    case Kind::Clip: return clip_inplace(p, n, lo, hi);
    case Kind::LeakyRelu: return UnaryFn{UnaryOp::LeakyRelu, alpha, 0}.apply(p, p, n);
    case Kind::Elu: return UnaryFn{UnaryOp::Elu, alpha, 0}.apply(p, p, n);
    case Kind::Sigmoid: return UnaryFn{UnaryOp::Sigmoid}.apply(p, p, n);
    case Kind::Tanh: return UnaryFn{UnaryOp::Tanh}.apply(p, p, n);
    case Kind::HardSigmoid: return UnaryFn{UnaryOp::HardSigmoid, alpha, beta}.apply(p, p, n);
    case Kind::HardSwish: return UnaryFn{UnaryOp::HardSwish}.apply(p, p, n);
    case Kind::Swish: return UnaryFn{UnaryOp::Swish}.apply(p, p, n);
    case Kind::DecomposedHardSwish: return decomposed_hard_swish_inplace(p, n);
    case Kind::XHardSigmoid: return x_hard_sigmoid_inplace(p, n, alpha, beta);
    case Kind::GeluErf: return gelu_erf_inplace(p, n, alpha);
  }
}

void Activation::append_to(dnnl::post_ops& ops) const {
  using dnnl::algorithm;
  switch (kind) {
    case Kind::None: return;
    case Kind::Relu: return ops.append_eltwise(1.0f, algorithm::eltwise_relu, 0.0f, 0.0f);
    case Kind::Clip: return ops.append_eltwise(1.0f, algorithm::eltwise_clip, lo, hi);
    case Kind::LeakyRelu: return ops.append_eltwise(1.0f, algorithm::eltwise_relu, alpha, 0.0f);
    case Kind::Elu: return ops.append_eltwise(1.0f, algorithm::eltwise_elu, alpha, 0.0f);
    case Kind::Sigmoid: return ops.append_eltwise(1.0f, algorithm::eltwise_logistic, 0.0f, 0.0f);
    case Kind::Tanh: return ops.append_eltwise(1.0f, algorithm::eltwise_tanh, 0.0f, 0.0f);
    case Kind::HardSigmoid:  // this oneDNN has no hardsigmoid: alpha·x + beta, then clip to [0, 1]
      ops.append_eltwise(1.0f, algorithm::eltwise_linear, alpha, beta);
      return ops.append_eltwise(1.0f, algorithm::eltwise_clip, 0.0f, 1.0f);
    case Kind::HardSwish: return ops.append_eltwise(1.0f, algorithm::eltwise_hardswish, 0.0f, 0.0f);  // x·relu6(x+3)/6
    case Kind::Swish: return ops.append_eltwise(1.0f, algorithm::eltwise_swish, 1.0f, 0.0f);
    case Kind::DecomposedHardSwish: return ops.append_eltwise(1.0f, algorithm::eltwise_hardswish, 0.0f, 0.0f);
    case Kind::XHardSigmoid:
      // x·clip(αx + 1/2, 0, 1) = hardswish(6αx) / (6α): hardswish(z) = z·clip(z + 3, 0, 6)/6.
      // The division rides on the hardswish post-op's output scale: with a second linear post-op
      // after it, this oneDNN gave results scaled by (6α)² instead (FastKernelConv tests).
      ops.append_eltwise(1.0f, algorithm::eltwise_linear, 6.0f * alpha, 0.0f);
      return ops.append_eltwise(1.0f / (6.0f * alpha), algorithm::eltwise_hardswish, 0.0f, 0.0f);
    case Kind::GeluErf: return ops.append_eltwise(1.0f, algorithm::eltwise_gelu_erf, 0.0f, 0.0f);
  }
}

bool read_activation(const FastKernelRequest& r, Activation& act) {
  using K = Activation::Kind;
  static const std::pair<const char*, K> kinds[] = {{"", K::None},
                                                    {"Relu", K::Relu},
                                                    {"Clip", K::Clip},
                                                    {"LeakyRelu", K::LeakyRelu},
                                                    {"Elu", K::Elu},
                                                    {"Sigmoid", K::Sigmoid},
                                                    {"Tanh", K::Tanh},
                                                    {"HardSigmoid", K::HardSigmoid},
                                                    {"HardSwish", K::HardSwish},
                                                    {"Swish", K::Swish},
                                                    {"DecomposedHardSwish", K::DecomposedHardSwish},
                                                    {"XHardSigmoid", K::XHardSigmoid},
                                                    {"GeluErf", K::GeluErf}};
  const auto* it = std::find_if(std::begin(kinds), std::end(kinds),
                                [&](const auto& k) { return r.fused_activation == k.first; });
  if (it == std::end(kinds)) return false;
  // oneDNN's clip needs lo <= hi; the reference gives hi everywhere when lo > hi, which we leave
  // to it. NaN bounds are left to it too.
  if (it->second == K::Clip && !(r.clip_min <= r.clip_max)) return false;
  // The post-op form of x·HardSigmoid(x) needs beta = 1/2 and a finite alpha > 0 (see append_to).
  if (it->second == K::XHardSigmoid &&
      !(r.beta == 0.5f && r.alpha > 0.0f && std::isfinite(6.0f * r.alpha) && std::isfinite(1.0f / (6.0f * r.alpha))))
    return false;
  act.kind = it->second;
  act.lo = r.clip_min;
  act.hi = r.clip_max;
  act.alpha = r.alpha;
  act.beta = r.beta;
  return true;
}

// ---- request helpers ----

bool has_node_input(const Node& n, size_t i) { return i < n.inputs.size() && !n.inputs[i].empty(); }

int64_t norm_axis(const std::string& label, int64_t version, int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    fail(label, version, "axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  return axis < 0 ? axis + rank : axis;
}

const Tensor& copyable_input(const std::vector<const Tensor*>& in, size_t i, const std::string& label, int64_t version) {
  const Tensor* x = arg(in, i);
  if (!x) fail(label, version, "input " + std::to_string(i) + " is required but missing");
  if (x->dtype() == DType::String) fail(label, version, "string data is not supported here");
  return *x;
}

bool copyable_element_type(const FastKernelRequest& r, size_t i) {
  const TypeInfo* t = input_type(r, i);
  DType elem = constant_input(r, i) ? constant_input(r, i)->dtype() : t ? t->elem : DType::Undefined;
  if (elem == DType::Undefined) return true;
  size_t size = dtype_size(elem);
  return elem != DType::String && (size == 1 || size == 2 || size == 4 || size == 8 || size == 16);
}

const TypeInfo* input_type(const FastKernelRequest& r, size_t i) {
  if (i >= r.input_types.size()) return nullptr;
  const TypeInfo& t = r.input_types[i];
  return t.kind == TypeInfo::Kind::Tensor ? &t : nullptr;
}

const Tensor* constant_input(const FastKernelRequest& r, size_t i) {
  if (!r.node || !has_node_input(*r.node, i)) return nullptr;
  auto it = r.constants.find(r.node->inputs[i]);
  return it == r.constants.end() ? nullptr : it->second;
}

bool input_is_float(const FastKernelRequest& r, size_t i) {
  if (const Tensor* c = constant_input(r, i)) return c->dtype() == DType::Float;
  const TypeInfo* t = input_type(r, i);
  return t && t->elem == DType::Float;
}

bool input_is_half(const FastKernelRequest& r, size_t i) {
  if (const Tensor* c = constant_input(r, i)) return c->dtype() == DType::Float16;
  const TypeInfo* t = input_type(r, i);
  return t && t->elem == DType::Float16;
}

bool input_is_float_or_half(const FastKernelRequest& r, size_t i) { return input_is_float(r, i) || input_is_half(r, i); }

std::optional<Shape> static_shape(const FastKernelRequest& r, size_t i) {
  if (const Tensor* c = constant_input(r, i)) return c->shape();
  const TypeInfo* t = input_type(r, i);
  if (!t || !t->shape) return std::nullopt;
  Shape s;
  for (const Dim& d : *t->shape) {
    if (!d.value) return std::nullopt;
    s.push_back(*d.value);
  }
  return s;
}

std::optional<size_t> known_rank(const FastKernelRequest& r, size_t i) {
  if (const Tensor* c = constant_input(r, i)) return static_cast<size_t>(c->rank());
  const TypeInfo* t = input_type(r, i);
  if (!t || !t->shape) return std::nullopt;
  return t->shape->size();
}

}  // namespace sonnx::fast

namespace sonnx {

Tensor layout_to_plain(const Tensor& t, FastKernel::Layout layout) {
  const auto& from = *static_cast<const dnnl::memory::desc*>(layout);
  dnnl::memory::desc to = fast::plain_desc(t.shape());
  Tensor out(DType::Float, t.shape());
  dnnl::memory src(from, fast::cpu_engine(), const_cast<std::byte*>(t.raw()));
  dnnl::memory dst(to, fast::cpu_engine(), out.raw());
  fast::run_reorder(fast::make_reorder(from, to), src, dst);
  fast::thread_stream().wait();
  return out;
}

}  // namespace sonnx
