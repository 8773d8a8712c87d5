// Gradient (ai.onnx.preview.training): partial derivatives of the tensor named by `y` with respect to
// the tensors named by `xs`, evaluated where xs (and the non-differentiated `zs`) take the values of
// the node's inputs (xs first, then zs). The names refer to the graph the Gradient node sits in.
//
// The reference differentiates by reverse mode:
//   1. select the nodes y depends on, walking back from y and stopping at names in xs or zs (names
//      with no producing node — graph inputs, initializers, outer values — are constants);
//   2. run those nodes again as a private subgraph whose inputs are xs and zs bound to the Gradient
//      node's inputs (internal names renamed so outer values of the same name are not picked up);
//   3. propagate dL/dv backwards from dy = 1 through each selected node, summing contributions
//      where a value is used more than once and over broadcast dims.
// Supported operators on the path: those of the local derivative table in params/gradient.h (Add,
// Sub, Mul, Div with opset 7+ broadcasting, Neg, Identity). Any other is reported as unsupported. y and xs must be float16/float/double
// tensors; a gradient w.r.t. an x that y does not depend on is zero. Arithmetic is in double,
// rounded once to each x's element type.
#include <cstdint>
#include <map>
#include <set>

#include "op_params.h"
#include "params/gradient.h"
#include "support/elementwise.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
struct Grad {
  Shape shape;
  std::vector<double> v;
};

std::vector<double> doubles_of(const Tensor& t) {
  std::vector<double> v(static_cast<size_t>(t.size()));
  for (int64_t i = 0; i < t.size(); ++i) v[static_cast<size_t>(i)] = t.as_double(i);
  return v;
}

Tensor tensor_from_doubles(const OpContext& ctx, DType type, const Shape& shape, const std::vector<double>& v) {
  return visit_float(ctx, type, [&]<class T>() {
    Tensor out(type, shape);
    for (size_t i = 0; i < v.size(); ++i) out.data<T>()[i] = to_storage<T>(static_cast<compute_t<T>>(v[i]));
    return out;
  });
}

