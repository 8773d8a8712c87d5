#include "unique_name.h"
#include "decompose.h"

#include "attributes.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#include "reference/catalogue/catalogue.h"
#include "reference/interp/interpreter.h"
#include "reference/model/attr_reader.h"
#include "reference/ops/params/activation.h"
#include "sonnx/errors.h"

namespace sonnx::admit {
namespace {

// Why a node is left as it is.
struct Refused : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Reads the node's attributes as its kernel does (the same parameter structs); what the kernel
// would trap on refuses the node.
struct Reader final : AttrReader {
  using AttrReader::AttrReader;
  [[noreturn]] void fail(const std::string& message) const override { throw Refused(message); }
};

// Every name of g and of the graphs nested in it: values, initializers and nodes.
void collect_names(const Graph& g, std::set<std::string>& names) {
  for (const auto& v : g.inputs) names.insert(v.name);
  for (const auto& v : g.outputs) names.insert(v.name);
  for (const auto& v : g.value_info) names.insert(v.name);
  for (const auto& [name, t] : g.initializers) names.insert(name);
  for (const auto& name : g.sparse_initializers) names.insert(name);
  for (const Node& n : g.nodes) {
    names.insert(n.name);
    names.insert(n.inputs.begin(), n.inputs.end());
    names.insert(n.outputs.begin(), n.outputs.end());
    for (const Attribute& a : n.attributes) {
      if (a.g) collect_names(*a.g, names);
      for (const auto& sub : a.graphs)
        if (sub) collect_names(*sub, names);
    }
  }
}

std::string upper(std::string_view s) {
  std::string u(s);
  for (char& c : u)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return u;
}

// The replacement of one node while it is built: ai.onnx nodes in the forms of `opset`, computing
// in double, with 0-D double initializers for the constants. Names come from the node's name (or
// its output) and a role, made unique against `taken`.
class Replacement {
 public:
  Replacement(const Node& node, int64_t opset, DType type, std::set<std::string>& taken)
      : node_(node), opset_(opset), type_(type), taken_(taken), base_(node.name.empty() ? node.outputs[0] : node.name) {}

  int64_t opset() const { return opset_; }
  DType type() const { return type_; }
  std::vector<Node>& nodes() { return nodes_; }
  std::vector<std::pair<std::string, Tensor>>& initializers() { return initializers_; }

  // The node's input as double: the input itself, or its Cast to double.
  std::string input() {
    const std::string& x = node_.inputs[0];
    return type_ == DType::Double ? x : cast(x, DType::Double, "x");
  }

  // A 0-D double initializer (one per role and value).
  std::string constant(const std::string& role, double value) {
    std::string& name = constants_[{role, std::bit_cast<uint64_t>(value)}];
    if (name.empty()) {
      name = fresh(role);
      initializers_.emplace_back(name, Tensor::scalar<double>(value));
    }
    return name;
  }

  // A 0-D initializer of the element type (float or double).
  std::string typed_constant(const std::string& role, double value) {
    if (type_ == DType::Double) return constant(role, value);
    if (type_ != DType::Float) throw InternalError("decompose: a typed constant of " + std::string(dtype_name(type_)));
    std::string name = fresh(role);
    initializers_.emplace_back(name, Tensor::scalar<float>(static_cast<float>(value)));
    return name;
  }

  // A node `op` of the ai.onnx operator set at this opset; its one output, named from `role`.
  std::string op(const std::string& op_type, std::vector<std::string> inputs, const std::string& role,
                 std::vector<Attribute> attributes = {}) {
    if (!catalogue::find("", op_type, opset_))
      throw Refused("the decomposition needs " + op_type + ", which opset " + std::to_string(opset_) + " does not have");
    Node n;
    n.name = fresh(op_type);
    n.op_type = op_type;
    n.inputs = std::move(inputs);
    n.outputs = {fresh(role)};
    n.attributes = std::move(attributes);
    nodes_.push_back(std::move(n));
    return nodes_.back().outputs[0];
  }

