// Elementwise operators: unary float functions, broadcasting binary arithmetic, comparisons and
// logic, Where. Each states its precondition on the input's value range (so results stay finite
// and well conditioned) and its output range.
#include <cmath>

#include "generator_util.h"

namespace sonnx::fuzz {
namespace {

struct Unary {
  const char* op;
  bool (*pre)(const TVar& x);  // applicable to this input
  Interval (*range)(Interval x);
  void (*attrs)(GenContext& c, onnx::NodeProto& n, Interval& out);  // may narrow `out`
  int since = 0;  // first ai.onnx opset with the operator (0: generated at every opset)
};

bool any(const TVar&) { return true; }
// Discontinuous functions only see values every executor computes bit for bit.
bool exact_input(const TVar& x) { return !x.fast_rounding; }
Interval same(Interval x) { return x; }
Interval unit(Interval) { return {-1, 1}; }
Interval prob(Interval) { return {0, 1}; }
void none(GenContext&, onnx::NodeProto&, Interval&) {}

// clang-format off
const Unary kUnary[] = {
    {"Relu", any, [](Interval x) { return Interval{std::max(0.0, x.lo), std::max(0.0, x.hi)}; }, none},
    // clang-format on
    {"LeakyRelu", any,
     [](Interval x) {
       return Interval{std::min(x.lo, 0.0), std::max(x.hi, 0.0)};
     },
     [](GenContext& c, onnx::NodeProto& n, Interval&) { set_attr(n, "alpha", static_cast<float>(c.uniform_real(0.01, 0.5))); }},
    {"Elu", any,
     [](Interval x) {
       return Interval{std::min(x.lo, -1.0), std::max(x.hi, 0.0)};
     },
     [](GenContext& c, onnx::NodeProto& n, Interval&) { set_attr(n, "alpha", static_cast<float>(c.uniform_real(0.5, 1.0))); }},
    {"Selu", any,
     [](Interval x) {
       return Interval{-1.8, std::max(1.06 * x.hi, 0.0)};
     },
     [](GenContext&, onnx::NodeProto& n, Interval&) {
       set_attr(n, "alpha", 1.67326f);
       set_attr(n, "gamma", 1.0507f);
     }},
    {"Sigmoid", any, prob, none},
    {"HardSigmoid", any, prob,
     [](GenContext& c, onnx::NodeProto& n, Interval&) {
       set_attr(n, "alpha", static_cast<float>(c.uniform_real(0.1, 0.3)));
       set_attr(n, "beta", 0.5f);
     }},
    {"HardSwish", any,
     [](Interval x) {
       return Interval{-0.375, std::max(x.hi, 0.0)};
     },
     none, 14},
    {"Tanh", any, unit, none},
    {"Softsign", any, unit, none},
    {"Erf", any, unit, none, 9},
    {"Sin", [](const TVar& x) { return x.range.mag() < 100; }, unit, none},
    {"Cos", [](const TVar& x) { return x.range.mag() < 100; }, unit, none},
    {"Abs", any,
     [](Interval x) {
       return Interval{0, x.mag()};
     },
     none},
    {"Neg", any,
     [](Interval x) {
       return Interval{-x.hi, -x.lo};
     },
     none},
    {"Identity", any, same, none},
    {"Exp", [](const TVar& x) { return x.range.hi <= 6; }, [](Interval x) { return monotone(x, std::exp); }, none},
    {"Log", [](const TVar& x) { return x.range.lo >= 0.1; }, [](Interval x) { return monotone(x, std::log); }, none},
    {"Sqrt", [](const TVar& x) { return x.range.lo >= (x.fast_rounding ? 0.1 : 0.0); },
     [](Interval x) { return monotone(x, std::sqrt); }, none},
    {"Reciprocal", [](const TVar& x) { return x.range.lo >= 0.5 || x.range.hi <= -0.5; },
     [](Interval x) {
       return Interval{1 / x.hi, 1 / x.lo};
     },
     none},
    {"Softplus", [](const TVar& x) { return x.range.hi <= 20; },
     [](Interval x) {
       return Interval{0, std::max(x.hi, 0.0) + 0.7};
     },
     none},
    {"Floor", exact_input, [](Interval x) { return monotone(x, std::floor); }, none},
    {"Ceil", exact_input, [](Interval x) { return monotone(x, std::ceil); }, none},
    {"Round", exact_input,
     [](Interval x) {
       return Interval{std::round(x.lo) - 1, std::round(x.hi) + 1};
     },
     none, 11},
    {"Sign", exact_input, unit, none, 9},
    // Newer than opset 17. Each is x·g(x) with g in [0, 1]: bounded below by its minimum.
    {"Gelu", any,
     [](Interval x) {
       return Interval{-0.18, std::max(x.hi, 0.0)};
     },
     [](GenContext& c, onnx::NodeProto& n, Interval&) {
       if (c.coin(0.7)) set_attr(n, "approximate", std::string(c.coin() ? "tanh" : "none"));
     },
     20},
    {"Mish", [](const TVar& x) { return x.range.hi <= 20; },
     [](Interval x) {
       return Interval{-0.31, std::max(x.hi, 0.0)};
     },
     none, 18},
    // alpha ≥ 0.5: the minimum x·sigmoid(αx) is −0.278/α.
    {"Swish", any,
     [](Interval x) {
       return Interval{-0.56, std::max(x.hi, 0.0)};
     },
     [](GenContext& c, onnx::NodeProto& n, Interval&) {
       if (c.coin(0.7)) set_attr(n, "alpha", static_cast<float>(c.uniform_real(0.5, 2.0)));
     },
     24},
};
constexpr int kNumUnary = sizeof(kUnary) / sizeof(kUnary[0]);

template <int I>
bool plan_unary(GenContext& c, OpPlan& p) {
  const Unary& u = kUnary[I];
  int x = c.pick([&](const TVar& t) { return is_float(t) && u.pre(t); });
  if (x < 0) return false;
  p.emit = [&c, x, u](const Solution&) {
    Interval r = u.range(c.tensors[static_cast<size_t>(x)].range);
    std::vector<int64_t> shape = c.tensors[static_cast<size_t>(x)].shape;
    std::string in = c.tensors[static_cast<size_t>(x)].name;
    int y = out_tensor(c, kFloat(), shape, r, {x}, u.op);
    auto& n = c.add_node(u.op, {in}, {y});
    u.attrs(c, n, c.tensors[static_cast<size_t>(y)].range);
    return true;
  };
  return true;
}

// Clip with min/max given as scalar constants (fusable into a preceding Conv); before opset 11
// (Clip-6) as the float attributes min and max.
bool plan_clip(GenContext& c, OpPlan& p) {
  int x = c.pick(is_float);
  if (x < 0) return false;
  p.emit = [&c, x](const Solution&) {
    double lo = c.uniform_real(-1, 0.5), hi = lo + c.uniform_real(0.1, 3);
    std::string in = c.tensors[static_cast<size_t>(x)].name;
    if (!c.at_least(11)) {
      float a = static_cast<float>(lo), b = static_cast<float>(hi);
      int y = out_tensor(c, kFloat(), c.tensors[static_cast<size_t>(x)].shape, {a, b}, {x}, "Clip");
      auto& n = c.add_node("Clip", {in}, {y});
      set_attr(n, "min", a);
      set_attr(n, "max", b);
      return true;
    }
    std::string a = c.add_float_const({}, {lo, lo}), b = c.add_float_const({}, {hi, hi});
    int y = out_tensor(c, kFloat(), c.tensors[static_cast<size_t>(x)].shape, {lo, hi}, {x}, "Clip");
    c.add_node("Clip", {in, a, b}, {y});
    return true;
  };
  return true;
}

struct Binary {
  const char* op;
  bool (*pre)(const TVar& a);
  Interval (*b_range)(GenContext& c, Interval a);  // the range a new second operand is drawn from
  bool (*b_ok)(Interval b);                        // an existing second operand is acceptable
  Interval (*range)(Interval a, Interval b);
  int since = 0;  // first ai.onnx opset with this form (Max and Min broadcast from 8)
};

Interval signed_b(GenContext& c, Interval) { return random_range(c, false); }
bool any_b(Interval) { return true; }

// clang-format off
const Binary kBinary[] = {
    {"Add", any, signed_b, any_b, add},
    {"Sub", any, signed_b, any_b, [](Interval a, Interval b) { return Interval{a.lo - b.hi, a.hi - b.lo}; }},
    // clang-format on
    {"Mul", any, signed_b, any_b, mul},
    {"Div", any,
     [](GenContext& c, Interval) {
       Interval r = random_range(c, true);
       return c.coin() ? r : Interval{-r.hi, -r.lo};
     },
     [](Interval b) { return b.lo >= 0.5 || b.hi <= -0.5; },
     [](Interval a, Interval b) {
       return mul(a, Interval{1 / b.hi, 1 / b.lo});
     }},
    {"Max", any, signed_b, any_b,
     [](Interval a, Interval b) {
       return Interval{std::max(a.lo, b.lo), std::max(a.hi, b.hi)};
     },
     8},
    {"Min", any, signed_b, any_b,
     [](Interval a, Interval b) {
       return Interval{std::min(a.lo, b.lo), std::min(a.hi, b.hi)};
     },
     8},
    {"Pow", [](const TVar& a) { return a.range.lo >= 0.25 && a.range.hi <= 8; },
     [](GenContext& c, Interval) {
       return Interval{-c.uniform_real(0, 2), c.uniform_real(0, 2)};
     },
     [](Interval b) { return b.lo >= -2 && b.hi <= 2; },
     [](Interval a, Interval b) {
       double v[] = {std::pow(a.lo, b.lo), std::pow(a.lo, b.hi), std::pow(a.hi, b.lo), std::pow(a.hi, b.hi)};
       return Interval{*std::min_element(v, v + 4), *std::max_element(v, v + 4)};
     }},
};
constexpr int kNumBinary = sizeof(kBinary) / sizeof(kBinary[0]);

// The second operand: an existing float tensor with a compatible shape (a value with several
// consumers) or a new input/constant.
Operand second_operand(GenContext& c, OpPlan& p, int a, bool (*ok)(Interval), Interval fresh_range) {
  const TVar& ta = c.tensors[static_cast<size_t>(a)];
  if (ok(ta.range) && c.coin(0.1)) return existing(c, a);  // both operands the same value: x·x, x − x
  if (c.coin(0.5)) {
    int b = c.pick([&](const TVar& t) {
      if (!is_float(t) || !ok(t.range) || t.name == ta.name) return false;
      for (size_t i = 0; i < std::min(t.shape.size(), ta.shape.size()); ++i) {
        int64_t x = t.shape[t.shape.size() - 1 - i], y = ta.shape[ta.shape.size() - 1 - i];
        if (x != y && x != 1 && y != 1) return false;
      }
      return true;
    });
    if (b >= 0) return existing(c, b);
  }
  return new_broadcast_operand(c, p, dims_of(c, ta), fresh_range);
}

template <int I>
bool plan_binary(GenContext& c, OpPlan& p) {
  const Binary& bin = kBinary[I];
  int a = c.pick([&](const TVar& t) { return is_float(t) && bin.pre(t); });
  if (a < 0) return false;
  Operand A = existing(c, a);
  Operand B = second_operand(c, p, a, bin.b_ok, bin.b_range(c, A.range));
  bool swap = bin.b_ok(A.range) && bin.pre(c.tensors[static_cast<size_t>(a)]) && c.coin(0.3) && std::string(bin.op) != "Div" &&
              std::string(bin.op) != "Pow";
  auto out = broadcast(c, p, A.dims, B.dims);
  p.emit = [&c, A, B, out, bin, swap](const Solution& s) {
    std::vector<int64_t> shape = s(out);
    Interval r = bin.range(A.range, B.range);
    if (!c.fits(shape) || !c.fits(r)) return false;
    std::string na = materialize(c, A, s), nb = materialize(c, B, s);
    std::vector<int> from{A.tensor};
    if (c.index_of(nb) >= 0) from.push_back(c.index_of(nb));
    int y = out_tensor(c, kFloat(), shape, r, from, bin.op);
    c.add_node(bin.op, swap ? std::vector<std::string>{nb, na} : std::vector<std::string>{na, nb}, {y});
    return true;
  };
  return true;
}

// Comparisons produce bool tensors (for Where, And/Or/Not and If conditions).
template <int I>
bool plan_compare(GenContext& c, OpPlan& p) {
  static const char* ops[] = {"Less", "Greater", "LessOrEqual", "GreaterOrEqual", "Equal"};
  const char* op = ops[I];
  int a = c.pick([](const TVar& t) { return is_float(t) && !t.fast_rounding; });
  if (a < 0) return false;
  Operand A = existing(c, a);
  Operand B = new_broadcast_operand(c, p, A.dims, A.range);
  B.as_const = B.as_const || std::string(op) == "Equal";
  auto out = broadcast(c, p, A.dims, B.dims);
  p.emit = [&c, A, B, out, op](const Solution& s) {
    std::vector<int64_t> shape = s(out);
    if (!c.fits(shape)) return false;
    std::string na = materialize(c, A, s), nb = materialize(c, B, s);
    int y = out_tensor(c, kBool(), shape, {0, 1}, {A.tensor}, op);
    c.add_node(op, {na, nb}, {y});
    return true;
  };
  return true;
}

template <int I>
bool plan_logic(GenContext& c, OpPlan& p) {
  static const char* ops[] = {"And", "Or", "Xor", "Not"};
  const char* op = ops[I];
  int a = c.pick(is_bool);
  if (a < 0) return false;
  Operand A = existing(c, a);
  std::vector<z3::expr> out = A.dims;
  int b = -1;
  if (I < 3) {
    b = c.pick([&](const TVar& t) { return is_bool(t) && t.name != c.tensors[static_cast<size_t>(a)].name; });
    if (b < 0) return false;
    out = broadcast(c, p, A.dims, existing(c, b).dims);
  }
  p.emit = [&c, a, b, out, op](const Solution& s) {
    std::vector<int64_t> shape = s(out);
    std::vector<std::string> ins{c.tensors[static_cast<size_t>(a)].name};
    std::vector<int> from{a};
    if (b >= 0) {
      ins.push_back(c.tensors[static_cast<size_t>(b)].name);
      from.push_back(b);
    }
    int y = out_tensor(c, kBool(), shape, {0, 1}, from, op);
    c.add_node(op, ins, {y});
    return true;
  };
  return true;
}

// Where(cond, X, Y): three-way broadcasting; the condition comes from a comparison or a bool input.
bool plan_where(GenContext& c, OpPlan& p) {
  int x = c.pick(is_float);
  if (x < 0) return false;
  Operand X = existing(c, x);
  int cond = c.pick(is_bool);
  Operand C;
  if (cond >= 0) C = existing(c, cond);
  Operand Y = new_broadcast_operand(c, p, X.dims, random_range(c, false));
  auto xy = broadcast(c, p, X.dims, Y.dims);
  std::vector<z3::expr> out = cond >= 0 ? broadcast(c, p, C.dims, xy) : xy;
  p.emit = [&c, X, Y, C, cond, out](const Solution& s) {
    std::vector<int64_t> shape = s(out);
    if (!c.fits(shape)) return false;
    std::string nc = cond >= 0 ? c.tensors[static_cast<size_t>(cond)].name
                               : c.tensors[static_cast<size_t>(c.add_bool_input(shape))].name;
    std::string nx = materialize(c, X, s), ny = materialize(c, Y, s);
    std::vector<int> from{X.tensor};
    if (cond >= 0) from.push_back(cond);
    int y = out_tensor(c, kFloat(), shape, hull(X.range, Y.range), from, "Where");
    c.add_node("Where", {nc, nx, ny}, {y});
    return true;
  };
  return true;
}

// Sum/Mean of three operands (a variadic node; one operand is used twice when picked so).
template <int I>
bool plan_variadic(GenContext& c, OpPlan& p) {
  const char* op = I == 0 ? "Sum" : "Mean";
  int a = c.pick(is_float);
  if (a < 0) return false;
  Operand A = existing(c, a);
  Operand B = new_broadcast_operand(c, p, A.dims, random_range(c, false));
  Operand D = new_broadcast_operand(c, p, A.dims, random_range(c, false));
  auto out = broadcast(c, p, broadcast(c, p, A.dims, B.dims), D.dims);
  p.emit = [&c, A, B, D, out, op](const Solution& s) {
    std::vector<int64_t> shape = s(out);
    Interval r = add(add(A.range, B.range), D.range);
    if (std::string(op) == "Mean") r = {r.lo / 3, r.hi / 3};
    if (!c.fits(shape) || !c.fits(r)) return false;
    std::string na = materialize(c, A, s), nb = materialize(c, B, s), nd = materialize(c, D, s);
    int y = out_tensor(c, kFloat(), shape, r, {A.tensor}, op);
    c.add_node(op, {na, nb, nd}, {y});
    return true;
  };
  return true;
}

bool is_int(const TVar& t) { return t.elem == onnx::TensorProto::INT32 || t.elem == onnx::TensorProto::INT64; }

// The smallest power of two above every magnitude in `r`: And/Or/Xor of two's-complement values
// below it in magnitude stay within [−2^k, 2^k).
double bit_bound(Interval r) { return std::exp2(std::ceil(std::log2(r.mag() + 1))); }

// BitwiseAnd/Or/Xor/Not (opset 18) on int32/int64 tensors: an existing integer tensor (a Cast to
// int32, an ArgMax) or a new integer input; the second operand broadcasts, of the same type.
template <int I>
bool plan_bitwise(GenContext& c, OpPlan& p) {
  static const char* ops[] = {"BitwiseAnd", "BitwiseOr", "BitwiseXor", "BitwiseNot"};
  const char* op = ops[I];
  int a = c.coin(0.8) ? c.pick(is_int) : -1;
  int like = a >= 0 ? a : c.pick([](const TVar&) { return true; });
  int32_t elem = a >= 0 ? c.tensors[static_cast<size_t>(a)].elem : c.coin() ? onnx::TensorProto::INT32 : kInt64();
  std::vector<z3::expr> adims = dims_of(c, c.tensors[static_cast<size_t>(like)]), out = adims;
  Operand B;
  int b = -1;
  if (I < 3) {
    b = c.coin(0.3) ? c.pick([&](const TVar& t) {
      if (t.elem != elem || a < 0 || t.name == c.tensors[static_cast<size_t>(a)].name) return false;
      const auto& as = c.tensors[static_cast<size_t>(a)].shape;
      for (size_t i = 0; i < std::min(t.shape.size(), as.size()); ++i) {
        int64_t x = t.shape[t.shape.size() - 1 - i], y = as[as.size() - 1 - i];
        if (x != y && x != 1 && y != 1) return false;
      }
      return true;
    })
                    : -1;
    B = b >= 0 ? existing(c, b) : new_broadcast_operand(c, p, adims, {-100, 100});
    out = broadcast(c, p, adims, B.dims);
  }
  p.emit = [&c, a, like, elem, B, out, op](const Solution& s) {
    std::vector<int64_t> shape = s(out);
    if (!c.fits(shape)) return false;
    int x = a >= 0 ? a : c.add_int_input(elem, c.tensors[static_cast<size_t>(like)].shape, -100, 100);
    std::vector<std::string> ins{c.tensors[static_cast<size_t>(x)].name};
    std::vector<int> from{x};
    Interval ra = c.tensors[static_cast<size_t>(x)].range, range{-ra.hi - 1, -ra.lo - 1};  // ~v = −v − 1
    if (I < 3) {
      if (B.tensor >= 0) {
        ins.push_back(c.tensors[static_cast<size_t>(B.tensor)].name);
        from.push_back(B.tensor);
      } else {
        std::vector<int64_t> bshape = s(B.dims), values;
        int64_t n = 1;
        for (int64_t d : bshape) n *= d;
        if (B.as_const) {
          for (int64_t k = 0; k < n; ++k) values.push_back(c.uniform(-100, 100));
          ins.push_back(c.add_int_const(elem, bshape, values));
        } else {
          ins.push_back(c.tensors[static_cast<size_t>(c.add_int_input(elem, bshape, -100, 100))].name);
        }
      }
      double k = std::max(bit_bound(ra), bit_bound(B.range));
      range = {-k, k};
    }
    int y = out_tensor(c, elem, shape, range, from, op);
    c.add_node(op, ins, {y});
    return true;
  };
  return true;
}

template <int... I>
void add_unary(std::vector<OpGenerator>& v, std::integer_sequence<int, I...>) {
  (v.push_back({kUnary[I].op, plan_unary<I>, kUnary[I].since}), ...);
}
template <int... I>
void add_binary(std::vector<OpGenerator>& v, std::integer_sequence<int, I...>) {
  (v.push_back({kBinary[I].op, plan_binary<I>, kBinary[I].since}), ...);
}

}  // namespace

void add_elementwise_generators(std::vector<OpGenerator>& v) {
  add_unary(v, std::make_integer_sequence<int, kNumUnary>{});
  add_binary(v, std::make_integer_sequence<int, kNumBinary>{});
  v.push_back({"Clip", plan_clip});
  v.push_back({"Less", plan_compare<0>});
  v.push_back({"Greater", plan_compare<1>});
  v.push_back({"LessOrEqual", plan_compare<2>, 12});
  v.push_back({"GreaterOrEqual", plan_compare<3>, 12});
  v.push_back({"Equal", plan_compare<4>, 11});  // Equal-7 compares only bool and integers
  v.push_back({"And", plan_logic<0>});
  v.push_back({"Or", plan_logic<1>});
  v.push_back({"Xor", plan_logic<2>});
  v.push_back({"Not", plan_logic<3>});
  v.push_back({"Where", plan_where, 9});
  // Sum-6 and Mean-6 (opset 7) do not broadcast.
  v.push_back({"Sum", plan_variadic<0>, 8});
  v.push_back({"Mean", plan_variadic<1>, 8});
  v.push_back({"BitwiseAnd", plan_bitwise<0>, 18});
  v.push_back({"BitwiseOr", plan_bitwise<1>, 18});
  v.push_back({"BitwiseXor", plan_bitwise<2>, 18});
  v.push_back({"BitwiseNot", plan_bitwise<3>, 18});
}

}  // namespace sonnx::fuzz
