// Operator and attribute rules against sonnx's operator catalogue (reference/catalogue/): domains
// imported, opsets the catalogue knows, operator exists at the imported version, arity,
// attributes, and an operator version sonnx can run.
#include "graph_walk.h"
#include "reference/catalogue/catalogue.h"
#include "reference/ops/op_table.h"
#include "rules.h"

namespace sonnx {

namespace {

struct Resolved {
  const catalogue::Schema* schema = nullptr;
  const Function* local = nullptr;
  bool domain_imported = false;
  int64_t version = 0;
};

Resolved resolve(const Model& m, const Node& n, const std::map<std::string, int64_t>& opsets) {
  Resolved r;
  r.local = called_function(m, n);
  auto it = opsets.find(n.domain);
  r.domain_imported = it != opsets.end();
  if (!r.domain_imported && n.domain.empty() && opsets.empty()) return r;
  r.version = r.domain_imported ? it->second : 0;
  if (r.domain_imported) r.schema = catalogue::find(n.domain, n.op_type, r.version);
  return r;
}

// Calls f(node, schema, path) for every node that resolves to a schema (not to a local function).
template <class F>
void for_each_schema_node(CheckContext& c, F f) {
  const Model& m = c.model.ir;
  for_each_node(m, [&](const Node& n, const std::string& path, const std::map<std::string, int64_t>& opsets, const Function*) {
    Resolved r = resolve(m, n, opsets);
    if (!r.local && r.schema) f(n, *r.schema, path);
  });
}

}  // namespace

void check_domains(CheckContext& c) {
  const Model& m = c.model.ir;
  for_each_node(m, [&](const Node& n, const std::string& path, const std::map<std::string, int64_t>& opsets, const Function*) {
    if (called_function(m, n)) return;
    if (!opsets.count(n.domain))
      c.report("OP-DOMAIN", path, &n, "",
               "OP-DOMAIN: every operator domain used is imported; '" + (n.domain.empty() ? std::string("ai.onnx") : n.domain) +
                   "' (used by " + node_id(n) + ") is not in opset_import");
  });
}

void check_operator_exists(CheckContext& c) {
  const Model& m = c.model.ir;
  for_each_node(m, [&](const Node& n, const std::string& path, const std::map<std::string, int64_t>& opsets, const Function*) {
    Resolved r = resolve(m, n, opsets);
    if (r.local || !r.domain_imported || r.schema) return;
    c.report("OP-EXISTS", path, &n, "",
             "OP-EXISTS: every operator exists in the imported opset; " + qualified_op_type(n) + " does not exist at version " +
                 std::to_string(r.version) + " of domain '" + (n.domain.empty() ? "ai.onnx" : n.domain) +
                 "' (and no model-local function has that name)");
  });
}

void check_arity(CheckContext& c) {
  const Model& m = c.model.ir;
  for_each_node(m, [&](const Node& n, const std::string& path, const std::map<std::string, int64_t>& opsets, const Function*) {
    Resolved r = resolve(m, n, opsets);
    auto bad = [&](const std::string& what) {
      c.report("OP-ARITY", path, &n, "",
               "OP-ARITY: input and output counts follow the schema; " + qualified_op_type(n) + " " + what);
    };
    if (r.local) {
      if (n.inputs.size() > r.local->inputs.size())
        bad("has " + std::to_string(n.inputs.size()) + " inputs, the function takes " + std::to_string(r.local->inputs.size()));
      if (n.outputs.size() > r.local->outputs.size())
        bad("has " + std::to_string(n.outputs.size()) + " outputs, the function gives " +
            std::to_string(r.local->outputs.size()));
      return;
    }
    if (!r.schema || !r.schema->documents_structure()) return;
    const auto& s = *r.schema;
    auto ni = static_cast<int>(n.inputs.size()), no = static_cast<int>(n.outputs.size());
    auto range = [](int lo, int hi) { return std::to_string(lo) + (hi < 0 ? " or more" : " to " + std::to_string(hi)); };
    if (ni < s.min_inputs || (s.max_inputs >= 0 && ni > s.max_inputs))
      bad("has " + std::to_string(ni) + " inputs; " + s.id() + " takes " + range(s.min_inputs, s.max_inputs));
    if (no < s.min_outputs || (s.max_outputs >= 0 && no > s.max_outputs))
      bad("has " + std::to_string(no) + " outputs; " + s.id() + " gives " + range(s.min_outputs, s.max_outputs));
    // A required (single, non-optional) input may not be left empty.
    for (size_t i = 0; i < n.inputs.size() && i < s.inputs.size(); ++i)
      if (n.inputs[i].empty() && s.inputs[i].option == catalogue::Formal::Option::Single)
        bad("omits its required input " + std::to_string(i) + " ('" + s.inputs[i].name + "')");
    // Every element of a variadic input is present: an omitted one has no meaning (Sum of x and
    // nothing, a Loop-carried value with no initial value). onnx's checker lets this through.
    if (!s.inputs.empty() && s.inputs.back().option == catalogue::Formal::Option::Variadic)
      for (size_t i = s.inputs.size() - 1; i < n.inputs.size(); ++i)
        if (n.inputs[i].empty())
          bad("omits element " + std::to_string(i - (s.inputs.size() - 1)) + " of its variadic input '" + s.inputs.back().name +
              "'");
  });
}

void check_deprecated(CheckContext& c) {
  for_each_schema_node(c, [&](const Node& n, const catalogue::Schema& s, const std::string& path) {
    if (s.deprecated)
      c.report("OP-DEPRECATED", path, &n, "",
               "OP-DEPRECATED: " + qualified_op_type(n) + " is deprecated since version " + std::to_string(s.version));
  });
}

void check_required_attributes(CheckContext& c) {
  for_each_schema_node(c, [&](const Node& n, const catalogue::Schema& s, const std::string& path) {
    if (!s.documents_structure()) return;
    for (const auto& attr : s.attributes)
      if (attr.required && !n.attr(attr.name))
        c.report("ATTR-REQUIRED", path, &n, "",
                 "ATTR-REQUIRED: every required attribute is present; " + qualified_op_type(n) + " lacks '" + attr.name + "'");
  });
}

void check_attribute_types(CheckContext& c) {
  for_each_schema_node(c, [&](const Node& n, const catalogue::Schema& s, const std::string& path) {
    if (!s.documents_structure()) return;
    for (const auto& a : n.attributes) {
      const auto* spec = s.attribute(a.name);
      if (!spec || !a.ref_attr_name.empty()) continue;
      if (spec->type != a.type)
        c.report("ATTR-TYPE", path, &n, "",
                 "ATTR-TYPE: attributes have their schema's type; '" + a.name + "' of " + qualified_op_type(n) + " is " +
                     attribute_type_name(a.type) + ", " + s.id() + " says " + attribute_type_name(spec->type));
    }
  });
}

void check_unknown_attributes(CheckContext& c) {
  for_each_schema_node(c, [&](const Node& n, const catalogue::Schema& s, const std::string& path) {
    if (!s.documents_structure()) return;
    for (const auto& a : n.attributes)
      if (!s.attribute(a.name))
        c.report("ATTR-UNKNOWN", path, &n, "",
                 "ATTR-UNKNOWN: no attribute outside the schema; " + s.id() + " has no attribute '" + a.name + "'");
  });
}

void check_opset_known(CheckContext& c) {
  const Model& m = c.model.ir;
  for_each_node(m, [&](const Node& n, const std::string& path, const std::map<std::string, int64_t>& opsets, const Function*) {
    auto it = opsets.find(n.domain);
    if (called_function(m, n) || it == opsets.end()) return;
    int64_t known = catalogue::max_opset(n.domain);
    if (known > 0 && it->second > known)
      c.report("OP-OPSET-KNOWN", path, &n, "",
               "OP-OPSET-KNOWN: every imported opset is one the operator catalogue describes; " + qualified_op_type(n) +
                   " is used at " + (n.domain.empty() ? std::string("ai.onnx") : n.domain) + " opset " +
                   std::to_string(it->second) + ", the catalogue ends at " + std::to_string(known));
  });
}

void check_implemented(CheckContext& c) {
  const Model& m = c.model.ir;
  for_each_node(m, [&](const Node& n, const std::string& path, const std::map<std::string, int64_t>& opsets, const Function*) {
    auto it = opsets.find(n.domain);
    if (it == opsets.end()) return;
    OpResolution r = resolve_op(m, n, it->second);
    std::string why;
    // Only operators that exist at a known opset: the rules above name the others.
    if (r.has_schema && r.opset_known && !runnable(r, n, it->second, why))
      c.report("OP-IMPLEMENTED", path, &n, "", "OP-IMPLEMENTED: every operator version has a kernel or a function body; " + why);
  });
}

}  // namespace sonnx
