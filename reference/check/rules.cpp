#include "rules.h"

#include "profile.h"

namespace sonnx {

void CheckContext::report(const std::string& rule, const std::string& graph, const Node* node, const std::string& value,
                          const std::string& message) const {
  const RuleInfo* info = find_rule(rule);
  Diagnostic d;
  d.rule = rule;
  auto over = profile.severity.find(rule);
  d.severity = over != profile.severity.end() ? over->second : info ? info->severity : Severity::Error;
  d.graph = graph;
  if (node) {
    d.node = node->name.empty() ? "#" + std::to_string(node->index) : node->name;
    d.op_type = node->op_type;
  }
  d.value = value;
  d.message = message;
  out.push_back(std::move(d));
}

const std::vector<RuleInfo>& all_rules() {
  using S = Severity;
  static const std::vector<RuleInfo> rules{
      // Functions first: type inference must not run into recursive functions.
      {"FUNC-RECURSION", S::Error, "model-local functions do not call themselves, directly or indirectly",
       check_function_recursion},
      {"FUNC-BODY", S::Error, "every model-local function body is well formed, so that inlining yields a well-formed graph",
       check_function_bodies},
      {"FUNC-SHADOWS-STANDARD", S::Warning,
       "no model-local function takes a standard operator's domain and name (an error under sonnx)", check_function_shadowing},
      {"STRUCT-NAME", S::Error, "graph inputs, outputs, initializers and node outputs are named", check_names},
      {"STRUCT-SSA", S::Error, "every value is assigned exactly once, and a subgraph does not re-assign an outer name",
       check_ssa},
      {"STRUCT-DEFINED", S::Error, "every node input is defined in the graph or an enclosing scope", check_defined},
      {"STRUCT-OUTPUT", S::Error, "every graph output is produced", check_outputs_produced},
      {"STRUCT-ACYCLIC", S::Error, "the graph has no cycle", check_acyclic},
      {"STRUCT-TOPO-ORDER", S::Error, "nodes are listed in a topological order", check_topological_order},
      {"OP-DOMAIN", S::Error, "every operator domain used is imported", check_domains},
      {"OP-OPSET-KNOWN", S::Error, "every imported opset is one the operator catalogue describes (ai.onnx through 27)",
       check_opset_known},
      {"OP-EXISTS", S::Error, "every operator exists in the imported opset version of its domain", check_operator_exists},
      {"OP-ARITY", S::Error, "input and output counts are within the operator's schema", check_arity},
      {"OP-DEPRECATED", S::Warning, "the operator is not deprecated at the imported opset version", check_deprecated},
      {"ATTR-REQUIRED", S::Error, "every required attribute is present", check_required_attributes},
      {"ATTR-TYPE", S::Error, "every attribute has the type its schema declares", check_attribute_types},
      {"ATTR-UNKNOWN", S::Error, "no attribute outside the operator's schema", check_unknown_attributes},
      {"OP-IMPLEMENTED", S::Error,
       "every operator version has a reference kernel or a function body; none runs under another version", check_implemented},
      {"TYPE-INFERENCE", S::Error,
       "element types satisfy every schema's type constraints (onnx type and shape inference, strict)", check_type_inference},
      // SONNX profile.
      {"SONNX-DEAD-NODE", S::Error, "every node lies on a path to a graph output (R1)", check_dead_nodes},
      {"SONNX-UNUSED-VALUE", S::Error, "every node output is consumed or is a graph output", check_unused_values},
      {"SONNX-UNUSED-INPUT", S::Error, "every graph input is consumed (C1)", check_unused_inputs},
      {"SONNX-OMITTED-IO", S::Error, "no optional input or output is omitted with an empty name", check_omitted_io},
      {"SONNX-EXPLICIT-ATTR", S::Error, "every attribute that has a default is given explicitly", check_explicit_attributes},
      {"SONNX-STATIC-TYPE", S::Error, "every value has a declared element type and a fully static shape", check_static_types},
      {"SONNX-OPERATOR-SET", S::Error, "only operators of the profile's operator set", check_operator_set},
      {"SONNX-DETERMINISTIC", S::Error, "only deterministic operators (no random sampling, no training-mode Dropout)",
       check_deterministic},
      {"SONNX-INFERENCE-ONLY", S::Error, "inference only: no training domain, no training information", check_inference_only},
      {"SONNX-NO-CONTROL-FLOW", S::Error, "no control-flow operators (If, Loop, Scan, SequenceMap)", check_no_control_flow},
      {"SONNX-NO-SPARSE", S::Error, "no sparse tensors", check_no_sparse},
      {"SONNX-NO-INPUT-DEFAULT", S::Error, "no graph input has an initializer as its default", check_no_input_defaults},
      {"SONNX-NO-IMPLICIT-CONVERSION", S::Error,
       "every operator computes in one element type: no implicit type conversion (GR3)", check_no_implicit_conversion},
  };
  return rules;
}

const RuleInfo* find_rule(const std::string& id) {
  for (const auto& r : all_rules())
    if (r.id == id) return &r;
  return nullptr;
}

}  // namespace sonnx
