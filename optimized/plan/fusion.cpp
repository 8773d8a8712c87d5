#include "fusion.h"

#include <limits>
#include <map>
#include <set>

#include "reference/model/scope.h"

namespace sonnx {

namespace {

// Readers of each name in g: direct inputs and subgraph captures, plus graph outputs.
std::map<std::string, int> count_uses(const Graph& g) {
  std::map<std::string, int> uses;
  for (const auto& n : g.nodes) {
    for (const auto& i : n.inputs)
      if (!i.empty()) ++uses[i];
    for (const auto& c : implicit_inputs(n)) ++uses[c];
  }
  for (const auto& o : g.outputs) uses[o.name] += 2;  // never fold away a graph output
  return uses;
}

// The value of `name` when it is an initializer or the output of a Constant node with a tensor.
const Tensor* constant(const Graph& g, const std::string& name) {
  for (const auto& [n, t] : g.initializers)
    if (n == name) return &t;
  for (const auto& n : g.nodes)
    if (n.op_type == "Constant" && n.domain.empty() && n.outputs.size() == 1 && n.outputs[0] == name) {
      const Attribute* a = n.attr("value");
      return a && a->type == Attribute::Type::Tensor ? &a->t : nullptr;
    }
  return nullptr;
}

// The scalar float bound of a Clip input (opset ≥ 11), or `def` when omitted; false if not constant.
bool clip_bound(const Graph& g, const Node& clip, size_t i, float def, float& out) {
  if (i >= clip.inputs.size() || clip.inputs[i].empty()) {
    out = def;
    return true;
  }
  const Tensor* t = constant(g, clip.inputs[i]);
  if (!t || t->dtype() != DType::Float || t->size() != 1) return false;
  out = t->data<float>()[0];
  return true;
}

bool is_activation(const Graph& g, const Node& n, FastKernelRequest& req) {
  if (!n.domain.empty() || n.outputs.size() != 1) return false;
  if (n.op_type == "Relu" && n.inputs.size() == 1) {
    req.fused_activation = "Relu";
    return true;
  }
  if (n.op_type != "Clip") return false;
  float lo = -std::numeric_limits<float>::infinity(), hi = std::numeric_limits<float>::infinity();
  if (const Attribute* a = n.attr("min")) lo = a->f;  // opset < 11: bounds are attributes
  if (const Attribute* a = n.attr("max")) hi = a->f;
  if (!clip_bound(g, n, 1, lo, lo) || !clip_bound(g, n, 2, hi, hi)) return false;
  req.fused_activation = "Clip";
  req.clip_min = lo;
  req.clip_max = hi;
  return true;
}

}  // namespace

std::vector<FusedGroup> group_nodes(const Graph& g, bool fuse) {
  std::vector<FusedGroup> groups;
  std::set<const Node*> taken;
  std::map<std::string, int> uses = count_uses(g);
  std::map<std::string, const Node*> sole_reader;
  for (const auto& n : g.nodes)
    for (const auto& i : n.inputs)
      if (!i.empty() && uses[i] == 1) sole_reader[i] = &n;
  auto next_of = [&](const Node& n) -> const Node* {
    if (n.outputs.size() != 1 || n.outputs[0].empty() || uses[n.outputs[0]] != 1) return nullptr;
    auto it = sole_reader.find(n.outputs[0]);
    return it == sole_reader.end() || taken.count(it->second) ? nullptr : it->second;
  };
  for (const auto& n : g.nodes) {
    if (taken.count(&n)) continue;
    FusedGroup grp;
    grp.nodes.push_back(&n);
    taken.insert(&n);
    if (fuse && n.op_type == "Conv" && n.domain.empty()) {
      const Node* m = next_of(n);
      if (m && m->op_type == "Add" && m->domain.empty() && m->inputs.size() == 2 && m->inputs[0] != m->inputs[1] &&
          !m->attr("broadcast")) {
        grp.request.fused_sum = true;
        grp.sum_input = m->inputs[0] == n.outputs[0] ? m->inputs[1] : m->inputs[0];
        grp.nodes.push_back(m);
        taken.insert(m);
        m = next_of(*m);
      }
      if (m && is_activation(g, *m, grp.request)) {
        grp.nodes.push_back(m);
        taken.insert(m);
      }
    }
    groups.push_back(std::move(grp));
  }
  return groups;
}

}  // namespace sonnx
