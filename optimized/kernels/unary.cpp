// Float32 unary elementwise operators (and Pow with a constant scalar exponent) on contiguous data.
// Each element is computed as its reference kernel computes it (reference/ops/<Op>.cpp): the exact
// operators (Relu, LeakyRelu, Neg, Abs, Clip, Pow x^1 and x^2) in float, the others in double and
// rounded once to float, so the results agree with the reference bitwise; Exp, Sigmoid, Tanh,
// Swish and Erf use polynomials (exp_poly, erf_poly) that let the loops vectorize, at most 1 ULP
// from the reference and almost always equal. The loops run over the buffers the executor
// planned, split over OpenMP threads when long.
// Float16 tensors are computed by the same float32 functions, a chunk at a time: widened to float
// (exact), computed, rounded once to float16. The reference rounds its double result once to
// float16, so the two agree but for a value at a float16 rounding boundary (1 ULP apart).
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <optional>

#include "blocked_layout.h"
#include "fast_kernel.h"
#include "half_convert.h"
#include "onednn_common.h"
#include "reference/ops/params/activation.h"
#include "simd_clones.h"
#include "sonnx/errors.h"
#include "omp_sync.h"

namespace sonnx::fast {

namespace {

// Elements per OpenMP task: below this a loop is too short to be worth waking threads.
constexpr int64_t kGrain = int64_t{1} << 16;

template <class Body>
void for_blocks(int64_t n, Body body) {
  if (n <= kGrain) {
    body(0, n);
    return;
  }
  int64_t blocks = (n + kGrain - 1) / kGrain;
  SONNX_OMP_FORK(sync);
#pragma omp parallel for schedule(static)
  for (int64_t b = 0; b < blocks; ++b) {
    SONNX_OMP_TASK(sync);
    body(b * kGrain, std::min(n, (b + 1) * kGrain));
  }
}

// y[i] = f(x[i]) in float.
template <class F>
void map_float(const float* x, float* y, int64_t n, F f) {
  for_blocks(n, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) y[i] = f(x[i]);
  });
}

// y[i] = f(x[i]) in double, rounded once (the reference's float_unary).
template <class F>
void map_double(const float* x, float* y, int64_t n, F f) {
  for_blocks(n, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) y[i] = static_cast<float>(f(static_cast<double>(x[i])));
  });
}

// 1/k! for k = 0..12, each the double nearest (k! is exact in double).
constexpr auto kInverseFactorial = [] {
  std::array<double, 13> c{};
  double f = 1;
  for (int k = 0; k < 13; ++k) {
    f *= k > 0 ? k : 1;
    c[static_cast<size_t>(k)] = 1.0 / f;
  }
  return c;
}();

// e^x without a library call, so the loops using it vectorize: x = k·ln2 + r with |r| <= ln2/2
// (ln2 split into a high part with trailing zero bits, so k·ln2_hi is exact, and a low part), e^r
// by its Taylor polynomial to r^Degree, times 2^k built in the exponent bits. x is clamped to ±200
// first, which keeps k in double's exponent range and still gives 0 or inf once rounded to float;
// NaN passes through. With Degree 12 (truncation below 2e-16) it is within a few double ULP of
// std::exp, so the float results round as the reference's except for a value within ~1e-15 of a
// rounding boundary (then 1 ULP apart); Softmax takes Degree 9 (truncation below 1e-11, still
// 2000 times finer than a float ULP).
template <int Degree = 12>
inline double exp_poly(double x) {
  static_assert(Degree >= 2 && Degree <= 12);
  constexpr double log2e = 1.4426950408889634, shifter = 0x1.8p52;  // adding shifter rounds to an integer
  constexpr double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
  double xc = x < -200.0 ? -200.0 : (x > 200.0 ? 200.0 : x);
  double kd = xc * log2e + shifter;
  uint64_t bits = std::bit_cast<uint64_t>(kd);  // the low bits hold k
  kd -= shifter;
  double r = (xc - kd * ln2_hi) - kd * ln2_lo;
  double p = kInverseFactorial[Degree];  // then Horner down to 1/0!
#pragma GCC unroll 12
  for (int j = Degree - 1; j >= 0; --j) p = p * r + kInverseFactorial[static_cast<size_t>(j)];
  return p * std::bit_cast<double>((bits + 1023) << 52);
}

