#include "encloser.h"

#include <algorithm>
#include <functional>
#include <set>

#include "enclose_ops.h"
#include "reference/infer/shape_rule.h"
#include "reference/interp/inliner.h"
#include "sonnx/errors.h"
#include "reference/model/dependencies.h"
#include "reference/ops/op_table.h"

namespace sonnx::enclose {

namespace {
// Bounds of a float tensor value: [x, x] for a real or ±∞ (an extended real); undefined for NaN.
Bounds exact_float(const Tensor& t) {
  Bounds b = float_bounds(t.dtype(), t.shape());
  for (int64_t i = 0; i < t.size(); ++i) {
    double x = t.as_double(i);
    set(b, i, std::isnan(x) ? Interval::undefined() : Interval::point(x));
  }
  return b;
}
// Under the admissible semantics: each float output widened by the operator's allowance and rounded
// outward to its type (what an implementation that stores it in that type may hold).
// A sequence or an optional: each tensor inside.
void admit_value(Bounds& b, const Allowance& allowance) {
  if (!b.is_tensor()) {
    for (Bounds& e : b.elements) admit_value(e, allowance);
    return;
  }
  if (b.exact()) return;
  FloatFormat f = float_format(b.type);
  double k = allowance.kind == Allowance::Kind::Ulps ? allowance.ulps : 0;
  for (int64_t i = 0; i < b.lo.size(); ++i) set(b, i, widen_ulps(at(b, i), k, f));
}
void admit(std::vector<Bounds>& out, const Allowance& allowance) {
  for (Bounds& b : out) admit_value(b, allowance);
}
}  // namespace

namespace {

// The type a function body is expanded for, of an input given as these bounds.
TypeInfo type_of_bounds(const Bounds& b) {
  TypeInfo t;
  switch (b.kind) {
    case Bounds::Kind::Tensor: return tensor_type(b.type, known_dims(b.lo.shape()));
    case Bounds::Kind::Sequence: t.kind = TypeInfo::Kind::Sequence; break;
    case Bounds::Kind::Optional: t.kind = TypeInfo::Kind::Optional; break;
  }
  t.inner = std::make_shared<TypeInfo>(b.elements.empty() ? tensor_type(b.type) : type_of_bounds(b.elements[0]));
  return t;
}

}  // namespace

void admit_whole_operator(Bounds& body, const Bounds& real) {
  if (!body.is_tensor()) {
    for (size_t e = 0; e < body.elements.size() && e < real.elements.size(); ++e)
      admit_whole_operator(body.elements[e], real.elements[e]);
    return;
  }
  if (body.lo.size() == 0 || body.exact()) return;
  body.centered = nullptr;
  FloatFormat f = float_format(body.type);
  for (int64_t i = 0; i < body.lo.size(); ++i) {
    Interval a = at(body, i), r = at(real, i);
    if (!a.has_nan() && !r.has_nan()) set(body, i, hull(a, widen_ulps(r, kElementaryUlps, f)));
  }
}

namespace {

bool any_float(const std::vector<Bounds>& out) {
  return std::any_of(out.begin(), out.end(), [](const Bounds& b) { return !b.exact(); });
}

// What the walks of one enclosure share: the model the nodes resolve against (their operator
// versions, its local functions), the reference interpreter that runs kernels on exact values, the
// semantics, and how deep in function bodies the walk is.
struct BodyWalk {
  const Model& model;
  Interpreter& reference;
  Semantics semantics;
  int depth = 0;
};

// Bodies nest only as deep as operators are defined by operators (a loss by LogSoftmax by ReduceMax):
// a few levels. Deeper is a body that calls itself, which no operator's body does.
constexpr int kMaxEnclosedBodyDepth = 32;

std::map<std::string, Bounds> walk_graph(const BodyWalk& w, const Graph& g, std::map<std::string, Bounds> values,
                                         const BoundsScope* outer);

// An operator version defined by a function body and without an enclosure of its own is what its
// body computes (ONNX defines a function operator so): the body, expanded on the call's inputs, is
// walked as a graph of its own whose inputs are the call's bounds, each node enclosed under its own
// allowance (spec/accuracy.md, "Admissible results"). A body node that itself has a body and no
// enclosure is enclosed the same way, one level deeper. A refusal inside names the innermost
// operator first, then each body it is in: "no enclosure for GatherElements-13, in the body of
// NegativeLogLikelihoodLoss-13, in the body of SoftmaxCrossEntropyLoss-13"; a value the bounds leave
// open there names the node of the model whose body it is in.
std::vector<Bounds> enclose_through_body(const BodyWalk& w, const OpCall& c) {
  if (w.depth >= kMaxEnclosedBodyDepth)
    throw InternalError(c.node.label() + ": function bodies nested deeper than " + std::to_string(kMaxEnclosedBodyDepth));
  Graph body;
  body.path = c.node.label() + "'s body";
  std::map<std::string, Bounds> given;
  std::vector<TypeInfo> types;  // the body's alternative and $elem_type are chosen by the actual inputs
  std::set<std::string> taken;
  for (size_t k = 0; k < c.in.size(); ++k) {
    if (!c.in[k]) {
      types.emplace_back();
      continue;
    }
    const std::string& name = c.node.inputs[k];
    const Bounds& b = *c.in[k];
    types.push_back(type_of_bounds(b));
    given.emplace(name, b);
    taken.insert(name);
  }
  Function fn;
  std::string why;
  if (!build_function_body(w.model, c.node, c.opset, types, fn, why))
    throw Unsupported("no enclosure for " + op_name(c) + ": " + why);
  for (const std::string& o : c.node.outputs) taken.insert(o);
  int counter = 0;
  // The walk sees only the call's inputs and what the body defines: a prefix fresh against the
  // call's names keeps every body name apart from them.
  body.nodes = expand_call(c.node, fn, fresh_prefix("__body", counter, taken));
  for (size_t i = 0; i < body.nodes.size(); ++i) body.nodes[i].index = i;
  for (const std::string& o : c.node.outputs)
    if (!o.empty()) body.outputs.push_back(ValueInfo{o, TypeInfo{}});
  auto walk = [&](Semantics semantics) {
    try {
      // A body sees only its inputs: no outer scope.
      std::map<std::string, Bounds> enclosed = walk_graph(BodyWalk{w.model, w.reference, semantics, w.depth + 1}, body, given,
                                                          nullptr);
      std::vector<Bounds> out;
      for (const std::string& o : c.node.outputs) out.push_back(o.empty() ? Bounds{} : enclosed.at(o));
      return out;
    } catch (const Unsupported& e) {
      throw Unsupported(std::string(e.what()) + ", in the body of " + op_name(c));
    } catch (const Undetermined& e) {  // its node is a body's, labelled by its place there
      throw Undetermined(std::string(e.what()) + ", in the body of " + c.node.label());
    }
  };
  std::vector<Bounds> out = walk(w.semantics);
  if (w.semantics == Semantics::Admissible) {
    // An implementation may also compute the operator as a whole, as a library function: within
    // kElementaryUlps of its exact value (spec/accuracy.md, "Admissible results").
    std::vector<Bounds> real = walk(Semantics::Real);
    for (size_t k = 0; k < out.size(); ++k) admit_whole_operator(out[k], real[k]);
  }
  return out;
}

// A node of an older version enclosed as the later version that re-states it (enclose_restated.cpp):
// the node at that version, `axes` moved to its input, through that version's body.
std::vector<Bounds> enclose_restated(const BodyWalk& w, const OpCall& c, RestatedVersion later) {
  Node n = c.node;
  n.opset_version = later.version;
  std::vector<const Bounds*> in = c.in;
  Bounds axes;
  if (later.axes_to_input) {
    in.resize(1);
    n.inputs.resize(1);
    auto a = std::find_if(n.attributes.begin(), n.attributes.end(), [](const Attribute& x) { return x.name == "axes"; });
    if (a != n.attributes.end()) {
      axes = Bounds::of(Tensor::from_vector<int64_t>({static_cast<int64_t>(a->ints.size())}, a->ints));
      n.attributes.erase(a);
      n.inputs.push_back(n.outputs.at(0) + "__axes");
      in.push_back(&axes);
    }
  }
  return enclose_through_body(w, OpCall{n, later.version, std::move(in), w.reference, later.version, w.semantics});
}

// One node's outputs from its inputs' bounds; `here` is the scope of the node's graph, where the
// subgraphs of a control-flow node resolve what they read from outside; `graph` its nodes (which
// Gradient reads, as its reference kernel does).
std::vector<Bounds> enclose_node(const BodyWalk& w, const Node& n, std::vector<const Bounds*> in, const BoundsScope& here,
                                 const std::vector<Node>& graph) {
  int64_t opset = node_opset(w.model, n);
  OpResolution r = resolve_op(w.model, n, opset);
  bool standard = n.domain.empty() || n.domain == "ai.onnx";
  if (!r.is_local_function && !standard && n.domain != "ai.onnx.ml" && n.domain != "ai.onnx.preview.training")
    throw Unsupported("no enclosure for " + n.domain + "." + n.op_type);
  std::string op = (standard || r.is_local_function ? "" : n.domain + ".") + n.op_type +
                   (r.is_local_function ? "" : "-" + std::to_string(r.version));
  if (n.has_subgraph()) {  // If, Loop, Scan: before the exact path, as their subgraphs read outer values
    if (r.is_local_function) throw Unsupported("no enclosure for " + op + " (a function call with a graph attribute)");
    const EnclosureSlot* e = find_enclosure(n.domain, n.op_type, r.version);
    if (!e) throw Unsupported("no enclosure for " + op + " (its subgraph is not enclosed)");
    SubgraphWalk walk = [&w, &here](const Graph& sub, std::map<std::string, Bounds> given) {
      for (const auto& [name, t] : sub.initializers) given.emplace(name, Bounds::of(t));
      std::map<std::string, Bounds> enclosed = walk_graph(w, sub, std::move(given), &here);
      std::vector<Bounds> out;
      for (const ValueInfo& o : sub.outputs) out.push_back(enclosed.at(o.name));  // a name may be output twice
      return out;
    };
    OpCall call{n, r.version, std::move(in), w.reference, opset, w.semantics};
    call.subgraphs = &walk;
    return e->fn(call);  // the subgraphs' nodes bring their own allowances
  }
  bool all_exact = std::all_of(in.begin(), in.end(), [](const Bounds* b) { return !b || b->exact(); });
  OpCall call{n, r.version, std::move(in), w.reference, opset, w.semantics};
  call.ctx.set_graph_nodes(&graph);
  const EnclosureSlot* e = r.is_local_function ? nullptr : find_enclosure(n.domain, n.op_type, r.version);
  if (all_exact && r.kernel && r.kernel->accuracy != Accuracy::Random && !(e && e->on_exact_inputs)) {
    // On exact inputs (integers, booleans, no floats) the reference's result is the operator's
    // value, a float one included: Cast and the constants define how they round. Not so for a
    // rounding operator defined by a body that computes its floats (the windows): through its body;
    // nor for one whose enclosure computes its floats (the ai.onnx.ml predictors on integer X).
    std::vector<Bounds> out = lift_exact(call);
    if (r.kernel->accuracy == Accuracy::Rounding && r.has_function_body && !e && any_float(out))
      return enclose_through_body(w, call);
    return out;
  }
  if (e && e->restated) return enclose_restated(w, call, *e->restated);
  if (e) {
    if (auto centered = centered_enclosure(call)) return std::move(*centered);
    std::vector<Bounds> out = e->fn(call);
    for (Bounds& b : out) b.centered = nullptr;  // an input's, which the operator did not keep up to date
    if (w.semantics == Semantics::Admissible) admit(out, e->allowance);
    return out;
  }
  if (r.has_function_body) return enclose_through_body(w, call);
  throw Unsupported("no enclosure for " + op);
}

// The walk itself: g's nodes in a schedule order (Kahn's, as the interpreter runs them), from
// `values`, the bounds of g's inputs and initializers; a name g does not define resolves in
// `outer` (g is then a subgraph).
std::map<std::string, Bounds> walk_graph(const BodyWalk& w, const Graph& g, std::map<std::string, Bounds> values,
                                         const BoundsScope* outer) {
  auto order = node_dependencies(g).topological_order();
  if (!order) throw Trap("graph " + g.path + " has a cycle");
  const BoundsScope here{&values, outer};
  auto find = [&](const std::string& name) -> const Bounds* {
    auto it = values.find(name);
    return it != values.end() ? &it->second : outer ? outer->find(name) : nullptr;
  };
  // How many nodes still to run read each value (by an input, or through a subgraph, which reads
  // it when the node runs): one no node reads any more is dropped (a deep network's enclosures
  // would otherwise all stay in memory), unless it is a graph output.
  std::vector<std::vector<std::string>> reads(g.nodes.size());
  std::map<std::string, int64_t> readers;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    reads[i] = node_reads(g.nodes[i]);
    for (const auto& name : reads[i]) ++readers[name];
  }
  for (const auto& o : g.outputs) readers[o.name] += 1;  // never dropped
  for (size_t i : *order) {
    const Node& n = g.nodes[i];
    std::vector<const Bounds*> in;
    for (const auto& name : n.inputs) {
      if (name.empty()) {
        in.push_back(nullptr);
        continue;
      }
      const Bounds* b = find(name);
      if (!b) throw Trap(n.label() + ": input '" + name + "' is not defined");
      in.push_back(b);
    }
    std::vector<Bounds> out = enclose_node(w, n, std::move(in), here, g.nodes);
    for (size_t k = 0; k < n.outputs.size() && k < out.size(); ++k)
      if (!n.outputs[k].empty()) values[n.outputs[k]] = std::move(out[k]);
    for (const auto& name : reads[i])  // an outer value is not g's to drop: erase finds nothing
      if (--readers[name] == 0) values.erase(name);
  }
  std::map<std::string, Bounds> result;
  for (const auto& o : g.outputs) {
    const Bounds* b = find(o.name);
    if (!b) throw Trap("graph output '" + o.name + "' is never defined");
    result[o.name] = *b;
  }
  return result;
}

}  // namespace

