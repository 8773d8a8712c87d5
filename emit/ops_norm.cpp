// C templates of the SONNX profile's normalisations and reductions: BatchNormalization-15
// (reference/ops/BatchNormalization.cpp, inference form), Softmax-13 (reference/ops/Softmax.cpp,
// support::softmax_lines in reference/ops/support/softmax.h), ReduceMean-18 and ReduceSum-13
// (support::reduce_tensor in reference/ops/support/reduce.h), ArgMax-13 (support::arg_extreme).
//
// float16 and bfloat16 are held as their bits (uint16_t) and widened to float where read
// (NodeEmitter::load: the reference's to_double is (double)(float)v); a result computed in double is
// rounded ONCE into the half type (NodeEmitter::store from double: round_from_double, never through
// float), one computed in float (fast mode) with T(float).
//
// BatchNormalization-15, X float, double, float16 or bfloat16, scale/B and mean/var each of any of
// these four types. Exact: per element (T)((double)scale·((double)x − (double)mean) /
// sqrt((double)var + (double)epsilon) + (double)B), the reference's expression in its order (the
// square root, correctly rounded, computed once per channel: the same double), every half operand
// widened exactly, the double rounded once to X's type (float_tensor). Fast: per channel
// a = (C)(scale / sqrt(var + epsilon)) in double, then (x − mean)·a + B in the compute type C (the
// element type; float for a half X, stored with T(float)). Refused: training_mode=1 (outside the
// profile: SONNX-INFERENCE-ONLY) and any output after Y (the reference trains or traps); other
// element types.
//
// Softmax-13, float, double, float16, bfloat16, along `axis`. Exact: per line m = the maximum in
// double (−inf to start; the first NaN ends it, as the reference's break), sum = Σ exp((double)x − m)
// in axis order from 0.0, then (T)(exp((double)x − m) / sum): libm's exp in double as the
// reference's std::exp (a half x widened exactly; the quotient rounded once into the half type).
// Fast: the maximum, exp (expf for float) and the sum in the element type, one exp per element,
// then a division by the sum; for a half type the same in float, the exponential computed again
// for the quotient (two expf per element: no rounding to the half type between), stored with
// T(float). Refused: other element types; an axis outside [−rank, rank).
//
// ReduceSum-13 (float, double, float16, bfloat16; int32, int64, uint32, uint64 wrapping as the
// reference's wrap_add) and ReduceMean-18 (float, double, float16, bfloat16; int32 and uint32: the
// exact sum in 64 bits truncated toward zero by the count, as the reference's 128-bit sum): axes
// from the constant input 1 (absent or empty: every axis, or with noop_with_empty_axes=1 a copy of
// X's elements, bits unchanged, as the reference returns X), keepdims. Exact (floating types): per
// output a double sum from 0.0 over its group in the input's row-major order (the order
// support::reduce_tensor collects the group; a half element widened exactly), (T)sum or
// (T)(sum / (double)count), rounded once (into a half type by round_from_double). Fast: the sum in
// the element type (in float for a half type, stored with T(float)). Refused: a non-constant axes
// input; repeated or out-of-range axes; ReduceMean of int64/uint64 (needs a 128-bit sum) or of an
// empty group of integers (the reference traps); other element types.
//
// ArgMax-13, float, double, float16, bfloat16 and every 8- to 64-bit integer type, int64 output,
// keepdims, select_last_index: the reference's scan from index 0 in the compute type (a half
// widened to float; NaN counts as the maximum; ties keep the first, or the last with
// select_last_index). Both modes. Refused: an empty axis with a non-empty output (the reference
// traps); an axis out of range; other element types.
#include <limits>

#include "c_half.h"
#include "emit_util.h"
#include "emit_window.h"
#include "reference/ops/params/batch_normalization.h"
#include "reference/ops/params/reduce.h"
#include "reference/ops/params/softmax.h"