std::vector<Value> gradient(OpContext& ctx) {
  const std::vector<Node>* graph_nodes = ctx.graph_nodes();
  if (!graph_nodes)
    throw Unsupported(ctx.node().label() + ": Gradient needs its enclosing graph, which this executor does not provide");
  const GradientParams p = GradientParams::read(ctx, ctx.version());
  const std::vector<std::string>& xs = p.xs;
  const std::vector<std::string>& zs = p.zs;
  const std::string& y = p.y;
  if (ctx.num_inputs() != xs.size() + zs.size())
    ctx.fail("expected one input per name in xs and zs (" + std::to_string(xs.size() + zs.size()) + "), got " +
             std::to_string(ctx.num_inputs()));
  if (ctx.num_outputs() > xs.size()) ctx.fail("more outputs than names in xs");
  const std::set<std::string> independent = p.independent();
  // 1. The nodes y depends on, in an order where each runs after those it reads.
  const std::vector<size_t> order = gradient_path(ctx, *graph_nodes, p);

  // 2. Re-run the selected nodes as a subgraph with xs and zs as inputs. Every name the path defines
  // (and xs, zs) is renamed; constants keep their names and resolve in the enclosing scope.
  auto local = [](const std::string& n) { return "__gradient_" + n; };
  std::set<std::string> renamed(independent);
  for (size_t i : order)
    for (const auto& o : (*graph_nodes)[i].outputs)
      if (!o.empty()) renamed.insert(o);
  auto rename = [&](const std::string& n) { return renamed.count(n) ? local(n) : n; };
  Graph fwd;
  fwd.name = "gradient_forward";
  fwd.path = ctx.node().label() + ":forward";
  std::vector<std::string> ordered_inputs(xs);
  ordered_inputs.insert(ordered_inputs.end(), zs.begin(), zs.end());
  for (const auto& n : ordered_inputs) fwd.inputs.push_back({local(n), {}});
  std::vector<std::string> needed;  // original names of every value the backward pass reads
  std::set<std::string> needed_set;
  auto need = [&](const std::string& n) {
    if (!n.empty() && needed_set.insert(n).second) needed.push_back(n);
  };
  need(y);
  for (size_t i : order) {
    Node copy = (*graph_nodes)[i];
    for (auto& in : copy.inputs) {
      need(in);
      in = rename(in);
    }
    for (auto& o : copy.outputs) o = rename(o);
    fwd.nodes.push_back(copy);
  }
  for (size_t i = 0; i < fwd.nodes.size(); ++i) fwd.nodes[i].index = i;
  for (const auto& n : needed) fwd.outputs.push_back({rename(n), {}});
  std::vector<Value> in_values;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) in_values.push_back(ctx.value(i));
  std::vector<Value> fwd_out = ctx.run_subgraph(fwd, in_values);
  std::map<std::string, Tensor> val;
  for (size_t i = 0; i < needed.size(); ++i) {
    if (!fwd_out[i].is_tensor()) ctx.fail("value '" + needed[i] + "' on the differentiated path is not a tensor");
    val[needed[i]] = fwd_out[i].tensor;
  }

  // 3. Reverse mode from dy = 1.
  const Tensor& yt = val.at(y);
  if (!is_float(yt.dtype())) ctx.fail("y must be a floating tensor");
  std::map<std::string, Grad> grad;
  grad[y] = {yt.shape(), std::vector<double>(static_cast<size_t>(yt.size()), 1.0)};
  auto accumulate = [&](const std::string& name, const Shape& out_shape, const std::vector<double>& g_out,
                        auto&& local_derivative) {
    // dL/dname[j] += sum over output elements i broadcast from j of g_out[i] * d out[i] / d name[j].
    const Tensor& t = val.at(name);
    auto map = broadcast_index_map(t.shape(), out_shape);
    Grad& g = grad[name];
    if (g.v.empty()) g = {t.shape(), std::vector<double>(static_cast<size_t>(t.size()), 0.0)};
    for (size_t i = 0; i < g_out.size(); ++i) g.v[static_cast<size_t>(map[i])] += g_out[i] * local_derivative(i);
  };
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const Node& n = (*graph_nodes)[*it];
    auto git = grad.find(n.outputs[0]);
    if (git == grad.end()) continue;  // y does not depend on this output
    Grad g_out = git->second;         // copy: accumulate() may insert into `grad`
    const std::vector<LocalDerivative>& rules = local_derivatives(n.op_type);
    std::vector<std::vector<double>> operand(n.inputs.size());
    std::vector<std::vector<int64_t>> index(n.inputs.size());
    for (size_t k = 0; k < n.inputs.size(); ++k) {
      operand[k] = doubles_of(val.at(n.inputs[k]));
      index[k] = broadcast_index_map(val.at(n.inputs[k]).shape(), g_out.shape);
    }
    auto at = [&](size_t k, size_t i) { return operand[k][static_cast<size_t>(index[k][i])]; };
    for (size_t k = 0; k < rules.size(); ++k)
      accumulate(n.inputs[k], g_out.shape, g_out.v, [&, rule = rules[k]](size_t i) {
        switch (rule) {
          case LocalDerivative::G: return 1.0;
          case LocalDerivative::MinusG: return -1.0;
          case LocalDerivative::GTimesB: return at(1, i);
          case LocalDerivative::GTimesA: return at(0, i);
          case LocalDerivative::GOverB: return 1.0 / at(1, i);
          case LocalDerivative::MinusGTimesAOverBB: return -at(0, i) / (at(1, i) * at(1, i));
        }
        return 0.0;  // unreachable: the switch covers the enum
      });
  }

  std::vector<Value> out;
  for (size_t i = 0; i < ctx.num_outputs(); ++i) {
    const Tensor& x = ctx.input(i);
    if (!is_float(x.dtype())) ctx.fail("xs[" + std::to_string(i) + "] must be a floating tensor");
    auto it = grad.find(xs[i]);
    std::vector<double> g = it != grad.end() ? it->second.v : std::vector<double>(static_cast<size_t>(x.size()), 0.0);
    out.emplace_back(tensor_from_doubles(ctx, x.dtype(), x.shape(), g));
  }
  return out;
}
}  // namespace
SONNX_KERNEL("ai.onnx.preview.training", "Gradient", 1, gradient, Accuracy::Rounding);
SONNX_PARAMS("ai.onnx.preview.training", "Gradient", (1), GradientParams);
}  // namespace sonnx
