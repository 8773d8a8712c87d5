// Enclosures of RNN, GRU and LSTM (enclose/enclose_recurrent.cpp): on small random instances
// (every direction, linear_before_reset, biases, initial states, sequence_lens, peepholes, clip,
// layout, the activations with their alpha and beta) the real enclosure holds the recurrence
// evaluated in MPFR at 200 bits and is narrow, and the admissible one holds the reference's float32
// result.
#include <algorithm>
#include <cstdio>

#include "enclose_test_util.h"
#include "enclose/type_rounding.h"
#include "sonnx/errors.h"

namespace sonnx::enclose {
namespace {

using sonnx::testing::attr_float;
using sonnx::testing::attr_floats;
using sonnx::testing::attr_int;
using sonnx::testing::attr_string;
using sonnx::testing::attr_strings;

// An activation as the `activations` attribute names it, with the alpha and beta it consumes.
struct Act {
  std::string name;
  float alpha = 0, beta = 0;
  bool takes_alpha() const {
    return name == "Affine" || name == "LeakyRelu" || name == "ThresholdedRelu" || name == "ScaledTanh" ||
           name == "HardSigmoid" || name == "Elu";
  }
  bool takes_beta() const { return name == "Affine" || name == "ScaledTanh" || name == "HardSigmoid"; }
};

// The elementary functions and comparisons of the two evaluations: MPFR at 200 bits (its rounding
// errors over a few steps stay far below a double ulp), and float32.
RealAt<200> tanh_of(const RealAt<200>& x) { return x.apply(mpfr_tanh); }
RealAt<200> exp_of(const RealAt<200>& x) { return x.apply(mpfr_exp); }
RealAt<200> expm1_of(const RealAt<200>& x) { return x.apply(mpfr_expm1); }
RealAt<200> log1p_of(const RealAt<200>& x) { return x.apply(mpfr_log1p); }
RealAt<200> fma_of(const RealAt<200>& a, const RealAt<200>& b, const RealAt<200>& c) { return a * b + c; }
bool less(const RealAt<200>& x, double y) { return x < RealAt<200>(y); }
float tanh_of(float x) { return std::tanh(x); }
float exp_of(float x) { return std::exp(x); }
float expm1_of(float x) { return std::expm1(x); }
float log1p_of(float x) { return std::log1p(x); }
float fma_of(float a, float b, float c) { return std::fma(a, b, c); }
bool less(float x, double y) { return x < y; }

// support/rnn.h's functions (Elu by expm1, HardSigmoid and Affine by a fused multiply-add: in float32
// not as the reference computes them).
template <class N>
N activate(const Act& a, const N& x) {
  const N al(a.alpha), be(a.beta), zero(0), one(1);
  const std::string& n = a.name;
  if (n == "Relu") return less(x, 0) ? zero : x;
  if (n == "Tanh") return tanh_of(x);
  if (n == "Sigmoid") return one / (one + exp_of(zero - x));
  if (n == "Affine") return fma_of(al, x, be);
  if (n == "LeakyRelu") return less(x, 0) ? al * x : x;
  if (n == "ThresholdedRelu") return less(x, a.alpha) ? zero : x;
  if (n == "ScaledTanh") return al * tanh_of(be * x);
  if (n == "HardSigmoid") {
    N v = fma_of(al, x, be);
    return less(v, 0) ? zero : less(v, 1) ? v : one;
  }
  if (n == "Elu") return less(x, 0) ? al * expm1_of(x) : x;
  if (n == "Softsign") return x / (one + (less(x, 0) ? zero - x : x));
  if (n == "Softplus") return log1p_of(exp_of(x));
  ADD_FAILURE() << "no activation " << n;
  return x;
}

// A random RNN, GRU or LSTM instance, its inputs in layout 0 (time-major).
struct Instance {
  bool lstm = false, rnn = false;
  int64_t opset = 22, layout = 0, S = 3, B = 2, I = 3, H = 3, nd = 1;
  std::string direction = "forward";
  bool linear_before_reset = false, bias = true, initial = true, seq_lens = false, peephole = false, input_forget = false;
  float clip = 0;               // none
  std::vector<Act> acts;        // empty: the defaults
  bool duplicate_acts = false;  // bidirectional: one list for both directions
  std::vector<float> X, W, R, Bias, H0, C0, P;
  std::vector<int32_t> lens;