const Bounds* BoundsScope::find(const std::string& name) const {
  for (const BoundsScope* s = this; s; s = s->parent)
    if (s->values) {
      auto it = s->values->find(name);
      if (it != s->values->end()) return &it->second;
    }
  return nullptr;
}

Bounds Bounds::of(const Tensor& t) {
  if (sonnx::is_float(t.dtype()) || sonnx::is_small_float(t.dtype())) return exact_float(t);
  return Bounds{t.dtype(), t, t};
}

Bounds Bounds::of(const Value& v) {
  switch (v.kind) {
    case Value::Kind::Tensor: return of(v.tensor);
    case Value::Kind::Sequence: {
      std::vector<Bounds> elements;
      for (const Value& e : v.sequence) elements.push_back(of(e));
      DType elem = v.sequence_elem != DType::Undefined ? v.sequence_elem
                   : elements.empty()                  ? DType::Undefined
                                                       : elements[0].type;
      return sequence(elem, std::move(elements));
    }
    case Value::Kind::Optional: {
      if (!v.optional) return optional(DType::Undefined, {});
      Bounds content = of(*v.optional);
      DType elem = content.type;
      return optional(elem, {std::move(content)});
    }
    case Value::Kind::Map:
      // A map's values are ai.onnx.ml's class scores and features (ZipMap, DictVectorizer, CastMap):
      // no operator on them has an enclosure, so none carries bounds (spec/accuracy.md).
      throw Unsupported("no enclosure for a map value (map(" + std::string(dtype_name(v.map_keys().dtype())) + ", " +
                        std::string(dtype_name(v.map_values().dtype())) + ")): maps have no enclosure");
    case Value::Kind::None: break;
  }
  throw Unsupported("no enclosure for a value that is none of a tensor, a sequence and an optional");
}

