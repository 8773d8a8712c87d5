// Data movement and reductions: Reshape, Transpose, Slice, Gather, Concat, Split, Pad, Flatten,
// Squeeze, Unsqueeze, Expand, Tile, the Reduce family, ArgMax/ArgMin and Cast. Sizes that the
// operator introduces (slice bounds, split sizes, pads, gathered counts) are Z3 symbols.
#include <numeric>

#include "generator_util.h"

namespace sonnx::fuzz {
namespace {

std::string name_of(GenContext& c, int t) { return c.tensors[static_cast<size_t>(t)].name; }

bool plan_reshape(GenContext& c, OpPlan& p) {
  int x = c.pick([](const TVar& t) { return is_float(t) && t.rank() >= 1; });
  if (x < 0) return false;
  std::vector<z3::expr> in = dims_of(c, tv(c, x)), out;
  size_t r = in.size();
  int mode = static_cast<int>(c.uniform(0, 2));
  size_t i = static_cast<size_t>(c.uniform(0, static_cast<int64_t>(r) - 1));
  if (mode == 0 && r >= 2 && i + 1 < r) {  // merge two adjacent dims
    for (size_t k = 0; k < r; ++k)
      if (k == i) out.push_back(in[k] * in[k + 1]), ++k;
      else out.push_back(in[k]);
  } else if (mode == 1) {  // split a dim into two factors
    z3::expr a = c.fresh(p, "f", 1, c.max_dim), b = c.fresh(p, "f", 1, c.max_dim);
    p.constraints.push_back(a * b == in[i]);
    p.prefs.push_back(a != c.c(1) && b != c.c(1));
    for (size_t k = 0; k < r; ++k)
      if (k == i) out.push_back(a), out.push_back(b);
      else out.push_back(in[k]);
  } else {  // insert a unit dim
    out = in;
    out.insert(out.begin() + static_cast<long>(c.uniform(0, static_cast<int64_t>(r))), c.c(1));
  }
  bool use_minus_one = c.coin(0.3), use_zero = c.coin(0.3);
  p.emit = [&c, x, out, use_minus_one, use_zero](const Solution& s) {
    std::vector<int64_t> shape = s(out), target = shape;
    if (!c.fits(shape)) return false;
    const auto& xs = tv(c, x).shape;
    if (use_zero && !target.empty() && !xs.empty() && target[0] == xs[0]) target[0] = 0;  // 0 copies the input dim
    if (use_minus_one && !target.empty()) target.back() = -1;
    std::string k = c.add_int64_const({static_cast<int64_t>(target.size())}, target);
    int y = out_tensor(c, kFloat(), shape, tv(c, x).range, {x}, "Reshape");
    c.add_node("Reshape", {name_of(c, x), k}, {y});
    return true;
  };
  return true;
}

bool plan_transpose(GenContext& c, OpPlan& p) {
  int x = c.pick([](const TVar& t) { return is_float(t) && t.rank() >= 2; });
  if (x < 0) return false;
  std::vector<int64_t> perm(static_cast<size_t>(tv(c, x).rank()));
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), c.rng);
  p.emit = [&c, x, perm](const Solution&) {
    std::vector<int64_t> shape;
    for (int64_t a : perm) shape.push_back(tv(c, x).shape[static_cast<size_t>(a)]);
    int y = out_tensor(c, kFloat(), shape, tv(c, x).range, {x}, "Transpose");
    set_attr(c.add_node("Transpose", {name_of(c, x)}, {y}), "perm", perm);
    return true;
  };
  return true;
}

