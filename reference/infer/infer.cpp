#include "infer.h"

#include <set>
#include <sstream>

#include "fold.h"
#include "merge.h"
#include "reference/interp/inliner.h"
#include "reference/model/names.h"
#include "reference/model/dependencies.h"
#include "reference/ops/op_params.h"
#include "reference/ops/op_table.h"

namespace sonnx {

std::string InferenceIssue::str() const { return graph + ": " + (node.empty() ? "?" : node) + " (" + op_type + "): " + message; }

namespace {

// Function bodies and subgraphs nest; a model that nests deeper is refused (recursion is a
// validation error, FUNC-RECURSION, so only a hostile model gets here).
constexpr int kMaxDepth = 48;

// What is known of one value while inferring.
struct Known {
  TypeInfo type;
  std::optional<Tensor> value;
  std::optional<PartialValue> partial;
};

// Names visible in a graph: its own, then the enclosing graphs' (static scoping).
class Scope {
 public:
  explicit Scope(const Scope* parent = nullptr) : parent_(parent) {}
  const Known* find(const std::string& name) const {
    for (const Scope* s = this; s; s = s->parent_) {
      auto it = s->values_.find(name);
      if (it != s->values_.end()) return &it->second;
    }
    return nullptr;
  }
  Known& set(const std::string& name, Known k) { return values_[name] = std::move(k); }
  const std::map<std::string, Known>& own() const { return values_; }

 private:
  const Scope* parent_;
  std::map<std::string, Known> values_;
};

TypeInfo type_of_tensor(const Tensor& t) { return tensor_type(t.dtype(), known_dims(t.shape())); }

class Engine {
 public:
  Engine(const Model& model, InferenceResult& result) : model_(model), result_(result) {
    collect_all_names(model.graph, model_names_);
  }

  void infer_main() {
    Scope scope;
    infer_graph(model_.graph, scope, 0, /*main=*/true);
    for (const auto& [name, k] : scope.own()) {
      result_.types[name] = k.type;
      if (k.partial) {
        result_.partials[name] = *k.partial;
      } else if (k.value && is_integer(k.value->dtype()) && k.value->rank() <= 1) {
        PartialValue p;  // a known small integer value, listed like the partial ones
        p.scalar = k.value->rank() == 0;
        for (int64_t i = 0; i < k.value->size(); ++i) p.elems.push_back(known_dim(k.value->as_int64(i)));
        result_.partials[name] = std::move(p);
      }
    }
  }

 private:
  void error(const Graph& g, const Node* n, const std::string& message) {
    InferenceIssue issue;
    issue.graph = g.path.empty() ? "main" : g.path;
    if (n) {
      issue.node = n->name.empty() ? "#" + std::to_string(n->index) : n->name;
      issue.op_type = qualified_op_type(*n);
    }
    issue.message = message;
    result_.errors.push_back(std::move(issue));
  }

  void note_without_rule(const Node& n, int64_t version) {
    std::string key = qualified_op_type(n) + "-" + std::to_string(version);
    for (const auto& s : result_.without_rule)
      if (s == key) return;
    result_.without_rule.push_back(key);
  }

