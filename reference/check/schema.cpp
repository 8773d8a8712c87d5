// Operator and attribute rules against the ONNX schemas (libonnx's OpSchemaRegistry, with
// history): domains imported, operator exists at the imported version, arity, attributes.
#include <onnx/defs/schema.h>

#include "graph_walk.h"
#include "rules.h"

namespace sonnx {

namespace {

struct Resolved {
  const onnx::OpSchema* schema = nullptr;
  const Function* local = nullptr;
  bool domain_imported = false;
  int64_t version = 0;
};

Resolved resolve(const Model& m, const Node& n, const std::map<std::string, int64_t>& opsets) {
  Resolved r;
  r.local = m.find_function(n.domain, n.op_type);
  auto it = opsets.find(n.domain);
  r.domain_imported = it != opsets.end();
  if (!r.domain_imported && n.domain.empty() && opsets.empty()) return r;
  r.version = r.domain_imported ? it->second : 0;
  if (r.domain_imported) r.schema = onnx::OpSchemaRegistry::Schema(n.op_type, static_cast<int>(r.version), n.domain);
  return r;
}

std::string op_name(const Node& n) { return (n.domain.empty() ? "" : n.domain + ".") + n.op_type; }

// Calls f(node, schema, path) for every node that resolves to a schema (not to a local function).
template <class F>
void for_each_schema_node(CheckContext& c, F f) {
  const Model& m = c.model.ir;
  for_each_node(m, [&](const Node& n, const std::string& path, const std::map<std::string, int64_t>& opsets, const Function*) {
    Resolved r = resolve(m, n, opsets);
    if (!r.local && r.schema) f(n, *r.schema, path);
  });
}

const char* attr_type_name(onnx::AttributeProto::AttributeType t) {
  return attribute_type_name(static_cast<Attribute::Type>(t));
}

}  // namespace

void check_domains(CheckContext& c) {
  const Model& m = c.model.ir;
  for_each_node(m, [&](const Node& n, const std::string& path, const std::map<std::string, int64_t>& opsets, const Function*) {
    if (m.find_function(n.domain, n.op_type)) return;
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
             "OP-EXISTS: every operator exists in the imported opset; " + op_name(n) + " does not exist at version " +
                 std::to_string(r.version) + " of domain '" + (n.domain.empty() ? "ai.onnx" : n.domain) + "' (and no model-local function has that name)");
  });
}

void check_arity(CheckContext& c) {
  const Model& m = c.model.ir;
  for_each_node(m, [&](const Node& n, const std::string& path, const std::map<std::string, int64_t>& opsets, const Function*) {
    Resolved r = resolve(m, n, opsets);
    auto bad = [&](const std::string& what) { c.report("OP-ARITY", path, &n, "", "OP-ARITY: input and output counts follow the schema; " + op_name(n) + " " + what); };
    if (r.local) {
      if (n.inputs.size() > r.local->inputs.size())
        bad("has " + std::to_string(n.inputs.size()) + " inputs, the function takes " + std::to_string(r.local->inputs.size()));
      if (n.outputs.size() > r.local->outputs.size())
        bad("has " + std::to_string(n.outputs.size()) + " outputs, the function gives " + std::to_string(r.local->outputs.size()));
      return;
    }
    if (!r.schema) return;
    const auto& s = *r.schema;
    auto ni = static_cast<int>(n.inputs.size()), no = static_cast<int>(n.outputs.size());
    if (ni < s.min_input() || ni > s.max_input())
      bad("has " + std::to_string(ni) + " inputs; the schema allows " + std::to_string(s.min_input()) + " to " + std::to_string(s.max_input()));
    if (no < s.min_output() || no > s.max_output())
      bad("has " + std::to_string(no) + " outputs; the schema allows " + std::to_string(s.min_output()) + " to " + std::to_string(s.max_output()));
    // A required (single, non-optional) input may not be left empty.
    const auto& formals = s.inputs();
    for (size_t i = 0; i < n.inputs.size() && i < formals.size(); ++i)
      if (n.inputs[i].empty() && formals[i].GetOption() == onnx::OpSchema::Single)
        bad("omits its required input " + std::to_string(i) + " ('" + formals[i].GetName() + "')");
  });
}

void check_deprecated(CheckContext& c) {
  for_each_schema_node(c, [&](const Node& n, const onnx::OpSchema& s, const std::string& path) {
    if (s.Deprecated())
      c.report("OP-DEPRECATED", path, &n, "", "OP-DEPRECATED: " + op_name(n) + " is deprecated since version " + std::to_string(s.since_version()));
  });
}

void check_required_attributes(CheckContext& c) {
  for_each_schema_node(c, [&](const Node& n, const onnx::OpSchema& s, const std::string& path) {
    for (const auto& [name, attr] : s.attributes())
      if (attr.required && !n.attr(name))
        c.report("ATTR-REQUIRED", path, &n, "", "ATTR-REQUIRED: every required attribute is present; " + op_name(n) + " lacks '" + name + "'");
  });
}

void check_attribute_types(CheckContext& c) {
  for_each_schema_node(c, [&](const Node& n, const onnx::OpSchema& s, const std::string& path) {
    for (const auto& a : n.attributes) {
      auto it = s.attributes().find(a.name);
      if (it == s.attributes().end() || !a.ref_attr_name.empty()) continue;
      if (static_cast<int>(it->second.type) != static_cast<int>(a.type))
        c.report("ATTR-TYPE", path, &n, "",
                 "ATTR-TYPE: attributes have their schema's type; '" + a.name + "' of " + op_name(n) + " is " + attribute_type_name(a.type) +
                     ", the schema says " + attr_type_name(it->second.type));
    }
  });
}

void check_unknown_attributes(CheckContext& c) {
  for_each_schema_node(c, [&](const Node& n, const onnx::OpSchema& s, const std::string& path) {
    for (const auto& a : n.attributes)
      if (!s.attributes().count(a.name))
        c.report("ATTR-UNKNOWN", path, &n, "", "ATTR-UNKNOWN: no attribute outside the schema; " + op_name(n) + " has no attribute '" + a.name + "'");
  });
}

}  // namespace sonnx