double sigmoid_poly(double x) { return 1.0 / (1.0 + exp_poly(-x)); }

// tanh from e^(-2|x|); below 1/64 its Taylor series instead, where 1 - e would cancel.
double tanh_poly(double x) {
  double a = std::fabs(x), a2 = a * a;
  double e = exp_poly(-2.0 * a);
  double series = a * (1.0 + a2 * (-1.0 / 3 + a2 * (2.0 / 15 + a2 * (-17.0 / 315 + a2 * (62.0 / 2835)))));
  return std::copysign(a < 1.0 / 64 ? series : (1.0 - e) / (1.0 + e), x);
}

// erf(x) = x·P(x²) for |x| < 4, with P(u) = erf(√u)/√u (smooth, P(0) = 2/√π) interpolated at 26
// Chebyshev nodes of u ∈ [0, 16] from std::erf, the series then rewritten exactly as a polynomial
// in t = u/8 − 1 ∈ [−1, 1] and rounded to double (relative error below 1e-14 under Horner's rule,
// also for tiny x). From |x| = 4 on erf rounds to ±1 in float. NaN passes through (the comparison
// is false). Unrolled so the loops using it vectorize.
[[gnu::always_inline]] inline double erf_poly(double x) {
  static constexpr double c[26] = {0.3535309956434057,     -0.17657623330137562,   0.13167511689449732,
                                   -0.10771044252787708,   0.09020899412191605,    -0.07472786577164021,
                                   0.05988690479448044,    -0.0457651100136828,    0.03306063457996253,
                                   -0.022473571728846446,  0.014349587071839446,   -0.00860620491993831,
                                   0.004853600412388914,   -0.0025782737657559316, 0.0012924715711051247,
                                   -0.000612839760133983,  0.0002758193292650573,  -0.00011788172916847266,
                                   4.7468486837505436e-05, -1.831794249413248e-05, 7.205678579898981e-06,
                                   -2.606271524340488e-06, 6.346694695261807e-07,  -1.9033457367466042e-07,
                                   1.4836685015605047e-07, -4.740790105783022e-08};
  double t = x * x / 8.0 - 1.0;
  double p = c[25];
#pragma GCC unroll 25
  for (int j = 24; j >= 0; --j) p = p * t + c[j];
  return std::fabs(x) >= 4.0 ? std::copysign(1.0, x) : x * p;
}

// The e^x and erf loops clamp and select with comparisons, which GCC turns into vector selects
// only when floating point operations are assumed not to trap: this file is compiled with
// -fno-trapping-math (optimized/CMakeLists.txt; nothing reads the exception flags, and results are
// unchanged). They are also compiled for AVX-512 and AVX2, picked when the CPU has them (four and
// two times the lanes). The file is compiled with -ffp-contract=off too, so no variant fuses
// multiply-adds (AVX-512 would) and all give the same bits.
SONNX_SIMD_CLONES void sigmoid_loop(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = static_cast<float>(sigmoid_poly(x[i]));
}
SONNX_SIMD_CLONES void swish_loop(const float* x, float* y, int64_t n) {  // Sigmoid rounded to float, then the float Mul
  for (int64_t i = 0; i < n; ++i) y[i] = x[i] * static_cast<float>(sigmoid_poly(x[i]));
}
SONNX_SIMD_CLONES void tanh_loop(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = static_cast<float>(tanh_poly(x[i]));
}
SONNX_SIMD_CLONES void exp_loop(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = static_cast<float>(exp_poly(x[i]));
}
SONNX_SIMD_CLONES void erf_loop(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = static_cast<float>(erf_poly(x[i]));
}
SONNX_SIMD_CLONES void exp_minus_loop(const float* x, double m, double* e, int64_t n) {
  for (int64_t i = 0; i < n; ++i) e[i] = exp_poly<9>(static_cast<double>(x[i]) - m);
}
SONNX_SIMD_CLONES void exp_minus_each_loop(const float* x, const double* m, double* e, int64_t n) {
  for (int64_t i = 0; i < n; ++i) e[i] = exp_poly<9>(static_cast<double>(x[i]) - m[i]);
}

