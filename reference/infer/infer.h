// sonnx's own type and shape inference: walks a model's graphs in dependency order, applies each
// node's shape rule (shape_rule.h) for its exact operator version, infers through a function body
// when an operator has no rule, folds small constant computations with the reference kernels, and
// propagates partial values of shape-computing subgraphs. Declared types (value_info, graph
// outputs) refine what is inferred; a contradiction between the two is an inference error.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "reference/model/ir.h"
#include "shape_rule.h"

namespace sonnx {

struct InferenceIssue {
  std::string node;     // node name, or "#index" when it has none
  std::string op_type;  // "Op" or "domain.Op"
  std::string graph;    // graph path ("main", "main/If_0:then_branch", ...)
  std::string message;
  std::string str() const;
};

// One call of a model-local function (at any depth): the body's nodes, named as in the body (with
// the attributes this call binds), and the type inference found at this call for every name they
// read or write. The validator checks these nodes' type constraints as it checks the graph's
// (spec/restrictions.md, TYPE-INFERENCE). Inference itself ran on the expanded body, whose names
// are `prefix` + body name (its findings carry graph path `path`).
struct ExpandedCall {
  std::string function;  // "function <domain>.<name>"
  std::string path;      // the graph path inference's own findings in this body carry
  std::string prefix;
  std::vector<Node> nodes;
  std::map<std::string, TypeInfo> types;
};

struct InferenceResult {
  // Every value of the main graph (inputs, initializers, node outputs) with what is known of it.
  std::map<std::string, TypeInfo> types;
  // Elements of small 0-D and 1-D integer values of the main graph known at inference time, fully
  // (constants, folded values) or partly (shape computations).
  std::map<std::string, PartialValue> partials;
  // Values of nested graphs (If/Loop/Scan bodies), by graph path then name.
  std::map<std::string, std::map<std::string, TypeInfo>> subgraph_types;
  // Every call of a model-local function met while inferring, expanded.
  std::vector<ExpandedCall> calls;
  std::vector<InferenceIssue> errors;
  // Operator versions met with neither a shape rule nor a function body ("Op-version").
  std::vector<std::string> without_rule;
};

InferenceResult infer_model(const Model& model);

// A readable listing of a result (one line per value, then the errors), for debugging.
std::string dump_inference(const InferenceResult& result);

}  // namespace sonnx
