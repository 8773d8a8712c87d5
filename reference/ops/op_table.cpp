#include "op_table.h"

#include <set>

#include <onnx/defs/schema.h>

#include "reference/model/loader.h"

namespace sonnx {

namespace {

void collect_op_types(const Graph& g, std::set<std::string>& ops) {
  for (const auto& n : g.nodes) {
    std::string d = canonical_domain(n.domain);
    ops.insert(d.empty() ? n.op_type : d + "." + n.op_type);
    for (const auto& a : n.attributes) {
      if (a.g) collect_op_types(*a.g, ops);
      for (const auto& sg : a.graphs) collect_op_types(*sg, ops);
    }
  }
}

const onnx::OpSchema* schema_of(const Node& node, int64_t domain_opset) {
  return onnx::OpSchemaRegistry::Schema(node.op_type, static_cast<int>(domain_opset), node.domain);
}

onnx::AttributeProto attribute_to_proto(const Attribute& a) {
  onnx::AttributeProto p;
  p.set_name(a.name);
  p.set_type(static_cast<onnx::AttributeProto::AttributeType>(a.type));
  switch (a.type) {
    case Attribute::Type::Float: p.set_f(a.f); break;
    case Attribute::Type::Int: p.set_i(a.i); break;
    case Attribute::Type::String: p.set_s(a.s); break;
    case Attribute::Type::Floats: for (float f : a.floats) p.add_floats(f); break;
    case Attribute::Type::Ints: for (int64_t i : a.ints) p.add_ints(i); break;
    case Attribute::Type::Strings: for (const auto& s : a.strings) p.add_strings(s); break;
    default: break;  // context-dependent bodies only read scalar and list attributes
  }
  return p;
}

}  // namespace

int64_t node_opset(const Model& model, const Node& node) {
  return node.opset_version ? node.opset_version : model.opset(node.domain);
}

OpResolution resolve_op(const Model& model, const Node& node, int64_t domain_opset) {
  OpResolution r;
  if (model.find_function(node.domain, node.op_type)) {
    r.is_local_function = true;
    r.has_function_body = true;
    return r;
  }
  const auto* schema = schema_of(node, domain_opset);
  if (!schema) return r;
  r.has_schema = true;
  r.version = schema->since_version();
  r.context_dependent = schema->HasContextDependentFunction();
  r.has_function_body = schema->HasFunction() || r.context_dependent;
  r.kernel = OpRegistry::instance().find(node.domain, node.op_type, r.version);
  return r;
}

bool build_function_body(const Model& model, const Node& node, int64_t domain_opset,
                         const std::vector<TypeInfo>& input_types, Function& out, std::string& why) {
  if (const Function* local = model.find_function(node.domain, node.op_type)) {
    out = *local;
    return true;
  }
  const auto* schema = schema_of(node, domain_opset);
  if (!schema) {
    why = "no schema for " + node.op_type + " in domain '" + node.domain + "' at opset " + std::to_string(domain_opset);
    return false;
  }
  if (schema->HasFunction()) {
    out = function_from_proto(*schema->GetFunction(), {});
    return true;
  }
  if (schema->HasContextDependentFunction()) {
    onnx::NodeProto np;
    np.set_op_type(node.op_type);
    np.set_domain(node.domain);
    for (const auto& i : node.inputs) np.add_input(i);
    for (const auto& o : node.outputs) np.add_output(o);
    for (const auto& a : node.attributes) *np.add_attribute() = attribute_to_proto(a);
    std::vector<onnx::TypeProto> types;
    for (const auto& t : input_types) types.push_back(type_to_proto(t));
    onnx::FunctionBodyBuildContextImpl ctx(np, types);
    onnx::FunctionProto fp;
    bool ok = false;
    try {
      ok = schema->BuildContextDependentFunction(ctx, fp);
    } catch (const std::exception& e) {
      why = std::string("building the function body failed: ") + e.what();
      return false;
    }
    if (!ok) {
      why = "the context-dependent function body of " + node.op_type + " could not be built";
      return false;
    }
    out = function_from_proto(fp, {});
    if (out.opset_imports.empty()) out.opset_imports[""] = domain_opset;
    return true;
  }
  why = "not implemented: " + node.op_type + "-" + std::to_string(schema->since_version()) + " has no kernel and no function body";
  return false;
}

Accuracy op_accuracy(const Model& model, const Node& node) {
  OpResolution r = resolve_op(model, node);
  return r.kernel ? r.kernel->accuracy : Accuracy::Rounding;
}

Accuracy model_accuracy(const Model& model, const Graph& g, Accuracy acc) {
  for (const auto& n : g.nodes) {
    Accuracy a = op_accuracy(model, n);
    if (a == Accuracy::Random || (a == Accuracy::Rounding && acc == Accuracy::Exact)) acc = a;
    for (const auto& at : n.attributes) {
      if (at.g) acc = model_accuracy(model, *at.g, acc);
      for (const auto& sg : at.graphs) acc = model_accuracy(model, *sg, acc);
    }
  }
  return acc;
}

std::vector<std::string> op_types_of(const Graph& g) {
  std::set<std::string> ops;
  collect_op_types(g, ops);
  return {ops.begin(), ops.end()};
}

}  // namespace sonnx