bool plan_slice(GenContext& c, OpPlan& p) {
  int x = c.pick([](const TVar& t) { return is_float(t) && t.rank() >= 1; });
  if (x < 0) return false;
  auto in = dims_of(c, tv(c, x));
  int64_t r = tv(c, x).rank();
  int64_t axis = random_axis(c, r), step = c.coin(0.7) ? 1 : 2;
  if (!c.at_least(10)) step = 1;  // Slice-1 has no steps
  z3::expr b = c.fresh(p, "s", 0, 64), e = c.fresh(p, "e", 1, 64), n = c.fresh(p, "n", 1, 64);
  const z3::expr& d = in[static_cast<size_t>(axis)];
  // Elements b, b+step, ... < e; n of them.
  p.constraints.push_back(b < e && e <= d && n * c.c(step) >= e - b && (n - 1) * c.c(step) < e - b);
  p.prefs.push_back(b == c.c(c.uniform(0, 2)) && n == c.c(c.uniform(1, c.max_dim)));
  auto out = in;
  out[static_cast<size_t>(axis)] = n;
  bool negative = c.coin(0.3), neg_axis = c.coin(0.3);
  if (!c.at_least(11)) neg_axis = false;  // negative axes from Slice-11 on
  p.emit = [&c, x, b, e, out, axis, step, negative, neg_axis, r](const Solution& s) {
    std::vector<int64_t> shape = s(out);
    int64_t dim = tv(c, x).shape[static_cast<size_t>(axis)];
    int64_t start = s(b), end = s(e);
    if (negative) start -= dim;                   // the same position counted from the end
    if (end == dim && negative) end = INT64_MAX;  // "to the end", clamped
    if (!c.at_least(10)) {                        // Slice-1: starts, ends and axes are attributes
      int y = out_tensor(c, kFloat(), shape, tv(c, x).range, {x}, "Slice");
      auto& n = c.add_node("Slice", {name_of(c, x)}, {y});
      set_attr(n, "starts", std::vector<int64_t>{start});
      set_attr(n, "ends", std::vector<int64_t>{end});
      set_attr(n, "axes", std::vector<int64_t>{axis});
      return true;
    }
    std::string ks = c.add_int64_const({1}, {start}), ke = c.add_int64_const({1}, {end});
    std::string ka = c.add_int64_const({1}, {neg_axis ? axis - r : axis}), kt = c.add_int64_const({1}, {step});
    int y = out_tensor(c, kFloat(), shape, tv(c, x).range, {x}, "Slice");
    c.add_node("Slice", {name_of(c, x), ks, ke, ka, kt}, {y});
    return true;
  };
  return true;
}

bool plan_gather(GenContext& c, OpPlan& p) {
  int x = c.pick([](const TVar& t) { return is_float(t) && t.rank() >= 1; });
  if (x < 0) return false;
  int64_t r = tv(c, x).rank(), axis = random_axis(c, r);
  int64_t idx_rank = c.coin(0.2) ? 0 : c.uniform(1, 2);
  if (r - 1 + idx_rank > 4) idx_rank = 0;
  std::vector<z3::expr> idx;
  for (int64_t i = 0; i < idx_rank; ++i) idx.push_back(c.fresh(p, "g", 1, c.max_dim));
  for (auto& d : idx) p.prefs.push_back(d <= c.c(3));
  auto in = dims_of(c, tv(c, x));
  std::vector<z3::expr> out(in.begin(), in.begin() + axis);
  out.insert(out.end(), idx.begin(), idx.end());
  out.insert(out.end(), in.begin() + axis + 1, in.end());
  p.emit = [&c, x, idx, out, axis](const Solution& s) {
    std::vector<int64_t> shape = s(out), ishape = s(idx);
    if (!c.fits(shape)) return false;
    int64_t d = tv(c, x).shape[static_cast<size_t>(axis)], count = 1;
    for (int64_t k : ishape) count *= k;
    std::vector<int64_t> values;
    // Negative indices count from the end (from Gather-11 on; before, indices are in [0, d)).
    for (int64_t k = 0; k < count; ++k) values.push_back(c.uniform(c.at_least(11) ? -d : 0, d - 1));
    std::string ki = c.add_int64_const(ishape, values);
    int y = out_tensor(c, kFloat(), shape, tv(c, x).range, {x}, "Gather");
    set_attr(c.add_node("Gather", {name_of(c, x), ki}, {y}), "axis", axis);
    return true;
  };
  return true;
}