// Runs loop(x + b, y + b, e - b) over blocks.
void blocked(void (*loop)(const float*, float*, int64_t), const float* x, float* y, int64_t n) {
  for_blocks(n, [&](int64_t b, int64_t e) { loop(x + b, y + b, e - b); });
}

}  // namespace

void UnaryFn::apply(const float* x, float* y, int64_t n) const {
  const float a = alpha, b = beta;
  constexpr double inf = std::numeric_limits<double>::infinity();
  switch (op) {
    case UnaryOp::Relu: return map_float(x, y, n, [](float v) { return v < 0.0f ? 0.0f : v; });
    // alpha·x rounds the same in float as the reference's double product rounded to float.
    case UnaryOp::LeakyRelu: return map_float(x, y, n, [a](float v) { return v < 0.0f ? a * v : v; });
    case UnaryOp::Neg: return map_float(x, y, n, [](float v) { return -v; });
    case UnaryOp::Abs: return map_float(x, y, n, [](float v) { return std::fabs(v); });
    case UnaryOp::Clip:
      return map_float(x, y, n, [a, b](float v) {
        if (v < a) v = a;
        if (v > b) v = b;
        return v;
      });
    case UnaryOp::Identity: return map_float(x, y, n, [](float v) { return v; });
    // The product of two floats is exact in double, so pow(x, 2) rounded to float is x·x in float.
    case UnaryOp::Square: return map_float(x, y, n, [](float v) { return v * v; });
    // pow(x, 0.5) is sqrt(x) except pow(-0, 0.5) = +0 and pow(-inf, 0.5) = +inf.
    case UnaryOp::PowHalf: return map_double(x, y, n, [](double v) { return v == 0.0 ? 0.0 : v == -inf ? inf : std::sqrt(v); });
    case UnaryOp::Pow: return map_double(x, y, n, [e = static_cast<double>(a)](double v) { return std::pow(v, e); });
    case UnaryOp::Sigmoid: return blocked(sigmoid_loop, x, y, n);
    case UnaryOp::Swish: return blocked(swish_loop, x, y, n);
    case UnaryOp::Tanh: return blocked(tanh_loop, x, y, n);
    case UnaryOp::Erf: return blocked(erf_loop, x, y, n);
    case UnaryOp::Gelu: return map_double(x, y, n, [](double v) { return 0.5 * v * (1.0 + std::erf(v / std::numbers::sqrt2)); });
    case UnaryOp::GeluTanh: {
      const double k = std::sqrt(2.0 / std::numbers::pi);
      return map_double(x, y, n, [k](double v) { return 0.5 * v * (1.0 + std::tanh(k * (v + 0.044715 * v * v * v))); });
    }
    case UnaryOp::HardSwish:
      return map_double(x, y, n, [](double v) {
        double h = v / 6.0 + 0.5;
        if (std::isnan(h)) return h;
        h = h < 0.0 ? 0.0 : (h > 1.0 ? 1.0 : h);
        return v * h;
      });
    case UnaryOp::HardSigmoid:
      return map_double(x, y, n, [da = static_cast<double>(a), db = static_cast<double>(b)](double v) {
        double h = da * v + db;
        if (std::isnan(h)) return h;
        return h < 0.0 ? 0.0 : (h > 1.0 ? 1.0 : h);
      });
    case UnaryOp::Elu:
      return map_double(x, y, n, [da = static_cast<double>(a)](double v) { return v < 0.0 ? da * std::expm1(v) : v; });
    case UnaryOp::Exp: return blocked(exp_loop, x, y, n);
    case UnaryOp::Log: return map_double(x, y, n, [](double v) { return std::log(v); });
    case UnaryOp::Sqrt: return map_double(x, y, n, [](double v) { return std::sqrt(v); });
    case UnaryOp::Reciprocal: return map_double(x, y, n, [](double v) { return 1.0 / v; });
    case UnaryOp::Softplus:
      return map_double(x, y, n, [](double v) {
        if (std::isnan(v)) return v;
        return (v > 0.0 ? v : 0.0) + std::log1p(std::exp(-std::fabs(v)));
      });
  }
}