  // a op b for Mul, Add, Sub and Div. Before opset 7 only B broadcasts (legacy broadcasting, with
  // broadcast=1) and only to A's shape: a 0-D constant must be B there, so a constant A of Mul or
  // Add is swapped into B (the same sum or product: IEEE addition and multiplication commute).
  std::string binary(const std::string& op_type, std::string a, std::string b, const std::string& role) {
    if (opset_ >= 7) return op(op_type, {a, b}, role);
    if (is_constant(a)) {
      if (op_type != "Mul" && op_type != "Add") throw InternalError("decompose: a constant A of " + op_type + " before opset 7");
      std::swap(a, b);
    }
    if (is_constant(b)) return op(op_type, {a, b}, role, {int_attribute("broadcast", 1)});
    return op(op_type, {a, b}, role);
  }

  // x converted to `to`: Cast's `to` is a type name before opset 6, a TensorProto.DataType after.
  std::string cast(const std::string& x, DType to, const std::string& role) {
    const catalogue::Schema* cast = catalogue::find("", "Cast", opset_);
    if (cast) {
      const catalogue::TypeConstraint* t2 = cast->constraint("T2");
      std::string wanted = "tensor(" + std::string(dtype_name(to)) + ")";
      if (t2 && std::find(t2->types.begin(), t2->types.end(), wanted) == t2->types.end())
        throw Refused(cast->id() + " does not cast to " + std::string(dtype_name(to)));
    }
    Attribute a;
    a.name = "to";
    if (opset_ < 6) {
      a.type = Attribute::Type::String;
      a.s = upper(dtype_name(to));
    } else {
      a = int_attribute("to", static_cast<int64_t>(to));
    }
    return op("Cast", {x}, role, {a});
  }

  // min(max(x, lo), hi) by Clip: bounds as attributes before opset 11, as inputs from 11 on.
  std::string clip(const std::string& x, float lo, float hi, const std::string& role) {
    if (opset_ < 11) return op("Clip", {x}, role, {float_attribute("min", lo), float_attribute("max", hi)});
    return op("Clip", {x, constant("min", lo), constant("max", hi)}, role);
  }

  bool is_constant(const std::string& name) const {
    return std::any_of(initializers_.begin(), initializers_.end(), [&](const auto& i) { return i.first == name; });
  }

  // Ends the replacement with y (double): rounded to the element type into the node's output (a
  // double y becomes the output itself).
  void finish(const std::string& y) {
    if (type_ != DType::Double) y_is_output(cast(y, type_, "y"));
    else y_is_output(y);
  }

  // Ends the replacement with y, of the element type: it becomes the node's output.
  void y_is_output(const std::string& y) {
    for (Node& n : nodes_)
      for (auto* names : {&n.inputs, &n.outputs})
        for (std::string& name : *names)
          if (name == y) name = node_.outputs[0];
  }

  // "HardSigmoid → Cast, Mul, Add, Clip, Cast"
  std::string detail() const {
    std::string d = node_.op_type + " →";
    for (size_t i = 0; i < nodes_.size(); ++i) d += (i ? ", " : " ") + nodes_[i].op_type;
    return d;
  }

 private:
  std::string fresh(const std::string& role) { return unique_name(taken_, base_ + "_" + role); }