  // Seeds a graph's own names, infers its nodes in dependency order, then merges declared output
  // types. Returns the output types.
  std::vector<TypeInfo> infer_graph(const Graph& g, Scope& scope, int depth, bool main,
                                    const std::vector<TypeInfo>* given_inputs = nullptr) {
    std::set<std::string> input_names;
    for (size_t i = 0; i < g.inputs.size(); ++i) {
      const ValueInfo& in = g.inputs[i];
      input_names.insert(in.name);
      TypeInfo t = in.type;
      if (given_inputs && i < given_inputs->size()) {
        std::string conflict;
        t = merge_types((*given_inputs)[i], in.type, conflict);
        if (!conflict.empty()) error(g, nullptr, "subgraph input '" + in.name + "': " + conflict);
      }
      scope.set(in.name, Known{t, std::nullopt, std::nullopt});
    }
    for (const auto& [name, t] : g.initializers) {
      Known k{type_of_tensor(t), std::nullopt, std::nullopt};
      // An initializer that is also a graph input is only a default: the caller may replace it.
      if (input_names.count(name)) {
        std::string conflict;
        k.type = merge_types(k.type, scope.find(name)->type, conflict);
        if (!conflict.empty()) error(g, nullptr, "initializer '" + name + "': " + conflict);
      } else if (t.size() <= kMaxKnownElements) {
        k.value = t;
      }
      scope.set(name, std::move(k));
    }
    std::map<std::string, const TypeInfo*> declared;
    for (const auto& vi : g.value_info) declared[vi.name] = &vi.type;
    for (const auto& vi : g.outputs) declared[vi.name] = &vi.type;

    for (size_t idx : node_order(g)) infer_node(g, g.nodes[idx], scope, declared, depth);

    std::vector<TypeInfo> outs;
    // An output that no node of this graph produces (a graph input, an initializer or, in a
    // subgraph, an enclosing value) still has its declared type checked against the value's.
    std::set<std::string> node_outputs;  // their declared types were merged where assigned
    for (const auto& n : g.nodes) node_outputs.insert(n.outputs.begin(), n.outputs.end());
    for (const auto& o : g.outputs) {
      const Known* k = scope.find(o.name);
      if (!k || node_outputs.count(o.name)) {
        outs.push_back(k ? k->type : o.type);
        continue;
      }
      std::string conflict;
      TypeInfo t = merge_types(k->type, o.type, conflict);
      if (!conflict.empty()) error(g, nullptr, "graph output '" + o.name + "': " + conflict);
      outs.push_back(std::move(t));
    }
    if (!main) {
      auto& record = result_.subgraph_types[g.path];
      for (const auto& [name, k] : scope.own()) record[name] = k.type;
    }
    return outs;
  }

  // Kahn's order over the graph's nodes (subgraph captures count as inputs); the listed order
  // when the nodes form a cycle (the validator reports that).
  static std::vector<size_t> node_order(const Graph& g) {
    if (auto order = node_dependencies(g).topological_order()) return *order;
    std::vector<size_t> listed(g.nodes.size());
    for (size_t i = 0; i < listed.size(); ++i) listed[i] = i;
    return listed;
  }

  void infer_node(const Graph& g, const Node& n, Scope& scope, const std::map<std::string, const TypeInfo*>& declared,
                  int depth) {
    std::vector<InferContext::Input> inputs;
    for (const auto& name : n.inputs) {
      InferContext::Input in;
      if (!name.empty()) {
        in.present = true;
        if (const Known* k = scope.find(name)) {
          if (k->type.kind != TypeInfo::Kind::Unknown) in.type = &k->type;
          if (k->value) in.value = &*k->value;
          if (k->partial) in.partial = &*k->partial;
        }
      }
      inputs.push_back(in);
    }

    OpResolution res;
    try {
      res = resolve_op(model_, n);
    } catch (const std::exception& e) {
      error(g, &n, std::string("cannot resolve the operator: ") + e.what());
    }

    InferContext ctx(n, res.version, inputs, [this, &scope, depth](const Graph& sub, const std::vector<TypeInfo>& types) {
      return infer_subgraph(sub, types, scope, depth + 1);
    });
    bool inferred = false;
    const OpRecord* rec = res.is_local_function ? nullptr : OpRecords::instance().find(n.domain, n.op_type, res.version);
    ShapeRuleFn rule = rec ? rec->shape_rule : nullptr;
    if (rule) {
      try {
        // The operator's parameters are checked whether or not its shape rule reads them all.
        if (rec->params) rec->params->check(ctx, res.version);
        rule(ctx);
        inferred = true;
      } catch (const InferError& e) {
        error(g, &n, e.what());
        ctx.reset_outputs();  // an error leaves the outputs unknown
      } catch (const std::exception& e) {
        error(g, &n, e.what());
        ctx.reset_outputs();
      }
    } else if (res.has_function_body && depth < kMaxDepth) {
      inferred = infer_through_body(g, n, scope, inputs, depth, ctx);
    } else if (depth >= kMaxDepth) {
      error(g, &n, "function bodies and subgraphs nest deeper than " + std::to_string(kMaxDepth));
    }
    if (!inferred && !rule && res.has_schema && !res.has_function_body) note_without_rule(n, res.version);
    if (inferred) fold_constants(n, res, inputs, ctx);

    for (size_t i = 0; i < n.outputs.size(); ++i) {
      const std::string& name = n.outputs[i];
      if (name.empty()) continue;
      Known k;
      k.type = ctx.outputs()[i];
      if (ctx.output_values()[i]) {
        k.value = std::move(ctx.output_values()[i]);
        k.type = type_of_tensor(*k.value);
      } else if (ctx.output_partials()[i]) {
        k.partial = std::move(ctx.output_partials()[i]);
        k.value = tensor_from_partial(*k.partial, k.type.elem);
      }
      auto d = declared.find(name);
      if (d != declared.end()) {
        std::string conflict;
        k.type = merge_types(k.type, *d->second, conflict);
        if (!conflict.empty()) error(g, &n, "output '" + name + "': " + conflict);
      }
      scope.set(name, std::move(k));
    }
  }

