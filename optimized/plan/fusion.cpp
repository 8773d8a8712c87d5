#include "fusion.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <set>

#include "reference/model/names.h"
#include "reference/ops/op_params.h"
#include "reference/ops/params/activation.h"
#include "reference/ops/params/batch_normalization.h"

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

// The scalar float bound of a Clip input (opset ≥ 11), or `def` when omitted; false if not constant.
bool clip_bound(const Graph& g, const Node& clip, size_t i, float def, float& out) {
  if (i >= clip.inputs.size() || clip.inputs[i].empty()) {
    out = def;
    return true;
  }
  const Tensor* t = graph_constant(g, clip.inputs[i]);
  if (!t || t->dtype() != DType::Float || t->size() != 1) return false;
  out = t->data<float>()[0];
  return true;
}

bool is_activation(const Graph& g, const Node& n, const VersionOf& version_of, FastKernelRequest& req) {
  if (!n.domain.empty() || n.outputs.size() != 1) return false;
  if (n.op_type != "Clip") {
    // One-input activations; the defaults are those of the reference kernels.
    static const char* const plain[] = {"Relu", "Sigmoid", "Tanh", "HardSwish"};
    bool ok = n.inputs.size() == 1;
    if (n.op_type == "LeakyRelu" || n.op_type == "Elu" || n.op_type == "HardSigmoid") {
      std::optional<ActivationParams> p = try_params<ActivationParams>(n, version_of(n));
      ok = ok && p;
      if (p) {
        req.alpha = p->alpha;
        req.beta = p->beta;
      }
    } else {
      ok = ok && std::find(std::begin(plain), std::end(plain), n.op_type) != std::end(plain);
    }
    if (ok) req.fused_activation = n.op_type;
    return ok;
  }
  // The bounds are attributes before version 11, inputs from 11 (an omitted one is float's lowest
  // or max either way).
  std::optional<ClipParams> p = try_params<ClipParams>(n, version_of(n));
  if (!p) return false;
  float lo = p->min, hi = p->max;
  if (p->bounds_from_inputs && (!clip_bound(g, n, 1, lo, lo) || !clip_bound(g, n, 2, hi, hi))) return false;
  req.fused_activation = "Clip";
  req.clip_min = lo;
  req.clip_max = hi;
  return true;
}

using Readers = std::map<std::string, std::vector<const Node*>>;

// The Sigmoid and Mul of y * Sigmoid(y) when p's output y is read by exactly those two nodes (once
// each) and the Sigmoid's output only by the Mul; {null, null} otherwise.
std::pair<const Node*, const Node*> swish_after(const Node& p, std::map<std::string, int>& uses, const Readers& readers) {
  if (p.outputs.size() != 1 || p.outputs[0].empty()) return {};
  const std::string& y = p.outputs[0];
  auto it = readers.find(y);
  if (uses[y] != 2 || it == readers.end() || it->second.size() != 2) return {};
  const Node *sig = nullptr, *mul = nullptr;
  for (const Node* r : it->second) {
    if (!r->domain.empty() || r->outputs.size() != 1) return {};
    if (r->op_type == "Sigmoid" && r->inputs.size() == 1) sig = r;
    else if (r->op_type == "Mul" && r->inputs.size() == 2 && !r->attr("broadcast")) mul = r;
  }
  if (!sig || !mul || sig->outputs[0].empty() || uses[sig->outputs[0]] != 1) return {};
  const auto& mi = mul->inputs;
  if (!((mi[0] == y && mi[1] == sig->outputs[0]) || (mi[1] == y && mi[0] == sig->outputs[0]))) return {};
  return {sig, mul};
}

// True when `name` is a constant float tensor of one element equal to v, of rank ≤ 1 (so its
// broadcast leaves the other operand's shape, rank ≥ 3 after a Conv, as it is).
bool is_scalar_constant(const Graph& g, const std::string& name, float v) {
  const Tensor* t = graph_constant(g, name);
  return t && t->dtype() == DType::Float && t->size() == 1 && t->rank() <= 1 && t->data<float>()[0] == v;
}

// A two-input, one-output default-domain node of type op without the legacy broadcast attribute.
bool is_binary(const Node& n, const char* op) {
  return n.op_type == op && n.domain.empty() && n.inputs.size() == 2 && n.outputs.size() == 1 && !n.outputs[0].empty() &&
         !n.attr("broadcast");
}