// Floats per chunk of a float16 run: its float copy stays in the L1 cache (16 KB on the stack).
constexpr int64_t kHalfChunk = 4096;

void UnaryFn::apply_half(const float16_t* x, float16_t* y, int64_t n) const {
  for_blocks(n, [&](int64_t b, int64_t e) {
    float buf[kHalfChunk];
    for (int64_t i = b; i < e; i += kHalfChunk) {
      int64_t m = std::min(kHalfChunk, e - i);
      half_to_float(x + i, buf, m);
      apply(buf, buf, m);  // m < kGrain: runs on this thread
      float_to_half(buf, y + i, m);
    }
  });
}

namespace {

// One kernel per element type (Float or Float16), as declared for X when it was made: the Clip
// bounds and the Pow exponent are read in that type.
class UnaryKernel final : public FastKernel {
 public:
  UnaryKernel(UnaryFn fn, std::string label, size_t out_rank, DType elem)
      : fn_(fn), label_(std::move(label)), out_rank_(out_rank), elem_(elem) {}

  std::vector<Shape> output_shapes(const std::vector<const Tensor*>& in) const override {
    const Tensor* x = arg(in, 0);
    if (!x) throw Trap(label_ + ": needs an input");
    // The executor gives a float16 kernel float16 X only when the inferred types were right.
    if (elem_ == DType::Float16 && x->dtype() != DType::Float16)
      throw InternalError(label_ + ": a float16 kernel given " + std::string(dtype_name(x->dtype())));
    Shape s = x->shape();
    // Pow's scalar exponent of a higher rank adds leading 1s (multidirectional broadcasting).
    if (s.size() < out_rank_) s.insert(s.begin(), out_rank_ - s.size(), 1);
    return {s};
  }

  void run(const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) const override {
    if (elem_ == DType::Float16) return fn_.apply_half(in[0]->data<float16_t>(), out[0]->data<float16_t>(), out[0]->size());
    fn_.apply(in[0]->data<float>(), out[0]->data<float>(), out[0]->size());
  }

  std::string name() const override { return "fast:unary"; }

  bool takes_float16() const override { return elem_ == DType::Float16; }
  DType output_dtype(const std::vector<const Tensor*>& in, size_t) const override {
    const Tensor* x = arg(in, 0);
    return x && x->dtype() == DType::Float16 ? DType::Float16 : DType::Float;
  }

  // A channel-blocked X gives Y in its layout: the function runs over the whole buffer (padding
  // lanes included, then zeroed again).
  // Passes a layout through: blocked inputs are taken only when the result may be written
  // blocked too (choose_layouts asks the readers first), else the producer writes plain itself.
  // Blocked layouts are float32 only.
  bool can_produce_blocked_output() const override { return elem_ == DType::Float; }
  bool accepts_layout(size_t i) const override { return blocked_out_ && i == 0; }
  void produce_blocked_output() override { blocked_out_ = true; }

  int64_t output_bytes(const std::vector<const Tensor*>& in, const std::vector<Layout>& layouts, size_t k) const override {
    if (auto b = blocked(in, layouts)) return b->floats() * static_cast<int64_t>(sizeof(float));
    if (output_dtype(in, k) == DType::Float16)
      return shape_size(output_shapes(in).at(k)) * static_cast<int64_t>(sizeof(float16_t));
    return FastKernel::output_bytes(in, layouts, k);
  }