Bounds Bounds::sequence(DType elem, std::vector<Bounds> elements) {
  Bounds b;
  b.kind = Kind::Sequence;
  b.type = elem;
  b.elements = std::move(elements);
  return b;
}

Bounds Bounds::optional(DType elem, std::vector<Bounds> content) {
  if (content.size() > 1) throw InternalError("an optional holds at most one value");
  Bounds b;
  b.kind = Kind::Optional;
  b.type = elem;
  b.elements = std::move(content);
  return b;
}

Bounds float_bounds(DType type, const Shape& shape) {
  return Bounds{type, Tensor(DType::Double, shape), Tensor(DType::Double, shape)};
}

const Bounds& OpCall::input(size_t k) const {
  if (k >= in.size() || !in[k]) throw Trap(node.label() + ": input " + std::to_string(k) + " is required");
  return *in[k];
}

const Bounds& float_input(const OpCall& c, size_t k) {
  const Bounds& b = c.input(k);
  if (b.exact()) throw Trap(c.node.label() + ": input " + std::to_string(k) + " must be a float tensor");
  return b;
}

double width_in_ulps(double lo, double hi, DType type) { return width_in_ulps(Interval{lo, hi}, type); }
double width_in_ulps(const Bounds& b, int64_t i) { return width_in_ulps(at(b, i), b.type); }
double widest_in_ulps(const Bounds& b) {
  double w = 0;
  if (!b.is_tensor()) {
    for (const Bounds& e : b.elements) w = std::max(w, widest_in_ulps(e));
    return w;
  }
  if (!b.exact())
    for (int64_t i = 0; i < b.lo.size(); ++i) {
      double wi = width_in_ulps(b, i);
      if (!std::isnan(wi)) w = std::max(w, wi);
    }
  return w;
}
double ulps_outside(double x, const Bounds& b, int64_t i) { return ulps_outside(x, at(b, i), b.type); }