// The only reader of n's output, when it has exactly one and the output is not a graph output.
const Node* only_reader(const Node& n, std::map<std::string, int>& uses, const Readers& readers) {
  if (n.outputs.size() != 1 || n.outputs[0].empty() || uses[n.outputs[0]] != 1) return nullptr;
  auto it = readers.find(n.outputs[0]);
  return it == readers.end() || it->second.size() != 1 ? nullptr : it->second[0];
}

// The two readers of p's output y when it has exactly two (each reading it once) and is not a
// graph output; {null, null} otherwise.
std::pair<const Node*, const Node*> two_readers(const Node& p, std::map<std::string, int>& uses, const Readers& readers) {
  if (p.outputs.size() != 1 || p.outputs[0].empty()) return {};
  auto it = readers.find(p.outputs[0]);
  if (uses[p.outputs[0]] != 2 || it == readers.end() || it->second.size() != 2 || it->second[0] == it->second[1]) return {};
  return {it->second[0], it->second[1]};
}

// Whether the binary node n reads a and b (in either order).
bool reads_pair(const Node& n, const std::string& a, const std::string& b) {
  return (n.inputs[0] == a && n.inputs[1] == b) || (n.inputs[0] == b && n.inputs[1] == a);
}

// Hard swish as PaddlePaddle exports it after p (output y): Add(y, 3) → Clip(0, 6) → Mul(y, ·) →
// Div(·, 6), y read only by the Add and the Mul, each later intermediate only by the next node.
// The nodes Add, Clip, Mul, Div; empty otherwise.
std::vector<const Node*> hard_swish_after(const Graph& g, const VersionOf& version_of, const Node& p,
                                          std::map<std::string, int>& uses, const Readers& readers) {
  auto [r0, r1] = two_readers(p, uses, readers);
  if (!r0) return {};
  const std::string& y = p.outputs[0];
  const Node* add = is_binary(*r0, "Add") ? r0 : r1;
  const Node* mul = add == r0 ? r1 : r0;
  if (!is_binary(*add, "Add") || !is_binary(*mul, "Mul")) return {};
  const std::string& three = add->inputs[0] == y ? add->inputs[1] : add->inputs[0];
  if (!reads_pair(*add, y, three) || !is_scalar_constant(g, three, 3.0f)) return {};
  const Node* clip = only_reader(*add, uses, readers);
  FastKernelRequest bounds;
  if (!clip || clip->op_type != "Clip" || clip->inputs.empty() || clip->inputs[0] != add->outputs[0] ||
      !is_activation(g, *clip, version_of, bounds) || bounds.clip_min != 0.0f || bounds.clip_max != 6.0f)
    return {};
  if (only_reader(*clip, uses, readers) != mul || !reads_pair(*mul, y, clip->outputs[0])) return {};
  const Node* div = only_reader(*mul, uses, readers);
  if (!div || !is_binary(*div, "Div") || div->inputs[0] != mul->outputs[0] || !is_scalar_constant(g, div->inputs[1], 6.0f))
    return {};
  return {add, clip, mul, div};
}

// x·HardSigmoid(x) after p (output y): HardSigmoid(y) and Mul(y, ·), y read only by those two and
// the HardSigmoid's output only by the Mul. The nodes HardSigmoid, Mul (alpha and beta into req);
// empty otherwise.
std::vector<const Node*> x_hard_sigmoid_after(const VersionOf& version_of, const Node& p, std::map<std::string, int>& uses,
                                              const Readers& readers, FastKernelRequest& req) {
  auto [r0, r1] = two_readers(p, uses, readers);
  if (!r0) return {};
  const Node* hs = r0->op_type == "HardSigmoid" ? r0 : r1;
  const Node* mul = hs == r0 ? r1 : r0;
  if (hs->op_type != "HardSigmoid" || !hs->domain.empty() || hs->inputs.size() != 1 || hs->outputs.size() != 1 ||
      !is_binary(*mul, "Mul"))
    return {};
  std::optional<ActivationParams> ab = try_params<ActivationParams>(*hs, version_of(*hs));
  if (!ab || only_reader(*hs, uses, readers) != mul || !reads_pair(*mul, p.outputs[0], hs->outputs[0])) return {};
  req.alpha = ab->alpha;
  req.beta = ab->beta;
  return {hs, mul};
}