  // An operator without a rule of its own: infer its function body's nodes in a scope of their
  // own and read the call's outputs from there.
  bool infer_through_body(const Graph& g, const Node& n, const Scope& scope, const std::vector<InferContext::Input>& inputs,
                          int depth, InferContext& ctx) {
    std::vector<TypeInfo> types;
    for (const auto& in : inputs) types.push_back(in.type ? *in.type : TypeInfo{});
    Function fn;
    std::string why;
    std::string prefix = fresh_prefix("__infer", counter_, model_names_);  // fresh: see inliner.h
    std::vector<Node> body;
    try {
      if (!build_function_body(model_, n, node_opset(model_, n), types, fn, why)) return false;
      body = expand_call(n, fn, prefix);
    } catch (const std::exception& e) {
      error(g, &n, std::string("cannot build the function body: ") + e.what());
      return false;
    }
    for (size_t i = 0; i < body.size(); ++i) body[i].index = i;
    Scope inner(&scope);
    Graph holder;  // the body as a graph, for ordering and messages
    holder.nodes = std::move(body);
    holder.path = (g.path.empty() ? "main" : g.path) + "/" + (n.name.empty() ? "#" + std::to_string(n.index) : n.name) + ":" +
                  n.op_type + "-body";
    std::map<std::string, const TypeInfo*> none;
    for (size_t idx : node_order(holder)) infer_node(holder, holder.nodes[idx], inner, none, depth + 1);
    if (res_is_local(n) && holder.nodes.size() == fn.nodes.size()) {
      // What inlining puts in place of this call, named as in the body, with this call's types,
      // for the validator's type checks.
      ExpandedCall call;
      call.function = "function " + (fn.domain.empty() ? "" : fn.domain + ".") + fn.name;
      call.path = holder.path;
      call.prefix = prefix;
      for (size_t i = 0; i < fn.nodes.size(); ++i) {
        Node b = holder.nodes[i];  // attributes bound at this call
        const Node& original = fn.nodes[i];
        auto record = [&](const std::vector<std::string>& body, const std::vector<std::string>& expanded) {
          for (size_t j = 0; j < body.size() && j < expanded.size(); ++j)
            if (const Known* k = expanded[j].empty() ? nullptr : inner.find(expanded[j])) call.types.emplace(body[j], k->type);
        };
        record(original.inputs, b.inputs);
        record(original.outputs, b.outputs);
        b.name = original.name;
        b.inputs = original.inputs;
        b.outputs = original.outputs;
        call.nodes.push_back(std::move(b));
      }
      result_.calls.push_back(std::move(call));
    }
    for (size_t i = 0; i < n.outputs.size(); ++i) {
      if (n.outputs[i].empty()) continue;
      auto it = inner.own().find(n.outputs[i]);
      if (it == inner.own().end()) continue;
      ctx.set_output(i, it->second.type);
      if (it->second.value) ctx.set_output_value(i, *it->second.value);
      else if (it->second.partial) ctx.set_output_partial(i, *it->second.partial);
    }
    return true;
  }