bool plan_concat(GenContext& c, OpPlan& p) {
  int x = c.pick([](const TVar& t) { return is_float(t) && t.rank() >= 1; });
  if (x < 0) return false;
  int64_t r = tv(c, x).rank(), axis = random_axis(c, r);
  auto in = dims_of(c, tv(c, x));
  std::vector<Operand> ops{existing(c, x)};
  int extra = static_cast<int>(c.uniform(1, 2));
  z3::expr total = in[static_cast<size_t>(axis)];
  for (int k = 0; k < extra; ++k) {
    // Another tensor of the same shape off the axis: an existing one (several consumers) or new.
    int other = c.coin(0.4) ? c.pick([&](const TVar& t) {
      if (!is_float(t) || t.rank() != r) return false;
      for (int64_t i = 0; i < r; ++i)
        if (i != axis && t.shape[static_cast<size_t>(i)] != tv(c, x).shape[static_cast<size_t>(i)]) return false;
      return true;
    })
                            : -1;
    Operand o;
    if (other >= 0) {
      o = existing(c, other);
    } else {
      o.dims = in;
      o.dims[static_cast<size_t>(axis)] = c.fresh(p, "c", 1, c.max_dim);
      o.range = random_range(c, false);
      o.as_const = c.coin(0.3);
    }
    total = total + o.dims[static_cast<size_t>(axis)];
    ops.push_back(o);
  }
  auto out = in;
  out[static_cast<size_t>(axis)] = total;
  bool neg = c.coin(0.3);
  if (!c.at_least(11)) neg = false;  // negative axes from Concat-11 on
  p.emit = [&c, ops, out, axis, r, neg](const Solution& s) {
    std::vector<int64_t> shape = s(out);
    if (!c.fits(shape)) return false;
    std::vector<std::string> names;
    std::vector<int> from;
    Interval range = ops[0].range;
    for (const auto& o : ops) {
      names.push_back(materialize(c, o, s));
      range = hull(range, o.range);
      if (o.tensor >= 0) from.push_back(o.tensor);
    }
    int y = out_tensor(c, kFloat(), shape, range, from, "Concat");
    set_attr(c.add_node("Concat", names, {y}), "axis", neg ? axis - r : axis);
    return true;
  };
  return true;
}

// Split: a node with several outputs (sizes given as an input, opset 13; or num_outputs, 18;
// before 13 as the attribute `split`).
bool plan_split(GenContext& c, OpPlan& p) {
  int x = c.pick([](const TVar& t) {
    for (int64_t d : t.shape)
      if (d >= 2) return is_float(t);
    return false;
  });
  if (x < 0) return false;
  int64_t r = tv(c, x).rank(), axis = random_axis(c, r);
  while (tv(c, x).shape[static_cast<size_t>(axis)] < 2) axis = (axis + 1) % r;
  int parts = static_cast<int>(c.uniform(2, 3));
  std::vector<z3::expr> sizes;
  z3::expr sum = c.c(0);
  for (int k = 0; k < parts; ++k) {
    sizes.push_back(c.fresh(p, "p", 1, 64));
    sum = sum + sizes.back();
  }
  p.constraints.push_back(sum == c.c(tv(c, x).shape[static_cast<size_t>(axis)]));
  p.prefs.push_back(sizes[0] == c.c(c.uniform(1, 3)));
  bool explicit_sizes = c.coin(0.7);
  // Split-18: num_outputs instead of sizes; chunks of ceil(dim / n), the last one smaller.
  bool by_count = c.at_least(18) && c.coin(0.5);
  if (by_count) {
    int64_t d = tv(c, x).shape[static_cast<size_t>(axis)], chunk = (d + parts - 1) / parts;
    if (chunk * (parts - 1) >= d) parts = 2, chunk = (d + 1) / 2;  // every chunk non-empty
    // The sizes are known: they replace the symbols and their constraints.
    p.constraints.clear();
    p.prefs.clear();
    sizes.clear();
    for (int k = 0; k < parts; ++k) sizes.push_back(c.c(std::min(chunk, d - k * chunk)));
  }
  p.emit = [&c, x, sizes, axis, explicit_sizes, by_count](const Solution& s) {
    std::vector<int64_t> sz = s(sizes);
    bool equal = std::all_of(sz.begin(), sz.end(), [&](int64_t v) { return v == sz[0]; });
    std::vector<std::string> ins{name_of(c, x)};
    bool give_sizes = !by_count && (explicit_sizes || !equal), sizes_attr = give_sizes && !c.at_least(13);
    if (give_sizes && !sizes_attr) ins.push_back(c.add_int64_const({static_cast<int64_t>(sz.size())}, sz));
    std::vector<int> outs;
    for (int64_t v : sz) {
      auto shape = tv(c, x).shape;
      shape[static_cast<size_t>(axis)] = v;
      outs.push_back(out_tensor(c, kFloat(), shape, tv(c, x).range, {x}, "Split"));
    }
    auto& node = c.add_node("Split", ins, outs);
    set_attr(node, "axis", axis);
    if (sizes_attr) set_attr(node, "split", sz);
    if (by_count) set_attr(node, "num_outputs", static_cast<int64_t>(sz.size()));
    return true;
  };
  return true;
}

