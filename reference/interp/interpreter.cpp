// Relies on execution.mlw Dataflow.confluence: two complete dataflow executions end with the same environment (determinism).
// Relies on execution.mlw Dataflow.progress: in an acyclic graph an incomplete execution can continue.
// Relies on functions.mlw Inline.call_as_renamed_body: one call computes what its renamed, inlined body computes.
// Relies on composition.mlw Validated.validator_gives_dataflow_hypotheses: a graph satisfying STRUCT-SSA, STRUCT-DEFINED and STRUCT-TOPO-ORDER satisfies the hypotheses of the dataflow theorems (wf_init, inputs_defined), and its file order is a complete execution.
// Relies on composition.mlw Inlined.sequential_is_dataflow: on an inlined graph in order, every complete dataflow execution gives every name the content of the sequential run of functions.mlw.
// Relies on composition.mlw Inlined.inlined_dataflow_is_call_semantics: the dataflow execution of the inlined graph computes what the original graph with its function calls computes.
#include "interpreter.h"

#include <queue>
#include <set>

#include "inliner.h"
#include "sonnx/errors.h"
#include "reference/model/names.h"
#include "reference/ops/op_table.h"

namespace sonnx {

namespace {
constexpr int kMaxCallDepth = 256;  // nested function calls / subgraphs; recursion is rejected by validation

TypeInfo type_of(const Value& v) {
  TypeInfo t;
  if (v.is_tensor()) {
    t.kind = TypeInfo::Kind::Tensor;
    t.elem = v.tensor.dtype();
    std::vector<Dim> dims;
    for (int64_t d : v.tensor.shape()) dims.push_back(Dim{d, ""});
    t.shape = dims;
  } else if (v.is_sequence()) {
    t.kind = TypeInfo::Kind::Sequence;
    if (!v.sequence.empty() && !v.sequence[0].is_tensor()) {
      t.inner = std::make_shared<TypeInfo>(type_of(v.sequence[0]));  // of sequences, optionals or maps
    } else {
      TypeInfo inner;
      inner.kind = TypeInfo::Kind::Tensor;
      inner.elem = v.sequence.empty() ? v.sequence_elem : v.sequence[0].tensor.dtype();
      t.inner = std::make_shared<TypeInfo>(inner);
    }
  } else if (v.is_optional()) {
    t.kind = TypeInfo::Kind::Optional;
    t.inner = std::make_shared<TypeInfo>(v.optional ? type_of(*v.optional) : TypeInfo{});
  } else if (v.is_map()) {
    t.kind = TypeInfo::Kind::Map;
    t.map_key = v.map_keys().dtype();
    TypeInfo value;
    value.kind = TypeInfo::Kind::Tensor;
    value.elem = v.map_values().dtype();
    t.inner = std::make_shared<TypeInfo>(value);
  }
  return t;
}

// Why a value given for a graph input declared `t` does not fit it ("" when it does): a map where a
// map is declared, of the declared key type and value element type, and no map where a tensor or a
// sequence is (an optional may stand for its content, as in test data).
std::string map_mismatch(const TypeInfo& t, const Value& given) {
  if (t.kind != TypeInfo::Kind::Map)
    return given.is_map() && t.kind != TypeInfo::Kind::Optional ? "is given a map but declared " + t.str() : "";
  if (!given.is_map()) return "is declared " + t.str() + " but not given a map";
  DType key = given.map_keys().dtype(), value = given.map_values().dtype();
  DType want_value = t.inner && t.inner->kind == TypeInfo::Kind::Tensor ? t.inner->elem : DType::Undefined;
  if ((t.map_key != DType::Undefined && key != t.map_key) || (want_value != DType::Undefined && value != want_value))
    return "is given as map(" + std::string(dtype_name(key)) + ", " + std::string(dtype_name(value)) + ") but declared " +
           t.str() + ": no implicit type conversion";
  return "";
}
}  // namespace

void check_given_input(const ValueInfo& declared, const Value& given) {
  const TypeInfo& t = declared.type;
  if (t.kind != TypeInfo::Kind::Unknown && (t.kind == TypeInfo::Kind::Map || given.is_map()))
    if (std::string why = map_mismatch(t, given); !why.empty()) throw Trap("graph input '" + declared.name + "' " + why);
  if (t.kind != TypeInfo::Kind::Tensor || t.elem == DType::Undefined || !given.is_tensor()) return;
  if (given.tensor.dtype() != t.elem)
    throw Trap("graph input '" + declared.name + "' is given as " + std::string(dtype_name(given.tensor.dtype())) +
               " but declared " + std::string(dtype_name(t.elem)) + ": no implicit type conversion");
}

const Value* ValueScope::lookup(const std::string& name) const {
  for (const ValueScope* s = this; s; s = s->parent) {
    auto it = s->values.find(name);
    if (it != s->values.end()) return &it->second;
  }
  return nullptr;
}

Interpreter::Interpreter(const Model& model, uint64_t seed) : model_(model), rng_(seed) {
  collect_all_names(model.graph, model_names_);
}

NamedValues Interpreter::run(const NamedValues& inputs) {
  const Graph& g = model_.graph;
  ValueScope scope;
  for (const auto& [name, t] : g.initializers) scope.values[name] = Value(t);
  std::set<std::string> declared;
  for (const auto& in : g.inputs) {
    declared.insert(in.name);
    auto it = inputs.find(in.name);
    if (it != inputs.end()) {
      check_given_input(in, it->second);
      scope.values[in.name] = it->second;
    } else if (!scope.values.count(in.name)) throw Trap("graph input '" + in.name + "' was not given");
  }
  for (const auto& [name, v] : inputs)
    if (!declared.count(name)) throw Trap("'" + name + "' is not an input of the graph");
  run_nodes(g.nodes, scope);
  NamedValues out;
  for (const auto& o : g.outputs) {
    const Value* v = scope.lookup(o.name);
    if (!v) throw Trap("graph output '" + o.name + "' was never computed");
    out[o.name] = *v;
  }
  return out;
}

std::vector<Value> Interpreter::run_graph(const Graph& g, const std::vector<Value>& inputs, const ValueScope* outer) {
  if (++call_depth_ > kMaxCallDepth) throw Trap("subgraph nesting deeper than " + std::to_string(kMaxCallDepth));
  ValueScope scope;
  scope.parent = outer;
  for (const auto& [name, t] : g.initializers) scope.values[name] = Value(t);
  for (size_t i = 0; i < g.inputs.size() && i < inputs.size(); ++i)
    if (inputs[i].kind != Value::Kind::None) scope.values[g.inputs[i].name] = inputs[i];
  run_nodes(g.nodes, scope);
  std::vector<Value> out;
  for (const auto& o : g.outputs) {
    const Value* v = scope.lookup(o.name);
    if (!v) throw Trap("subgraph " + g.path + ": output '" + o.name + "' was never computed");
    out.push_back(*v);
  }
  --call_depth_;
  return out;
}

void Interpreter::run_nodes(const std::vector<Node>& nodes, ValueScope& scope) {
  struct Restore {
    const std::vector<Node>*& slot;
    const std::vector<Node>* saved;
    ~Restore() { slot = saved; }
  } restore{current_nodes_, current_nodes_};
  current_nodes_ = &nodes;
  // Readiness counters: how many of a node's needed names are still undefined.
  std::vector<int> missing(nodes.size(), 0);
  std::unordered_map<std::string, std::vector<size_t>> waiting;  // name -> nodes waiting on it
  std::priority_queue<size_t, std::vector<size_t>, std::greater<>> ready;
  for (size_t i = 0; i < nodes.size(); ++i) {
    std::set<std::string> needs(nodes[i].inputs.begin(), nodes[i].inputs.end());
    needs.merge(implicit_inputs(nodes[i]));
    needs.erase("");
    for (const auto& name : needs)
      if (!scope.lookup(name)) {
        ++missing[i];
        waiting[name].push_back(i);
      }
    if (missing[i] == 0) ready.push(i);
  }
  size_t executed = 0;
  while (!ready.empty()) {
    size_t i = ready.top();
    ready.pop();
    const Node& node = nodes[i];
    std::vector<const Value*> inputs;
    for (const auto& name : node.inputs) inputs.push_back(name.empty() ? nullptr : scope.lookup(name));
    std::optional<std::vector<Value>> given;
    if (hook_ && function_depth_ == 0 && !node.has_subgraph()) given = hook_(node, inputs);
    std::vector<Value> results = given ? std::move(*given) : run_node(node, inputs, scope, node_opset(model_, node));
    for (size_t k = 0; k < node.outputs.size(); ++k) {
      const std::string& name = node.outputs[k];
      if (name.empty()) continue;
      if (k >= results.size() || results[k].kind == Value::Kind::None) {
        // An optional output the operator did not produce (e.g. an unused mask) stays undefined.
        continue;
      }
      if (scope.values.count(name)) throw Trap(node.label() + ": value '" + name + "' assigned twice");
      scope.values[name] = std::move(results[k]);
      auto it = waiting.find(name);
      if (it == waiting.end()) continue;
      for (size_t c : it->second)
        if (--missing[c] == 0) ready.push(c);
    }
    ++executed;
  }
  if (executed != nodes.size()) {
    for (size_t i = 0; i < nodes.size(); ++i)
      if (missing[i] > 0) {
        for (const auto& [name, list] : waiting)
          for (size_t c : list)
            if (c == i && !scope.lookup(name))
              throw Trap(nodes[i].label() + " cannot run: '" + name + "' is never defined (or depends on a cycle)");
      }
    throw Trap("some nodes could not run");
  }
}

std::vector<Value> Interpreter::run_node(const Node& node, const std::vector<const Value*>& inputs, const ValueScope& scope,
                                         int64_t domain_opset) {
  OpResolution r = resolve_op(model_, node, domain_opset);
  if (!r.is_local_function) {
    std::string why;
    if (!runnable(r, node, domain_opset, why)) throw Unsupported(node.label() + ": " + why);
    if (const KernelEntry* k = r.kernel) {
      SubgraphRunner runner = [this, &scope](const Graph& g, const std::vector<Value>& in) { return run_graph(g, in, &scope); };
      OpContext ctx(node, r.version, inputs, runner, &rng_);
      ctx.set_graph_nodes(current_nodes_);
      return k->fn(ctx);
    }
  }
  return call_function(node, inputs, scope, domain_opset);
}

std::vector<Value> Interpreter::call_function(const Node& node, const std::vector<const Value*>& inputs, const ValueScope& scope,
                                              int64_t domain_opset) {
  std::vector<TypeInfo> types;
  for (const Value* v : inputs) types.push_back(v ? type_of(*v) : TypeInfo{});
  Function fn;
  std::string why;
  if (!build_function_body(model_, node, domain_opset, types, fn, why)) throw Unsupported(node.label() + ": " + why);
  if (++call_depth_ > kMaxCallDepth)
    throw Trap(node.label() + ": function calls nested deeper than " + std::to_string(kMaxCallDepth));
  // Fresh: no name of the model starts with it, and every other name a scope holds was made with an
  // earlier "__call" prefix (fresh_prefix, inliner.h).
  std::string prefix = fresh_prefix("__call", call_counter_, model_names_);
  std::vector<Node> body = expand_call(node, fn, prefix);
  for (size_t i = 0; i < body.size(); ++i) body[i].index = i;
  // The body runs in a child scope: its internal values stay private, its outputs are copied out.
  ValueScope child;
  child.parent = &scope;
  // The call's inputs by their names: an executor passes the values, not a scope that holds them.
  for (size_t i = 0; i < node.inputs.size() && i < inputs.size(); ++i)
    if (!node.inputs[i].empty() && inputs[i] && !scope.lookup(node.inputs[i])) child.values[node.inputs[i]] = *inputs[i];
  struct InFunction {
    int& depth;
    ~InFunction() { --depth; }
  } in_function{++function_depth_};
  run_nodes(body, child);
  std::vector<Value> out;
  for (const auto& name : node.outputs) {
    if (name.empty()) {
      out.emplace_back();
      continue;
    }
    const Value* v = child.lookup(name);
    out.push_back(v ? *v : Value());
  }
  --call_depth_;
  return out;
}

}  // namespace sonnx
