// Relies on functions.mlw Inline.inline: inlining terminates on a call graph without cycles (variant: callee rank, then list).
// Relies on functions.mlw Inline.inline_call_free: an inlined statement list has no call left.
// Relies on functions.mlw Inline.call_as_renamed_body: one call computes what its renamed, inlined body computes.
// Relies on functions.mlw Inline.inlining_preserves_semantics: inlining every call preserves the semantics of a graph (and terminates without recursion).
// Relies on composition.mlw Inlined.sequential_is_dataflow: on an inlined graph in order, every complete dataflow execution gives every name the content of the sequential run of functions.mlw.
// Relies on composition.mlw Inlined.inlined_dataflow_is_call_semantics: the dataflow execution of the inlined graph computes what the original graph with its function calls computes.
// Relies on names.mlw Names.qual_inj: names made with one prefix are injective in the name (x -> p + x).
// Relies on names.mlw Names.qual_fresh: if no taken name starts with p, no name p + x is taken.
// Relies on names.mlw Names.stem_apart: names made with two prefixes neither of which starts the other are distinct.
// Relies on names.mlw Names.counter_prefixes_apart: two prefixes stem + k + '_' with different counter writings are apart.
// Relies on names.mlw Names.fresh_after: a prefix fresh for the taken names and apart from earlier prefixes is fresh for every name made with an earlier prefix too.
#include "inliner.h"

#include <algorithm>
#include <map>
#include <set>

#include "sonnx/errors.h"
#include "reference/model/names.h"
#include "reference/ops/op_table.h"

