// SONNX-NO-IMPLICIT-CONVERSION (the SONNX working group's GR3): every operator computes in one
// element type. TYPE-INFERENCE already makes the values bound to one type parameter of a schema
// share one type; this rule adds the operators whose schemas let arithmetic operands take
// different type parameters, so that one would be converted to the other's type inside the
// operator (spec/restrictions.md lists them). Checked on every node whose types inference knows:
// the main graph, its subgraphs and every expanded call of a local function (typed_nodes.h).
#include <map>
#include <set>

#include "graph_walk.h"
#include "reference/catalogue/catalogue.h"
#include "reference/ops/op_table.h"
#include "rules.h"
#include "typed_nodes.h"

namespace sonnx {

namespace {

// ai.onnx operators whose schemas give arithmetic operands distinct type parameters, with the
// formal inputs and outputs (by schema name, across versions) that must share one element type.
const std::map<std::string, std::set<std::string>>& mixed_type_operators() {
  static const std::map<std::string, std::set<std::string>> table{
      {"Pow", {"X", "Y", "Z"}},  // Pow-12+: exponent Y is T1, base X is T
      {"BatchNormalization",     // -14: mean/var are U; -15: scale/B are T1, mean/var T2
       {"X", "scale", "B", "mean", "var", "input_mean", "input_var", "Y", "running_mean", "running_var"}},
      {"Dropout", {"data", "ratio", "output"}},  // -12+: ratio is T1
  };
  return table;
}

}  // namespace

void check_no_implicit_conversion(CheckContext& c) {
  if (!inference_applies(c)) return;  // TYPE-INFERENCE's precondition: findings would be echoes
  const Model& m = c.model.ir;
  std::set<std::string> reported;  // graph path + node: a body node is reported once, at its first bad call
  for_each_typed_node(m, inference_of(c), [&](const Node& n, const std::string& graph, const TypeLookup& type_of) {
    if (!n.domain.empty()) return;
    auto row = mixed_type_operators().find(n.op_type);
    if (row == mixed_type_operators().end()) return;
    const auto* s = catalogue::find(n.domain, n.op_type, node_opset(m, n));
    if (!s) return;
    std::string first_name, first_type;  // the first operand in the row with a known element type
    auto visit = [&](const std::vector<std::string>& names, const std::vector<catalogue::Formal>& formals) {
      for (size_t i = 0; i < names.size() && i < formals.size(); ++i) {
        if (names[i].empty() || !row->second.count(formals[i].name)) continue;
        const TypeInfo* t = type_of(names[i]);
        if (!t || t->kind != TypeInfo::Kind::Tensor || t->elem == DType::Undefined) continue;
        std::string got(dtype_name(t->elem));
        if (first_name.empty()) {
          first_name = names[i];
          first_type = got;
        } else if (got != first_type && reported.insert(graph + "\n" + node_id(n)).second) {
          c.report("SONNX-NO-IMPLICIT-CONVERSION", graph, &n, names[i],
                   "SONNX-NO-IMPLICIT-CONVERSION: an operator computes in one element type; '" + names[i] + "' (" +
                       formals[i].name + ") of " + s->id() + " is " + got + " while '" + first_name + "' is " + first_type +
                       ": convert one explicitly with Cast");
        }
      }
    };
    visit(n.inputs, s->inputs);
    visit(n.outputs, s->outputs);
  });
}

}  // namespace sonnx
