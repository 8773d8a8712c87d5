// Neural-network operators: Conv, pooling, Gemm, MatMul, the attention pattern (MatMul, Softmax,
// MatMul), the normalisations, Softmax/LogSoftmax and PRelu. Window sizes, strides, pads,
// dilations and channel counts are Z3 symbols; the output size of a window operator is tied to
// them by ONNX's formula
//   out = floor((in + pad_begin + pad_end − dilation·(kernel − 1) − 1) / stride) + 1,
// stated without division as stride·(out − 1) ≤ span < stride·out.
#include "generator_util.h"
#include "reference/model/tensor_proto.h"

namespace sonnx::fuzz {
namespace {

bool spatial(const TVar& t) { return is_float(t) && (t.rank() == 3 || t.rank() == 4); }

struct Window {
  std::vector<z3::expr> kernel, stride, dilation, pad_begin, pad_end, out;
};

// A window over each spatial dim of `in`; pads stay below the kernel (ONNX requires it for pooling).
// `dilated_unpadded`: a dilated axis has no pads (a dilated window in the pads may see only padding).
Window make_window(GenContext& c, OpPlan& p, const std::vector<z3::expr>& in, bool dilations, bool pads_below_kernel,
                   bool dilated_unpadded = false) {
  Window w;
  for (size_t i = 2; i < in.size(); ++i) {
    z3::expr k = c.fresh(p, "k", 1, 3), s = c.fresh(p, "st", 1, 2), d = c.fresh(p, "dl", 1, dilations ? 2 : 1);
    z3::expr pb = c.fresh(p, "pb", 0, 2), pe = c.fresh(p, "pe", 0, 2), o = c.fresh(p, "o", 1, 64);
    if (pads_below_kernel) p.constraints.push_back(pb < k && pe < k);
    z3::expr span = in[i] + pb + pe - d * (k - 1) - 1;
    p.constraints.push_back(span >= 0 && s * (o - 1) <= span && span < s * o);
    if (dilated_unpadded) {
      p.constraints.push_back(d == c.c(1) || (pb == c.c(0) && pe == c.c(0)));
      // Preferences consistent with it: a solve that drops them leaves the choice to Z3.
      int64_t kv = c.uniform(1, 3), sv = c.coin(0.7) ? 1 : 2, dv = c.coin(0.8) ? 1 : 2, pv = dv == 1 ? c.uniform(0, 1) : 0;
      p.prefs.push_back(k == c.c(kv) && s == c.c(sv) && d == c.c(dv) && pb == c.c(pv) && pe == pb);
    } else {
      p.prefs.push_back(k == c.c(c.uniform(1, 3)) && s == c.c(c.coin(0.7) ? 1 : 2) && d == c.c(c.coin(0.8) ? 1 : 2) &&
                        pb == c.c(c.uniform(0, 1)) && pe == pb);
    }
    w.kernel.push_back(k), w.stride.push_back(s), w.dilation.push_back(d);
    w.pad_begin.push_back(pb), w.pad_end.push_back(pe), w.out.push_back(o);
  }
  return w;
}

void set_window(onnx::NodeProto& n, const Window& w, const Solution& s, bool dilations) {
  set_attr(n, "kernel_shape", s(w.kernel));
  set_attr(n, "strides", s(w.stride));
  std::vector<int64_t> pads = s(w.pad_begin), e = s(w.pad_end);
  pads.insert(pads.end(), e.begin(), e.end());
  set_attr(n, "pads", pads);
  if (dilations) set_attr(n, "dilations", s(w.dilation));
}

bool plan_conv(GenContext& c, OpPlan& p) {
  int x = c.pick(spatial);
  if (x < 0) return false;
  auto in = dims_of(c, tv(c, x));
  int64_t C = tv(c, x).shape[1];
  bool depthwise = C > 1 && c.coin(0.25);
  z3::expr M = c.fresh(p, "m", 1, 2 * c.max_dim);
  if (depthwise) p.constraints.push_back(M == c.c(C) || M == c.c(2 * C));
  // Up to 16 channels: oneDNN picks blocked layouts (8 or 16 channels a block) for these.
  int64_t want = c.coin(0.3) ? 2 * c.max_dim : c.uniform(1, c.max_dim);
  p.prefs.push_back(M == c.c(depthwise ? C : want));
  Window w = make_window(c, p, in, true, false);
  bool bias = c.coin(0.6);
  p.emit = [&c, x, in, M, w, depthwise, bias, C](const Solution& s) {
    int64_t m = s(M), group = depthwise ? C : 1, cin = C / group;
    std::vector<int64_t> shape{tv(c, x).shape[0], m}, wshape{m, cin};
    int64_t fan_in = cin;
    for (size_t i = 0; i < w.out.size(); ++i) {
      shape.push_back(s(w.out[i]));
      wshape.push_back(s(w.kernel[i]));
      fan_in *= s(w.kernel[i]);
    }
    double ws = 1 / std::sqrt(static_cast<double>(fan_in));
    Interval range{-(tv(c, x).range.mag() * std::sqrt(static_cast<double>(fan_in)) + 1), 0};
    range.hi = -range.lo;
    if (!c.fits(shape) || !c.fits(wshape) || !c.fits(range)) return false;
    std::vector<std::string> ins{tv(c, x).name, c.add_float_const(wshape, {-ws, ws})};
    if (bias) ins.push_back(c.add_float_const({m}, {-1, 1}));
    int y = out_tensor(c, kFloat(), shape, range, {x}, "Conv");
    auto& n = c.add_node("Conv", ins, {y});
    set_window(n, w, s, true);
    set_attr(n, "group", group);
    return true;
  };
  return true;
}

// ConvTranspose with concrete attributes (no symbols): per axis out = s·(in − 1) + output_padding
// + (k − 1)·d + 1 − pad_begin − pad_end, kept at least 1.
bool plan_conv_transpose(GenContext& c, OpPlan& p) {
  int x = c.pick(spatial);
  if (x < 0) return false;
  const TVar& t = tv(c, x);
  int64_t C = t.shape[1], group = C > 1 && C % 2 == 0 && c.coin(0.3) ? 2 : 1, mg = c.uniform(1, 3);
  std::vector<int64_t> k, st, dl, pads_b, pads_e, opad, shape{t.shape[0], mg * group}, wshape{C, mg};
  int64_t taps = C / group;
  for (size_t i = 2; i < t.shape.size(); ++i) {
    int64_t kk = c.uniform(1, 3), s = c.uniform(1, 2), d = c.coin(0.8) ? 1 : 2, op = s > 1 && c.coin(0.3) ? 1 : 0;
    int64_t full = s * (t.shape[i] - 1) + op + (kk - 1) * d + 1, pb = std::min<int64_t>(c.uniform(0, 1), full - 1);
    int64_t pe = std::min<int64_t>(c.uniform(0, 1), full - 1 - pb);
    k.push_back(kk), st.push_back(s), dl.push_back(d), opad.push_back(op), pads_b.push_back(pb), pads_e.push_back(pe);
    shape.push_back(full - pb - pe);
    wshape.push_back(kk);
    taps *= kk;
  }
  p.emit = [&c, x, k, st, dl, opad, pads_b, pads_e, shape, wshape, group, taps](const Solution&) {
    double ws = 1 / std::sqrt(static_cast<double>(taps));
    Interval range{-(tv(c, x).range.mag() * std::sqrt(static_cast<double>(taps)) + 1), 0};
    range.hi = -range.lo;
    if (!c.fits(shape) || !c.fits(wshape) || !c.fits(range)) return false;
    std::vector<std::string> ins{tv(c, x).name, c.add_float_const(wshape, {-ws, ws})};
    if (c.coin(0.6)) ins.push_back(c.add_float_const({shape[1]}, {-1, 1}));
    int y = out_tensor(c, kFloat(), shape, range, {x}, "ConvTranspose");
    auto& n = c.add_node("ConvTranspose", ins, {y});
    std::vector<int64_t> pads(pads_b.size() + pads_e.size());
    std::copy(pads_e.begin(), pads_e.end(), std::copy(pads_b.begin(), pads_b.end(), pads.begin()));
    set_attr(n, "kernel_shape", k);
    set_attr(n, "strides", st);
    set_attr(n, "dilations", dl);
    set_attr(n, "pads", pads);
    set_attr(n, "group", group);
    if (opad != std::vector<int64_t>(opad.size(), 0)) set_attr(n, "output_padding", opad);
    return true;
  };
  return true;
}

// Resize in nearest mode to `sizes` (an int64 constant): each spatial length doubled, kept or
// halved, under one of the coordinate and rounding modes (every one selects existing elements).
// Resize exists from opset 10 (Upsample, before, is not generated). Resize-10 takes `scales` only (lengths floor(in · scale), no
// coordinate or rounding modes): each spatial scale 2, 1 or 0.5 (1 on a length of 1). Resize-11
// and 12 need `roi` and `scales` as inputs: empty tensors, with `sizes`.
bool plan_resize_nearest(GenContext& c, OpPlan& p) {
  int x = c.pick(spatial);
  if (x < 0) return false;
  std::vector<int64_t> sizes = tv(c, x).shape;
  std::vector<float> scales(sizes.size(), 1.0f);
  for (size_t i = 2; i < sizes.size(); ++i) {
    int64_t f = c.uniform(0, 2);
    if (!c.at_least(11)) {
      scales[i] = f == 0 ? 2.0f : f == 1 || sizes[i] < 2 ? 1.0f : 0.5f;
      sizes[i] = static_cast<int64_t>(std::floor(static_cast<double>(sizes[i]) * scales[i]));
      continue;
    }
    sizes[i] = f == 0 ? sizes[i] * 2 : f == 1 ? sizes[i] : (sizes[i] + 1) / 2;
  }
  static const char* coords[] = {"half_pixel", "asymmetric", "align_corners", "pytorch_half_pixel"};
  static const char* rounding[] = {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"};
  std::string coord = coords[c.uniform(0, 3)], nearest = rounding[c.uniform(0, 3)];
  p.emit = [&c, x, sizes, scales, coord, nearest](const Solution&) {
    if (!c.fits(sizes)) return false;
    if (!c.at_least(11)) {
      Tensor t(DType::Float, Shape{static_cast<int64_t>(scales.size())});
      std::copy(scales.begin(), scales.end(), t.data<float>());
      std::string name = c.fresh_name("k");
      *c.graph.add_initializer() = tensor_to_proto(t, name);
      int y = out_tensor(c, kFloat(), sizes, tv(c, x).range, {x}, "Resize");
      set_attr(c.add_node("Resize", {tv(c, x).name, name}, {y}), "mode", std::string("nearest"));
      return true;
    }
    std::string sz = c.add_int64_const({static_cast<int64_t>(sizes.size())}, sizes);
    int y = out_tensor(c, kFloat(), sizes, tv(c, x).range, {x}, "Resize");
    std::vector<std::string> ins{tv(c, x).name, "", "", sz};
    if (!c.at_least(13)) {
      ins[1] = c.add_float_const({0}, {0, 0});  // roi
      ins[2] = c.add_float_const({0}, {0, 0});  // scales
    }
    auto& n = c.add_node("Resize", ins, {y});
    set_attr(n, "mode", std::string("nearest"));
    set_attr(n, "coordinate_transformation_mode", coord);
    set_attr(n, "nearest_mode", nearest);
    return true;
  };
  return true;
}

template <int I>
bool plan_pool(GenContext& c, OpPlan& p) {
  const char* op = I == 0 ? "MaxPool" : "AveragePool";
  int x = c.pick(spatial);
  if (x < 0) return false;
  auto in = dims_of(c, tv(c, x));
  // AveragePool has dilations from opset 19, MaxPool from 10.
  bool dilations = (I == 0 && c.at_least(10)) || c.at_least(19);
  // A dilated window with pads may see only padding, where MaxPool and AveragePool (without
  // count_include_pad) have no value: the check refuses it (spec/ops/MaxPool.md).
  Window w = make_window(c, p, in, dilations, true, dilations);
  bool count_pad = c.coin();
  p.emit = [&c, x, w, op, count_pad, dilations](const Solution& s) {
    std::vector<int64_t> shape{tv(c, x).shape[0], tv(c, x).shape[1]};
    for (const auto& o : w.out) shape.push_back(s(o));
    Interval range = tv(c, x).range;
    if (I == 1 || std::string(op) == "MaxPool") range = hull(range, {0, 0});  // padding may contribute zeros
    int y = out_tensor(c, kFloat(), shape, range, {x}, op);
    auto& n = c.add_node(op, {tv(c, x).name}, {y});
    set_window(n, w, s, dilations);
    if (I == 1) set_attr(n, "count_include_pad", static_cast<int64_t>(count_pad));
    return true;
  };
  return true;
}

template <int I>
bool plan_global_pool(GenContext& c, OpPlan& p) {
  const char* op = I == 0 ? "GlobalAveragePool" : "GlobalMaxPool";
  int x = c.pick(spatial);
  if (x < 0) return false;
  p.emit = [&c, x, op](const Solution&) {
    std::vector<int64_t> shape = tv(c, x).shape;
    for (size_t i = 2; i < shape.size(); ++i) shape[i] = 1;
    int y = out_tensor(c, kFloat(), shape, tv(c, x).range, {x}, op);
    c.add_node(op, {tv(c, x).name}, {y});
    return true;
  };
  return true;
}

bool plan_gemm(GenContext& c, OpPlan& p) {
  int x = c.pick([](const TVar& t) { return is_float(t) && t.rank() == 2; });
  if (x < 0) return false;
  bool ta = c.coin(0.2), tb = c.coin(0.4);
  int64_t M = tv(c, x).shape[ta ? 1 : 0], K = tv(c, x).shape[ta ? 0 : 1];
  z3::expr N = c.fresh(p, "n", 1, c.max_dim);
  p.prefs.push_back(N == c.c(c.uniform(1, c.max_dim)));
  int bias_kind = static_cast<int>(c.uniform(0, 3));     // none, [N], [M,N], scalar
  if (!c.at_least(11) && bias_kind == 0) bias_kind = 1;  // C is optional from Gemm-11 on
  double alpha = c.coin(0.7) ? 1.0 : c.uniform_real(0.25, 2), beta = c.coin(0.7) ? 1.0 : c.uniform_real(0.25, 2);
  p.emit = [&c, x, ta, tb, M, K, N, bias_kind, alpha, beta](const Solution& s) {
    int64_t n = s(N);
    double ws = 1 / std::sqrt(static_cast<double>(K));
    std::vector<std::string> ins{tv(c, x).name,
                                 c.add_float_const(tb ? std::vector<int64_t>{n, K} : std::vector<int64_t>{K, n}, {-ws, ws})};
    if (bias_kind == 1) ins.push_back(c.add_float_const({n}, {-1, 1}));
    if (bias_kind == 2) ins.push_back(c.add_float_const({M, n}, {-1, 1}));
    if (bias_kind == 3) ins.push_back(c.add_float_const({}, {-1, 1}));
    double mag = alpha * tv(c, x).range.mag() * std::sqrt(static_cast<double>(K)) + (bias_kind ? beta : 0);
    int y = out_tensor(c, kFloat(), {M, n}, {-mag, mag}, {x}, "Gemm");
    auto& node = c.add_node("Gemm", ins, {y});
    set_attr(node, "transA", static_cast<int64_t>(ta));
    set_attr(node, "transB", static_cast<int64_t>(tb));
    set_attr(node, "alpha", static_cast<float>(alpha));
    set_attr(node, "beta", static_cast<float>(beta));
    return true;
  };
  return true;
}

// MatMul with a constant or input right operand: [K, N], or batched with the left's batch dims.
bool plan_matmul(GenContext& c, OpPlan& p) {
  int x = c.pick([](const TVar& t) { return is_float(t) && t.rank() >= 2; });
  if (x < 0) return false;
  const auto& xs = tv(c, x).shape;
  int64_t K = xs.back();
  z3::expr N = c.fresh(p, "n", 1, c.max_dim);
  p.prefs.push_back(N == c.c(c.uniform(1, c.max_dim)));
  bool batched = xs.size() > 2 && c.coin(0.4), as_const = c.coin(0.6);
  p.emit = [&c, x, K, N, batched, as_const](const Solution& s) {
    int64_t n = s(N);
    const auto& xs = tv(c, x).shape;
    std::vector<int64_t> bshape{K, n}, shape(xs.begin(), xs.end() - 1);
    shape.push_back(n);
    if (batched) bshape.insert(bshape.begin(), xs.begin(), xs.end() - 2);
    if (!c.fits(shape) || !c.fits(bshape)) return false;
    double ws = 1 / std::sqrt(static_cast<double>(K));
    std::string b = as_const ? c.add_float_const(bshape, {-ws, ws})
                             : c.tensors[static_cast<size_t>(c.add_input(bshape, {-ws, ws}))].name;
    double mag = tv(c, x).range.mag() * std::sqrt(static_cast<double>(K));
    int y = out_tensor(c, kFloat(), shape, {-mag, mag}, {x}, "MatMul");
    c.add_node("MatMul", {tv(c, x).name, b}, {y});
    return true;
  };
  return true;
}

// Scaled dot-product attention as exporters write it (the optimized executors run it as one step,
// optimized/plan/fusion.h): [Div or Mul of Q by a scalar] → MatMul(·, Kt) → [Div or Mul of the
// scores by a scalar] → Softmax over the last axis → MatMul(·, V), Q an existing tensor, Kt and V
// new inputs or constants with Q's batch dims. Kt's range keeps the scores within ±4, where the
// softmax does not magnify the products' rounding.
bool plan_attention(GenContext& c, OpPlan& p) {
  int x = c.pick([](const TVar& t) { return is_float(t) && t.rank() >= 2; });
  if (x < 0) return false;
  z3::expr N = c.fresh(p, "n", 1, c.max_dim), Dv = c.fresh(p, "dv", 1, c.max_dim);
  p.prefs.push_back(N == c.c(c.uniform(1, c.max_dim)) && Dv == c.c(c.uniform(1, c.max_dim)));
  int64_t scale = c.uniform(0, 4);      // none, Div on Q, Mul on Q, Div on S, Mul on S
  int64_t axis_form = c.uniform(0, 2);  // the attribute omitted, -1, rank - 1
  // Before Softmax-13 the input is coerced to 2-D at `axis` (default 1): axis rank − 1 normalizes
  // the last axis there too.
  if (!c.at_least(13)) axis_form = 2;
  bool scale_first = c.coin(), k_const = c.coin(0.3), v_const = c.coin(0.3);
  double cv = c.uniform_real(0.25, 4);
  p.emit = [&c, x, N, Dv, scale, axis_form, scale_first, k_const, v_const, cv](const Solution& s) {
    const std::vector<int64_t> xs = tv(c, x).shape;
    int64_t n = s(N), dv = s(Dv), D = xs.back(), r = static_cast<int64_t>(xs.size());
    std::vector<int64_t> kt(xs.begin(), xs.end() - 2), v = kt, scores(xs.begin(), xs.end() - 1), out = scores;
    kt.insert(kt.end(), {D, n});
    v.insert(v.end(), {n, dv});
    scores.push_back(n);
    out.push_back(dv);
    double qf = scale == 1 ? 1 / cv : scale == 2 ? cv : 1;  // Q's scale
    if (!c.fits(kt) || !c.fits(v) || !c.fits(scores) || !c.fits(out) || !c.fits(Interval{-tv(c, x).range.mag() * qf, 0}))
      return false;
    auto operand = [&c](bool as_const, const std::vector<int64_t>& shape, Interval range) {
      return as_const ? c.add_float_const(shape, range) : c.tensors[static_cast<size_t>(c.add_input(shape, range))].name;
    };
    // A Div or Mul of tensor `in` by the scalar: returns the new tensor.
    auto scaled = [&](int in, bool div) {
      Interval r = tv(c, in).range;
      double f = div ? 1 / cv : cv;
      int y = out_tensor(c, kFloat(), tv(c, in).shape, {r.lo * f, r.hi * f}, {in}, div ? "Div" : "Mul");
      std::string k = c.add_float_const({}, {cv, cv});
      c.add_node(div ? "Div" : "Mul",
                 !div && scale_first ? std::vector<std::string>{k, tv(c, in).name} : std::vector<std::string>{tv(c, in).name, k},
                 {y});
      return y;
    };
    int q = scale == 1 || scale == 2 ? scaled(x, scale == 1) : x;
    double km = 4 / (static_cast<double>(D) * std::max(tv(c, q).range.mag(), 0.25));
    std::string kname = operand(k_const, kt, {-km, km});
    int sc = out_tensor(c, kFloat(), scores, {-4, 4}, {q}, "MatMul");
    c.add_node("MatMul", {tv(c, q).name, kname}, {sc});
    if (scale >= 3) sc = scaled(sc, scale == 3);
    int pr = out_tensor(c, kFloat(), scores, {0, 1}, {sc}, "Softmax");
    auto& softmax = c.add_node("Softmax", {tv(c, sc).name}, {pr});
    if (axis_form > 0) set_attr(softmax, "axis", axis_form == 1 ? int64_t{-1} : r - 1);
    Interval vr = random_range(c, false);
    std::string vname = operand(v_const, v, vr);
    int y = out_tensor(c, kFloat(), out, {-vr.mag(), vr.mag()}, {pr}, "MatMul");
    c.add_node("MatMul", {tv(c, pr).name, vname}, {y});
    return true;
  };
  return true;
}

bool plan_batchnorm(GenContext& c, OpPlan& p) {
  int x = c.pick([](const TVar& t) { return is_float(t) && t.rank() >= 2; });
  if (x < 0) return false;
  p.emit = [&c, x](const Solution&) {
    int64_t C = tv(c, x).shape[1];
    std::vector<std::string> ins{tv(c, x).name, c.add_float_const({C}, {0.5, 1.5}), c.add_float_const({C}, {-1, 1}),
                                 c.add_float_const({C}, {-1, 1}), c.add_float_const({C}, {0.5, 2})};
    double mag = (tv(c, x).range.mag() + 1) / std::sqrt(0.5) * 1.5 + 1;
    int y = out_tensor(c, kFloat(), tv(c, x).shape, {-mag, mag}, {x}, "BatchNormalization");
    auto& n = c.add_node("BatchNormalization", ins, {y});
    set_attr(n, "epsilon", 1e-5f);
    return true;
  };
  return true;
}

// Normalisations divide by a spread that may be tiny; only on values computed bit for bit.
bool normalisable(const TVar& t) { return is_float(t) && !t.fast_rounding && t.rank() >= 1; }

bool plan_layernorm(GenContext& c, OpPlan& p) {
  int x = c.pick(normalisable);
  if (x < 0) return false;
  int64_t r = tv(c, x).rank(), axis = random_axis(c, r);
  bool neg = c.coin(0.3), with_bias = c.coin();
  p.emit = [&c, x, r, axis, neg, with_bias](const Solution&) {
    std::vector<int64_t> norm(tv(c, x).shape.begin() + axis, tv(c, x).shape.end());
    int64_t n = 1;
    for (int64_t d : norm) n *= d;
    std::vector<std::string> ins{tv(c, x).name, c.add_float_const(norm, {0.5, 1.5})};
    if (with_bias) ins.push_back(c.add_float_const(norm, {-1, 1}));
    double mag = 1.5 * std::sqrt(static_cast<double>(n)) + 1;
    int y = out_tensor(c, kFloat(), tv(c, x).shape, {-mag, mag}, {x}, "LayerNormalization");
    auto& node = c.add_node("LayerNormalization", ins, {y});
    set_attr(node, "axis", neg ? axis - r : axis);
    set_attr(node, "epsilon", 1e-5f);
    return true;
  };
  return true;
}

// LayerNormalization as exporters write it in nodes, over the last axis (the optimized executors
// fuse the chain into one step): ReduceMean → Sub → Pow 2 → ReduceMean → Add ε → Sqrt → Div, then
// optionally Mul by a scale and Add a bias.
bool plan_layernorm_nodes(GenContext& c, OpPlan& p) {
  int x = c.pick(normalisable);
  if (x < 0) return false;
  bool affine = c.coin();
  p.emit = [&c, x, affine](const Solution&) {
    std::vector<int64_t> shape = tv(c, x).shape, reduced = shape;
    reduced.back() = 1;
    double m = tv(c, x).range.mag(), lim = std::sqrt(static_cast<double>(shape.back())) + 1;
    if (!c.fits(Interval{0, 4 * m * m + 1})) return false;
    // A node reading the tensors `from`, then the constants `consts`.
    auto node = [&c](const char* op, const std::vector<int>& from, const std::vector<std::string>& consts,
                     const std::vector<int64_t>& s, Interval range) {
      std::vector<std::string> ins;
      for (int f : from) ins.push_back(tv(c, f).name);
      ins.insert(ins.end(), consts.begin(), consts.end());
      int y = out_tensor(c, kFloat(), s, range, from, op);
      c.add_node(op, ins, {y});
      return y;
    };
    auto mean = [&](int in, Interval range) {
      int y = node("ReduceMean", {in},
                   c.at_least(18) ? std::vector<std::string>{c.add_int64_const({1}, {-1})} : std::vector<std::string>{}, reduced,
                   range);
      auto& n = *c.graph.mutable_node(c.graph.node_size() - 1);
      // Negative axes from ReduceMean-11 on.
      if (!c.at_least(18))
        set_attr(n, "axes", std::vector<int64_t>{c.at_least(11) ? -1 : static_cast<int64_t>(shape.size()) - 1});
      set_attr(n, "keepdims", int64_t{1});
      return y;
    };
    int mu = mean(x, {-m, m});
    int d = node("Sub", {x, mu}, {}, shape, {-2 * m, 2 * m});
    int sq = node("Pow", {d}, {c.add_float_const({}, {2, 2})}, shape, {0, 4 * m * m});
    int var = mean(sq, {0, 4 * m * m});
    int ve = node("Add", {var}, {c.add_float_const({}, {1e-5, 1e-5})}, reduced, {1e-5, 4 * m * m + 1});
    int sd = node("Sqrt", {ve}, {}, reduced, {0, 2 * m + 1});
    int y = node("Div", {d, sd}, {}, shape, {-lim, lim});
    if (affine) {
      std::vector<int64_t> last{shape.back()};
      y = node("Mul", {y}, {c.add_float_const(last, {0.5, 1.5})}, shape, {-1.5 * lim, 1.5 * lim});
      node("Add", {y}, {c.add_float_const(last, {-1, 1})}, shape, {-1.5 * lim - 1, 1.5 * lim + 1});
    }
    return true;
  };
  return true;
}

bool plan_instancenorm(GenContext& c, OpPlan& p) {
  int x = c.pick([](const TVar& t) { return normalisable(t) && t.rank() >= 3; });
  if (x < 0) return false;
  p.emit = [&c, x](const Solution&) {
    int64_t C = tv(c, x).shape[1], n = tv(c, x).numel() / (C * tv(c, x).shape[0]);
    std::vector<std::string> ins{tv(c, x).name, c.add_float_const({C}, {0.5, 1.5}), c.add_float_const({C}, {-1, 1})};
    double mag = 1.5 * std::sqrt(static_cast<double>(n)) + 1;
    int y = out_tensor(c, kFloat(), tv(c, x).shape, {-mag, mag}, {x}, "InstanceNormalization");
    set_attr(c.add_node("InstanceNormalization", ins, {y}), "epsilon", 1e-5f);
    return true;
  };
  return true;
}

bool plan_lpnorm(GenContext& c, OpPlan& p) {
  int x = c.pick([](const TVar& t) { return normalisable(t) && (t.range.lo >= 0.1 || t.range.hi <= -0.1); });
  if (x < 0) return false;
  int64_t axis = random_axis(c, tv(c, x).rank()), pn = c.coin() ? 1 : 2;
  p.emit = [&c, x, axis, pn](const Solution&) {
    int y = out_tensor(c, kFloat(), tv(c, x).shape, {-1, 1}, {x}, "LpNormalization");
    auto& n = c.add_node("LpNormalization", {tv(c, x).name}, {y});
    set_attr(n, "axis", axis);
    set_attr(n, "p", pn);
    return true;
  };
  return true;
}

// Before opset 13 (Softmax-1, -11) the input is coerced to 2-D at `axis`: one normalization spans
// the dims from `axis` to the last. Negative axes from 11 on.
template <int I>
bool plan_softmax(GenContext& c, OpPlan& p) {
  const char* op = I == 0 ? "Softmax" : "LogSoftmax";
  int x = c.pick([](const TVar& t) { return is_float(t) && t.rank() >= 1; });
  if (x < 0) return false;
  int64_t r = tv(c, x).rank(), axis = random_axis(c, r);
  bool neg = c.coin(0.3);
  if (!c.at_least(11)) neg = false;
  p.emit = [&c, x, r, axis, neg, op](const Solution&) {
    Interval in = tv(c, x).range;
    double n = static_cast<double>(tv(c, x).shape[static_cast<size_t>(axis)]);
    if (!c.at_least(13))
      for (int64_t i = axis + 1; i < r; ++i) n *= static_cast<double>(tv(c, x).shape[static_cast<size_t>(i)]);
    Interval range = I == 0 ? Interval{0, 1} : Interval{in.lo - in.hi - std::log(n), 0};
    int y = out_tensor(c, kFloat(), tv(c, x).shape, range, {x}, op);
    set_attr(c.add_node(op, {tv(c, x).name}, {y}), "axis", neg ? axis - r : axis);
    return true;
  };
  return true;
}

// PRelu: the slope broadcasts unidirectionally to X (a suffix of X's dims, some of them 1).
bool plan_prelu(GenContext& c, OpPlan& p) {
  int x = c.pick([](const TVar& t) { return is_float(t) && t.rank() >= 1; });
  if (x < 0) return false;
  p.emit = [&c, x](const Solution&) {
    const auto& xs = tv(c, x).shape;
    size_t rank = static_cast<size_t>(c.uniform(1, static_cast<int64_t>(xs.size())));
    std::vector<int64_t> sshape(xs.end() - static_cast<long>(rank), xs.end());
    for (auto& d : sshape)
      if (c.coin(0.4)) d = 1;
    std::string slope = c.add_float_const(sshape, {0.05, 0.5});
    Interval in = tv(c, x).range;
    int y = out_tensor(c, kFloat(), xs, {std::min(in.lo, 0.0), std::max(in.hi, 0.0)}, {x}, "PRelu");
    c.add_node("PRelu", {tv(c, x).name, slope}, {y});
    return true;
  };
  return true;
}

// RMSNormalization-23: X / sqrt(mean(X², axes from `axis` on) + ε) · scale, |X / rms| ≤ √n.
bool plan_rmsnorm(GenContext& c, OpPlan& p) {
  int x = c.pick(normalisable);
  if (x < 0) return false;
  int64_t r = tv(c, x).rank(), axis = random_axis(c, r);
  bool neg = c.coin(0.3), default_axis = axis == r - 1 && c.coin(), stash_float = c.coin(0.3);
  p.emit = [&c, x, r, axis, neg, default_axis, stash_float](const Solution&) {
    std::vector<int64_t> norm(tv(c, x).shape.begin() + axis, tv(c, x).shape.end());
    double n = 1;
    for (int64_t d : norm) n *= static_cast<double>(d);
    double mag = 1.5 * std::sqrt(n) + 1;
    int y = out_tensor(c, kFloat(), tv(c, x).shape, {-mag, mag}, {x}, "RMSNormalization");
    auto& node = c.add_node("RMSNormalization", {tv(c, x).name, c.add_float_const(norm, {0.5, 1.5})}, {y});
    if (!default_axis) set_attr(node, "axis", neg ? axis - r : axis);
    set_attr(node, "epsilon", 1e-5f);
    if (stash_float) set_attr(node, "stash_type", int64_t{1});
    return true;
  };
  return true;
}

// GroupNormalization-21: channels in num_groups groups (a divisor of C), scale and bias per channel.
bool plan_groupnorm(GenContext& c, OpPlan& p) {
  int x = c.pick([](const TVar& t) { return normalisable(t) && t.rank() >= 3; });
  if (x < 0) return false;
  int64_t C = tv(c, x).shape[1];
  std::vector<int64_t> divisors;
  for (int64_t g = 1; g <= C; ++g)
    if (C % g == 0) divisors.push_back(g);
  int64_t groups = divisors[static_cast<size_t>(c.uniform(0, static_cast<int64_t>(divisors.size()) - 1))];
  p.emit = [&c, x, C, groups](const Solution&) {
    int64_t n = tv(c, x).numel() / (tv(c, x).shape[0] * groups);  // elements of one group
    std::vector<std::string> ins{tv(c, x).name, c.add_float_const({C}, {0.5, 1.5}), c.add_float_const({C}, {-1, 1})};
    double mag = 1.5 * std::sqrt(static_cast<double>(n)) + 1;
    int y = out_tensor(c, kFloat(), tv(c, x).shape, {-mag, mag}, {x}, "GroupNormalization");
    auto& node = c.add_node("GroupNormalization", ins, {y});
    set_attr(node, "num_groups", groups);
    set_attr(node, "epsilon", 1e-5f);
    return true;
  };
  return true;
}

// CumProd-26: running products along an axis (a 0-D int64 input); |x| ≤ m gives |y| ≤ max(m, 1)^dim.
bool plan_cumprod(GenContext& c, OpPlan& p) {
  int x = c.pick([](const TVar& t) { return is_float(t) && t.rank() >= 1 && t.range.mag() <= 2; });
  if (x < 0) return false;
  int64_t r = tv(c, x).rank(), axis = random_axis(c, r);
  bool neg = c.coin(0.3), exclusive = c.coin(0.3), reverse = c.coin(0.3);
  p.emit = [&c, x, r, axis, neg, exclusive, reverse](const Solution&) {
    double dim = static_cast<double>(tv(c, x).shape[static_cast<size_t>(axis)]);
    double mag = std::pow(std::max(1.0, tv(c, x).range.mag()), dim);
    if (!c.fits(Interval{-mag, mag})) return false;
    std::string k = c.add_int64_const({}, {neg ? axis - r : axis});
    int y = out_tensor(c, kFloat(), tv(c, x).shape, {-mag, mag}, {x}, "CumProd");
    auto& node = c.add_node("CumProd", {tv(c, x).name, k}, {y});
    if (exclusive) set_attr(node, "exclusive", int64_t{1});
    if (reverse) set_attr(node, "reverse", int64_t{1});
    return true;
  };
  return true;
}

}  // namespace

void add_nn_generators(std::vector<OpGenerator>& v) {
  v.push_back({"Conv", plan_conv});
  v.push_back({"ConvTranspose", plan_conv_transpose});
  v.push_back({"Resize", plan_resize_nearest, 10});
  v.push_back({"LayerNormNodes", plan_layernorm_nodes});
  v.push_back({"MaxPool", plan_pool<0>});
  v.push_back({"AveragePool", plan_pool<1>});
  v.push_back({"GlobalAveragePool", plan_global_pool<0>});
  v.push_back({"GlobalMaxPool", plan_global_pool<1>});
  v.push_back({"Gemm", plan_gemm});
  v.push_back({"MatMul", plan_matmul});
  v.push_back({"Attention", plan_attention});
  v.push_back({"BatchNormalization", plan_batchnorm});
  v.push_back({"LayerNormalization", plan_layernorm, 17});
  v.push_back({"InstanceNormalization", plan_instancenorm});
  v.push_back({"LpNormalization", plan_lpnorm});
  v.push_back({"Softmax", plan_softmax<0>});
  v.push_back({"LogSoftmax", plan_softmax<1>});
  v.push_back({"PRelu", plan_prelu});
  v.push_back({"RMSNormalization", plan_rmsnorm, 23});
  v.push_back({"GroupNormalization", plan_groupnorm, 21});
  v.push_back({"CumProd", plan_cumprod, 26});
}

}  // namespace sonnx::fuzz
