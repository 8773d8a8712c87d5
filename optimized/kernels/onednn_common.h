// Shared pieces of the fast kernels: the one oneDNN CPU engine, per-thread streams and scratch
// buffers, reading a node's attributes without the interpreter, the window geometry of
// convolution/pooling (reference/ops/support/window.h, shared with the reference), and small float
// loops.
#pragma once
#include <omp.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <dnnl.hpp>

#include "fast_kernel.h"
#include "omp_sync.h"
#include "scoped_threads.h"
#include "reference/ops/op_params.h"
#include "reference/ops/support/window.h"
#include "sonnx/errors.h"

namespace sonnx::fast {

// The CPU engine every fast kernel uses (created on first use).
const dnnl::engine& cpu_engine();
// A stream on cpu_engine() owned by the calling thread.
dnnl::stream& thread_stream();

// A per-thread 64-byte-aligned float buffer of at least `count` elements (slot 0..3 for kernels, 4
// for primitive scratchpads); reused across calls, so a
// kernel must not hold it beyond one run.
float* thread_scratch(int slot, size_t count);
// Every primitive is made with scratchpad_mode::user (so one primitive may run on several threads
// at once: oneDNN's own scratchpad is per primitive) and gets its scratchpad from the calling
// thread here. An empty memory when the primitive needs none.
dnnl::primitive_attr user_scratchpad_attr();
dnnl::memory thread_scratchpad(const dnnl::memory::desc& scratchpad_desc);
// reorder src -> dst made and run with a thread-local scratchpad.
dnnl::reorder make_reorder(const dnnl::memory::desc& src, const dnnl::memory::desc& dst);
void run_reorder(const dnnl::reorder& r, dnnl::memory& src, dnnl::memory& dst);

// Throws Trap with the reference's message shape: "<node label> version <v>: <message>".
[[noreturn]] void fail(const Node& node, int64_t version, const std::string& message);
[[noreturn]] void fail(const std::string& label, int64_t version, const std::string& message);
// axis in [-rank, rank) made non-negative; traps (through label/version) otherwise.
int64_t norm_axis(const std::string& label, int64_t version, int64_t axis, int64_t rank);
// Input i of a kernel that copies elements by their size: traps when it is missing or strings.
const Tensor& copyable_input(const std::vector<const Tensor*>& in, size_t i, const std::string& label, int64_t version);

// body(first, last) over [0, n): split evenly over the OpenMP threads when the work (`work`
// elements) is at least 64K and there are several, else once over the whole range.
template <class Body>
void split_over_threads(int64_t n, int64_t work, Body body) {
  if (work < (int64_t{1} << 16) || omp_get_max_threads() == 1) return body(int64_t{0}, n);
  SONNX_OMP_FORK(sync);
#pragma omp parallel
  {
    SONNX_OMP_TASK(sync);
    int64_t t = omp_get_thread_num(), nt = omp_get_num_threads();
    body(n * t / nt, n * (t + 1) / nt);
  }
}

using support::AutoPad;

// The window of a convolution or pooling node: its kernel's spatial shape and its attributes, read
// by the reference's own reader (support::window_attrs).
struct KernelWindow : support::WindowAttrs {
  size_t rank = 0;  // spatial rank
  std::vector<int64_t> kernel;
};
// Reads the window attributes for `rank` spatial axes and checks w.kernel (a pool sets ceil_mode from PoolParams);
// false where the reference traps on them, so that the factory declines and the reference reports
// them.
bool read_window_attrs(const FastKernelRequest& r, size_t rank, KernelWindow& w);

// The geometry for one input: output sizes and the actual pads (support::window_output).
using Window = support::WindowGeometry;
// Traps (through node/version) when the window does not fit the input.
Window window_for(const KernelWindow& w, const std::vector<int64_t>& in_spatial, const std::string& label, int64_t version);

// Helpers for memory descriptors.
dnnl::memory::dims to_dims(const std::vector<int64_t>& v);
// A dense row-major float32 descriptor of `dims`.
dnnl::memory::desc plain_desc(const std::vector<int64_t>& dims);

// Elementwise loops on float32 data.
bool all_finite(const float* p, int64_t n);
void relu_inplace(float* p, int64_t n);                      // x < 0 ? 0 : x (NaN stays)
void clip_inplace(float* p, int64_t n, float lo, float hi);  // as reference Clip (NaN stays)

// Float32 unary functions (unary.cpp), each element as its reference kernel computes it: the exact
// ones in float, the others in double rounded once to float (so they agree bitwise with the
// reference). Swish is x * Sigmoid(x), as the decomposed Sigmoid → Mul computes it.
// clang-format off
enum class UnaryOp {
  Relu, LeakyRelu, Neg, Abs, Clip, Sigmoid, Tanh, Erf, Gelu, GeluTanh, HardSwish, HardSigmoid, Elu,
  Exp, Log, Sqrt, Reciprocal, Softplus, Square, PowHalf, Identity, Pow, Swish
};
// clang-format on
struct UnaryFn {
  UnaryOp op = UnaryOp::Identity;
  float alpha = 0, beta = 0;  // LeakyRelu/Elu alpha; HardSigmoid alpha, beta; Clip lo, hi; Pow exponent
  void apply(const float* x, float* y, int64_t n) const;  // y may be x; threads when n is large
  // The same on float16: each element widened to float (exactly), computed as apply does and
  // rounded once to float16 (nearest-even). The Clip bounds must then be float16 values.
  void apply_half(const float16_t* x, float16_t* y, int64_t n) const;
};

// e[i] = exp(x[i] − m) (and with m[i]) in double by unary.cpp's vectorised polynomial: relative
// error below 1e-11, so a float rounded from it is the same but for a value within about 1e-11 of
// a rounding boundary (then 1 ULP apart).
void exp_minus(const float* x, double m, double* e, int64_t n);
void exp_minus_each(const float* x, const double* m, double* e, int64_t n);

// The fused activation of a request. DecomposedHardSwish is x·Clip(x + 3, 0, 6) / 6 as
// Add → Clip → Mul → Div compute it one by one in float; XHardSigmoid is x·HardSigmoid(x) (alpha,
// beta; beta must be 0.5 and alpha > 0 for the post-op form); GeluErf is x·(erf(x/alpha) + 1)·0.5 as
// Div → Erf → Add → Mul → Mul compute it (alpha = float(√2), oneDNN's gelu_erf as a post-op).
struct Activation {
  // clang-format off
  enum class Kind {
    None, Relu, Clip, LeakyRelu, Elu, Sigmoid, Tanh, HardSigmoid, HardSwish, Swish, DecomposedHardSwish, XHardSigmoid,
    GeluErf
  } kind = Kind::None;
  // clang-format on
  float lo = 0, hi = 0;                       // Clip bounds
  float alpha = 0, beta = 0;                  // LeakyRelu, Elu, HardSigmoid
  void apply(float* p, int64_t n) const;      // as the reference nodes compute it (NaN stays NaN)
  void append_to(dnnl::post_ops& ops) const;  // as oneDNN eltwise post-ops (for finite data)
};
// Reads request.fused_activation; false if it names something unsupported.
bool read_activation(const FastKernelRequest& r, Activation& act);

// The known type of input i, or null.
const TypeInfo* input_type(const FastKernelRequest& r, size_t i);
// True when input i is known to be float32 (from constants or declared types); false if known to
// be something else or unknown.
bool input_is_float(const FastKernelRequest& r, size_t i);
// The same for float16, and for either of the two (the kernels that also compute on float16).
bool input_is_half(const FastKernelRequest& r, size_t i);
bool input_is_float_or_half(const FastKernelRequest& r, size_t i);
// The static shape of input i (from a constant or a static declared type), if known.
std::optional<Shape> static_shape(const FastKernelRequest& r, size_t i);
// The rank of input i if known.
std::optional<size_t> known_rank(const FastKernelRequest& r, size_t i);
// The constant tensor of input i, or null.
const Tensor* constant_input(const FastKernelRequest& r, size_t i);
// Whether input i's elements can be copied by their size: a known type other than string, or an
// unknown one (the executor gives kernels of any element type no string data at run time).
bool copyable_element_type(const FastKernelRequest& r, size_t i);
// Whether input i is present (named) in the node.
bool has_node_input(const Node& n, size_t i);
// The run-time input i, or null when omitted.
inline const Tensor* arg(const std::vector<const Tensor*>& in, size_t i) {
  return i < in.size() && in[i] && in[i]->defined() ? in[i] : nullptr;
}

// The factories of the fused patterns (make_fast_kernel.cpp); every other factory is named only by
// its registration (SONNX_FAST_KERNEL, fast_kernel.h). Each returns null when it declines.
std::unique_ptr<FastKernel> make_matmul_kernel(const FastKernelRequest& r);                 // onednn_gemm.cpp: "MatMulBias"
std::unique_ptr<FastKernel> make_decomposed_layer_norm_kernel(const FastKernelRequest& r);  // "LayerNorm"
std::unique_ptr<FastKernel> make_attention_kernel(const FastKernelRequest& r);              // attention.cpp: "Attention"

// The values of float32 `p` broadcast (unidirectionally, as numpy) to the shape `target` into
// `out`; false when p does not broadcast to it (extra leading dims of p must be 1).
bool broadcast_trailing(const Tensor& p, const Shape& target, std::vector<float>& out);
// Whether a tensor of shape `ps` broadcasts so to `target` (broadcast_trailing without the copy).
bool broadcasts_trailing(const Shape& ps, const Shape& target);

}  // namespace sonnx::fast