// Pad; from opset 18 the pads may name a subset of the axes (the optional `axes` input, in any
// order, negative or not), from 19 mode `wrap` (the data repeats as on a torus). Before 11 (Pad-2)
// the pads and the constant are the attributes `pads` and `value`.
bool plan_pad(GenContext& c, OpPlan& p) {
  int x = c.pick([](const TVar& t) { return is_float(t) && t.rank() >= 1; });
  if (x < 0) return false;
  static const char* modes[] = {"constant", "reflect", "edge", "wrap"};
  std::string mode = modes[c.uniform(0, c.at_least(19) ? 3 : 2)];
  auto in = dims_of(c, tv(c, x));
  int64_t r = tv(c, x).rank();
  // Opset 18+: now and then pad only some axes, listed by an `axes` input.
  std::vector<int64_t> axes;
  if (c.at_least(18) && c.coin(0.5)) {
    for (int64_t i = 0; i < r; ++i)
      if (c.coin(0.6)) axes.push_back(i);
    if (axes.empty()) axes.push_back(random_axis(c, r));
    std::shuffle(axes.begin(), axes.end(), c.rng);
    for (auto& a : axes)
      if (c.coin(0.3)) a -= r;
  }
  auto named = [&axes, r](int64_t i) {
    return axes.empty() || std::count(axes.begin(), axes.end(), i) + std::count(axes.begin(), axes.end(), i - r) > 0;
  };
  std::vector<z3::expr> begin, end, out;
  for (int64_t i = 0; i < r; ++i) {
    const z3::expr& d = in[static_cast<size_t>(i)];
    begin.push_back(c.fresh(p, "pb", 0, 2));
    end.push_back(c.fresh(p, "pe", 0, 2));
    if (!named(i)) p.constraints.push_back(begin.back() == c.c(0) && end.back() == c.c(0));
    if (mode == "reflect") p.constraints.push_back(begin.back() < d && end.back() < d);
    if (mode == "wrap") p.constraints.push_back(begin.back() <= d && end.back() <= d);
    out.push_back(d + begin.back() + end.back());
    p.prefs.push_back(begin.back() == c.c(c.uniform(0, 1)) && end.back() == c.c(c.uniform(0, 1)));
  }
  double value = c.uniform_real(-1, 1);
  p.emit = [&c, x, begin, end, out, mode, value, axes, r](const Solution& s) {
    std::vector<int64_t> shape = s(out), b = s(begin), e = s(end), pads;
    if (!c.fits(shape)) return false;
    if (!c.at_least(11)) {
      pads = b;
      pads.insert(pads.end(), e.begin(), e.end());
      Interval range = mode == "constant" ? hull(tv(c, x).range, {value, value}) : tv(c, x).range;
      int y = out_tensor(c, kFloat(), shape, range, {x}, "Pad");
      auto& n = c.add_node("Pad", {name_of(c, x)}, {y});
      set_attr(n, "mode", mode);
      set_attr(n, "pads", pads);
      if (mode == "constant") set_attr(n, "value", static_cast<float>(value));
      return true;
    }
    if (axes.empty()) {
      pads = b;
      pads.insert(pads.end(), e.begin(), e.end());
    } else {  // [begin of each named axis..., end of each...], in the order of `axes`
      for (int64_t a : axes) pads.push_back(b[static_cast<size_t>((a + r) % r)]);
      for (int64_t a : axes) pads.push_back(e[static_cast<size_t>((a + r) % r)]);
    }
    std::vector<std::string> ins{name_of(c, x), c.add_int64_const({static_cast<int64_t>(pads.size())}, pads)};
    Interval range = tv(c, x).range;
    if (mode == "constant") {
      ins.push_back(c.add_float_const({}, {value, value}));
      range = hull(range, {value, value});
    }
    if (!axes.empty()) {
      if (ins.size() == 2) ins.push_back("");  // constant_value omitted
      ins.push_back(c.add_int64_const({static_cast<int64_t>(axes.size())}, axes));
    }
    int y = out_tensor(c, kFloat(), shape, range, {x}, "Pad");
    set_attr(c.add_node("Pad", ins, {y}), "mode", mode);
    return true;
  };
  return true;
}

