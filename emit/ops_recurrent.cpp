// C templates of the SONNX profile's recurrent operators: LSTM-22 and GRU-22, float, double,
// float16 and bfloat16 (reference/ops/LSTM.cpp, reference/ops/GRU.cpp and their common part
// reference/ops/support/rnn.h; attributes read with RecurrentParams,
// reference/ops/params/recurrent.h, as the kernels do).
//
// Exact mode computes as the reference does: in the kernels' compute_t<T> (T for float and
// double, float for float16 and bfloat16), every matrix-vector product a sum from +0 in column
// order (support::dot_row), the gate sums in the kernels' order (W·x + R·h + Wb + Rb, then the
// peephole term; GRU's candidate gate + Rbh + Wbh, or W·x + r·(R·h + Rbh) + Wbh with
// linear_before_reset), clip as RnnProblem::clipped, the activation functions as
// RnnActivation::operator() (the same libm function in the compute type: expf/tanhf/log1pf for
// float), state updated per direction, then per batch row, then per time step, as
// support::run_rnn. An absent B, P, initial_h or initial_c is the reference's zeros, added and
// multiplied as the reference does (`v + 0`, `0 * c`), so signed zeros and NaNs come out the same.
// Every product is a statement of its own, so that no C compiler contracts a product and a sum
// into an fma (clang's default -ffp-contract=on does so within one expression), and the clip
// bounds are read once through volatile locals, so that no compiler folds a libm call at a bound
// at compile time (GCC -O2 does so with correctly rounded values, which glibc's tanhf need not
// return). Fast mode emits the exact form (admissible).
//
// float16 and bfloat16 (held as their uint16_t bits): the reference converts every input to float
// once (read_rnn_inputs' to_compute, exact), runs the whole recurrence in float (the states h and
// c stay in float from one time step to the next, never rounded to T), and rounds only the
// outputs, each element once from float (run_rnn's to_storage<T>(float)). The C reads each input
// element as its float value (NodeEmitter::load) where the float code reads it, computes as the
// float code does (the same float activation helpers), keeps h, c and the new h in local float
// arrays, and stores Y's row of a step, Y_h and Y_c through NodeEmitter::store from float (the
// zeros of the unreached steps of Y likewise: 0.0f's bits).
//
// The state of one (direction, batch row) lives in the output buffers where they are produced
// (float and double): h in Y_h's row, c in Y_c's row, the new h of a step in Y's row of that time
// step (LSTM; GRU with linear_before_reset); what has no output to live in is a local array of
// hidden_size elements of the compute type (float16 and bfloat16: every state vector, since the
// outputs hold the rounded values). Local bytes: (local vectors)·hidden_size·compute type's size,
// + 8·batch_size for the table of sequence lengths when they differ; the limit is 4096. With every
// output present a float or double LSTM has no local vector and a GRU two (z, r); at worst (and
// always for float16 and bfloat16) an LSTM has 3 (h, c, new h) and a GRU 4 (h, z, r, new h), so
// hidden_size ≤ 256 computed in float (double ≤ 128) always fits when the sequence lengths agree.
// Refused: an element type other than float, double, float16 or bfloat16; a sequence_lens
// computed at run time (every loop bound is a literal) or with a value outside [0, seq_length]; an
// empty dimension (seq_length, batch_size, input_size or hidden_size 0); local arrays (state not
// in outputs, and a table of the sequence lengths when they differ) above 4096 bytes; and whatever
// the reference kernel rejects (shapes, element types, attributes: RecurrentParams::read refuses
// through the emitter's reader).
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "c_half.h"
#include "emit_util.h"
#include "reference/ops/params/recurrent.h"