// The scalar of Mul/Add n (op) whose other operand is y: a finite float constant of one element
// and rank ≤ 1; false otherwise.
bool scalar_operand(const Graph& g, const Node& n, const char* op, const std::string& y, float& v) {
  if (!is_binary(n, op)) return false;
  const std::string& other = n.inputs[0] == y ? n.inputs[1] : n.inputs[0];
  if (other == y || !reads_pair(n, y, other)) return false;
  const Tensor* t = graph_constant(g, other);
  if (!t || t->dtype() != DType::Float || t->size() != 1 || t->rank() > 1) return false;
  v = t->data<float>()[0];
  return std::isfinite(v);
}

// The Erf-based GELU as PyTorch exports it after p (output y): Div(y, √2) → Erf → Add(·, 1) →
// Mul(y, ·) → Mul(·, 0.5), the divisor float(√2) exactly (so oneDNN's gelu_erf computes the same
// function), y read only by the Div and the first Mul, each later intermediate only by the next
// node. The five nodes (the divisor into req.alpha); empty otherwise.
std::vector<const Node*> gelu_after(const Graph& g, const Node& p, std::map<std::string, int>& uses, const Readers& readers,
                                    FastKernelRequest& req) {
  auto [r0, r1] = two_readers(p, uses, readers);
  if (!r0) return {};
  const std::string& y = p.outputs[0];
  const Node* div = r0->op_type == "Div" ? r0 : r1;
  const Node* mul = div == r0 ? r1 : r0;
  if (!is_binary(*div, "Div") || div->inputs[0] != y || div->inputs[1] == y || !is_binary(*mul, "Mul")) return {};
  const Tensor* c = graph_constant(g, div->inputs[1]);
  constexpr float sqrt2 = static_cast<float>(std::numbers::sqrt2);
  if (!c || c->dtype() != DType::Float || c->size() != 1 || c->rank() > 1 || c->data<float>()[0] != sqrt2) return {};
  const Node* erf = only_reader(*div, uses, readers);
  if (!erf || erf->op_type != "Erf" || !erf->domain.empty() || erf->inputs.size() != 1 || erf->outputs.size() != 1) return {};
  const Node* add = only_reader(*erf, uses, readers);
  float one = 0, half = 0;
  if (!add || !scalar_operand(g, *add, "Add", erf->outputs[0], one) || one != 1.0f) return {};
  if (only_reader(*add, uses, readers) != mul || !reads_pair(*mul, y, add->outputs[0])) return {};
  const Node* last = only_reader(*mul, uses, readers);
  if (!last || !scalar_operand(g, *last, "Mul", mul->outputs[0], half) || half != 0.5f) return {};
  req.alpha = sqrt2;
  return {div, erf, add, mul, last};
}

// Activations that read the value twice, after the group's last node: the swish, the decomposed
// hard swish, x·HardSigmoid(x) and the Erf-based GELU. Joins the nodes to grp when one matches and
// none is taken.
void fuse_two_reader_activation(const Graph& g, const VersionOf& version_of, std::map<std::string, int>& uses,
                                const Readers& readers, std::set<const Node*>& taken, FusedGroup& grp) {
  const Node& last = *grp.nodes.back();
  FastKernelRequest req = grp.request;
  std::vector<const Node*> nodes;
  if (auto [sig, mul] = swish_after(last, uses, readers); sig) {
    nodes = {sig, mul};
    req.fused_activation = "Swish";
  } else if (nodes = hard_swish_after(g, version_of, last, uses, readers); !nodes.empty()) {
    req.fused_activation = "DecomposedHardSwish";
  } else if (nodes = x_hard_sigmoid_after(version_of, last, uses, readers, req); !nodes.empty()) {
    req.fused_activation = "XHardSigmoid";
  } else if (nodes = gelu_after(g, last, uses, readers, req); !nodes.empty()) {
    req.fused_activation = "GeluErf";
  }
  if (nodes.empty() || std::any_of(nodes.begin(), nodes.end(), [&](const Node* n) { return taken.count(n) > 0; })) return;
  grp.request = req;
  grp.nodes.insert(grp.nodes.end(), nodes.begin(), nodes.end());
  taken.insert(nodes.begin(), nodes.end());
}

bool all_of_finite(const Tensor& t) {
  const float* p = t.data<float>();
  return std::all_of(p, p + t.size(), [](float x) { return std::isfinite(x); });
}

// BatchNormalization computing Y only, per channel, from its running statistics (not training).
bool is_inference_batch_norm(const Node& n, const VersionOf& version_of) {
  if (n.op_type != "BatchNormalization" || !n.domain.empty() || n.inputs.size() != 5) return false;
  for (size_t k = 1; k < n.outputs.size(); ++k)
    if (!n.outputs[k].empty()) return false;
  std::optional<BatchNormParams> p = try_params<BatchNormParams>(n, version_of(n));
  return p && !p->training_mode && p->spatial;
}