bool plan_flatten(GenContext& c, OpPlan& p) {
  int x = c.pick([](const TVar& t) { return is_float(t) && t.rank() >= 1; });
  if (x < 0) return false;
  int64_t axis = c.uniform(0, tv(c, x).rank());
  p.emit = [&c, x, axis](const Solution&) {
    int64_t a = 1, b = 1;
    for (int64_t i = 0; i < tv(c, x).rank(); ++i) (i < axis ? a : b) *= tv(c, x).shape[static_cast<size_t>(i)];
    int y = out_tensor(c, kFloat(), {a, b}, tv(c, x).range, {x}, "Flatten");
    set_attr(c.add_node("Flatten", {name_of(c, x)}, {y}), "axis", axis);
    return true;
  };
  return true;
}

bool plan_squeeze(GenContext& c, OpPlan& p) {
  int x = c.pick([](const TVar& t) { return is_float(t) && std::count(t.shape.begin(), t.shape.end(), 1) > 0; });
  if (x < 0) return false;
  p.emit = [&c, x](const Solution&) {
    std::vector<int64_t> axes, shape;
    for (int64_t i = 0; i < tv(c, x).rank(); ++i) {
      int64_t d = tv(c, x).shape[static_cast<size_t>(i)];
      if (d == 1 && (axes.empty() || c.coin())) axes.push_back(i);
      else shape.push_back(d);
    }
    int y = out_tensor(c, kFloat(), shape, tv(c, x).range, {x}, "Squeeze");
    if (!c.at_least(13)) {  // the attribute `axes` before Squeeze-13
      set_attr(c.add_node("Squeeze", {name_of(c, x)}, {y}), "axes", axes);
      return true;
    }
    c.add_node("Squeeze", {name_of(c, x), c.add_int64_const({static_cast<int64_t>(axes.size())}, axes)}, {y});
    return true;
  };
  return true;
}

bool plan_unsqueeze(GenContext& c, OpPlan& p) {
  int x = c.pick([](const TVar& t) { return is_float(t) && t.rank() <= 3; });
  if (x < 0) return false;
  p.emit = [&c, x](const Solution&) {
    std::vector<int64_t> shape = tv(c, x).shape;
    int64_t axis = c.uniform(0, static_cast<int64_t>(shape.size()));
    shape.insert(shape.begin() + axis, 1);
    int y = out_tensor(c, kFloat(), shape, tv(c, x).range, {x}, "Unsqueeze");
    if (!c.at_least(13)) {  // the attribute `axes` before Unsqueeze-13
      set_attr(c.add_node("Unsqueeze", {name_of(c, x)}, {y}), "axes", std::vector<int64_t>{axis});
      return true;
    }
    c.add_node("Unsqueeze", {name_of(c, x), c.add_int64_const({1}, {axis})}, {y});
    return true;
  };
  return true;
}

bool plan_expand(GenContext& c, OpPlan& p) {
  int x = c.pick([](const TVar& t) { return is_float(t) && t.rank() <= 3; });
  if (x < 0) return false;
  auto in = dims_of(c, tv(c, x));
  std::vector<z3::expr> target;
  int64_t rank = static_cast<int64_t>(in.size()) + c.uniform(0, 1);
  for (int64_t i = 0; i < rank; ++i) target.push_back(c.fresh(p, "x", 1, c.max_dim));
  for (size_t i = 0; i < in.size(); ++i)  // grow the unit dims, keep the others
    p.prefs.push_back(target[target.size() - in.size() + i] == in[i] || in[i] == c.c(1));
  auto out = broadcast(c, p, in, target);
  p.emit = [&c, x, target, out](const Solution& s) {
    std::vector<int64_t> shape = s(out), t = s(target);
    if (!c.fits(shape)) return false;
    int y = out_tensor(c, kFloat(), shape, tv(c, x).range, {x}, "Expand");
    c.add_node("Expand", {name_of(c, x), c.add_int64_const({static_cast<int64_t>(t.size())}, t)}, {y});
    return true;
  };
  return true;
}

