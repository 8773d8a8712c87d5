// Finds scaled dot-product attention as exporters write it (torchvision's vision transformer at
// opset 13, for one), so it runs as one step (optimized/kernels/attention.cpp):
//   [Qs = Div(Q, c) | Mul(Q, c)] → S = MatMul(Qs, Kt) → [Div(S, c) | Mul(S, c)] → P = Softmax(S)
//   → O = MatMul(P, V)
// with at most one of the two scales, c a float constant of one element. The matcher checks the
// structure and the readers of every intermediate; shapes, the softmax axis and element types are
// known only at run time, where the kernel checks them and the nodes run one by one when it does
// not apply.
#include "fusion.h"

#include "reference/ops/op_params.h"
#include "reference/ops/params/softmax.h"

namespace sonnx {

namespace {

bool plain_node(const Node& n, const char* op, size_t inputs) {
  return n.op_type == op && n.domain.empty() && n.inputs.size() == inputs && n.outputs.size() == 1 && !n.outputs[0].empty() &&
         !n.attr("broadcast");
}

bool is_scalar_float(const Graph& g, const std::string& name) {
  const Tensor* t = graph_constant(g, name);
  return t && t->dtype() == DType::Float && t->size() == 1 && t->rank() <= 1;
}

// Whether n is Div(x, c) or Mul(x, c) / Mul(c, x) with c a float constant of one element (and not x).
bool scales(const Graph& g, const Node& n, const std::string& x) {
  if (plain_node(n, "Div", 2)) return n.inputs[0] == x && n.inputs[1] != x && is_scalar_float(g, n.inputs[1]);
  if (!plain_node(n, "Mul", 2) || n.inputs[0] == n.inputs[1]) return false;
  if (n.inputs[0] == x) return is_scalar_float(g, n.inputs[1]);
  return n.inputs[1] == x && is_scalar_float(g, n.inputs[0]);
}

// MatMul(a, ·) with a its first operand only.
bool matmul_of(const Node& n, const std::string& a) {
  return plain_node(n, "MatMul", 2) && n.inputs[0] == a && n.inputs[1] != a;
}

}  // namespace

bool match_attention(const Graph& g, const Node& first, const VersionOf& version_of, const std::map<std::string, int>& uses,
                     std::set<const Node*>& taken, FusedGroup& grp) {
  if (grp.nodes.size() != 1 || first.outputs.size() != 1 || first.outputs[0].empty()) return false;
  auto next = [&](const Node& n) {
    const Node* r = sole_reader(g, uses, n.outputs[0]);
    return r && !taken.count(r) ? r : nullptr;
  };
  std::vector<const Node*> nodes{&first};
  const Node* scores = &first;  // the MatMul computing S
  if (first.op_type == "Div" || first.op_type == "Mul") {
    if (first.inputs.size() != 2) return false;
    // Q is the operand that is not the scale (the second one of Mul(c, Q)).
    bool scale_first = first.op_type == "Mul" && is_scalar_float(g, first.inputs[0]);
    if (!scales(g, first, first.inputs[scale_first ? 1 : 0])) return false;
    scores = next(first);
    if (!scores || !matmul_of(*scores, first.outputs[0])) return false;
    nodes.push_back(scores);
  } else if (!plain_node(first, "MatMul", 2) || first.inputs[0] == first.inputs[1]) {
    return false;
  }
  const Node* softmax = next(*scores);
  if (softmax && nodes.size() == 1 && scales(g, *softmax, scores->outputs[0])) {  // the scale on S
    nodes.push_back(softmax);
    softmax = next(*softmax);
  }
  if (!softmax || !plain_node(*softmax, "Softmax", 1) || !try_params<SoftmaxParams>(*softmax, version_of(*softmax)))
    return false;
  const Node* out = next(*softmax);
  if (!out || !matmul_of(*out, softmax->outputs[0])) return false;
  nodes.push_back(softmax);
  nodes.push_back(out);
  take_pattern_group(nodes, "Attention", taken, grp);  // K, V and c become inputs of the step
  return true;
}

}  // namespace sonnx