namespace sonnx {

namespace {

void rename_graph(Graph& g, const std::map<std::string, std::string>& names);

using Renames = std::map<std::string, std::string>;

// Renames a node's inputs and outputs, and its subgraphs (copied first: they may be shared) with
// `rename_subgraph`.
void rename_node_with(Node& n, const Renames& names, void (*rename_subgraph)(Graph&, const Renames&)) {
  auto ren = [&](std::string& s) {
    if (s.empty()) return;
    auto it = names.find(s);
    if (it != names.end()) s = it->second;
  };
  for (auto& i : n.inputs) ren(i);
  for (auto& o : n.outputs) ren(o);
  for (auto& a : n.attributes) {
    if (a.g) {
      a.g = std::make_shared<Graph>(*a.g);
      rename_subgraph(*a.g, names);
    }
    for (auto& g : a.graphs) {
      g = std::make_shared<Graph>(*g);
      rename_subgraph(*g, names);
    }
  }
}

void rename_node(Node& n, const Renames& names) { rename_node_with(n, names, rename_graph); }

// Renames references to outer names inside a subgraph; names the subgraph defines stay.
void rename_graph(Graph& g, const std::map<std::string, std::string>& names) {
  std::map<std::string, std::string> visible = names;
  for (const auto& d : defined_names(g)) visible.erase(d);
  for (auto& n : g.nodes) rename_node(n, visible);
  for (auto& o : g.outputs) {
    auto it = visible.find(o.name);
    if (it != visible.end()) o.name = it->second;
  }
}

// Renames every occurrence of a mapped name in a node and, at any depth, in its subgraphs (their
// inputs, outputs, initializers and value_info included): used on a function body, where every
// name is the body's.
void rename_everywhere(Graph& g, const std::map<std::string, std::string>& names);

void rename_node_everywhere(Node& n, const Renames& names) { rename_node_with(n, names, rename_everywhere); }

void rename_everywhere(Graph& g, const std::map<std::string, std::string>& names) {
  auto ren = [&](std::string& s) {
    auto it = names.find(s);
    if (!s.empty() && it != names.end()) s = it->second;
  };
  for (auto* list : {&g.inputs, &g.outputs, &g.value_info})
    for (auto& v : *list) ren(v.name);
  for (auto& init : g.initializers) ren(init.first);
  for (auto& s : g.sparse_initializers) ren(s);
  for (auto& n : g.nodes) rename_node_everywhere(n, names);
}

// Substitutes attribute references in a body node (and its subgraphs) from the call site.
void bind_attributes(Node& n, const Node& call, const Function& fn) {
  std::vector<Attribute> bound;
  for (auto& a : n.attributes) {
    if (!a.ref_attr_name.empty()) {
      const Attribute* actual = call.attr(a.ref_attr_name);
      const Attribute* def = nullptr;
      for (const auto& d : fn.attribute_defaults)
        if (d.name == a.ref_attr_name) def = &d;
      const Attribute* src = actual ? actual : def;
      if (!src) continue;  // not given and no default: the attribute is absent in the body node
      Attribute copy = *src;
      copy.name = a.name;
      copy.ref_attr_name.clear();
      bound.push_back(std::move(copy));
      continue;
    }
    auto bind_graph = [&](std::shared_ptr<Graph>& g) {
      g = std::make_shared<Graph>(*g);
      for (auto& sub : g->nodes) bind_attributes(sub, call, fn);
    };
    if (a.g) bind_graph(a.g);
    for (auto& g : a.graphs) bind_graph(g);
    bound.push_back(a);
  }
  n.attributes = std::move(bound);
}

// Graph calls `outs = @attr (ins)` (op_type "@attr", reference/model/text_syntax.h) in
// expanded body nodes and their subgraphs: each is replaced by the nodes of the call's graph
// attribute `attr`, its formal inputs bound to `ins`, its initializers as Constant nodes, the
// names it defines given a prefix of their own, names it takes from outer scopes kept, and each
// formal output copied to the matching name of `outs` by an Identity.
// `taken` holds every name of the expanded body (at any depth) and grows with the names spliced in.
void splice_graph_calls(std::vector<Node>& nodes, const Node& call, const std::string& prefix, int& counter,
                        std::set<std::string>& taken) {
  std::vector<Node> out;
  for (auto& n : nodes) {
    for (auto& a : n.attributes) {
      if (a.g) {
        a.g = std::make_shared<Graph>(*a.g);
        splice_graph_calls(a.g->nodes, call, prefix, counter, taken);
        for (size_t i = 0; i < a.g->nodes.size(); ++i) a.g->nodes[i].index = i;
      }
      for (auto& g : a.graphs) {
        g = std::make_shared<Graph>(*g);
        splice_graph_calls(g->nodes, call, prefix, counter, taken);
        for (size_t i = 0; i < g->nodes.size(); ++i) g->nodes[i].index = i;
      }
    }
    if (!n.op_type.starts_with("@")) {
      out.push_back(std::move(n));
      continue;
    }
    std::string attr = n.op_type.substr(1);
    const Attribute* ga = call.attr(attr);
    if (!ga || !ga->g)
      throw Unsupported(call.label() + ": the function body calls the graph attribute '" + attr +
                        "', which the node does not give");
    const Graph& g = *ga->g;
    if (g.inputs.size() != n.inputs.size() || g.outputs.size() != n.outputs.size())
      throw Unsupported(call.label() + ": graph attribute '" + attr + "' has " + std::to_string(g.inputs.size()) +
                        " inputs and " + std::to_string(g.outputs.size()) + " outputs; the function body calls it with " +
                        std::to_string(n.inputs.size()) + " and " + std::to_string(n.outputs.size()));
    // Fresh with respect to the body (whose own names all start with `prefix`, fresh in the caller).
    std::string p = fresh_prefix(prefix + attr, counter, taken);
    std::map<std::string, std::string> names;
    for (const auto& d : defined_names(g)) names[d] = p + d;
    for (const auto& [from, to] : names) taken.insert(to);
    for (size_t i = 0; i < g.inputs.size(); ++i) names[g.inputs[i].name] = n.inputs[i];
    for (const auto& [init_name, t] : g.initializers) {
      const std::string& name = init_name;  // clang 14 cannot capture a structured binding in a lambda
      if (std::any_of(g.inputs.begin(), g.inputs.end(), [&](const ValueInfo& v) { return v.name == name; })) continue;
      Node c;
      c.op_type = "Constant";
      c.name = p + name;
      c.outputs = {names.count(name) ? names[name] : p + name};
      names[name] = c.outputs[0];
      Attribute value;
      value.name = "value";
      value.type = Attribute::Type::Tensor;
      value.t = t;
      c.attributes.push_back(std::move(value));
      c.opset_version = n.opset_version;
      out.push_back(std::move(c));
    }
    for (const auto& gn : g.nodes) {
      Node copy = gn;
      rename_node(copy, names);
      if (!copy.name.empty()) copy.name = p + copy.name;
      out.push_back(std::move(copy));
    }
    for (size_t i = 0; i < g.outputs.size(); ++i) {
      if (n.outputs[i].empty()) continue;
      Node id;
      id.op_type = "Identity";
      auto it = names.find(g.outputs[i].name);
      id.inputs = {it != names.end() ? it->second : g.outputs[i].name};
      id.outputs = {n.outputs[i]};
      id.opset_version = n.opset_version;
      out.push_back(std::move(id));
    }
  }
  nodes = std::move(out);
}

}  // namespace

std::string fresh_prefix(const std::string& stem, int& counter, const std::set<std::string>& taken) {
  for (;;) {
    std::string p = stem + std::to_string(counter++) + "_";
    auto it = taken.lower_bound(p);  // the least name >= p: the first that could start with p
    if (it == taken.end() || !it->starts_with(p)) return p;
  }
}

std::vector<Node> expand_call(const Node& call, const Function& fn, const std::string& prefix) {
  std::map<std::string, std::string> names;
  for (const auto& n : fn.nodes)
    for (const auto& o : n.outputs)
      if (!o.empty()) names[o] = prefix + o;
  std::set<std::string> in_subgraphs;
  collect_subgraph_definitions(fn.nodes, in_subgraphs);
  for (const auto& d : in_subgraphs) names[d] = prefix + d;
  for (size_t i = 0; i < fn.inputs.size(); ++i) names[fn.inputs[i]] = i < call.inputs.size() ? call.inputs[i] : "";
  for (size_t i = 0; i < fn.outputs.size(); ++i)
    if (i < call.outputs.size() && !call.outputs[i].empty()) names[fn.outputs[i]] = call.outputs[i];
  std::vector<Node> out;
  for (const auto& body : fn.nodes) {
    Node n = body;
    bind_attributes(n, call, fn);
    // Inputs that map to an omitted actual input become omitted ("").
    rename_node_everywhere(n, names);
    if (!n.name.empty()) n.name = prefix + n.name;
    auto it = fn.opset_imports.find(n.domain);
    n.opset_version = it != fn.opset_imports.end() ? it->second : 0;
    out.push_back(std::move(n));
  }
  int graph_calls = 0;
  std::set<std::string> taken;
  collect_all_names(out, taken);
  if (fn.sonnx_body) splice_graph_calls(out, call, prefix, graph_calls, taken);
  return out;
}

namespace {

constexpr int kMaxInlineDepth = 64;

// What inlining carries from call to call: the counter of the "__inl" prefixes and every name
// of the model being built (original and expanded, at any depth), against which each prefix is
// checked fresh.
struct InlineNames {
  int counter = 0;
  std::set<std::string> taken;
};

void inline_graph(const Model& model, Graph& g, const std::map<std::string, int64_t>& opsets, int depth, InlineNames& names);

TypeInfo declared_type(const Graph& g, const std::string& name) {
  for (const auto* list : {&g.inputs, &g.value_info, &g.outputs})
    for (const auto& v : *list)
      if (v.name == name) return v.type;
  for (const auto& [n, t] : g.initializers)
    if (n == name) {
      TypeInfo info;
      info.kind = TypeInfo::Kind::Tensor;
      info.elem = t.dtype();
      std::vector<Dim> dims;
      for (int64_t d : t.shape()) dims.push_back(Dim{d, ""});
      info.shape = dims;
      return info;
    }
  return {};
}

void inline_graph(const Model& model, Graph& g, const std::map<std::string, int64_t>& opsets, int depth, InlineNames& names) {
  if (depth > kMaxInlineDepth) throw InternalError("function inlining nested deeper than " + std::to_string(kMaxInlineDepth));
  std::vector<Node> out;
  for (auto& n : g.nodes) {
    int64_t version = n.opset_version;
    if (!version) {
      auto it = opsets.find(n.domain);
      version = it == opsets.end() ? 0 : it->second;
    }
    OpResolution r = resolve_op(model, n, version);
    bool has_kernel = r.kernel != nullptr;
    if (has_kernel || !r.has_function_body) {
      for (auto& a : n.attributes) {
        if (a.g) {
          a.g = std::make_shared<Graph>(*a.g);
          inline_graph(model, *a.g, opsets, depth, names);
        }
        for (auto& sg : a.graphs) {
          sg = std::make_shared<Graph>(*sg);
          inline_graph(model, *sg, opsets, depth, names);
        }
      }
      std::string why;
      if (!runnable(r, n, version, why)) throw Unsupported(n.label() + ": " + why);
      out.push_back(std::move(n));
      continue;
    }
    std::vector<TypeInfo> types;
    bool types_known = true;
    for (const auto& i : n.inputs) {
      types.push_back(i.empty() ? TypeInfo{} : declared_type(g, i));
      if (!i.empty() && types.back().kind == TypeInfo::Kind::Unknown) types_known = false;
    }
    if (r.context_dependent && !r.is_local_function && !types_known) {
      // The body depends on input types not declared here: it is built when the node runs.
      out.push_back(std::move(n));
      continue;
    }
    Function fn;
    std::string why;
    if (!build_function_body(model, n, version, types, fn, why)) throw Unsupported(why);
    Graph body;
    body.nodes = expand_call(n, fn, fresh_prefix("__inl", names.counter, names.taken));
    collect_all_names(body.nodes, names.taken);
    body.path = g.path;
    inline_graph(model, body, opsets, depth + 1, names);
    for (auto& b : body.nodes) out.push_back(std::move(b));
  }
  for (size_t i = 0; i < out.size(); ++i) out[i].index = i;
  g.nodes = std::move(out);
}

}  // namespace

Model inline_model(const Model& model) {
  Model flat = model;
  InlineNames names;
  collect_all_names(model.graph, names.taken);
  inline_graph(model, flat.graph, model.opset_imports, 0, names);
  flat.functions.clear();
  return flat;
}

}  // namespace sonnx