bool plan_tile(GenContext& c, OpPlan& p) {
  int x = c.pick([](const TVar& t) { return is_float(t) && t.rank() >= 1; });
  if (x < 0) return false;
  auto in = dims_of(c, tv(c, x));
  std::vector<z3::expr> reps, out;
  for (const auto& d : in) {
    reps.push_back(c.fresh(p, "r", 1, 3));
    out.push_back(d * reps.back());
    p.prefs.push_back(reps.back() == c.c(c.coin(0.7) ? 1 : 2));
  }
  p.emit = [&c, x, reps, out](const Solution& s) {
    std::vector<int64_t> shape = s(out), rv = s(reps);
    if (!c.fits(shape)) return false;
    int y = out_tensor(c, kFloat(), shape, tv(c, x).range, {x}, "Tile");
    c.add_node("Tile", {name_of(c, x), c.add_int64_const({static_cast<int64_t>(rv.size())}, rv)}, {y});
    return true;
  };
  return true;
}

// The Reduce family (ReduceSum takes axes as an input since opset 13; the others as an attribute
// until opset 18, as an input with noop_with_empty_axes from 18) and ArgMax/ArgMin
// (select_last_index from opset 12).
template <int I>
bool plan_reduce(GenContext& c, OpPlan& p) {
  static const char* ops[] = {"ReduceSum", "ReduceMean",      "ReduceMax",       "ReduceMin", "ReduceL1",
                              "ReduceL2",  "ReduceSumSquare", "ReduceLogSumExp", "ArgMax",    "ArgMin"};
  std::string op = ops[I];
  bool arg = op.rfind("Arg", 0) == 0;
  int x = c.pick([&](const TVar& t) {
    if (!is_float(t) || t.rank() < 1) return false;
    if (arg) return !t.fast_rounding;  // ties and near-ties must be decided identically
    if (op == "ReduceLogSumExp") return t.range.hi <= 6;
    return true;
  });
  if (x < 0) return false;
  int64_t r = tv(c, x).rank();
  bool keep = c.coin();
  std::vector<int64_t> axes;
  if (arg) {
    axes.push_back(random_axis(c, r));
  } else {
    for (int64_t i = 0; i < r; ++i)
      if (c.coin(0.4)) axes.push_back(i);
    if (axes.empty() && c.coin(0.7)) axes.push_back(random_axis(c, r));  // empty: reduce all
  }
  bool last = c.coin();
  // Opset 18+: axes as an input (absent, empty or negative), noop_with_empty_axes. Drawn only
  // there, so an opset-17 graph makes the same choices as before the newest opset was generated.
  bool modern = !arg && c.at_least(18);
  bool noop = modern && c.coin(0.3), empty_input = modern && c.coin(0.3), neg_axes = modern && c.coin(0.3);
  p.emit = [&c, x, op, arg, axes, keep, last, modern, noop, empty_input, neg_axes](const Solution&) {
    const TVar& in = tv(c, x);
    // With noop_with_empty_axes and no axes nothing is reduced: Sum/Mean/Max/Min return the input,
    // the composite reductions their element step (|x|, x², x); the ranges below hold with n = 1.
    bool identity = noop && axes.empty();
    std::vector<int64_t> shape;
    int64_t count = 1;
    for (int64_t i = 0; i < in.rank(); ++i) {
      bool reduced = !identity && (axes.empty() || std::find(axes.begin(), axes.end(), i) != axes.end());
      if (reduced) count *= in.shape[static_cast<size_t>(i)];
      if (!reduced) shape.push_back(in.shape[static_cast<size_t>(i)]);
      else if (keep) shape.push_back(1);
    }
    double m = in.range.mag(), n = static_cast<double>(count);
    Interval range = in.range;
    if (op == "ReduceSum") range = {in.range.lo * n, in.range.hi * n};
    else if (op == "ReduceMean" || op == "ReduceMax" || op == "ReduceMin") range = in.range;
    else if (op == "ReduceL1") range = {0, m * n};
    else if (op == "ReduceL2") range = {0, m * std::sqrt(n)};
    else if (op == "ReduceSumSquare") range = {0, m * m * n};
    else if (op == "ReduceLogSumExp") range = {in.range.lo, in.range.hi + std::log(n)};
    if (range.lo > range.hi) std::swap(range.lo, range.hi);
    if (!c.fits(range)) return false;
    std::vector<std::string> ins{in.name};
    bool axes_input = (op == "ReduceSum" && c.at_least(13)) || modern;
    if (axes_input && !axes.empty()) {
      std::vector<int64_t> a = axes;
      if (neg_axes)
        for (auto& v : a) v -= in.rank();
      ins.push_back(c.add_int64_const({static_cast<int64_t>(a.size())}, a));
    } else if (axes_input && empty_input) {
      ins.push_back(c.add_int64_const({0}, {}));  // an empty axes tensor is the same as none
    }
    int y = out_tensor(c, arg ? kInt64() : kFloat(), shape, arg ? Interval{0, n} : range, {x}, op);
    auto& node = c.add_node(op, ins, {y});
    set_attr(node, "keepdims", static_cast<int64_t>(keep));
    if (arg) {
      set_attr(node, "axis", axes[0]);
      if (c.at_least(12)) set_attr(node, "select_last_index", static_cast<int64_t>(last));
    } else if (!axes_input && !axes.empty()) {
      set_attr(node, "axes", axes);
    }
    if (noop) set_attr(node, "noop_with_empty_axes", int64_t{1});
    return true;
  };
  return true;
}