namespace sonnx::emit {
namespace {

constexpr int64_t emit_rnn_local_limit = 4096;  // bytes of local arrays

// "b * 12 + j * 3 + 40": the terms var·coefficient (a zero coefficient left out), then the constant.
std::string emit_rnn_sum(std::initializer_list<std::pair<std::string, int64_t>> terms, int64_t constant = 0) {
  std::string s;
  for (const auto& [var, coef] : terms) {
    if (coef == 0) continue;
    if (!s.empty()) s += " + ";
    s += coef == 1 ? var : var + " * " + std::to_string(coef);
  }
  if (constant != 0 || s.empty()) s += (s.empty() ? "" : " + ") + std::to_string(constant);
  return s;
}

// One node's static problem, as support::read_rnn_inputs checks and reads it.
struct emit_rnn_node {
  DType type = DType::Undefined;      // the element type
  DType ct = DType::Undefined;        // the compute type (compute_t<T>: float for float16 and bfloat16)
  std::string T, zero, one, fsuffix;  // of the compute type: "float", "0.0f", "1.0f", "f" (libm names)
  std::string St;                     // the element's C type in memory (c_storage_type)
  int64_t S = 0, Bn = 0, I = 0, H = 0, nd = 1, G = 1, layout = 0;
  bool reverse = false;
  RecurrentParams params;
  std::vector<int64_t> lens;
  int64_t uniform_len = -1;  // the length of every sequence when they agree, else -1
  bool has_b = false, has_h0 = false, has_c0 = false, has_p = false;
  bool out_y = false, out_yh = false, out_yc = false;

