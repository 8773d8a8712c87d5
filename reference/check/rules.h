// The rule catalogue. Every rule has a stable ID, a paragraph in spec/restrictions.md, one check
// function (in the file of its family) and a test model that breaks it exactly once
// (tests/fixtures/rules/<ID>.onnxtxt).
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sonnx/diagnostic.h"
#include "reference/model/loader.h"

namespace sonnx {

struct Profile;
struct InferenceResult;

// What a check function gets: the model and where to put findings.
struct CheckContext {
  const LoadedModel& model;
  const Profile& profile;
  std::vector<Diagnostic>& out;
  // Facts one rule establishes for another (e.g. type inference must not run on recursive functions).
  bool has_recursion = false;
  // Type inference, computed once for the rules that need it (typed_nodes.h: inference_of).
  std::shared_ptr<const InferenceResult> inference = nullptr;

  void report(const std::string& rule, const std::string& graph, const Node* node, const std::string& value,
              const std::string& message) const;
};

struct RuleInfo {
  std::string id;
  Severity severity;
  std::string summary;  // one line: what the rule requires
  std::function<void(CheckContext&)> check;
};

// All rules in the order they run (function rules first: others depend on their facts).
const std::vector<RuleInfo>& all_rules();
const RuleInfo* find_rule(const std::string& id);

// Check functions, one per rule, grouped by family.
// structure.cpp
void check_ssa(CheckContext& c);
void check_defined(CheckContext& c);
void check_outputs_produced(CheckContext& c);
void check_acyclic(CheckContext& c);
void check_topological_order(CheckContext& c);
void check_names(CheckContext& c);
// schema.cpp
void check_domains(CheckContext& c);
void check_operator_exists(CheckContext& c);
void check_arity(CheckContext& c);
void check_required_attributes(CheckContext& c);
void check_attribute_types(CheckContext& c);
void check_unknown_attributes(CheckContext& c);
void check_opset_known(CheckContext& c);
void check_implemented(CheckContext& c);
void check_deprecated(CheckContext& c);
// types.cpp
void check_type_inference(CheckContext& c);
// functions.cpp
void check_function_recursion(CheckContext& c);
void check_function_bodies(CheckContext& c);
void check_function_shadowing(CheckContext& c);
// sonnx_graph.cpp
void check_dead_nodes(CheckContext& c);
void check_unused_values(CheckContext& c);
void check_unused_inputs(CheckContext& c);
void check_omitted_io(CheckContext& c);
// sonnx_profile.cpp
void check_explicit_attributes(CheckContext& c);
void check_static_types(CheckContext& c);
void check_operator_set(CheckContext& c);
void check_deterministic(CheckContext& c);
void check_inference_only(CheckContext& c);
void check_no_control_flow(CheckContext& c);
void check_no_sparse(CheckContext& c);
void check_no_input_defaults(CheckContext& c);
// conversion.cpp
void check_no_implicit_conversion(CheckContext& c);

}  // namespace sonnx
