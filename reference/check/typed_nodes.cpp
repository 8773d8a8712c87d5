#include "typed_nodes.h"

#include <vector>

#include "reference/ops/op_table.h"

namespace sonnx {

namespace {

using Scopes = std::vector<const std::map<std::string, TypeInfo>*>;  // innermost scope first

const TypeInfo* lookup(const Scopes& scopes, const std::string& name) {
  for (const auto* s : scopes) {
    auto it = s->find(name);
    if (it != s->end()) return &it->second;
  }
  return nullptr;
}

void visit_graph(const Model& m, const InferenceResult& r, const Graph& g, Scopes scopes, const TypedNodeVisitor& visit) {
  auto sub = r.subgraph_types.find(g.path);
  if (sub != r.subgraph_types.end()) scopes.insert(scopes.begin(), &sub->second);
  TypeLookup type_of = [&scopes](const std::string& name) { return lookup(scopes, name); };
  for (const auto& n : g.nodes) {
    for (const auto& a : n.attributes) {
      if (a.g) visit_graph(m, r, *a.g, scopes, visit);
      for (const auto& sg : a.graphs) visit_graph(m, r, *sg, scopes, visit);
    }
    if (!called_function(m, n)) visit(n, g.path, type_of);
  }
}

}  // namespace

void for_each_typed_node(const Model& m, const InferenceResult& r, const TypedNodeVisitor& visit) {
  visit_graph(m, r, m.graph, {&r.types}, visit);
  for (const auto& call : r.calls) {
    TypeLookup type_of = [&call](const std::string& name) {
      auto it = call.types.find(name);
      return it == call.types.end() ? nullptr : &it->second;
    };
    for (const auto& n : call.nodes)
      if (!called_function(m, n)) visit(n, call.function, type_of);
  }
}

const InferenceResult& inference_of(CheckContext& c) {
  if (!c.inference) c.inference = std::make_shared<InferenceResult>(infer_model(c.model.ir));
  return *c.inference;
}

bool inference_applies(const CheckContext& c) {
  if (c.has_recursion) return false;
  for (const auto& d : c.out)
    if (d.severity == Severity::Error && (d.rule.starts_with("STRUCT-") || d.rule == "FUNC-BODY" || d.rule == "FUNC-RECURSION"))
      return false;
  return true;
}

std::string constraint_spelling(const TypeInfo& t) {
  switch (t.kind) {
    case TypeInfo::Kind::Tensor: return "tensor(" + std::string(dtype_name(t.elem)) + ")";
    case TypeInfo::Kind::SparseTensor: return "sparse_tensor(" + std::string(dtype_name(t.elem)) + ")";
    case TypeInfo::Kind::Sequence: return t.inner ? "seq(" + constraint_spelling(*t.inner) + ")" : "";
    case TypeInfo::Kind::Optional: return t.inner ? "optional(" + constraint_spelling(*t.inner) + ")" : "";
    case TypeInfo::Kind::Map:
      // The documents spell a map's tensor values by their element type: "map(int64, string)".
      if (!t.inner) return "";
      return "map(" + std::string(dtype_name(t.map_key)) + ", " +
             (t.inner->kind == TypeInfo::Kind::Tensor ? std::string(dtype_name(t.inner->elem)) : constraint_spelling(*t.inner)) +
             ")";
    case TypeInfo::Kind::Unknown: break;
  }
  return "";
}

bool known_spelling(const std::string& s) {
  return !s.empty() && s.find("undefined") == std::string::npos && s.find("()") == std::string::npos;
}

}  // namespace sonnx