// Cast: float to double / float16 / int32 and back; int64 and bool results back to float.
bool plan_cast(GenContext& c, OpPlan& p) {
  int x = c.pick([](const TVar& t) { return true || t.rank() >= 0; });
  if (x < 0) return false;
  int32_t from = tv(c, x).elem, to = onnx::TensorProto::FLOAT;
  if (from == onnx::TensorProto::FLOAT) {
    int k = static_cast<int>(c.uniform(0, 2));
    to = k == 0 ? onnx::TensorProto::DOUBLE : k == 1 ? onnx::TensorProto::FLOAT16 : onnx::TensorProto::INT32;
    // Truncation to integers is discontinuous; only on values every executor computes bit for bit.
    if (to == onnx::TensorProto::INT32 && tv(c, x).fast_rounding) to = onnx::TensorProto::DOUBLE;
  }
  p.emit = [&c, x, to](const Solution&) {
    Interval r = tv(c, x).range;
    if (to == onnx::TensorProto::INT32) r = {std::trunc(r.lo), std::trunc(r.hi)};
    int y = out_tensor(c, to, tv(c, x).shape, r, {x}, "Cast");
    set_attr(c.add_node("Cast", {tv(c, x).name}, {y}), "to", static_cast<int64_t>(to));
    return true;
  };
  return true;
}

}  // namespace

void add_shape_generators(std::vector<OpGenerator>& v) {
  v.push_back({"Reshape", plan_reshape});
  v.push_back({"Transpose", plan_transpose});
  v.push_back({"Slice", plan_slice});
  v.push_back({"Gather", plan_gather});
  v.push_back({"Concat", plan_concat});
  v.push_back({"Split", plan_split});
  v.push_back({"Pad", plan_pad});
  v.push_back({"Flatten", plan_flatten});
  v.push_back({"Squeeze", plan_squeeze});
  v.push_back({"Unsqueeze", plan_unsqueeze});
  v.push_back({"Expand", plan_expand, 8});
  v.push_back({"Tile", plan_tile});
  v.push_back({"ReduceSum", plan_reduce<0>});
  v.push_back({"ReduceMean", plan_reduce<1>});
  v.push_back({"ReduceMax", plan_reduce<2>});
  v.push_back({"ReduceMin", plan_reduce<3>});
  v.push_back({"ReduceL1", plan_reduce<4>});
  v.push_back({"ReduceL2", plan_reduce<5>});
  v.push_back({"ReduceSumSquare", plan_reduce<6>});
  v.push_back({"ReduceLogSumExp", plan_reduce<7>});
  v.push_back({"ArgMax", plan_reduce<8>});
  v.push_back({"ArgMin", plan_reduce<9>});
  v.push_back({"Cast", plan_cast});
}

}  // namespace sonnx::fuzz