  void run_with_layouts(const std::vector<const Tensor*>& in, const std::vector<Layout>& layouts,
                        const std::vector<Tensor*>& out, std::vector<Layout>& out_layouts) const override {
    out_layouts.assign(out.size(), nullptr);
    Layout l = layouts.empty() ? nullptr : layouts[0];
    if (!l) return run(in, out);
    if (auto b = blocked(in, layouts)) {
      fn_.apply(in[0]->data<float>(), out[0]->data<float>(), b->floats());
      zero_padding(*b, out[0]->data<float>());
      out_layouts[0] = l;
      return;
    }
    Tensor plain = layout_to_plain(*in[0], l);
    std::vector<const Tensor*> args(in);
    args[0] = &plain;
    run(args, out);
  }

 private:
  std::optional<ChannelBlocks> blocked(const std::vector<const Tensor*>& in, const std::vector<Layout>& layouts) const {
    if (!blocked_out_ || layouts.empty() || in.empty() || !in[0] || in[0]->shape().size() < out_rank_) return std::nullopt;
    return channel_blocks(in[0]->shape(), layouts[0]);
  }

  UnaryFn fn_;
  std::string label_;
  size_t out_rank_;
  DType elem_;                // X's element type: Float or Float16
  bool blocked_out_ = false;  // writes Y blocked when X is
};

// A constant scalar of element type `elem` (Float or Float16) as a float, if input i is one.
std::optional<float> constant_scalar(const FastKernelRequest& r, size_t i, DType elem) {
  const Tensor* t = constant_input(r, i);
  if (!t || t->dtype() != elem || t->size() != 1) return std::nullopt;
  return elem == DType::Float16 ? static_cast<float>(t->data<float16_t>()[0]) : t->data<float>()[0];
}

// A Clip bound: the float attribute before version 11, a constant scalar input of X's type from
// 11 on. For float16 the reference rounds an attribute to float16 (float's lowest and max, the
// defaults, become ±inf) and an omitted input is ±65504, float16's largest finite value.
bool clip_bound(const FastKernelRequest& r, const ClipParams& p, size_t i, DType elem, float& out) {
  const bool half = elem == DType::Float16, lower = i == 1;
  const float float_def = lower ? std::numeric_limits<float>::lowest() : std::numeric_limits<float>::max();
  if (!p.bounds_from_inputs) {
    out = lower ? p.min : p.max;
    if (half) out = static_cast<float>(float16_t(out));
    return true;
  }
  if (!has_node_input(*r.node, i)) {
    out = !half ? float_def : lower ? -65504.0f : 65504.0f;
    return true;
  }
  std::optional<float> v = constant_scalar(r, i, elem);  // the reference reports bad ones
  if (v) out = *v;
  return v.has_value();
}

// The function for a Pow node whose exponent is a constant scalar (version 7 on): float for a
// float X; for a float16 X float16, or float from version 12 on (the reference then allows other
// exponent types; before, it traps on them).
bool pow_fn(const FastKernelRequest& r, DType elem, UnaryFn& fn, size_t& out_rank) {
  const Tensor* e = constant_input(r, 1);
  if (r.version < 7 || r.node->inputs.size() != 2 || !e) return false;
  std::optional<float> exponent = constant_scalar(r, 1, elem);
  if (!exponent && elem == DType::Float16 && r.version >= 12) exponent = constant_scalar(r, 1, DType::Float);
  if (!exponent) return false;
  float p = *exponent;
  fn.op = p == 2.0f ? UnaryOp::Square : p == 0.5f ? UnaryOp::PowHalf : p == 1.0f ? UnaryOp::Identity : UnaryOp::Pow;
  fn.alpha = p;
  out_rank = static_cast<size_t>(e->rank());
  return true;
}

}  // namespace

void exp_minus(const float* x, double m, double* e, int64_t n) { exp_minus_loop(x, m, e, n); }
void exp_minus_each(const float* x, const double* m, double* e, int64_t n) { exp_minus_each_loop(x, m, e, n); }