// The Conv's constant float weights and (when present) bias, or false.
bool conv_params(const Graph& g, const Node& conv, const Tensor*& cw, const Tensor*& cb) {
  cw = conv.inputs.size() > 1 ? graph_constant(g, conv.inputs[1]) : nullptr;
  cb = conv.inputs.size() > 2 && !conv.inputs[2].empty() ? graph_constant(g, conv.inputs[2]) : nullptr;
  if (!cw || cw->dtype() != DType::Float || cw->rank() < 3) return false;
  return !(conv.inputs.size() > 2 && !conv.inputs[2].empty() &&
           (!cb || cb->dtype() != DType::Float || cb->size() != cw->dim(0)));
}

// W' = W·s, B' = B·s + t; false when a folded value is not finite.
bool fold_scale_shift(const Tensor& cw, const Tensor* cb, double s, double t, Tensor& w, Tensor& b) {
  int64_t m = cw.dim(0);
  w = Tensor(DType::Float, cw.shape());
  b = Tensor(DType::Float, {m});
  for (int64_t i = 0; i < cw.size(); ++i) w.data<float>()[i] = static_cast<float>(cw.data<float>()[i] * s);
  for (int64_t c = 0; c < m; ++c) b.data<float>()[c] = static_cast<float>((cb ? cb->data<float>()[c] : 0.0) * s + t);
  return all_of_finite(w) && all_of_finite(b);
}

}  // namespace

// The value of `name` when it is an initializer or the output of a Constant node with a tensor
// (an initializer that is also a graph input is only a default a run may replace: not constant).
const Tensor* graph_constant(const Graph& g, const std::string& name) {
  // Identities of Identities are followed a bounded number of steps (a malformed graph may loop).
  std::string current = name;
  for (int depth = 0; depth < 16; ++depth) {
    for (const auto& in : g.inputs)
      if (in.name == current) return nullptr;
    for (const auto& [n, t] : g.initializers)
      if (n == current) return &t;
    const Node* producer = nullptr;
    for (const auto& n : g.nodes)
      if (n.domain.empty() && n.outputs.size() == 1 && n.outputs[0] == current) producer = &n;
    if (!producer) return nullptr;
    if (producer->op_type == "Constant") {
      const Attribute* a = producer->attr("value");
      return a && a->type == Attribute::Type::Tensor ? &a->t : nullptr;
    }
    if (producer->op_type != "Identity" || producer->inputs.size() != 1) return nullptr;
    current = producer->inputs[0];
  }
  return nullptr;
}

bool fold_batch_norm(const Graph& g, const Node& conv, const Node& bn, int64_t bn_version, Tensor& w, Tensor& b) {
  const Tensor *cw = nullptr, *cb = nullptr;
  if (!conv_params(g, conv, cw, cb)) return false;
  int64_t m = cw->dim(0);
  const Tensor* p[4];
  for (size_t i = 0; i < 4; ++i) {
    p[i] = graph_constant(g, bn.inputs[i + 1]);
    if (!p[i] || p[i]->dtype() != DType::Float || p[i]->size() != m) return false;
  }
  std::optional<BatchNormParams> params = try_params<BatchNormParams>(bn, bn_version);
  if (!params) return false;
  double eps = params->epsilon;
  w = Tensor(DType::Float, cw->shape());
  b = Tensor(DType::Float, {m});
  int64_t per = cw->size() / m;
  for (int64_t c = 0; c < m; ++c) {
    double scale = p[0]->data<float>()[c], bias = p[1]->data<float>()[c];
    double mean = p[2]->data<float>()[c], var = p[3]->data<float>()[c];
    double k = scale / std::sqrt(var + eps);
    for (int64_t i = 0; i < per; ++i) w.data<float>()[c * per + i] = static_cast<float>(cw->data<float>()[c * per + i] * k);
    double b0 = cb ? cb->data<float>()[c] : 0.0;
    b.data<float>()[c] = static_cast<float>((b0 - mean) * k + bias);
  }
  return true;
}