  int64_t gates() const { return rnn ? 1 : lstm ? 4 : 3; }
  int64_t len(int64_t b) const { return seq_lens ? lens[static_cast<size_t>(b)] : S; }
  // The activation of direction d at position k (the defaults where none are given).
  Act act(int64_t d, size_t k) const {
    if (acts.empty()) return {k == 0 && !rnn ? "Sigmoid" : "Tanh"};
    size_t per = rnn ? 1 : lstm ? 3 : 2;
    return acts[(duplicate_acts ? 0 : static_cast<size_t>(d) * per) + k];
  }
};

std::vector<float> uniform(std::mt19937& rng, int64_t n, float scale) {
  std::uniform_real_distribution<float> u(-scale, scale);
  std::vector<float> v(static_cast<size_t>(n));
  for (auto& x : v) x = u(rng);
  return v;
}

void fill(Instance& t, std::mt19937& rng) {
  t.nd = t.direction == "bidirectional" ? 2 : 1;
  const int64_t G = t.gates(), H = t.H;
  t.X = uniform(rng, t.S * t.B * t.I, 2);
  t.W = uniform(rng, t.nd * G * H * t.I, 1);
  t.R = uniform(rng, t.nd * G * H * H, 1);
  t.Bias = t.bias ? uniform(rng, t.nd * 2 * G * H, 1) : std::vector<float>(static_cast<size_t>(t.nd * 2 * G * H), 0);
  t.H0 = t.initial ? uniform(rng, t.nd * t.B * H, 1) : std::vector<float>(static_cast<size_t>(t.nd * t.B * H), 0);
  t.C0 = t.initial ? uniform(rng, t.nd * t.B * H, 1) : std::vector<float>(static_cast<size_t>(t.nd * t.B * H), 0);
  t.P = t.peephole ? uniform(rng, t.nd * 3 * H, 1) : std::vector<float>(static_cast<size_t>(t.nd * 3 * H), 0);
  t.lens.clear();
  for (int64_t b = 0; b < t.B; ++b) t.lens.push_back(static_cast<int32_t>(rng() % static_cast<uint32_t>(t.S + 1)));
}

// The recurrence as reference/ops/GRU.cpp and LSTM.cpp define it: Y [S][nd][B][H], Y_h and Y_c
// [nd][B][H]. In MPFR at 200 bits (far closer to the exact value than a double ulp), or in float32
// arranged otherwise than the reference (`other`: every sum backwards, the biases first; the GRU
// update as h̃ + z ⊙ (H − h̃); the LSTM cell by a fused multiply-add), which the admissible
// enclosure must hold as well.
template <class N>
struct Result {
  std::vector<N> Y, Yh, Yc;
};

template <class N>
Result<N> evaluate(const Instance& t, bool other = false) {
  const int64_t S = t.S, Bn = t.B, I = t.I, H = t.H, nd = t.nd, G = t.gates();
  Result<N> e;
  e.Y.assign(static_cast<size_t>(S * nd * Bn * H), N(0));
  for (float v : t.H0) e.Yh.emplace_back(v);
  for (float v : t.C0) e.Yc.emplace_back(v);
  auto clipped = [&](const N& v) {
    if (t.clip == 0) return v;
    if (less(v, -t.clip)) return N(-t.clip);
    if (!less(v, t.clip)) return N(t.clip);
    return v;
  };
  auto sum = [&](std::vector<N> terms) {
    if (other) std::reverse(terms.begin(), terms.end());
    N s(0);
    for (const N& x : terms) s = s + x;
    return s;
  };
  for (int64_t d = 0; d < nd; ++d)
    for (int64_t b = 0; b < Bn; ++b) {
      N* h = e.Yh.data() + (d * Bn + b) * H;
      N* c = e.Yc.data() + (d * Bn + b) * H;
      const bool backwards = t.direction == "reverse" || d == 1;
      for (int64_t k = 0; k < t.len(b); ++k) {
        const int64_t step = backwards ? t.len(b) - 1 - k : k;
        const float* x = t.X.data() + (step * Bn + b) * I;
        const float* Wb = t.Bias.data() + d * 2 * G * H;
        const float* Rb = Wb + G * H;
        const float* W = t.W.data() + d * G * H * I;
        const float* R = t.R.data() + d * G * H * H;
        // Row `row` of W·x (+ R·v) + Wb (+ Rb), and any more terms.
        auto pre = [&](int64_t row, const N* v, bool with_rb, std::vector<N> terms = {}) {
          for (int64_t i = 0; i < I; ++i) terms.push_back(N(W[row * I + i]) * N(x[i]));
          if (v)
            for (int64_t i = 0; i < H; ++i) terms.push_back(N(R[row * H + i]) * v[i]);
          if (with_rb) terms.push_back(N(Rb[row]));
          terms.push_back(N(Wb[row]));
          return sum(terms);
        };
        std::vector<N> next(static_cast<size_t>(H)), cn(static_cast<size_t>(H));
        if (t.rnn) {
          for (int64_t j = 0; j < H; ++j) next[static_cast<size_t>(j)] = activate(t.act(d, 0), clipped(pre(j, h, true)));
        } else if (!t.lstm) {
          std::vector<N> z, r, rh;
          for (int64_t j = 0; j < H; ++j) {
            z.push_back(activate(t.act(d, 0), clipped(pre(j, h, true))));
            r.push_back(activate(t.act(d, 0), clipped(pre(H + j, h, true))));
          }
          for (int64_t j = 0; j < H; ++j) rh.push_back(r[static_cast<size_t>(j)] * h[j]);
          for (int64_t j = 0; j < H; ++j) {
            const size_t u = static_cast<size_t>(j);
            N p(0);
            if (t.linear_before_reset) {
              std::vector<N> inner = {N(Rb[2 * H + j])};
              for (int64_t i = 0; i < H; ++i) inner.push_back(N(R[(2 * H + j) * H + i]) * h[i]);
              p = pre(2 * H + j, nullptr, false, {r[u] * sum(inner)});
            } else {
              p = pre(2 * H + j, rh.data(), true);
            }
            N hh = activate(t.act(d, 1), clipped(p));
            next[u] = other ? hh + z[u] * (h[j] - hh) : (N(1) - z[u]) * hh + z[u] * h[j];
          }
        } else {
          const float* Pi = t.P.data() + d * 3 * H;
          for (int64_t j = 0; j < H; ++j) {
            const size_t u = static_cast<size_t>(j);
            N gi = activate(t.act(d, 0), clipped(pre(j, h, true, {N(Pi[j]) * c[j]})));
            N gf = t.input_forget ? N(1) - gi
                                  : activate(t.act(d, 0), clipped(pre(2 * H + j, h, true, {N(Pi[2 * H + j]) * c[j]})));
            N gc = activate(t.act(d, 1), clipped(pre(3 * H + j, h, true)));
            cn[u] = other ? fma_of(gf, c[j], gi * gc) : gf * c[j] + gi * gc;
          }
          for (int64_t j = 0; j < H; ++j) {
            const size_t u = static_cast<size_t>(j);
            N o = activate(t.act(d, 0), clipped(pre(H + j, h, true, {N(Pi[H + j]) * cn[u]})));
            next[u] = o * activate(t.act(d, 2), clipped(cn[u]));
          }
          std::copy(cn.begin(), cn.end(), c);
        }
        std::copy(next.begin(), next.end(), h);
        std::copy(h, h + H, e.Y.begin() + ((step * nd + d) * Bn + b) * H);
      }
    }
  return e;
}

// The values as a tensor of `type` (float, float16 or double).
Value tensor_of(const Shape& shape, const std::vector<float>& v, DType type) {
  if (type == DType::Float16) {
    std::vector<float16_t> h;
    for (float x : v) h.push_back(float16_t(x));
    return Value(Tensor::from_vector<float16_t>(shape, h));
  }
  if (type == DType::Double) return Value(Tensor::from_vector<double>(shape, std::vector<double>(v.begin(), v.end())));
  return Value(Tensor::from_vector<float>(shape, v));
}

// The one-node model of the instance, in its layout, its float inputs of `type`.
OneNodeModel model(const Instance& t, DType type = DType::Float) {
  auto f32 = [type](const Shape& shape, const std::vector<float>& v) { return tensor_of(shape, v, type); };
  const int64_t S = t.S, Bn = t.B, I = t.I, H = t.H, nd = t.nd, G = t.gates();
  std::vector<float> X = t.X, H0 = t.H0, C0 = t.C0;
  if (t.layout == 1) {  // [S][B][I] → [B][S][I]; [nd][B][H] → [B][nd][H]
    for (int64_t s = 0; s < S; ++s)
      for (int64_t b = 0; b < Bn; ++b)
        for (int64_t i = 0; i < I; ++i)
          X[static_cast<size_t>((b * S + s) * I + i)] = t.X[static_cast<size_t>((s * Bn + b) * I + i)];
    for (int64_t d = 0; d < nd; ++d)
      for (int64_t b = 0; b < Bn; ++b)
        for (int64_t h = 0; h < H; ++h) {
          H0[static_cast<size_t>((b * nd + d) * H + h)] = t.H0[static_cast<size_t>((d * Bn + b) * H + h)];
          C0[static_cast<size_t>((b * nd + d) * H + h)] = t.C0[static_cast<size_t>((d * Bn + b) * H + h)];
        }
  }
  Shape state = t.layout == 1 ? Shape{Bn, nd, H} : Shape{nd, Bn, H};
  std::vector<Value> in = {f32(t.layout == 1 ? Shape{Bn, S, I} : Shape{S, Bn, I}, X),
                           f32({nd, G * H, I}, t.W),
                           f32({nd, G * H, H}, t.R),
                           t.bias ? f32({nd, 2 * G * H}, t.Bias) : Value(),
                           t.seq_lens ? Value(Tensor::from_vector<int32_t>({Bn}, t.lens)) : Value(),
                           t.initial ? f32(state, H0) : Value()};
  if (t.lstm) {
    in.push_back(t.initial ? f32(state, C0) : Value());
    in.push_back(t.peephole ? f32({nd, 3 * H}, t.P) : Value());
  }
  std::vector<onnx::AttributeProto> attrs = {attr_string("direction", t.direction), attr_int("hidden_size", H)};
  if (t.opset >= 14) attrs.push_back(attr_int("layout", t.layout));
  if (!t.lstm && !t.rnn) attrs.push_back(attr_int("linear_before_reset", t.linear_before_reset));
  if (t.lstm && t.input_forget) attrs.push_back(attr_int("input_forget", 1));
  if (t.clip > 0) attrs.push_back(attr_float("clip", t.clip));
  if (!t.acts.empty()) {
    std::vector<std::string> names;
    std::vector<float> alphas, betas;
    for (const Act& a : t.acts) {
      names.push_back(a.name);
      if (a.takes_alpha()) alphas.push_back(a.alpha);
      if (a.takes_beta()) betas.push_back(a.beta);
    }
    attrs.push_back(attr_strings("activations", names));
    if (!alphas.empty()) attrs.push_back(attr_floats("activation_alpha", alphas));
    if (!betas.empty()) attrs.push_back(attr_floats("activation_beta", betas));
  }
  return one_node_model(t.rnn ? "RNN" : t.lstm ? "LSTM" : "GRU", t.opset, in, attrs, t.lstm ? 3 : 2);
}

// The index in the model's output k of element i of the layout-0 result.
int64_t output_index(const Instance& t, size_t k, int64_t i) {
  if (t.layout == 0) return i;
  const int64_t H = t.H, Bn = t.B, nd = t.nd;
  int64_t h = i % H, b = i / H % Bn, d = i / (H * Bn) % nd, s = i / (H * Bn * nd);
  return k == 0 ? ((b * t.S + s) * nd + d) * H + h : (b * nd + d) * H + h;
}

std::string describe(const Instance& t) {
  std::string s = std::string(t.rnn    ? "RNN"
                              : t.lstm ? "LSTM"
                                       : "GRU") +
                  "-" + std::to_string(t.opset) + " " + t.direction + " layout " + std::to_string(t.layout) +
                  (t.linear_before_reset ? " lbr" : "") + (t.bias ? " B" : "") + (t.initial ? " initial" : "") +
                  (t.seq_lens ? " seq_lens" : "") + (t.peephole ? " P" : "") + (t.input_forget ? " input_forget" : "") +
                  (t.clip > 0 ? " clip" : "");
  for (const Act& a : t.acts) s += " " + a.name;
  return s;
}

// A random instance of the kind the seed picks: every direction, with and without each optional input.
Instance random_instance(std::mt19937& rng, bool lstm, int n, bool rnn = false) {
  Instance t;
  t.lstm = lstm;
  t.rnn = rnn;
  const int64_t opsets[] = {7, 14, 22};
  t.opset = rnn && n % 4 == 3 ? 1 : opsets[n % 3];  // RNN-1 differs from RNN-7 only by an unused attribute
  const char* dirs[] = {"forward", "reverse", "bidirectional"};
  t.direction = dirs[(n / 3) % 3];
  t.layout = t.opset >= 14 ? (n / 2) % 2 : 0;
  t.linear_before_reset = !rnn && (n / 5) % 2;
  t.bias = n % 4 != 1;
  t.initial = n % 5 != 2;
  t.seq_lens = n % 3 == 1;
  t.peephole = lstm && n % 2 == 0;
  t.input_forget = lstm && n % 7 == 3;
  t.S = 1 + static_cast<int64_t>(rng() % 4);
  t.B = 1 + static_cast<int64_t>(rng() % 3);
  t.I = 1 + static_cast<int64_t>(rng() % 4);
  t.H = 1 + static_cast<int64_t>(rng() % 4);
  fill(t, rng);
  return t;
}

// Instances with other activations (and clip): each of support/rnn.h's functions appears.
std::vector<Instance> activation_instances(std::mt19937& rng) {
  const std::vector<std::vector<Act>> gru_lists = {
      {{"Relu"}, {"Tanh"}},
      {{"HardSigmoid", 0.3f, 0.4f}, {"Softsign"}},
      {{"Sigmoid"}, {"Affine", 0.7f, -0.2f}},
      {{"Sigmoid"}, {"LeakyRelu", 0.05f}},
      {{"Sigmoid"}, {"ThresholdedRelu", 0.25f}},
      {{"Sigmoid"}, {"ScaledTanh", 1.5f, 0.8f}},
      {{"Sigmoid"}, {"Elu", 0.9f}},
      {{"Sigmoid"}, {"Softplus"}, {"HardSigmoid", 0.2f, 0.5f}, {"Elu", 1.2f}},  // bidirectional: per direction
  };
  const std::vector<std::vector<Act>> lstm_lists = {
      {{"HardSigmoid", 0.2f, 0.5f}, {"Tanh"}, {"Softsign"}},
      {{"Sigmoid"}, {"Elu", 0.5f}, {"ScaledTanh", 0.9f, 1.1f}},
      {{"Sigmoid"}, {"Affine", 0.5f, 0.1f}, {"LeakyRelu", 0.1f}},
      {{"Sigmoid"}, {"Relu"}, {"Softplus"}, {"Sigmoid"}, {"ThresholdedRelu", 0.1f}, {"Tanh"}},  // per direction
  };
  // RNN: one function per direction (two lists: per direction, bidirectional).
  const std::vector<std::vector<Act>> rnn_lists = {
      {{"Relu"}},
      {{"Sigmoid"}},
      {{"Affine", 0.7f, -0.2f}},
      {{"Softsign"}, {"Elu", 0.9f}},
      {{"ScaledTanh", 1.5f, 0.8f}, {"HardSigmoid", 0.3f, 0.4f}},
      {{"LeakyRelu", 0.05f}},
      {{"ThresholdedRelu", 0.25f}},
      {{"Softplus"}},
  };
  std::vector<Instance> out;
  for (size_t k = 0; k < rnn_lists.size(); ++k) {
    Instance t = random_instance(rng, false, static_cast<int>(k), true);
    t.acts = rnn_lists[k];
    bool per_direction = t.acts.size() == 2;
    t.direction = per_direction || k % 3 == 2 ? "bidirectional" : k % 2 ? "reverse" : "forward";
    t.duplicate_acts = t.direction == "bidirectional" && !per_direction;
    t.clip = k % 4 == 1 ? 1.5f : 0;
    fill(t, rng);
    out.push_back(t);
  }
  for (int k = 0; k < 12; ++k) {
    bool lstm = k >= static_cast<int>(gru_lists.size());
    const std::vector<Act>& acts = lstm ? lstm_lists[static_cast<size_t>(k) - gru_lists.size()]
                                        : gru_lists[static_cast<size_t>(k)];
    Instance t = random_instance(rng, lstm, k);
    t.acts = acts;
    bool per_direction = acts.size() == (lstm ? 6u : 4u);
    t.direction = per_direction || k % 3 == 2 ? "bidirectional" : k % 2 ? "reverse" : "forward";
    t.duplicate_acts = t.direction == "bidirectional" && !per_direction;
    t.clip = k % 4 == 1 ? 1.5f : 0;
    fill(t, rng);
    out.push_back(t);
  }
  return out;
}

std::vector<Instance> instances() {
  std::mt19937 rng(2024);
  std::vector<Instance> all;
  for (int n = 0; n < 60; ++n) all.push_back(random_instance(rng, n % 2 == 1, n / 2));
  for (int n = 0; n < 24; ++n) all.push_back(random_instance(rng, false, n, true));
  for (Instance& t : activation_instances(rng)) all.push_back(t);
  return all;
}

// The widths of the enclosures of one semantics, in units of the last place of a type of
// `precision` bits: relative to each element's magnitude, and to the larger of it and 1 (the states
// here are of the order of 1, as the inputs and weights are: an absolute width against the scale of
// the recurrence; an output near 0 comes of cancellation in a pre-activation, whose rounding error
// is bounded by the magnitudes summed, so its width relative to itself says little).
struct Widths {
  int precision;
  std::vector<double> relative, at_unit_scale;
  std::string widest;  // where the widest at unit scale is
  double widest_width = -1;
  void add(Interval i, const std::string& where) {
    if (i.lo == i.hi) return;  // exact (a zero past a sequence's length)
    double m = magnitude(i);
    relative.push_back(i.width() / std::ldexp(1.0, std::ilogb(m) - precision + 1));
    double w = i.width() / std::ldexp(1.0, std::ilogb(std::max(m, 1.0)) - precision + 1);
    if (w > widest_width) {
      widest_width = w;
      widest = where;
    }
    at_unit_scale.push_back(w);
  }
  static double quantile(std::vector<double> v, double q) {
    std::sort(v.begin(), v.end());
    return v[static_cast<size_t>(q * static_cast<double>(v.size() - 1))];
  }
  double max_at_unit_scale() const { return quantile(at_unit_scale, 1); }
  void print(const std::string& what) const {
    std::printf("[ measured ] %s widths in ulps (%d bits), %zu elements: relative to |y|: median %.1f, 99%% %.1f, max %.1f; "
                "at max(|y|, 1): median %.1f, max %.1f (%s)\n",
                what.c_str(), precision, relative.size(), quantile(relative, 0.5), quantile(relative, 0.99),
                quantile(relative, 1), quantile(at_unit_scale, 0.5), quantile(at_unit_scale, 1), widest.c_str());
  }
};

// Under `real`: holds the MPFR recurrence; narrow.
TEST(EncloseRecurrent, RealEnclosureHoldsTheRecurrenceInMpfrAndIsNarrow) {
  Widths widths{53, {}, {}, {}, -1};
  for (const Instance& t : instances()) {
    SCOPED_TRACE(describe(t));
    OneNodeModel m = model(t);
    std::map<std::string, Bounds> e = enclose_model(m.model, m.feed, Semantics::Real);
    Result<RealAt<200>> x = evaluate<RealAt<200>>(t);
    const std::vector<RealAt<200>>* exact[] = {&x.Y, &x.Yh, &x.Yc};
    for (size_t k = 0; k < (t.lstm ? 3u : 2u); ++k) {
      const Bounds& b = e.at("out" + std::to_string(k));
      ASSERT_EQ(b.lo.size(), static_cast<int64_t>(exact[k]->size()));
      for (int64_t i = 0; i < b.lo.size(); ++i) {
        const RealAt<200>& v = (*exact[k])[static_cast<size_t>(i)];
        Interval r = bound_at(b, output_index(t, k, i));
        ASSERT_TRUE(v.inside(r)) << "output " << k << " element " << i << ": " << v.to_double() << " outside [" << r.lo << ", "
                                 << r.hi << "]";
        widths.add(r, describe(t) + ", output " + std::to_string(k));
      }
    }
  }
  widths.print("real");
  // The a priori bound of each pre-activation's rounding (γ_(n+9)·Σ|terms|, dot.h) and its
  // propagation through up to four steps.
  EXPECT_LE(widths.max_at_unit_scale(), 1024);
}

// Under `admissible`: holds the reference's own float32 result, a float32 evaluation arranged
// otherwise (sums backwards, another GRU update, fused multiply-adds, expm1), and the real enclosure.
TEST(EncloseRecurrent, AdmissibleEnclosureHoldsTheFloat32Results) {
  Widths widths{24, {}, {}, {}, -1};
  for (const Instance& t : instances()) {
    SCOPED_TRACE(describe(t));
    OneNodeModel m = model(t);
    std::map<std::string, Bounds> adm = enclose_model(m.model, m.feed, Semantics::Admissible);
    std::map<std::string, Bounds> real = enclose_model(m.model, m.feed, Semantics::Real);
    NamedValues ref = Interpreter(m.model).run(m.feed);
    Result<float> other = evaluate<float>(t, true);
    const std::vector<float>* others[] = {&other.Y, &other.Yh, &other.Yc};
    for (size_t k = 0; k < (t.lstm ? 3u : 2u); ++k) {
      std::string name = "out" + std::to_string(k);
      const Bounds &a = adm.at(name), &r = real.at(name);
      const Tensor& y = ref.at(name).tensor;
      ASSERT_EQ(a.type, DType::Float);
      ASSERT_EQ(y.shape(), a.lo.shape());
      for (int64_t i = 0; i < y.size(); ++i) {
        Interval ai = bound_at(a, i), ri = bound_at(r, i);
        ASSERT_TRUE(ai.contains(y.as_double(i)))
            << name << " element " << i << ": " << y.as_double(i) << " outside [" << ai.lo << ", " << ai.hi << "]";
        ASSERT_TRUE(ai.lo <= ri.lo && ri.hi <= ai.hi) << name << " element " << i;
        widths.add(ai, describe(t) + ", output " + std::to_string(k));
      }
      for (int64_t i = 0; i < y.size(); ++i) {
        Interval ai = bound_at(a, output_index(t, k, i));
        float v = (*others[k])[static_cast<size_t>(i)];
        ASSERT_TRUE(ai.contains(v)) << name << " element " << i << " (other arrangement): " << v << " outside [" << ai.lo << ", "
                                    << ai.hi << "]";
      }
    }
  }
  widths.print("admissible");
  EXPECT_LE(widths.max_at_unit_scale(), 1024);
}

// In float16 (which the reference computes in float32, rounding only the outputs) and in double.
TEST(EncloseRecurrent, AdmissibleEnclosureHoldsTheReferenceInFloat16AndDouble) {
  for (DType type : {DType::Float16, DType::Double}) {
    Widths widths{type == DType::Float16 ? 11 : 53, {}, {}, {}, -1};
    for (const Instance& t : instances()) {
      SCOPED_TRACE(describe(t) + " " + std::string(dtype_name(type)));
      OneNodeModel m = model(t, type);
      std::map<std::string, Bounds> adm = enclose_model(m.model, m.feed, Semantics::Admissible);
      NamedValues ref = Interpreter(m.model).run(m.feed);
      for (size_t k = 0; k < (t.lstm ? 3u : 2u); ++k) {
        std::string name = "out" + std::to_string(k);
        const Bounds& a = adm.at(name);
        const Tensor& y = ref.at(name).tensor;
        ASSERT_EQ(a.type, type);
        for (int64_t i = 0; i < y.size(); ++i) {
          Interval ai = bound_at(a, i);
          ASSERT_TRUE(ai.contains(y.as_double(i)))
              << name << " element " << i << ": " << y.as_double(i) << " outside [" << ai.lo << ", " << ai.hi << "]";
          widths.add(ai, describe(t) + ", output " + std::to_string(k));
        }
      }
    }
    widths.print(std::string(dtype_name(type)));
    // In double the enclosure's own roundings (as under `real`) count as much as the type's.
    EXPECT_LE(widths.max_at_unit_scale(), 2048);  // RNN with the unbounded Affine activation: ~1000 in float16
  }
}

// An activation the reference does not know is refused, by its name (the reference's own reader traps).
TEST(EncloseRecurrent, AnUnknownActivationIsRefusedByName) {
  std::mt19937 rng(5);
  for (bool lstm : {false, true}) {
    Instance t = random_instance(rng, lstm, 0);
    t.acts = lstm ? std::vector<Act>{{"Sigmoid"}, {"Gelu"}, {"Tanh"}} : std::vector<Act>{{"Sigmoid"}, {"Gelu"}};
    t.direction = "forward";
    fill(t, rng);
    OneNodeModel m = model(t);
    try {
      enclose_model(m.model, m.feed, Semantics::Real);
      ADD_FAILURE() << "no refusal";
    } catch (const std::exception& e) {
      EXPECT_NE(std::string(e.what()).find("Gelu"), std::string::npos) << e.what();
    }
  }
}

// A float input of another element type than X is refused (the reader sees only float64 bounds).
TEST(EncloseRecurrent, InputsOfAnotherElementTypeAreRefused) {
  std::mt19937 rng(6);
  Instance t = random_instance(rng, false, 0);
  OneNodeModel m = model(t);
  const Tensor& w = m.feed.at("in1").tensor;
  std::vector<double> wd;
  for (int64_t i = 0; i < w.size(); ++i) wd.push_back(w.as_double(i));
  m.feed["in1"] = Value(Tensor::from_vector<double>(w.shape(), wd));
  EXPECT_THROW(enclose_model(m.model, m.feed, Semantics::Real), Trap);
}

}  // namespace
}  // namespace sonnx::enclose
