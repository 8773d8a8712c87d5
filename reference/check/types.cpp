// TYPE-INFERENCE: sonnx's own type and shape inference (reference/infer/) finds every value's type
// without contradiction, and every node's inputs and outputs satisfy the type constraints of its
// schema in the operator catalogue: each type in the constraint's list, and the values that share
// a (non-heterogeneous) type parameter of one type.
#include <algorithm>
#include <map>
#include <set>

#include "reference/catalogue/catalogue.h"
#include "reference/infer/infer.h"
#include "reference/ops/op_table.h"
#include "rules.h"

namespace sonnx {

namespace {

// A type as the catalogue spells its constraints: "tensor(float)", "seq(tensor(int64))", ...
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
             (t.inner->kind == TypeInfo::Kind::Tensor ? std::string(dtype_name(t.inner->elem)) : constraint_spelling(*t.inner)) + ")";
    case TypeInfo::Kind::Unknown: break;
  }
  return "";
}

// Whether the spelling is fully known (no undefined element type inside).
bool known(const std::string& s) { return !s.empty() && s.find("undefined") == std::string::npos && s.find("()") == std::string::npos; }

using Types = std::vector<const std::map<std::string, TypeInfo>*>;  // innermost scope first

const TypeInfo* lookup(const Types& scopes, const std::string& name) {
  for (const auto* s : scopes) {
    auto it = s->find(name);
    if (it != s->end()) return &it->second;
  }
  return nullptr;
}

void check_constraints(CheckContext& c, const InferenceResult& r, const Graph& g, Types scopes,
                       const std::set<std::string>& already) {
  auto sub = r.subgraph_types.find(g.path);
  if (sub != r.subgraph_types.end()) scopes.insert(scopes.begin(), &sub->second);
  for (const auto& n : g.nodes) {
    for (const auto& a : n.attributes) {
      if (a.g) check_constraints(c, r, *a.g, scopes, already);
      for (const auto& sg : a.graphs) check_constraints(c, r, *sg, scopes, already);
    }
    const Model& m = c.model.ir;
    if (called_function(m, n)) continue;
    const auto* s = catalogue::find(n.domain, n.op_type, m.opset(n.domain));
    if (!s || !s->documents_structure() || already.count(n.name.empty() ? "#" + std::to_string(n.index) : n.name)) continue;
    std::map<std::string, std::string> bound;
    auto visit = [&](const std::vector<std::string>& names, const std::vector<catalogue::Formal>& formals, const char* side) {
      for (size_t i = 0; i < names.size() && !formals.empty(); ++i) {
        if (names[i].empty()) continue;
        const auto& f = i < formals.size() ? formals[i] : formals.back();
        if (i >= formals.size() && f.option != catalogue::Formal::Option::Variadic) break;  // OP-ARITY's finding
        const TypeInfo* t = lookup(scopes, names[i]);
        std::string got = t ? constraint_spelling(*t) : "";
        if (!known(got)) continue;
        const auto* tc = s->constraint(f.type);
        const std::vector<std::string> allowed = tc ? tc->types : std::vector<std::string>{f.type};
        auto where = std::string(side) + " '" + names[i] + "' (" + f.name + ")";
        if (std::find(allowed.begin(), allowed.end(), got) == allowed.end()) {
          c.report("TYPE-INFERENCE", g.path, &n, names[i],
                   "TYPE-INFERENCE: types satisfy the schemas' constraints; " + where + " of " + s->id() + " is " + got +
                       ", not one of " + f.type + "'s types");
          continue;
        }
        if (!tc || f.heterogeneous) continue;
        auto [it, fresh] = bound.emplace(f.type, got);
        if (!fresh && it->second != got)
          c.report("TYPE-INFERENCE", g.path, &n, names[i],
                   "TYPE-INFERENCE: types satisfy the schemas' constraints; " + where + " of " + s->id() + " is " + got + ", but " +
                       f.type + " is already " + it->second);
      }
    };
    visit(n.inputs, s->inputs, "input");
    visit(n.outputs, s->outputs, "output");
  }
}

}  // namespace

void check_type_inference(CheckContext& c) {
  if (c.has_recursion) return;  // inference through recursive functions would not end
  // Inference presupposes a well-formed graph; on a malformed one its findings are echoes of the
  // structural error. Likewise a node another rule already rejected is not reported again.
  std::set<std::string> already;
  for (const auto& d : c.out) {
    if (d.severity != Severity::Error) continue;
    if (d.rule.rfind("STRUCT-", 0) == 0 || d.rule.rfind("FUNC-", 0) == 0) return;
    if (!d.node.empty()) already.insert(d.node);
  }
  InferenceResult r = infer_model(c.model.ir);
  for (const auto& e : r.errors) {
    if (already.count(e.node)) continue;
    Diagnostic d;
    d.rule = "TYPE-INFERENCE";
    d.severity = Severity::Error;
    d.graph = e.graph;
    d.node = e.node;
    d.op_type = e.op_type;
    d.message = "TYPE-INFERENCE: types and shapes are consistent; " + e.message;
    c.out.push_back(std::move(d));
    already.insert(e.node);
  }
  check_constraints(c, r, c.model.ir.graph, {&r.types}, already);
}

}  // namespace sonnx