const EnclosureSlot* find_enclosure(const std::string& domain, const std::string& op_type, int64_t version) {
  const OpRecord* r = OpRecords::instance().find(domain, op_type, version);
  return r ? r->enclosure : nullptr;
}

std::map<std::string, Bounds> enclose_graph(const Model& model, const Graph& g, std::map<std::string, Bounds> given,
                                            Semantics semantics, const BoundsScope* outer) {
  Interpreter reference(model);
  return walk_graph(BodyWalk{model, reference, semantics}, g, std::move(given), outer);
}

std::map<std::string, Bounds> enclose_model(const Model& original, const NamedValues& inputs, Semantics semantics) {
  Model model = inline_model(original);
  const Graph& g = model.graph;
  std::map<std::string, Bounds> values;
  for (const auto& [name, t] : g.initializers) values[name] = Bounds::of(t);
  for (const auto& in : g.inputs) {
    auto it = inputs.find(in.name);
    if (it == inputs.end()) {
      if (values.count(in.name)) continue;  // its initializer is the default
      throw LoadError("missing input '" + in.name + "' (" + in.type.str() + ")");
    }
    check_given_input(in, it->second);
    try {
      values[in.name] = Bounds::of(it->second);
    } catch (const Unsupported& e) {  // a map, or a sequence of them
      throw Unsupported(std::string(e.what()) + ", graph input '" + in.name + "'");
    }
  }
  return enclose_graph(model, g, std::move(values), semantics);
}

}  // namespace sonnx::enclose