  std::vector<TypeInfo> infer_subgraph(const Graph& sub, const std::vector<TypeInfo>& types, const Scope& outer, int depth) {
    if (depth >= kMaxDepth) throw InferError("subgraphs nest deeper than " + std::to_string(kMaxDepth));
    Scope scope(&outer);
    return infer_graph(sub, scope, depth, false, &types);
  }

  // Runs the reference kernel when every input is known and every output is small and of a known
  // static shape (so no hostile value makes the kernel allocate much), for deterministic operators
  // without subgraphs.
  void fold_constants(const Node& n, const OpResolution& res, const std::vector<InferContext::Input>& inputs,
                      InferContext& ctx) {
    if (!res.kernel || res.kernel->accuracy == Accuracy::Random) return;
    for (const auto& a : n.attributes)
      if (a.g || !a.graphs.empty()) return;
    bool all_set = true;
    for (size_t i = 0; i < n.outputs.size(); ++i)
      if (!n.outputs[i].empty() && !ctx.output_values()[i]) all_set = false;
    if (all_set) return;
    for (const auto& in : inputs)
      if (in.present && !in.value) return;
    for (size_t i = 0; i < n.outputs.size(); ++i) {
      const TypeInfo& t = ctx.outputs()[i];
      if (n.outputs[i].empty()) continue;
      if (!t.is_static_tensor()) return;
      int64_t count = 1;
      for (const auto& d : *t.shape) {
        count *= *d.value;
        if (count > kMaxKnownElements) return;
      }
    }
    std::vector<Value> values;
    values.reserve(inputs.size());  // no reallocation: ptrs point into it
    std::vector<const Value*> ptrs;
    for (const auto& in : inputs) {
      if (in.present) values.emplace_back(*in.value);
      ptrs.push_back(in.present ? &values.back() : nullptr);
    }
    try {
      OpContext op(n, res.version, ptrs, nullptr, nullptr);
      std::vector<Value> outs = res.kernel->fn(op);
      for (size_t i = 0; i < n.outputs.size() && i < outs.size(); ++i)
        if (!n.outputs[i].empty() && outs[i].is_tensor() && !ctx.output_values()[i])
          ctx.set_output_value(i, std::move(outs[i].tensor));
    } catch (const std::exception&) {
      // A kernel that traps on these inputs: the run will fail the same way; inference keeps types.
    }
  }

  bool res_is_local(const Node& n) const { return called_function(model_, n) != nullptr; }

  const Model& model_;
  InferenceResult& result_;
  int counter_ = 0;
  std::set<std::string> model_names_;  // every name of the model's graph, at any depth
};

}  // namespace

InferenceResult infer_model(const Model& model) {
  InferenceResult result;
  Engine(model, result).infer_main();
  return result;
}

std::string dump_inference(const InferenceResult& result) {
  std::ostringstream os;
  for (const auto& [name, t] : result.types) {
    os << name << ": " << t.str();
    auto p = result.partials.find(name);
    if (p != result.partials.end()) {
      os << " = [";
      for (size_t i = 0; i < p->second.elems.size(); ++i) {
        const Dim& d = p->second.elems[i];
        os << (i ? "," : "") << (d.value ? std::to_string(*d.value) : d.param.empty() ? "?" : d.param);
      }
      os << "]";
    }
    os << "\n";
  }
  for (const auto& e : result.errors) os << "error: " << e.str() << "\n";
  for (const auto& w : result.without_rule) os << "no rule: " << w << "\n";
  return os.str();
}

}  // namespace sonnx
