#include "op_table.h"

#include <set>

#include "reference/functions/function_bodies.h"

namespace sonnx {

namespace {

bool g_prefer_function_bodies = false;

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

}  // namespace

void set_prefer_function_bodies(bool prefer) { g_prefer_function_bodies = prefer; }
bool prefer_function_bodies() { return g_prefer_function_bodies; }

bool samples_random_numbers(const std::string& op_type) {
  static const std::set<std::string> random_ops{"RandomNormal",      "RandomUniform", "RandomNormalLike",
                                                "RandomUniformLike", "Bernoulli",     "Multinomial"};
  return random_ops.count(op_type) > 0;
}

int64_t node_opset(const Model& model, const Node& node) {
  return node.opset_version ? node.opset_version : model.opset(node.domain);
}

const catalogue::Schema* shadowed_operator(const Model& model, const Function& fn) {
  int64_t opset = model.opset(fn.domain);
  return opset > 0 ? catalogue::find(fn.domain, fn.name, opset) : nullptr;
}

const Function* called_function(const Model& model, const Node& node) {
  const Function* f = model.find_function(node.domain, node.op_type);
  return f && !shadowed_operator(model, *f) ? f : nullptr;
}

OpResolution resolve_op(const Model& model, const Node& node, int64_t domain_opset) {
  OpResolution r;
  if (called_function(model, node)) {
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
  if (const auto* body = functions::find_body(node.domain, node.op_type, r.version)) {
    r.has_function_body = true;
    r.context_dependent = body->uses_input_types;
  }
  r.kernel = OpRecords::instance().kernel(node.domain, node.op_type, r.version);
  if (g_prefer_function_bodies && r.has_function_body) r.kernel = nullptr;
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

bool build_function_body(const Model& model, const Node& node, int64_t domain_opset, const std::vector<TypeInfo>& input_types,
                         Function& out, std::string& why) {
  if (const Function* local = called_function(model, node)) {
    out = *local;
    return true;
  }
  OpResolution r = resolve_op(model, node, domain_opset);
  if (!runnable(r, node, domain_opset, why)) return false;
  const functions::BodyFile* body = functions::find_body(node.domain, node.op_type, r.version);
  if (!body) {
    why = "unsupported: " + r.schema->id() + " has no function body";
    return false;
  }
  const functions::Alternative* alt = functions::select_alternative(*body, node, r.schema, input_types);
  if (!alt) {
    why = "unsupported: no alternative of the function body of " + r.schema->id() + " (spec/functions/" + body->file +
          ") applies to this call";
    return false;
  }
  if (!functions::instantiate(*alt, node, r.schema, input_types, out, why)) return false;
  if (out.opset_imports.empty()) out.opset_imports[""] = domain_opset;
  return true;
}

Accuracy op_accuracy(const Model& model, const Node& node) {
  OpResolution r = resolve_op(model, node);
  if (r.kernel) return r.kernel->accuracy;
  // A body run in place of a kernel (prefer_function_bodies) samples if the operator does.
  const KernelEntry* k = r.has_schema ? OpRecords::instance().kernel(node.domain, node.op_type, r.version) : nullptr;
  return k && k->accuracy == Accuracy::Random ? Accuracy::Random : Accuracy::Rounding;
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