  const Node& node_;
  int64_t opset_;
  DType type_;
  std::set<std::string>& taken_;
  std::string base_;
  std::vector<Node> nodes_;
  std::vector<std::pair<std::string, Tensor>> initializers_;
  std::map<std::pair<std::string, uint64_t>, std::string> constants_;
};

// HardSigmoid (kernel: y = alpha * x + beta in double, NaN kept, else y < 0 → 0, y > 1 → 1):
// Mul, Add, then Clip [0, 1], whose comparisons are the kernel's (-0 and NaN pass unchanged).
void hard_sigmoid(const Node& n, int64_t version, Replacement& r) {
  ActivationParams p = ActivationParams::read(Reader(n), version);
  std::string x = r.input();
  std::string ax = r.binary("Mul", r.constant("alpha", p.alpha), x, "ax");
  std::string y = r.binary("Add", ax, r.constant("beta", p.beta), "axb");
  r.finish(r.clip(y, 0.0f, 1.0f, "clipped"));
}

// Gelu: 0.5 * x * (1.0 + erf(x / sqrt2)) or, with approximate = "tanh",
// 0.5 * x * (1.0 + tanh(k * (x + 0.044715 * x * x * x))), k = sqrt(2 / pi), operation by operation.
void gelu(const Node& n, int64_t version, Replacement& r) {
  bool tanh = GeluParams::read(Reader(n), version).tanh;
  std::string x = r.input();
  std::string inner;
  if (!tanh) {
    std::string scaled = r.binary("Div", x, r.constant("sqrt2", std::numbers::sqrt2), "scaled");
    inner = r.op("Erf", {scaled}, "erf");
  } else {
    std::string cx = r.binary("Mul", r.constant("c", 0.044715), x, "cx");
    std::string cxx = r.binary("Mul", cx, x, "cxx");
    std::string cxxx = r.binary("Mul", cxx, x, "cxxx");
    std::string sum = r.binary("Add", x, cxxx, "sum");
    std::string scaled = r.binary("Mul", r.constant("k", std::sqrt(2.0 / std::numbers::pi)), sum, "scaled");
    inner = r.op("Tanh", {scaled}, "tanh");
  }
  std::string one_plus = r.binary("Add", r.constant("one", 1.0), inner, "one_plus");
  std::string half_x = r.binary("Mul", r.constant("half", 0.5), x, "half_x");
  r.finish(r.binary("Mul", half_x, one_plus, "gelu"));
}

// Mish: x * tanh(softplus(x)), where the Softplus kernel computes the kernel's softplus
// (max(x, 0) + log1p(e^-|x|), NaN kept). A NaN input is the kernel's output as it is: a double
// input goes through Where(x == x, ..., x) so that a signaling NaN is not quieted by the product.
void mish(const Node& /*n*/, int64_t /*version*/, Replacement& r) {
  std::string x = r.input();
  std::string softplus = r.op("Softplus", {x}, "softplus");
  std::string tanh = r.op("Tanh", {softplus}, "tanh");
  std::string y = r.binary("Mul", x, tanh, "mish");
  if (r.type() == DType::Double) y = r.op("Where", {r.op("Equal", {x, x}, "not_nan"), y, x}, "mish_or_nan");
  r.finish(y);
}

// max(x, 0) with +0 for x <= 0 (-0 included) and NaN kept: Max(0, x) from opset 8 (the first
// input wins a tie), else Relu(x) + 0 (which turns Relu's -0 into +0).
std::string at_least_zero(const std::string& x, Replacement& r) {
  if (r.opset() >= 8) return r.op("Max", {r.constant("zero", 0.0), x}, "at_least_zero");
  return r.binary("Add", r.op("Relu", {x}, "relu"), r.constant("zero", 0.0), "at_least_zero");
}

// x for x < 0, -0 for x >= 0 (+0 included), NaN kept: Min(-0, x) from opset 8 (the first input
// wins a tie), else -(relu(-x) + 0).
std::string negative_part(const std::string& x, Replacement& r) {
  if (r.opset() >= 8) return r.op("Min", {r.constant("minus_zero", -0.0), x}, "negative_part");
  std::string relu = r.op("Relu", {r.op("Neg", {x}, "minus_x")}, "relu_minus_x");
  return r.op("Neg", {r.binary("Add", relu, r.constant("zero", 0.0), "relu_minus_x_plus_zero")}, "negative_part");
}

// Selu: x <= 0 ? gamma * (alpha * e^x - alpha) : gamma * x.
// From opset 9: Where(x < 2^-1074, negative, positive), 2^-1074 being the least positive double:
// true exactly where x <= 0, false for NaN, as the kernel's x <= 0.
// Before opset 9 (no Where): gamma * max(x, 0) + gamma * (alpha * e^m - alpha), m = min(x, 0)
// (either zero for x > 0). For x > 0 the second term is gamma * (alpha - alpha) = ±0 with the sign
// of gamma, which adds nothing to gamma * x (a zero gamma * x has the same sign); for x <= 0 the
// first term is gamma * +0, of the sign of the second wherever that is zero. This needs finite
// alpha and gamma and gamma != 0; NaN gives the same NaN in both terms.
void selu(const Node& n, int64_t version, Replacement& r) {
  ActivationParams p = ActivationParams::read(Reader(n), version);
  if (r.opset() < 9 && !(std::isfinite(p.alpha) && std::isfinite(p.gamma) && p.gamma != 0.0f))
    throw Refused("before opset 9 (no Where) Selu is decomposed as a sum of its two branches, which needs finite alpha "
                  "and gamma and gamma ≠ 0");
  std::string x = r.input();
  std::string alpha = r.constant("alpha", p.alpha), gamma = r.constant("gamma", p.gamma);
  auto negative_branch = [&](const std::string& v) {
    std::string alpha_exp = r.binary("Mul", alpha, r.op("Exp", {v}, "exp"), "alpha_exp");
    return r.binary("Mul", gamma, r.binary("Sub", alpha_exp, alpha, "alpha_exp_minus_alpha"), "negative");
  };
  if (r.opset() >= 9) {
    std::string least_positive = r.constant("least_positive", std::numeric_limits<double>::denorm_min());
    std::string at_most_zero = r.op("Less", {x, least_positive}, "at_most_zero");
    std::string negative = negative_branch(x);
    std::string positive = r.binary("Mul", gamma, x, "positive");
    r.finish(r.op("Where", {at_most_zero, negative, positive}, "selu"));
    return;
  }
  std::string positive = r.binary("Mul", gamma, at_least_zero(x, r), "positive");
  std::string negative = negative_branch(negative_part(x, r));
  r.finish(r.binary("Add", positive, negative, "selu"));
}

// expm1(v) ≈ 2 tanh(v/2) / (1 - tanh(v/2)): no branch, no cancellation for v <= 0, within a few
// ulps of double; -0 for v = -0 (before opset 7, 1 - t is -(t - 1), the same number).
std::string expm1_by_tanh(const std::string& v, Replacement& r) {
  std::string t = r.op("Tanh", {r.binary("Mul", r.constant("half", 0.5), v, "half_x")}, "tanh_half_x");
  std::string two_t = r.binary("Add", t, t, "two_tanh");
  std::string one = r.constant("one", 1.0);
  std::string one_minus = r.opset() >= 7 ? r.binary("Sub", one, t, "one_minus_tanh")
                                         : r.op("Neg", {r.binary("Sub", t, one, "tanh_minus_one")}, "one_minus_tanh");
  return r.binary("Div", two_t, one_minus, "expm1");
}

// expm1(v) for v < 0 with Where (opset 9 on): v + v * (v / 2) for v > -2^-26, where the terms left
// out are below an ulp of double (so that a product alpha * v on a midpoint of the element type is
// rounded to the side libm's expm1 puts it); else Kahan's (u - 1) * v / log(u), u = e^v, within a few
// ulps of double; -1 where u - 1 is -1 (v < -37.4, e^v = 0 included).
std::string expm1_with_where(const std::string& v, Replacement& r) {
  std::string one = r.constant("one", 1.0), minus_one = r.constant("minus_one", -1.0);
  std::string half_v = r.binary("Mul", r.constant("half", 0.5), v, "half_x");
  std::string series = r.binary("Add", v, r.binary("Mul", v, half_v, "x_half_x"), "x_plus_x_half_x");
  std::string u = r.op("Exp", {v}, "exp");
  std::string u_minus_one = r.binary("Sub", u, one, "exp_minus_one");
  std::string numerator = r.binary("Mul", u_minus_one, v, "exp_minus_one_x");
  std::string kahan = r.binary("Div", numerator, r.op("Log", {u}, "log_exp"), "kahan");
  std::string below_minus_one = r.constant("just_above_minus_one", std::nextafter(-1.0, 0.0));
  std::string saturated = r.op("Less", {u_minus_one, below_minus_one}, "exp_minus_one_is_minus_one");
  std::string large = r.op("Where", {saturated, minus_one, kahan}, "expm1_large");
  std::string small = r.op("Greater", {v, r.constant("minus_2_pow_26", -0x1p-26)}, "small");
  return r.op("Where", {small, series, large}, "expm1");
}

// Elu: x < 0 ? alpha * expm1(x) : x. No profile operator computes expm1: expm1_with_where from
// opset 9, expm1_by_tanh before; neither is bitwise libm's expm1.
// From opset 9: Where(x < 0, alpha * expm1(x), x), the selection made in the element type for float
// (the kernel's x branch returns a float x as it is, signaling NaN included: the compiler folds its
// float → double → float) and in double for float16 and bfloat16 (whose NaNs the kernel's rounding
// makes canonical). Before opset 9 (no Where): relu(x) + alpha * expm1(m), m = x for x < 0 and -0
// otherwise: for x >= 0 the second term is alpha * -0 = -0 (alpha > 0), which adds nothing to x;
// for x < 0 the first is +0 and the second non-zero. Needs alpha > 0.
void elu(const Node& n, int64_t version, Replacement& r) {
  ActivationParams p = ActivationParams::read(Reader(n), version);
  if (r.opset() < 9 && !(std::isfinite(p.alpha) && p.alpha > 0.0f))
    throw Refused("before opset 9 (no Where) Elu is decomposed as relu(x) + alpha * expm1(min(x, -0)), which needs a "
                  "finite alpha > 0");
  std::string x = r.input();
  std::string alpha = r.constant("alpha", p.alpha);
  if (r.opset() < 9) {
    std::string relu = r.op("Relu", {x}, "relu");
    std::string scaled = r.binary("Mul", alpha, expm1_by_tanh(negative_part(x, r), r), "alpha_expm1");
    r.finish(r.binary("Add", relu, scaled, "elu"));
    return;
  }
  bool in_type = r.type() == DType::Float || r.type() == DType::Double;
  const std::string& x_t = in_type ? n.inputs[0] : x;
  std::string negative = r.op("Less", {x_t, in_type ? r.typed_constant("zero", 0.0) : r.constant("zero", 0.0)}, "negative");
  std::string scaled = r.binary("Mul", alpha, expm1_with_where(x, r), "alpha_expm1");
  if (!in_type) {
    r.finish(r.op("Where", {negative, scaled, x}, "elu"));
    return;
  }
  if (r.type() == DType::Float) scaled = r.cast(scaled, DType::Float, "alpha_expm1_float");
  r.y_is_output(r.op("Where", {negative, scaled, x_t}, "elu"));
}

// Whether the replacement computes bitwise what the node computes on every value of the 16-bit
// element type: both run by the reference on a tensor of all 65536 codes.
bool agrees_on_every_value(const Node& node, Replacement& r) {
  const int64_t count = 65536;
  Tensor all(r.type(), {count});
  for (int64_t i = 0; i < count; ++i) {
    auto code = static_cast<uint16_t>(i);
    std::memcpy(all.raw() + 2 * i, &code, 2);
  }
  TypeInfo type;
  type.kind = TypeInfo::Kind::Tensor;
  type.elem = r.type();
  type.shape = std::vector<Dim>{Dim{count, ""}};
  auto run = [&](std::vector<Node> nodes, std::vector<std::pair<std::string, Tensor>> initializers) {
    Model m;
    m.ir_version = 10;
    m.opset_imports[""] = r.opset();
    m.graph.name = "check";
    m.graph.path = "main";
    m.graph.inputs.push_back({node.inputs[0], type});
    m.graph.outputs.push_back({node.outputs[0], type});
    m.graph.initializers = std::move(initializers);
    m.graph.nodes = std::move(nodes);
    for (size_t i = 0; i < m.graph.nodes.size(); ++i) m.graph.nodes[i].index = i;
    return Interpreter(m).run({{node.inputs[0], Value(all)}}).at(node.outputs[0]).tensor;
  };
  try {
    Tensor want = run({node}, {});
    Tensor got = run(r.nodes(), r.initializers());
    return want.dtype() == got.dtype() && want.shape() == got.shape() && want.byte_size() == got.byte_size() &&
           std::memcmp(want.raw(), got.raw(), want.byte_size()) == 0;
  } catch (const std::exception&) {
    return false;
  }
}

struct Decomposed {
  std::vector<Node> nodes;
  std::vector<std::pair<std::string, Tensor>> initializers;
  std::string detail;
  bool exact = true;
};

Decomposed decompose(const Node& n, int64_t opset, const std::map<std::string, TypeInfo>& types, std::set<std::string>& taken) {
  int64_t last = catalogue::max_opset("");
  if (opset > last)
    throw Refused("opset " + std::to_string(opset) + " is past the catalogue's last (" + std::to_string(last) + ")");
  const catalogue::Schema* schema = catalogue::find("", n.op_type, opset);
  if (!schema) throw Refused(n.op_type + " has no version at opset " + std::to_string(opset));
  if (n.inputs.size() != 1 || n.inputs[0].empty() || n.outputs.size() != 1 || n.outputs[0].empty())
    throw Refused("the decomposition takes a node with one input and one output");
  const std::string& x = n.inputs[0];
  auto it = types.find(x);
  if (it == types.end() || it->second.kind != TypeInfo::Kind::Tensor || it->second.elem == DType::Undefined)
    throw Refused("the element type of input '" + x + "' is unknown");
  DType type = it->second.elem;
  std::string type_name(dtype_name(type));
  const catalogue::TypeConstraint* allowed = schema->constraint("T");
  if (!is_float(type) ||
      (allowed && std::find(allowed->types.begin(), allowed->types.end(), "tensor(" + type_name + ")") == allowed->types.end()))
    throw Refused("input '" + x + "' is " + type_name + ", not a type of " + schema->id());

  Replacement r(n, opset, type, taken);
  if (n.op_type == "HardSigmoid") hard_sigmoid(n, schema->version, r);
  else if (n.op_type == "Gelu") gelu(n, schema->version, r);
  else if (n.op_type == "Mish") mish(n, schema->version, r);
  else if (n.op_type == "Selu") selu(n, schema->version, r);
  else elu(n, schema->version, r);

  Decomposed d;
  d.detail = r.detail();
  if (n.op_type == "Elu") {
    // Bitwise only where checked: every value of a 16-bit type; float and double are too many.
    if ((type == DType::Float16 || type == DType::BFloat16) && agrees_on_every_value(n, r)) {
      d.detail += " (expm1 composed; bitwise equal on all 65536 " + type_name + " values)";
    } else {
      d.exact = false;
      d.detail += " (expm1 composed, within a few ulps of double: not bitwise)";
    }
  }
  d.nodes = std::move(r.nodes());
  d.initializers = std::move(r.initializers());
  return d;
}

bool decomposes(const Node& n) {
  static const std::set<std::string> ops{"HardSigmoid", "Gelu", "Mish", "Selu", "Elu"};
  return canonical_domain(n.domain).empty() && ops.count(n.op_type) > 0;
}

}  // namespace

void decompose_operators(Graph& g, int64_t opset, const std::map<std::string, TypeInfo>& types, ChangeLog& log) {
  std::set<std::string> taken;
  collect_names(g, taken);
  std::vector<Node> nodes;
  nodes.reserve(g.nodes.size());
  for (Node& n : g.nodes) {
    if (!decomposes(n)) {
      nodes.push_back(std::move(n));
      continue;
    }
    std::string label = n.label();
    try {
      Decomposed d = decompose(n, opset, types, taken);
      for (Node& m : d.nodes) nodes.push_back(std::move(m));
      for (auto& init : d.initializers) g.initializers.push_back(std::move(init));
      log.add("decompose", label, "SONNX-OPERATOR-SET", d.detail, d.exact);
    } catch (const Refused& why) {
      log.refused.push_back(label + ": " + why.what());
      nodes.push_back(std::move(n));
    }
  }
  g.nodes = std::move(nodes);
  for (size_t i = 0; i < g.nodes.size(); ++i) g.nodes[i].index = i;
}

}  // namespace sonnx::admit
