// Finds the layer normalization exporters (PyTorch, Paddle) write as separate nodes, so it runs
// as one step (optimized/kernels/decomposed_layernorm.cpp). The matcher checks the structure, the
// readers of every intermediate and the constants it can see (exponent 2, one axis, the last when
// the axis is not -1 the kernel checks at run time); the kernel checks again what it reads at run
// time and the nodes run one by one when it does not apply.
#include "fusion.h"

#include <optional>

#include "reference/ops/op_params.h"
#include "reference/ops/params/reduce.h"

namespace sonnx {

namespace {

bool plain(const Node& n, const char* op, size_t inputs) {
  return n.op_type == op && n.domain.empty() && n.inputs.size() == inputs && n.outputs.size() == 1 && !n.outputs[0].empty() &&
         !n.attr("broadcast");
}

// The single axis of a ReduceMean keeping its dims (attribute or constant input), if it has one.
std::optional<int64_t> single_axis(const Graph& g, const Node& n, const VersionOf& version_of) {
  if (n.op_type != "ReduceMean" || !n.domain.empty() || n.outputs.size() != 1 || n.inputs.empty() || n.inputs.size() > 2)
    return std::nullopt;
  std::optional<ReduceParams> p = try_params<ReduceParams>(n, version_of(n));
  if (!p || !p->keepdims || (!p->axes_from_input && n.inputs.size() == 2)) return std::nullopt;
  std::vector<int64_t> axes = p->axes;
  if (n.inputs.size() == 2 && !n.inputs[1].empty()) {
    const Tensor* t = graph_constant(g, n.inputs[1]);
    if (!t || t->dtype() != DType::Int64) return std::nullopt;
    axes = t->to_int64_vector();
  }
  if (axes.size() != 1) return std::nullopt;
  return axes[0];
}

bool is_single(const Tensor* t, double value) {
  return t && t->size() == 1 && t->rank() <= 1 && t->dtype() != DType::String && t->as_double(0) == value;
}

// The other operand of a two-input node that reads `from` once.
const std::string* other_operand(const Node& n, const std::string& from) {
  if (n.inputs.size() != 2 || n.inputs[0] == n.inputs[1]) return nullptr;
  if (n.inputs[0] == from) return &n.inputs[1];
  if (n.inputs[1] == from) return &n.inputs[0];
  return nullptr;
}

}  // namespace

bool match_decomposed_layer_norm(const Graph& g, const Node& first, const VersionOf& version_of,
                                 const std::map<std::string, int>& uses, std::set<const Node*>& taken, FusedGroup& grp) {
  auto axis = single_axis(g, first, version_of);
  if (!axis || (*axis != -1 && *axis < 0) || grp.nodes.size() != 1) return false;
  const std::string& x = first.inputs[0];
  std::vector<const Node*> nodes{&first};
  auto next = [&](const std::string& name) {
    const Node* n = sole_reader(g, uses, name);
    return n && !taken.count(n) ? n : nullptr;
  };
  const Node* sub = next(first.outputs[0]);
  if (!sub || !plain(*sub, "Sub", 2) || sub->inputs[0] != x || sub->inputs[1] != first.outputs[0]) return false;
  // d = x - mean has two readers: the Pow and the Div.
  const std::string& d = sub->outputs[0];
  auto du = uses.find(d);
  if (du == uses.end() || du->second != 2) return false;
  const Node *pow = nullptr, *div = nullptr;
  for (const auto& n : g.nodes)
    for (const auto& i : n.inputs)
      if (i == d) (n.op_type == "Pow" ? pow : div) = &n;
  if (!pow || !div || taken.count(pow) || taken.count(div) || !plain(*pow, "Pow", 2) || pow->inputs[0] != d ||
      !is_single(graph_constant(g, pow->inputs[1]), 2.0))
    return false;
  const Node* mean2 = next(pow->outputs[0]);
  if (!mean2 || mean2->inputs[0] != pow->outputs[0] || single_axis(g, *mean2, version_of) != axis) return false;
  const Node* add = next(mean2->outputs[0]);
  const std::string* eps = add && plain(*add, "Add", 2) ? other_operand(*add, mean2->outputs[0]) : nullptr;
  if (!eps) return false;
  const Tensor* eps_value = graph_constant(g, *eps);
  if (!eps_value || eps_value->dtype() != DType::Float || eps_value->size() != 1 || eps_value->rank() > 1) return false;
  const Node* sqrt = next(add->outputs[0]);
  if (!sqrt || !plain(*sqrt, "Sqrt", 1)) return false;
  if (next(sqrt->outputs[0]) != div || !plain(*div, "Div", 2) || div->inputs[0] != d || div->inputs[1] != sqrt->outputs[0])
    return false;
  nodes.insert(nodes.end(), {sub, pow, mean2, add, sqrt, div});
  // Optionally Mul by a scale, then Add a bias.
  if (const Node* mul = next(div->outputs[0]); mul && plain(*mul, "Mul", 2) && other_operand(*mul, div->outputs[0])) {
    nodes.push_back(mul);
    const Node* bias = next(mul->outputs[0]);
    if (bias && plain(*bias, "Add", 2) && other_operand(*bias, mul->outputs[0])) nodes.push_back(bias);
  }
  take_pattern_group(nodes, "LayerNorm", taken, grp);
  return true;
}

const Node* sole_reader(const Graph& g, const std::map<std::string, int>& uses, const std::string& name) {
  auto it = uses.find(name);
  if (it == uses.end() || it->second != 1) return nullptr;
  for (const auto& n : g.nodes)
    for (const auto& i : n.inputs)
      if (i == name) return &n;
  return nullptr;
}

void take_pattern_group(const std::vector<const Node*>& nodes, const std::string& pattern, std::set<const Node*>& taken,
                        FusedGroup& grp) {
  // Every value the later nodes read from outside the group becomes an input of the step.
  std::set<std::string> inside{nodes[0]->inputs.begin(), nodes[0]->inputs.end()};
  for (const Node* n : nodes) inside.insert(n->outputs[0]);
  std::vector<std::string> extra;
  for (size_t k = 1; k < nodes.size(); ++k)
    for (const auto& i : nodes[k]->inputs)
      if (!i.empty() && inside.insert(i).second) extra.push_back(i);
  grp.nodes = nodes;
  grp.extra_inputs = std::move(extra);
  grp.request.fused_pattern = pattern;
  taken.insert(nodes.begin(), nodes.end());
}

}  // namespace sonnx