namespace {
// The kernel of unary operator `op`, which the node's record names (the registrations below).
std::unique_ptr<FastKernel> make_unary_kernel(const FastKernelRequest& r, UnaryOp op) {
  const Node& n = *r.node;
  if (n.outputs.size() != 1 || !has_node_input(n, 0) || !input_is_float_or_half(r, 0)) return nullptr;
  const DType elem = input_is_float(r, 0) ? DType::Float : DType::Float16;
  UnaryFn fn;
  fn.op = op;
  size_t out_rank = 0;
  bool found = n.inputs.size() == 1;
  switch (op) {
    case UnaryOp::LeakyRelu:
    case UnaryOp::Elu:
    case UnaryOp::HardSigmoid:
      if (auto p = try_params<ActivationParams>(n, r.version)) {
        fn.alpha = p->alpha;
        fn.beta = p->beta;
      } else {
        found = false;
      }
      break;
    case UnaryOp::Gelu:
      if (auto p = try_params<GeluParams>(n, r.version)) fn.op = p->tanh ? UnaryOp::GeluTanh : UnaryOp::Gelu;
      else found = false;
      break;
    case UnaryOp::Clip: {
      std::optional<ClipParams> p = try_params<ClipParams>(n, r.version);
      found = p && n.inputs.size() <= (r.version < 11 ? 1u : 3u) && clip_bound(r, *p, 1, elem, fn.alpha) &&
              clip_bound(r, *p, 2, elem, fn.beta);
      break;
    }
    case UnaryOp::Pow: found = pow_fn(r, elem, fn, out_rank); break;
    default: break;
  }
  if (!found) return nullptr;
  return std::make_unique<UnaryKernel>(fn, n.label(), out_rank, elem);
}

template <UnaryOp op>
std::unique_ptr<FastKernel> make_unary(const FastKernelRequest& r) {
  return make_unary_kernel(r, op);
}
}  // namespace

SONNX_FAST_KERNEL("", "Relu", (1, 6, 13, 14), make_unary<UnaryOp::Relu>);
SONNX_FAST_KERNEL("", "Neg", (1, 6, 13), make_unary<UnaryOp::Neg>);
SONNX_FAST_KERNEL("", "Abs", (1, 6, 13), make_unary<UnaryOp::Abs>);
SONNX_FAST_KERNEL("", "Sigmoid", (1, 6, 13), make_unary<UnaryOp::Sigmoid>);
SONNX_FAST_KERNEL("", "Tanh", (1, 6, 13), make_unary<UnaryOp::Tanh>);
SONNX_FAST_KERNEL("", "Erf", (9, 13), make_unary<UnaryOp::Erf>);
SONNX_FAST_KERNEL("", "Exp", (1, 6, 13), make_unary<UnaryOp::Exp>);
SONNX_FAST_KERNEL("", "Log", (1, 6, 13), make_unary<UnaryOp::Log>);
SONNX_FAST_KERNEL("", "Sqrt", (1, 6, 13), make_unary<UnaryOp::Sqrt>);
SONNX_FAST_KERNEL("", "Reciprocal", (1, 6, 13), make_unary<UnaryOp::Reciprocal>);
SONNX_FAST_KERNEL("", "Softplus", (1, 22), make_unary<UnaryOp::Softplus>);
SONNX_FAST_KERNEL("", "HardSwish", (14, 22), make_unary<UnaryOp::HardSwish>);
SONNX_FAST_KERNEL("", "LeakyRelu", (1, 6, 16), make_unary<UnaryOp::LeakyRelu>);
SONNX_FAST_KERNEL("", "Elu", (1, 6, 22), make_unary<UnaryOp::Elu>);
SONNX_FAST_KERNEL("", "HardSigmoid", (1, 6, 22), make_unary<UnaryOp::HardSigmoid>);
SONNX_FAST_KERNEL("", "Gelu", (20), make_unary<UnaryOp::Gelu>);
SONNX_FAST_KERNEL("", "Clip", (1, 6, 11, 12, 13), make_unary<UnaryOp::Clip>);
SONNX_FAST_KERNEL("", "Pow", (1, 7, 12, 13, 15), make_unary<UnaryOp::Pow>);

}  // namespace sonnx::fast
