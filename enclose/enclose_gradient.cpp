// The enclosure of Gradient-1 (ai.onnx.preview.training): reverse-mode differentiation written as
// a body in the path's type (spec/accuracy.md, "Gradient"), walked by enclose_graph as
// norm_body.h's bodies are. The body holds the path's nodes as they are (params/gradient.h selects
// them), xs and zs given at the node's inputs, then, from dy = 1, each node's local derivatives
// backwards: Add and Identity pass the gradient g on, Sub and Neg negate it, Mul multiplies it by
// the other operand, Div gives g/b to a and −(g·(a/(b·b))) to b. A contribution is summed
// (ReduceSum) over the axes its operand was broadcast along, and contributions to a value read more
// than once are added. Under `admissible` each step is within its own allowance, joined with the
// exact value widened by kElementaryUlps (the reference computes the backward pass in double and
// rounds once).
#include <map>
#include <set>
#include <string>
#include <vector>

#include "enclose_ops.h"
#include "norm_body.h"
#include "reference/ops/params/gradient.h"
#include "sonnx/errors.h"

namespace sonnx::enclose::gradient_detail {

using norms_detail::exact_axes;
using norms_detail::NormBody;

// The axes along which an operand of shape `from` was broadcast to `to` (multidirectional
// broadcasting): the leading axes it lacks and those where it has 1 and the result more.
std::vector<int64_t> broadcast_axes(const Shape& from, const Shape& to) {
  std::vector<int64_t> axes;
  size_t lead = to.size() - from.size();
  for (size_t i = 0; i < to.size(); ++i)
    if (i < lead || (from[i - lead] == 1 && to[i] != 1)) axes.push_back(static_cast<int64_t>(i));
  return axes;
}

Bounds filled(DType type, const Shape& shape, double v) {
  Bounds b = float_bounds(type, shape);
  for (int64_t i = 0; i < b.lo.size(); ++i) set(b, i, Interval::point(v));
  return b;
}

// The body under construction: forward values keep their names behind "f_", the rest are fresh.
class GradientBody {
 public:
  explicit GradientBody(const OpCall& c) : c_(c) {}

  // x (an input of the node, xs or zs) given its bounds.
  void give(const std::string& x, const Bounds& b) {
    body_.given.emplace(forward(x), b);
    shape_[x] = b.lo.shape();
    type_[x] = b.type;
  }
  // A node of the path, reading only xs, zs and the path's values.
  void forward_node(const Node& n) {
    Node copy = n;
    for (auto& in : copy.inputs) {
      if (in.empty()) continue;
      if (!shape_.count(in) && !pending_.count(in))
        throw Unsupported(op_name(c_) + ": " + n.label() + " reads '" + in +
                          "', neither in xs or zs nor computed on the path (not enclosed)");
      in = forward(in);
    }
    for (auto& o : copy.outputs) {
      pending_.insert(o);
      o = forward(o);
    }
    copy.index = body_.g.nodes.size();
    copy.opset_version = norms_detail::kNormBodyOpset;
    body_.g.nodes.push_back(std::move(copy));
  }
  // The shapes and types of the path's values: the forward part walked once, exactly.
  void learn_shapes() {
    std::vector<std::string> names(pending_.begin(), pending_.end()), walked;
    for (const std::string& n : names) walked.push_back(forward(n));
    NormBody once = body_;
    std::vector<Bounds> b = once.walk(c_, walked, Semantics::Real);
    for (size_t k = 0; k < names.size(); ++k) {
      shape_[names[k]] = b[k].lo.shape();
      type_[names[k]] = b[k].type;
    }
  }
  void start(const std::string& y) {
    if (!sonnx::is_float(type_.at(y)) && !sonnx::is_small_float(type_.at(y))) c_.ctx.fail("y must be a floating tensor");
    grad_[y] = constant(filled(type_.at(y), shape_.at(y), 1));
  }
  // Node n's contributions to the gradients of its inputs, from the gradient of its output.
  void backward_node(const Node& n) {
    auto it = grad_.find(n.outputs[0]);
    if (it == grad_.end()) return;  // y does not depend on it
    const std::string g = it->second;
    const Shape& gs = shape_.at(n.outputs[0]);
    const std::vector<LocalDerivative>& rules = local_derivatives(n.op_type);
    auto operand = [&](size_t k) { return forward(n.inputs[k]); };
    for (size_t k = 0; k < rules.size(); ++k) {
      std::string d;
      switch (rules[k]) {
        case LocalDerivative::G: d = g; break;
        case LocalDerivative::MinusG: d = step("Neg", {g}); break;
        case LocalDerivative::GTimesB: d = step("Mul", {g, operand(1)}); break;
        case LocalDerivative::GTimesA: d = step("Mul", {g, operand(0)}); break;
        case LocalDerivative::GOverB: d = step("Div", {g, operand(1)}); break;
        case LocalDerivative::MinusGTimesAOverBB:
          d = step("Neg", {step("Mul", {g, step("Div", {operand(0), step("Mul", {operand(1), operand(1)})})})});
          break;
      }
      contribute(n.inputs[k], d, gs);
    }
  }
  // The gradient of each of `xs`: exactly zero where y does not depend on it.
  std::vector<Bounds> finish(const std::vector<std::string>& xs) {
    std::vector<std::string> outs;
    for (const std::string& x : xs)
      if (grad_.count(x)) outs.push_back(grad_.at(x));
    std::vector<Bounds> walked = body_.walk_as_operator(c_, outs), result;
    auto next = walked.begin();
    for (const std::string& x : xs) result.push_back(grad_.count(x) ? std::move(*next++) : filled(type_.at(x), shape_.at(x), 0));
    return result;
  }