bool fold_into_conv(const Graph& g, const Node& conv, const std::vector<const Node*>& folded, const VersionOf& version_of,
                    Tensor& w, Tensor& b) {
  if (folded.empty()) return false;
  if (folded[0]->op_type == "BatchNormalization")
    return folded.size() == 1 && fold_batch_norm(g, conv, *folded[0], version_of(*folded[0]), w, b);
  float s = 0, t = 0;
  if (folded.size() > 2 || !scalar_operand(g, *folded[0], "Mul", conv.outputs[0], s) || s == 0.0f) return false;
  if (folded.size() == 2 && !scalar_operand(g, *folded[1], "Add", folded[0]->outputs[0], t)) return false;
  const Tensor *cw = nullptr, *cb = nullptr;
  return conv_params(g, conv, cw, cb) && fold_scale_shift(*cw, cb, s, t, w, b);
}

std::vector<FusedGroup> group_nodes(const Graph& g, bool fuse, const VersionOf& version_of, const ConvFold& fold) {
  std::vector<FusedGroup> groups;
  std::set<const Node*> taken;
  std::map<std::string, int> uses = count_uses(g);
  std::map<std::string, const Node*> sole_reader;
  for (const auto& n : g.nodes)
    for (const auto& i : n.inputs)
      if (!i.empty() && uses[i] == 1) sole_reader[i] = &n;
  std::map<std::string, std::vector<const Node*>> readers;
  for (const auto& n : g.nodes)
    for (const auto& i : n.inputs)
      if (!i.empty()) readers[i].push_back(&n);
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
      std::vector<const Node*> folded;
      if (m && is_inference_batch_norm(*m, version_of)) {
        folded = {m};
      } else if (float v = 0; m && scalar_operand(g, *m, "Mul", n.outputs[0], v)) {
        // y·s + t as PaddlePaddle's exporter writes a re-parameterised block's scale and shift
        folded = {m};
        if (const Node* a = next_of(*m); a && scalar_operand(g, *a, "Add", m->outputs[0], v)) folded.push_back(a);
      }
      if (!folded.empty() && (fold ? fold(n, folded, grp.folded_w, grp.folded_b)
                                   : fold_into_conv(g, n, folded, version_of, grp.folded_w, grp.folded_b))) {
        grp.folded = folded;
        grp.nodes.insert(grp.nodes.end(), folded.begin(), folded.end());
        taken.insert(folded.begin(), folded.end());
        m = next_of(*folded.back());
      }
      if (m && m->op_type == "Add" && m->domain.empty() && m->inputs.size() == 2 && m->inputs[0] != m->inputs[1] &&
          !m->attr("broadcast")) {
        grp.request.fused_sum = true;
        // The Add reads the Conv's result: the Conv's output, or the last folded node's.
        const std::string& y = grp.folded.empty() ? n.outputs[0] : grp.folded.back()->outputs[0];
        grp.sum_input = m->inputs[0] == y ? m->inputs[1] : m->inputs[0];
        grp.nodes.push_back(m);
        taken.insert(m);
        m = next_of(*m);
      }
      if (m && is_activation(g, *m, version_of, grp.request)) {
        grp.nodes.push_back(m);
        taken.insert(m);
      } else if (!m) {
        fuse_two_reader_activation(g, version_of, uses, readers, taken, grp);
      }
    }
    if (fuse && (n.op_type == "Div" || n.op_type == "Mul" || n.op_type == "MatMul") && n.domain.empty())
      match_attention(g, n, version_of, uses, taken, grp);
    if (fuse && n.op_type == "MatMul" && n.domain.empty() && grp.nodes.size() == 1) {
      // MatMul → Add of a constant (the bias of a Linear layer) → optionally an activation.
      const Node* m = next_of(n);
      if (m && is_binary(*m, "Add") && m->inputs[0] != m->inputs[1]) {
        const std::string& bias = m->inputs[0] == n.outputs[0] ? m->inputs[1] : m->inputs[0];
        const Tensor* b = graph_constant(g, bias);
        if (b && b->dtype() == DType::Float && b->rank() >= 1) {
          grp.nodes.push_back(m);
          taken.insert(m);
          grp.extra_inputs = {bias};
          grp.request.fused_pattern = "MatMulBias";
          if (const Node* a = next_of(*m); a && is_activation(g, *a, version_of, grp.request)) {
            grp.nodes.push_back(a);
            taken.insert(a);
          } else if (!a) {
            fuse_two_reader_activation(g, version_of, uses, readers, taken, grp);
          }
        }
      }
    }
    if (fuse && n.op_type == "ReduceMean") match_decomposed_layer_norm(g, n, version_of, uses, taken, grp);
    groups.push_back(std::move(grp));
  }
  return groups;
}

}  // namespace sonnx