namespace sonnx::emit {

static bool emit_norm_is_float(DType t) { return t == DType::Float || t == DType::Double; }
// float, double, float16, bfloat16: the types visit_float visits (float_values, float_tensor).
static bool emit_norm_is_floating(DType t) { return emit_norm_is_float(t) || is_half_type(t); }

// An axis in [−rank, rank) made nonnegative (support::normalize_axis), or a refusal.
static int64_t emit_norm_axis(NodeEmitter& e, int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    e.refuse("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  return axis < 0 ? axis + rank : axis;
}

// A tensor as [outer, n, inner] around `axis` (support::axis_view).
struct EmitNormView {
  int64_t outer = 1, n = 1, inner = 1;
};

static EmitNormView emit_norm_view(const Shape& s, int64_t axis) {
  EmitNormView v;
  for (int64_t d = 0; d < static_cast<int64_t>(s.size()); ++d) {
    const int64_t len = s[static_cast<size_t>(d)];
    if (d < axis) v.outer *= len;
    else if (d == axis) v.n = len;
    else v.inner *= len;
  }
  return v;
}

// A loop over n when n > 1, else a plain block: exactly one "{" to close.
static std::string emit_norm_block(NodeEmitter& e, const std::string& var, int64_t n) {
  if (n == 1) {
    e.line("{");
    return "0";
  }
  e.line(for_loop(var, n));
  return var;
}

// BatchNormalization-15, inference.
static void emit_norm_batch_norm(NodeEmitter& e) {
  const BatchNormParams params = e.params<BatchNormParams>();
  if (params.training_mode) e.refuse("training_mode=1 (inference only)");
  const auto& outs = e.node().outputs;
  for (size_t k = 1; k < outs.size(); ++k)
    if (!outs[k].empty()) e.refuse("running_mean/running_var outputs (training only)");
  const CValue& x = e.input(0);
  if (!emit_norm_is_floating(x.dtype))
    e.refuse("element type " + std::string(dtype_name(x.dtype)) + " (float, double, float16, bfloat16 only)");
  if (x.shape.empty()) e.refuse("X must have at least one dimension");
  const int64_t N = x.shape[0], C = x.shape.size() == 1 ? 1 : x.shape[1];
  int64_t inner = 1;
  for (size_t d = 2; d < x.shape.size(); ++d) inner *= x.shape[d];
  const char* names[] = {"X", "scale", "B", "mean", "var"};
  for (size_t k = 1; k < 5; ++k) {
    const CValue& s = e.input(k);
    if (!emit_norm_is_floating(s.dtype))
      e.refuse(std::string("input ") + names[k] + " of element type " + std::string(dtype_name(s.dtype)));
    if (s.size() != C)
      e.refuse(std::string("input ") + names[k] + " has " + std::to_string(s.size()) + " elements, expected " +
               std::to_string(C));
  }
  if (e.output(0).shape != x.shape) e.refuse("the output's static shape is not X's");
  if (x.size() == 0) return;
  e.needs_math();
  const std::string t = c_compute_type(x.dtype);
  const std::string eps = c_literal(DType::Double, static_cast<double>(params.epsilon));
  // Input k's element at `at` as a value of its compute type (float for a half type: exact).
  auto in = [&](size_t k, const std::string& at) { return e.load(e.input(k).dtype, "x" + std::to_string(k) + "[" + at + "]"); };
  int open = 0;
  const std::string n = emit_window_loop(e, "n", N, open);
  const std::string c = emit_window_loop(e, "c", C, open);
  const std::string f = c;  // the statistics' index
  int inner_open = 0;
  if (e.mode() == Mode::Exact) {
    e.line("const double sd = sqrt((double)" + in(4, f) + " + " + eps + ");");
    const std::string i = emit_window_loop(e, "i", inner, inner_open);
    const std::string at = EmitAffine().add(n, C * inner).add(c, inner).add(i, 1).str();
    const std::string v = "(double)" + in(1, f) + " * ((double)" + in(0, at) + " - (double)" + in(3, f) + ") / sd + (double)" +
                          in(2, f);
    if (is_half_type(x.dtype)) e.line(e.store(x.dtype, "y0[" + at + "]", v, true));  // float_tensor: round_from_double
    else e.line("y0[" + at + "] = (" + t + ")(" + v + ");");
  } else {
    e.line("const " + t + " a = (" + t + ")((double)" + in(1, f) + " / sqrt((double)" + in(4, f) + " + " + eps + "));");
    e.line("const " + t + " mu = (" + t + ")" + in(3, f) + ";");
    e.line("const " + t + " b = (" + t + ")" + in(2, f) + ";");
    const std::string i = emit_window_loop(e, "i", inner, inner_open);
    const std::string at = EmitAffine().add(n, C * inner).add(c, inner).add(i, 1).str();
    e.line(e.store(x.dtype, "y0[" + at + "]", "(" + in(0, at) + " - mu) * a + b", false));
  }
  emit_window_close(e, inner_open);
  emit_window_close(e, open);
}

// Softmax-13.
static void emit_norm_softmax(NodeEmitter& e) {
  const CValue& x = e.input(0);
  if (!emit_norm_is_floating(x.dtype))
    e.refuse("element type " + std::string(dtype_name(x.dtype)) + " (float, double, float16, bfloat16 only)");
  const SoftmaxParams p = e.params<SoftmaxParams>();
  if (p.coerced_2d) e.refuse("the coerced 2-D form (versions before 13)");
  const int64_t axis = emit_norm_axis(e, p.axis, static_cast<int64_t>(x.shape.size()));
  const EmitNormView v = emit_norm_view(x.shape, axis);
  if (e.output(0).shape != x.shape) e.refuse("the output's static shape is not X's");
  if (x.size() == 0) return;
  e.needs_math();
  const DType type = x.dtype;
  const bool is_half = is_half_type(type);
  const std::string t = c_compute_type(type);
  int open = 0;
  const std::string o = emit_window_loop(e, "o", v.outer, open);
  const std::string i = emit_window_loop(e, "i", v.inner, open);
  auto at = [&](const std::string& k) { return EmitAffine().add(o, v.n * v.inner).add(k, v.inner).add(i, 1).str(); };
  auto xk = [&](const std::string& k) { return e.load(type, "x0[" + at(k) + "]"); };  // x's element, compute type
  if (e.mode() == Mode::Exact) {
    e.line("double mx = " + c_literal(DType::Double, -std::numeric_limits<double>::infinity()) + ";");
    e.line("double sum = 0.0;");
    std::string k = emit_norm_block(e, "k", v.n);
    e.line("const double c = (double)" + xk(k) + ";");
    e.line("if (!isnan(mx) && (isnan(c) || c > mx)) {");
    e.line("mx = c;");
    e.line("}");
    e.line("}");
    k = emit_norm_block(e, "k", v.n);
    e.line("sum += exp((double)" + xk(k) + " - mx);");
    e.line("}");
    k = emit_norm_block(e, "k", v.n);
    const std::string q = "exp((double)" + xk(k) + " - mx) / sum";
    if (is_half) e.line(e.store(type, "y0[" + at(k) + "]", q, true));  // float_tensor: round_from_double
    else e.line("y0[" + at(k) + "] = (" + t + ")(" + q + ");");
    e.line("}");
  } else if (is_half) {  // in float; the quotient's exponential computed again (y holds halves)
    e.line("float mx = " + xk("0") + ";");
    e.line("float sum = 0.0f;");
    std::string k = emit_norm_block(e, "k", v.n);
    e.line("const float c = " + xk(k) + ";");
    e.line("if (c > mx) {");
    e.line("mx = c;");
    e.line("}");
    e.line("}");
    k = emit_norm_block(e, "k", v.n);
    e.line("sum += expf(" + xk(k) + " - mx);");
    e.line("}");
    k = emit_norm_block(e, "k", v.n);
    e.line(e.store(type, "y0[" + at(k) + "]", "expf(" + xk(k) + " - mx) / sum", false));
    e.line("}");
  } else {
    const std::string ex = x.dtype == DType::Float ? "expf" : "exp";
    e.line(t + " mx = x0[" + at("0") + "];");
    e.line(t + " sum = " + c_literal(x.dtype, 0.0) + ";");
    std::string k = emit_norm_block(e, "k", v.n);
    e.line("if (x0[" + at(k) + "] > mx) {");
    e.line("mx = x0[" + at(k) + "];");
    e.line("}");
    e.line("}");
    k = emit_norm_block(e, "k", v.n);
    e.line("const " + t + " ev = " + ex + "(x0[" + at(k) + "] - mx);");
    e.line("y0[" + at(k) + "] = ev;");
    e.line("sum += ev;");
    e.line("}");
    k = emit_norm_block(e, "k", v.n);
    e.line("y0[" + at(k) + "] = y0[" + at(k) + "] / sum;");
    e.line("}");
  }
  emit_window_close(e, open);
}

// ReduceSum-13 and ReduceMean-18: axes from the constant input 1.
static void emit_norm_reduce(NodeEmitter& e, bool mean) {
  const CValue& x = e.input(0);
  const ReduceParams p = e.params<ReduceParams>();
  if (!p.axes_from_input) e.refuse("axes as an attribute (this template is for the versions taking them as an input)");
  std::vector<int64_t> axes;
  if (e.has_input(1)) {
    const Tensor& t = e.constant_input(1, "axes");
    if (!is_integer(t.dtype())) e.refuse("input 1 must be an integer tensor");
    axes = t.to_int64_vector();
  }
  const DType type = x.dtype;
  const bool is_float = emit_norm_is_floating(type);
  const bool is_half = is_half_type(type);
  const bool int_sum = !mean && (type == DType::Int32 || type == DType::Int64 || type == DType::UInt32 || type == DType::UInt64);
  const bool int_mean = mean && (type == DType::Int32 || type == DType::UInt32);
  if (!is_float && !int_sum && !int_mean)
    e.refuse("element type " + std::string(dtype_name(type)) +
             (mean ? " (float, double, float16, bfloat16, int32, uint32 only)"
                   : " (float, double, float16, bfloat16, int32, int64, uint32, uint64 only)"));
  const std::string t = c_compute_type(type);
  const int64_t rank = static_cast<int64_t>(x.shape.size());

  if (axes.empty() && p.noop_with_empty_axes) {  // the reference returns X itself (its bits)
    if (e.output(0).shape != x.shape) e.refuse("the output's static shape is not X's");
    if (x.size() == 0) return;
    int open = 0;
    const std::string i = emit_window_loop(e, "i", x.size(), open);
    e.line("y0[" + i + "] = x0[" + i + "];");
    emit_window_close(e, open);
    return;
  }
  std::vector<bool> reduced(static_cast<size_t>(rank), axes.empty());
  for (int64_t a : axes) {
    const auto d = static_cast<size_t>(emit_norm_axis(e, a, rank));
    if (reduced[d]) e.refuse("axis " + std::to_string(d) + " is given more than once");
    reduced[d] = true;
  }
  Shape kept(x.shape.size()), group(x.shape.size()), out_shape;
  int64_t count = 1;
  for (size_t d = 0; d < x.shape.size(); ++d) {
    kept[d] = reduced[d] ? 1 : x.shape[d];
    group[d] = reduced[d] ? x.shape[d] : 1;
    if (reduced[d]) count *= x.shape[d];
    if (!reduced[d]) out_shape.push_back(x.shape[d]);
    else if (p.keepdims) out_shape.push_back(1);
  }
  if (e.output(0).shape != out_shape)
    e.refuse("the output's static shape " + shape_str(e.output(0).shape) + " is not " + shape_str(out_shape));
  if (e.output(0).size() == 0) return;
  if (int_mean && count == 0) e.refuse("ReduceMean over an empty set of integers divides by zero");

  const std::vector<int64_t> xs = row_major_strides(x.shape);
  const LoopNest outer = open_loops(e, kept, "o");
  const std::string yi = offset_expr(outer, row_major_strides(kept));
  const bool exact = e.mode() == Mode::Exact;
  std::string acc_t, init, add, result, store;  // `store`: the whole statement writing a half result
  if (is_float) {
    // Fast: the compute type (float for a half type). A half element widened exactly (load; the
    // placeholder @ is its index), the result stored into the half type once (store).
    const DType ctype = exact ? DType::Double : (is_half ? DType::Float : type);
    acc_t = exact ? "double" : t;
    init = c_literal(ctype, 0.0);
    const std::string elem = is_half ? e.load(type, "x0[@]") : "x0[@]";
    add = exact ? "acc += (double)" + elem + ";" : "acc += " + elem + ";";
    const std::string div = c_literal(ctype, static_cast<double>(count));
    const std::string v = mean ? "acc / " + div : "acc";
    if (is_half) store = e.store(type, "y0[" + yi + "]", v, exact);  // exact: round_from_double; fast: T(float)
    result = exact ? "(" + t + ")(" + v + ")" : v;
  } else if (int_sum) {
    acc_t = type == DType::Int64 || type == DType::UInt64 ? "uint64_t" : "uint32_t";
    init = "0u";
    add = "acc = (" + acc_t + ")(acc + (" + acc_t + ")x0[@]);";
    result = "(" + t + ")acc";
  } else {  // int32 / uint32 mean: the exact sum in 64 bits, truncated toward zero by the count
    const bool is_signed = type == DType::Int32;
    acc_t = is_signed ? "int64_t" : "uint64_t";
    init = is_signed ? "INT64_C(0)" : "UINT64_C(0)";
    add = "acc += (" + acc_t + ")x0[@];";
    result = "(" + t + ")(acc / " + (is_signed ? "INT64_C(" : "UINT64_C(") + std::to_string(count) + "))";
  }
  e.line(acc_t + " acc = " + init + ";");
  const LoopNest inner = open_loops(e, group, "r");
  EmitAffine xi;
  for (size_t d = 0; d < x.shape.size(); ++d) xi.add(outer.index[d], xs[d]).add(inner.index[d], xs[d]);
  const size_t at = add.find('@');
  e.line(add.substr(0, at) + xi.str() + add.substr(at + 1));
  close_loops(e, inner);
  e.line(!store.empty() ? store : "y0[" + yi + "] = " + result + ";");
  close_loops(e, outer);
}

static void emit_norm_reduce_sum(NodeEmitter& e) { emit_norm_reduce(e, false); }
static void emit_norm_reduce_mean(NodeEmitter& e) { emit_norm_reduce(e, true); }

// ArgMax-13.
static void emit_norm_argmax(NodeEmitter& e) {
  const CValue& x = e.input(0);
  const DType type = x.dtype;
  const bool is_float = emit_norm_is_floating(type);
  switch (type) {
    case DType::Float:
    case DType::Double:
    case DType::Float16:
    case DType::BFloat16:
    case DType::Int8:
    case DType::Int16:
    case DType::Int32:
    case DType::Int64:
    case DType::UInt8:
    case DType::UInt16:
    case DType::UInt32:
    case DType::UInt64: break;
    default: e.refuse("element type " + std::string(dtype_name(type)));
  }
  const ArgReduceParams p = e.params<ArgReduceParams>();
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  const int64_t axis = emit_norm_axis(e, p.axis, rank);
  const EmitNormView v = emit_norm_view(x.shape, axis);
  Shape out_shape;
  for (int64_t d = 0; d < rank; ++d) {
    if (d != axis) out_shape.push_back(x.shape[static_cast<size_t>(d)]);
    else if (p.keepdims) out_shape.push_back(1);
  }
  if (e.output(0).shape != out_shape)
    e.refuse("the output's static shape " + shape_str(e.output(0).shape) + " is not " + shape_str(out_shape));
  if (e.output(0).dtype != DType::Int64) e.refuse("the output is not int64");
  if (e.output(0).size() == 0) return;
  if (v.n == 0) e.refuse("cannot take the arg extreme of an empty axis");
  const std::string t = c_compute_type(type);  // compute_t: a half element widened to float
  int open = 0;
  const std::string o = emit_window_loop(e, "o", v.outer, open);
  const std::string i = emit_window_loop(e, "i", v.inner, open);
  const std::string yi = EmitAffine().add(o, v.inner).add(i, 1).str();
  if (v.n == 1) {
    e.line("y0[" + yi + "] = INT64_C(0);");
    emit_window_close(e, open);
    return;
  }
  auto at = [&](const std::string& k) { return EmitAffine().add(o, v.n * v.inner).add(k, v.inner).add(i, 1).str(); };
  if (is_float) e.needs_math();
  e.line("int64_t best = 0;");
  auto xk = [&](const std::string& k) {
    const std::string el = "x0[" + at(k) + "]";
    return is_half_type(type) ? e.load(type, el) : el;
  };
  e.line(t + " bv = " + xk("0") + ";");
  e.line("for (int64_t k = 1; k < " + std::to_string(v.n) + "; ++k) {");
  e.line("const " + t + " c = " + xk("k") + ";");
  std::string cond;
  if (is_float)
    cond = p.select_last_index ? "isnan(bv) ? isnan(c) : (isnan(c) || c >= bv)" : "!isnan(bv) && (isnan(c) || c > bv)";
  else cond = p.select_last_index ? "c >= bv" : "c > bv";
  e.line("if (" + cond + ") {");
  e.line("best = k;");
  e.line("bv = c;");
  e.line("}");
  e.line("}");
  e.line("y0[" + yi + "] = best;");
  emit_window_close(e, open);
}

SONNX_EMIT_C("", "BatchNormalization", (15), emit_norm_batch_norm);
SONNX_EMIT_C("", "Softmax", (13), emit_norm_softmax);
SONNX_EMIT_C("", "ReduceSum", (13), emit_norm_reduce_sum);
SONNX_EMIT_C("", "ReduceMean", (18), emit_norm_reduce_mean);
SONNX_EMIT_C("", "ArgMax", (13), emit_norm_argmax);

}  // namespace sonnx::emit