 private:
  static std::string forward(const std::string& name) { return "f_" + name; }
  std::string fresh() { return "g" + std::to_string(fresh_++); }
  std::string constant(Bounds b) {
    std::string name = fresh();
    body_.given.emplace(name, std::move(b));
    return name;
  }
  std::string step(const std::string& op, std::vector<std::string> in) {
    std::string out = fresh();
    body_.node(op, std::move(in), out);
    return out;
  }
  // g (of shape gs) added to the gradient of x, summed over the axes x was broadcast along.
  void contribute(const std::string& x, std::string g, const Shape& gs) {
    const Shape& s = shape_.at(x);
    if (s != gs) {
      std::string sum = step("ReduceSum", {g, constant(exact_axes(broadcast_axes(s, gs)))});
      Tensor target = Tensor::from_vector<int64_t>({static_cast<int64_t>(s.size())}, std::vector<int64_t>(s.begin(), s.end()));
      g = step("Reshape", {sum, constant(Bounds::of(target))});
    }
    auto it = grad_.find(x);
    if (it == grad_.end()) grad_[x] = g;
    else it->second = step("Add", {it->second, g});
  }

  const OpCall& c_;
  NormBody body_;
  std::map<std::string, Shape> shape_;
  std::map<std::string, DType> type_;
  std::set<std::string> pending_;            // the path's values, before learn_shapes
  std::map<std::string, std::string> grad_;  // a value's name -> the body value of its gradient so far
  int fresh_ = 0;
};

std::vector<Bounds> enclose_gradient(const OpCall& c) {
  const std::vector<Node>* graph = c.ctx.graph_nodes();
  if (!graph) throw Unsupported(op_name(c) + ": its enclosing graph is not at hand");
  const GradientParams p = GradientParams::read(c.ctx, c.version);
  if (c.in.size() != p.xs.size() + p.zs.size())
    c.ctx.fail("expected one input per name in xs and zs (" + std::to_string(p.xs.size() + p.zs.size()) + "), got " +
               std::to_string(c.in.size()));
  if (c.node.outputs.size() > p.xs.size()) c.ctx.fail("more outputs than names in xs");
  const std::vector<size_t> order = gradient_path(c.ctx, *graph, p);
  GradientBody body(c);
  for (size_t k = 0; k < p.xs.size(); ++k) body.give(p.xs[k], float_input(c, k));
  for (size_t k = 0; k < p.zs.size(); ++k) body.give(p.zs[k], c.input(p.xs.size() + k));
  for (size_t i : order) body.forward_node((*graph)[i]);
  body.learn_shapes();
  body.start(p.y);
  for (auto it = order.rbegin(); it != order.rend(); ++it) body.backward_node((*graph)[*it]);
  return body.finish(std::vector<std::string>(p.xs.begin(), p.xs.begin() + static_cast<std::ptrdiff_t>(c.node.outputs.size())));
}

}  // namespace sonnx::enclose::gradient_detail

namespace sonnx::enclose {
SONNX_TRAINING_ENCLOSURE("Gradient", (1), Allowance::own(), gradient_detail::enclose_gradient);
}