  bool backwards(int64_t d) const { return reverse || d == 1; }
  // Offsets (elements) of the rows the recurrence reads and writes, `tv` the time variable.
  std::string x_row(const std::string& tv) const {
    return layout == 0 ? emit_rnn_sum({{tv, Bn * I}, {"b", I}}) : emit_rnn_sum({{"b", S * I}, {tv, I}});
  }
  std::string state_row(int64_t d) const {  // initial_h, initial_c, Y_h, Y_c
    return layout == 0 ? emit_rnn_sum({{"b", H}}, d * Bn * H) : emit_rnn_sum({{"b", nd * H}}, d * H);
  }
  std::string y_row(const std::string& tv, int64_t d) const {
    return layout == 0 ? emit_rnn_sum({{tv, nd * Bn * H}, {"b", H}}, d * Bn * H)
                       : emit_rnn_sum({{"b", S * nd * H}, {tv, nd * H}}, d * H);
  }
  // W's and R's row of gate g at unit j; the values (NodeEmitter::load) of the biases Wb and Rb of
  // gate g and of peephole k (0 i, 1 o, 2 f), or the compute type's zero when absent.
  std::string w_row(int64_t d, int64_t g) const { return emit_rnn_sum({{"j", I}}, (d * G + g) * H * I); }
  std::string r_row(int64_t d, int64_t g) const { return emit_rnn_sum({{"j", H}}, (d * G + g) * H * H); }
  std::string wb(NodeEmitter& e, int64_t d, int64_t g) const {
    return has_b ? e.load(type, "x3[" + emit_rnn_sum({{"j", 1}}, d * 2 * G * H + g * H) + "]") : zero;
  }
  std::string rb(NodeEmitter& e, int64_t d, int64_t g) const {
    return has_b ? e.load(type, "x3[" + emit_rnn_sum({{"j", 1}}, d * 2 * G * H + G * H + g * H) + "]") : zero;
  }
  std::string peephole(NodeEmitter& e, int64_t d, int64_t k) const {
    return has_p ? e.load(type, "x7[" + emit_rnn_sum({{"j", 1}}, d * 3 * H + k * H) + "]") : zero;
  }
};

// The checks and reads of support::read_rnn_inputs (and the outputs' shapes of run_rnn), for
// `gates` gates (3 GRU, 4 LSTM); initial_c is input 6 when `with_cell`.
emit_rnn_node emit_rnn_read(NodeEmitter& e, int64_t gates, bool with_cell) {
  emit_rnn_node n;
  n.G = gates;
  n.params = e.params<RecurrentParams>();
  n.layout = n.params.layout;
  n.nd = n.params.num_directions;
  n.reverse = n.params.reverse;

  const CValue &x = e.input(0), &w = e.input(1), &r = e.input(2);
  n.type = x.dtype;
  if (n.type != DType::Float && n.type != DType::Double && !is_half_type(n.type))
    e.refuse("element type " + std::string(dtype_name(n.type)));
  n.ct = n.type == DType::Double ? DType::Double : DType::Float;
  const bool is_float = n.ct == DType::Float;
  n.T = c_compute_type(n.type);
  n.St = c_storage_type(n.type);
  n.zero = is_float ? "0.0f" : "0.0";
  n.one = is_float ? "1.0f" : "1.0";
  n.fsuffix = is_float ? "f" : "";
  if (w.dtype != x.dtype || r.dtype != x.dtype) e.refuse("X, W and R must have the same element type");
  if (x.shape.size() != 3) e.refuse("X must have rank 3, has shape " + shape_str(x.shape));
  if (w.shape.size() != 3 || r.shape.size() != 3) e.refuse("W and R must have rank 3");
  n.S = n.layout == 0 ? x.shape[0] : x.shape[1];
  n.Bn = n.layout == 0 ? x.shape[1] : x.shape[0];
  n.I = x.shape[2];
  n.H = r.shape[2];
  if (n.params.hidden_size && *n.params.hidden_size != n.H)
    e.refuse("hidden_size " + std::to_string(*n.params.hidden_size) + " does not match R's shape " + shape_str(r.shape));
  const int64_t nd = n.nd, H = n.H;
  if (w.shape != Shape{nd, gates * H, n.I})
    e.refuse("W has shape " + shape_str(w.shape) + ", expected " + shape_str({nd, gates * H, n.I}));
  if (r.shape != Shape{nd, gates * H, H})
    e.refuse("R has shape " + shape_str(r.shape) + ", expected " + shape_str({nd, gates * H, H}));
  if (n.S == 0 || n.Bn == 0 || n.I == 0 || H == 0)
    e.refuse("an empty dimension (X " + shape_str(x.shape) + ", hidden_size " + std::to_string(H) + ")");

  n.has_b = e.has_input(3);
  if (n.has_b) {
    const CValue& b = e.input(3);
    if (b.dtype != x.dtype) e.refuse("B must have the element type of X");
    if (b.shape != Shape{nd, 2 * gates * H})
      e.refuse("B has shape " + shape_str(b.shape) + ", expected " + shape_str({nd, 2 * gates * H}));
  }

  if (e.has_input(4)) {
    const CValue& sl = e.input(4);
    if (!is_integer(sl.dtype)) e.refuse("sequence_lens must be an integer tensor");
    if (sl.shape != Shape{n.Bn})
      e.refuse("sequence_lens has shape " + shape_str(sl.shape) + ", expected [" + std::to_string(n.Bn) + "]");
    // every loop bound must be a constant
    n.lens = e.constant_input(4, "sequence_lens").to_int64_vector();
    if (static_cast<int64_t>(n.lens.size()) != n.Bn) e.refuse("sequence_lens has the wrong number of elements");
    for (int64_t len : n.lens)
      if (len < 0 || len > n.S)
        e.refuse("sequence_lens value " + std::to_string(len) + " is outside [0, " + std::to_string(n.S) + "]");
  } else {
    n.lens.assign(static_cast<size_t>(n.Bn), n.S);
  }
  n.uniform_len = n.lens.front();
  for (int64_t len : n.lens)
    if (len != n.uniform_len) n.uniform_len = -1;

  const Shape state = n.layout == 0 ? Shape{nd, n.Bn, H} : Shape{n.Bn, nd, H};
  auto check_state = [&](size_t i, const char* name) {
    if (!e.has_input(i)) return false;
    const CValue& s = e.input(i);
    if (s.dtype != x.dtype) e.refuse(std::string(name) + " must have the element type of X");
    if (s.shape != state) e.refuse(std::string(name) + " has shape " + shape_str(s.shape) + ", expected " + shape_str(state));
    return true;
  };
  n.has_h0 = check_state(5, "initial_h");
  if (with_cell) {
    n.has_c0 = check_state(6, "initial_c");
    n.has_p = e.has_input(7);
    if (n.has_p) {
      const CValue& p = e.input(7);
      if (p.dtype != x.dtype) e.refuse("P must have the element type of X");
      if (p.shape != Shape{nd, 3 * H}) e.refuse("P has shape " + shape_str(p.shape) + ", expected " + shape_str({nd, 3 * H}));
    }
  }
  if (n.params.activations.size() != static_cast<size_t>(nd * (with_cell ? 3 : 2)))
    e.refuse("unexpected number of activation functions");

  auto check_output = [&](size_t k, const Shape& want) {
    if (!e.has_output(k)) return false;
    const CValue& o = e.output(k);
    if (o.dtype != x.dtype) e.refuse("output " + std::to_string(k) + " must have the element type of X");
    if (o.shape != want)
      e.refuse("output " + std::to_string(k) + " has shape " + shape_str(o.shape) + ", expected " + shape_str(want));
    return true;
  };
  n.out_y = check_output(0, n.layout == 0 ? Shape{n.S, nd, n.Bn, H} : Shape{n.Bn, n.S, nd, H});
  n.out_yh = check_output(1, state);
  n.out_yc = with_cell && check_output(2, state);
  return n;
}

// The C expression of activation `a` at `arg` (RnnActivation::operator() in the element type),
// through a file-level helper sonnx_rnn_<kind>_<f|d> where it is more than one call.
std::string emit_rnn_activation(NodeEmitter& e, const emit_rnn_node& n, const RnnActivation& a, const std::string& arg) {
  using K = RnnActivation::Kind;
  const std::string& T = n.T;
  const std::string& Z = n.zero;
  const std::string& O = n.one;
  const std::string f = n.fsuffix;
  // static_cast<C>(alpha): a double (a float attribute, or a default such as 0.01) in the element type.
  auto as_c = [&](double v) { return c_literal(n.ct, n.ct == DType::Float ? static_cast<double>(static_cast<float>(v)) : v); };
  const std::string alpha = as_c(a.alpha), beta = as_c(a.beta);
  std::string name, params = "(" + T + " x)", body, args = "(" + arg + ")";
  const std::string with_a = "(" + T + " x, " + T + " a)", with_ab = "(" + T + " x, " + T + " a, " + T + " b)";
  switch (a.kind) {
    case K::Tanh: e.needs_math(); return "tanh" + f + "(" + arg + ")";
    case K::Relu:
      name = "relu";
      body = "  return x < " + Z + " ? " + Z + " : x;\n";
      break;
    case K::Sigmoid:
      // 1/(1+e^-x), or e^x/(1+e^x) below 0.
      e.needs_math();
      name = "sigmoid";
      body = "  " + T +
             " r;\n"
             "  if (x >= " +
             Z +
             ") {\n"
             "    r = " +
             O + " / (" + O + " + exp" + f +
             "(-x));\n"
             "  } else {\n"
             "    const " +
             T + " e = exp" + f +
             "(x);\n"
             "    r = e / (" +
             O +
             " + e);\n"
             "  }\n"
             "  return r;\n";
      break;
    case K::Affine:
      name = "affine";
      params = with_ab;
      args = "(" + arg + ", " + alpha + ", " + beta + ")";
      body = "  const " + T + " p = a * x;\n  return p + b;\n";
      break;
    case K::LeakyRelu:
      name = "leakyrelu";
      params = with_a;
      args = "(" + arg + ", " + alpha + ")";
      body = "  return x < " + Z + " ? a * x : x;\n";
      break;
    case K::ThresholdedRelu:
      e.needs_math();  // isnan
      name = "thresholdedrelu";
      params = with_a;
      args = "(" + arg + ", " + alpha + ")";
      body = "  return (x >= a || isnan(x)) ? x : " + Z + ";\n";
      break;
    case K::ScaledTanh:
      e.needs_math();
      name = "scaledtanh";
      params = with_ab;
      args = "(" + arg + ", " + alpha + ", " + beta + ")";
      body = "  return a * tanh" + f + "(b * x);\n";
      break;
    case K::HardSigmoid:
      // min(max(a·x + b, 0), 1) as std::min(std::max(v, 0), 1), NaN passed through.
      e.needs_math();  // isnan
      name = "hardsigmoid";
      params = with_ab;
      args = "(" + arg + ", " + alpha + ", " + beta + ")";
      body = "  const " + T +
             " p = a * x;\n"
             "  const " +
             T +
             " v = p + b;\n"
             "  " +
             T +
             " r = v;\n"
             "  if (!isnan(v)) {\n"
             "    const " +
             T + " m = v < " + Z + " ? " + Z +
             " : v;\n"
             "    r = " +
             O + " < m ? " + O +
             " : m;\n"
             "  }\n"
             "  return r;\n";
      break;
    case K::Elu:
      e.needs_math();
      name = "elu";
      params = with_a;
      args = "(" + arg + ", " + alpha + ")";
      body = "  return x < " + Z + " ? a * (exp" + f + "(x) - " + O + ") : x;\n";
      break;
    case K::Softsign:
      e.needs_math();
      name = "softsign";
      body = "  return x / (" + O + " + fabs" + f + "(x));\n";
      break;
    case K::Softplus:
      // log(1+e^x), as x + log(1+e^-x) above 0.
      e.needs_math();
      name = "softplus";
      body = "  return x > " + Z + " ? x + log1p" + f + "(exp" + f + "(-x)) : log1p" + f + "(exp" + f + "(x));\n";
      break;
  }
  const std::string fn = "sonnx_rnn_" + name + "_" + (n.ct == DType::Float ? "f" : "d");
  e.helper(fn, "static " + T + " " + fn + params + " {\n" + body + "}\n");
  return fn + args;
}

// The bounds -clip and clip as the locals clip_lo and clip_hi, read once through volatile objects:
// a compiler that sees a literal bound can thread the branch of the clip into the activation and
// fold the libm call at that bound at compile time (GCC does, at -O2, with correctly rounded
// values that libm need not return), where the reference calls libm.
void emit_rnn_clip_bounds(NodeEmitter& e, const emit_rnn_node& n) {
  if (!n.params.clip) return;
  const double c = static_cast<double>(*n.params.clip);
  e.line("/* -clip and clip, opaque to the compiler: no libm call is evaluated at compile time */");
  e.line("const volatile " + n.T + " clip_lo_v = " + c_literal(n.ct, -c) + ";");
  e.line("const volatile " + n.T + " clip_hi_v = " + c_literal(n.ct, c) + ";");
  e.line("const " + n.T + " clip_lo = clip_lo_v;");
  e.line("const " + n.T + " clip_hi = clip_hi_v;");
}

// `var = clipped(var)` (RnnProblem::clipped: below -clip is -clip, above clip is clip, NaN stays).
void emit_rnn_clip(NodeEmitter& e, const emit_rnn_node& n, const std::string& var) {
  if (!n.params.clip) return;
  e.line(var + " = " + var + " < clip_lo ? clip_lo : (" + var + " > clip_hi ? clip_hi : " + var + ");");
}

// `T var` = Σ_q M[row + q]·v[q] from +0 in order q = 0, 1, ... (support::dot_row). M is an input
// (read through NodeEmitter::load), v an input too when `v_input` (X's row), else a local vector
// of the compute type.
void emit_rnn_dot(NodeEmitter& e, const emit_rnn_node& n, const std::string& var, const std::string& m, const std::string& row,
                  const std::string& v, bool v_input, int64_t len) {
  e.line(n.T + " " + var + " = " + n.zero + ";");
  e.line(for_loop("q", len));
  const std::string vq = v_input ? e.load(n.type, v + "[q]") : v + "[q]";
  e.line("const " + n.T + " m = " + e.load(n.type, m + "[" + row + " + q]") + " * " + vq + ";");
  e.line(var + " += m;");
  e.line("}");
}

// `T v` = W·x + R·vec + Wb + Rb of gate g at unit j (LSTM's gate() and GRU's z and r, in that order).
void emit_rnn_gate(NodeEmitter& e, const emit_rnn_node& n, int64_t d, int64_t g, const std::string& vec) {
  emit_rnn_dot(e, n, "sw", "x1", n.w_row(d, g), "xt", true, n.I);
  emit_rnn_dot(e, n, "sr", "x2", n.r_row(d, g), vec, false, n.H);
  e.line(n.T + " v = sw + sr;");
  e.line("v = v + " + n.wb(e, d, g) + ";");
  e.line("v = v + " + n.rb(e, d, g) + ";");
}

// Where one vector of hidden_size elements of the recurrence lives.
struct emit_rnn_vec {
  std::string name;
  std::string home;  // "" a local array; else the output pointer it is carved from ("y0" means Y's row at t)
};

// The recurrence of support::run_rnn for every direction and batch row, with `cell(d)` emitting one
// step of direction d (xt points at X's row, h at the state, hn at the new h when `uses_hn`).
// `locals`: the vectors beside h, c and hn, always local.
template <class Cell>
void emit_rnn_run(NodeEmitter& e, const emit_rnn_node& n, bool with_cell, bool uses_hn, const std::vector<std::string>& locals,
                  Cell cell) {
  const std::string& T = n.T;
  const int64_t H = n.H;
  // float16 and bfloat16: the outputs hold rounded values, so the state (in float) is local.
  const bool in_outputs = !is_half_type(n.type);
  std::vector<emit_rnn_vec> vecs;
  vecs.push_back({"h", n.out_yh && in_outputs ? "y1" : ""});
  if (with_cell) vecs.push_back({"c", n.out_yc && in_outputs ? "y2" : ""});
  if (uses_hn) vecs.push_back({"hn", n.out_y && in_outputs ? "y0" : ""});
  for (const auto& name : locals) vecs.push_back({name, ""});
  int64_t bytes = n.uniform_len < 0 ? 8 * n.Bn : 0;
  const auto elem = static_cast<int64_t>(dtype_size(n.ct));
  for (const auto& v : vecs)
    if (v.home.empty()) bytes += H * elem;
  if (bytes > emit_rnn_local_limit)
    e.refuse("the recurrence needs " + std::to_string(bytes) + " bytes of local arrays (the state not held in outputs" +
             std::string(n.uniform_len < 0 ? ", the sequence lengths" : "") + "), above the limit of " +
             std::to_string(emit_rnn_local_limit));
  auto local = [&](const std::string& name) {
    for (const auto& v : vecs)
      if (v.name == name) return v.home.empty();
    return false;
  };

  e.line("/* Per direction, batch row and time step (support::run_rnn): hidden_size " + std::to_string(H) + ", input_size " +
         std::to_string(n.I) + ", seq_length " + std::to_string(n.S) + ", batch_size " + std::to_string(n.Bn) + ", layout " +
         std::to_string(n.layout) + ". */");
  if (n.uniform_len < 0) {
    std::string list;
    for (int64_t len : n.lens) list += (list.empty() ? "" : ", ") + std::to_string(len);
    e.line("const int64_t lens[" + std::to_string(n.Bn) + "] = {" + list + "};");
  }
  for (const auto& v : vecs)
    if (v.home.empty()) e.line(T + " " + v.name + "[" + std::to_string(H) + "];");
  emit_rnn_clip_bounds(e, n);

  for (int64_t d = 0; d < n.nd; ++d) {
    const bool back = n.backwards(d);
    e.line("/* direction " + std::to_string(d) + (back ? ": backwards in time" : ": forwards in time") + " */");
    e.line(for_loop("b", n.Bn));
    const std::string srow = n.state_row(d);
    if (!local("h")) e.line(T + "* const h = y1 + " + srow + ";");
    if (with_cell && !local("c")) e.line(T + "* const c = y2 + " + srow + ";");
    e.line(for_loop("j", H));
    e.line("h[j] = " + (n.has_h0 ? e.load(n.type, "x5[" + srow + " + j]") : n.zero) + ";");
    if (with_cell) e.line("c[j] = " + (n.has_c0 ? e.load(n.type, "x6[" + srow + " + j]") : n.zero) + ";");
    e.line("}");
    std::string len;
    if (n.uniform_len >= 0) {
      len = std::to_string(n.uniform_len);
    } else {
      e.line("const int64_t len = lens[b];");
      len = "len";
    }
    const bool steps = n.uniform_len != 0;
    if (steps) {
      if (n.uniform_len >= 0) {
        e.line(for_loop("k", n.uniform_len));
      } else {
        e.line(for_loop("k", n.S));
        e.line("if (k < len) {");
      }
      const std::string t = !back ? "k" : n.uniform_len >= 0 ? std::to_string(n.uniform_len - 1) + " - k" : "len - 1 - k";
      e.line("const int64_t t = " + t + ";");
      e.line("const " + n.St + "* const xt = x0 + " + n.x_row("t") + ";");
      // Y's row of the step: the new h itself (hn held there), or written from h after the step.
      const bool y_copy = n.out_y && !(uses_hn && !local("hn"));
      if (uses_hn && !local("hn")) e.line(T + "* const hn = y0 + " + n.y_row("t", d) + ";");
      if (y_copy) e.line(n.St + "* const yt = y0 + " + n.y_row("t", d) + ";");
      cell(d);
      e.line(for_loop("j", H));
      if (uses_hn) e.line("h[j] = hn[j];");
      if (y_copy) e.line(e.store(n.type, "yt[j]", "h[j]", false));
      e.line("}");
      if (n.uniform_len < 0) e.line("}");
      e.line("}");
    }
    if (n.out_yh && local("h")) {
      e.line(for_loop("j", H));
      e.line(e.store(n.type, "y1[" + srow + " + j]", "h[j]", false));
      e.line("}");
    }
    if (with_cell && n.out_yc && local("c")) {
      e.line(for_loop("j", H));
      e.line(e.store(n.type, "y2[" + srow + " + j]", "c[j]", false));
      e.line("}");
    }
    // Y is zero at the time steps a sequence does not reach.
    if (n.out_y && n.uniform_len != n.S) {
      if (n.uniform_len >= 0) {
        e.line("for (int64_t k = " + len + "; k < " + std::to_string(n.S) + "; ++k) {");
      } else {
        e.line(for_loop("k", n.S));
        e.line("if (k >= len) {");
      }
      e.line(for_loop("j", H));
      e.line(e.store(n.type, "y0[" + n.y_row("k", d) + " + j]", n.zero, false));
      e.line("}");
      if (n.uniform_len < 0) e.line("}");
      e.line("}");
    }
    e.line("}");
  }
}

// LSTM (reference/ops/LSTM.cpp): gates i, o, f, c (rows 0..3 of W, R, B), peepholes i, o, f.
void emit_lstm(NodeEmitter& e) {
  const emit_rnn_node n = emit_rnn_read(e, 4, true);
  const bool input_forget = n.params.input_forget;
  e.line("/* LSTM-22 as reference/ops/LSTM.cpp: gates i, o, f, c; " + std::string(input_forget ? "input_forget; " : "") +
         "computed in " + n.T + ". */");
  if (!n.out_y && !n.out_yh && !n.out_yc) {
    e.line("/* no output is produced */");
    return;
  }
  const std::string& T = n.T;
  emit_rnn_run(e, n, true, true, {}, [&](int64_t d) {
    const RnnActivation& f = n.params.activations[static_cast<size_t>(3 * d)];
    const RnnActivation& g = n.params.activations[static_cast<size_t>(3 * d + 1)];
    const RnnActivation& ha = n.params.activations[static_cast<size_t>(3 * d + 2)];
    // it, ft, ct and Ct per unit (Ct in place of Ct-1: unit j reads only its own).
    e.line(for_loop("j", n.H));
    e.line(T + " gi;");
    e.line(T + " gf;");
    e.line(T + " gc;");
    e.line("{");
    emit_rnn_gate(e, n, d, 0, "h");
    e.line("const " + T + " pc = " + n.peephole(e, d, 0) + " * c[j];");
    e.line("v = v + pc;");
    emit_rnn_clip(e, n, "v");
    e.line("gi = " + emit_rnn_activation(e, n, f, "v") + ";");
    e.line("}");
    if (input_forget) {
      e.line("gf = " + n.one + " - gi;");
    } else {
      e.line("{");
      emit_rnn_gate(e, n, d, 2, "h");
      e.line("const " + T + " pc = " + n.peephole(e, d, 2) + " * c[j];");
      e.line("v = v + pc;");
      emit_rnn_clip(e, n, "v");
      e.line("gf = " + emit_rnn_activation(e, n, f, "v") + ";");
      e.line("}");
    }
    e.line("{");
    emit_rnn_gate(e, n, d, 3, "h");
    emit_rnn_clip(e, n, "v");
    e.line("gc = " + emit_rnn_activation(e, n, g, "v") + ";");
    e.line("}");
    e.line("{");
    e.line("const " + T + " fc = gf * c[j];");
    e.line("const " + T + " ic = gi * gc;");
    e.line("c[j] = fc + ic;");
    e.line("}");
    e.line("}");
    // ot and Ht (the output gate reads Ht-1: all of Ht goes to hn first).
    e.line(for_loop("j", n.H));
    emit_rnn_gate(e, n, d, 1, "h");
    e.line("const " + T + " pc = " + n.peephole(e, d, 1) + " * c[j];");
    e.line("v = v + pc;");
    emit_rnn_clip(e, n, "v");
    e.line("const " + T + " o = " + emit_rnn_activation(e, n, f, "v") + ";");
    e.line(T + " cv = c[j];");
    emit_rnn_clip(e, n, "cv");
    e.line("const " + T + " hc = " + emit_rnn_activation(e, n, ha, "cv") + ";");
    e.line("hn[j] = o * hc;");
    e.line("}");
  });
}

// GRU (reference/ops/GRU.cpp): gates z, r, h (rows 0..2 of W, R, B).
void emit_gru(NodeEmitter& e) {
  const emit_rnn_node n = emit_rnn_read(e, 3, false);
  const bool lbr = n.params.linear_before_reset;
  e.line("/* GRU-22 as reference/ops/GRU.cpp: gates z, r, h; linear_before_reset " + std::string(lbr ? "1" : "0") +
         "; computed in " + n.T + ". */");
  if (!n.out_y && !n.out_yh) {
    e.line("/* no output is produced */");
    return;
  }
  const std::string& T = n.T;
  // With linear_before_reset 0, r·Ht-1 replaces r in place and Ht replaces Ht-1 in place (unit j
  // of the candidate reads all of r·Ht-1 but only its own unit of Ht-1); with 1 the candidate
  // reads all of Ht-1, so Ht goes to hn first.
  emit_rnn_run(e, n, false, lbr, {"z", "r"}, [&](int64_t d) {
    const RnnActivation& f = n.params.activations[static_cast<size_t>(2 * d)];
    const RnnActivation& g = n.params.activations[static_cast<size_t>(2 * d + 1)];
    e.line(for_loop("j", n.H));
    e.line("{");
    emit_rnn_gate(e, n, d, 0, "h");
    emit_rnn_clip(e, n, "v");
    e.line("z[j] = " + emit_rnn_activation(e, n, f, "v") + ";");
    e.line("}");
    e.line("{");
    emit_rnn_gate(e, n, d, 1, "h");
    emit_rnn_clip(e, n, "v");
    e.line("r[j] = " + emit_rnn_activation(e, n, f, "v") + ";");
    e.line("}");
    e.line("}");
    if (!lbr) {
      e.line(for_loop("j", n.H));
      e.line("r[j] = r[j] * h[j];");
      e.line("}");
    }
    e.line(for_loop("j", n.H));
    emit_rnn_dot(e, n, "sw", "x1", n.w_row(d, 2), "xt", true, n.I);
    if (lbr) {
      // W·x + r·(R·Ht-1 + Rbh) + Wbh
      emit_rnn_dot(e, n, "sr", "x2", n.r_row(d, 2), "h", false, n.H);
      e.line("const " + T + " sb = sr + " + n.rb(e, d, 2) + ";");
      e.line("const " + T + " rs = r[j] * sb;");
      e.line(T + " v = sw + rs;");
      e.line("v = v + " + n.wb(e, d, 2) + ";");
    } else {
      // W·x + R·(r·Ht-1) + Rbh + Wbh
      emit_rnn_dot(e, n, "sr", "x2", n.r_row(d, 2), "r", false, n.H);
      e.line(T + " v = sw + sr;");
      e.line("v = v + " + n.rb(e, d, 2) + ";");
      e.line("v = v + " + n.wb(e, d, 2) + ";");
    }
    emit_rnn_clip(e, n, "v");
    e.line("const " + T + " hh = " + emit_rnn_activation(e, n, g, "v") + ";");
    e.line("const " + T + " zc = " + n.one + " - z[j];");
    e.line("const " + T + " p1 = zc * hh;");
    e.line("const " + T + " p2 = z[j] * h[j];");
    e.line(std::string(lbr ? "hn" : "h") + "[j] = p1 + p2;");
    e.line("}");
  });
}

}  // namespace

SONNX_EMIT_C("", "LSTM", (22), emit_lstm);
SONNX_EMIT_C("", "GRU", (22), emit_gru);

}  // namespace sonnx::emit
