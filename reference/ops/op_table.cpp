#include "op_table.h"

#include <set>

#include <onnx/defs/schema.h>

#include "reference/model/loader.h"

namespace sonnx {

namespace {

void collect_op_versions(const Model& model, const Graph& g, std::set<std::string>& ops) {
  for (const auto& n : g.nodes) {
    OpResolution r = resolve_op(model, n);
    ops.insert(r.schema && !r.is_local_function ? r.schema->id() : qualified_op_type(n));
    for (const auto& a : n.attributes) {
      if (a.g) collect_op_versions(model, *a.g, ops);
      for (const auto& sg : a.graphs) collect_op_versions(model, *sg, ops);
    }
  }
}

void collect_op_types(const Graph& g, std::set<std::string>& ops) {
  for (const auto& n : g.nodes) {
    ops.insert(qualified_op_type(n));
    for (const auto& a : n.attributes) {
      if (a.g) collect_op_types(*a.g, ops);
      for (const auto& sg : a.graphs) collect_op_types(*sg, ops);
    }
  }
}

// libonnx 1.12's schema for exactly the version the catalogue selected, for its function body; null
// when libonnx does not know that version (opset 18 on), so no body of another version is used.
const onnx::OpSchema* legacy_schema(const Node& node, int64_t version) {
  const auto* s = onnx::OpSchemaRegistry::Schema(node.op_type, static_cast<int>(version), node.domain);
  return s && s->since_version() == version ? s : nullptr;
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
  r.opset_known = domain_opset <= catalogue::max_opset(node.domain);
  r.schema = catalogue::find(node.domain, node.op_type, domain_opset);
  if (!r.schema) return r;
  r.has_schema = true;
  r.version = r.schema->version;
  if (!r.opset_known) return r;  // nothing runs at an opset the catalogue does not describe
  if (const auto* legacy = legacy_schema(node, r.version)) {
    r.context_dependent = legacy->HasContextDependentFunction();
    r.has_function_body = legacy->HasFunction() || r.context_dependent;
  }
  r.kernel = OpRegistry::instance().find(node.domain, node.op_type, r.version);
  return r;
}

bool runnable(const OpResolution& r, const Node& node, int64_t domain_opset, std::string& why) {
  if (r.is_local_function) return true;
  std::string domain = node.domain.empty() ? "ai.onnx" : node.domain;
  if (!r.opset_known) {
    why = "unsupported: " + node.op_type + " at " + domain + " opset " + std::to_string(domain_opset) +
          " (the operator catalogue ends at opset " + std::to_string(catalogue::max_opset(node.domain)) + ")";
    return false;
  }
  if (!r.has_schema) {
    why = "unsupported: " + node.op_type + " does not exist at " + domain + " opset " + std::to_string(domain_opset);
    return false;
  }
  if (r.kernel || r.has_function_body) return true;
  why = "unsupported: " + r.schema->id() + " (no kernel and no function body for this operator version)";
  return false;
}

bool build_function_body(const Model& model, const Node& node, int64_t domain_opset,
                         const std::vector<TypeInfo>& input_types, Function& out, std::string& why) {
  if (const Function* local = model.find_function(node.domain, node.op_type)) {
    out = *local;
    return true;
  }
  OpResolution r = resolve_op(model, node, domain_opset);
  if (!runnable(r, node, domain_opset, why)) return false;
  const auto* schema = r.has_function_body ? legacy_schema(node, r.version) : nullptr;
  if (!schema) {
    why = "unsupported: " + r.schema->id() + " has no function body";
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
  why = "unsupported: " + r.schema->id() + " has no function body";
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

std::vector<std::string> op_versions_of(const Model& model) {
  std::set<std::string> ops;
  collect_op_versions(model, model.graph, ops);
  return {ops.begin(), ops.end()};
}

}  // namespace sonnx
