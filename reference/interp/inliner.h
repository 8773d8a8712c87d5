// Function inlining: the one place that turns a call of a function (model-local or an operator's
// schema body) into the function's nodes. The interpreter expands calls on demand; inline_model
// flattens a whole model for the executors. spec/functions.md states what this must preserve.
// Which body a node has (and whether it needs one) is the operator table's answer: op_table.h.
#pragma once
#include <string>
#include <vector>

#include "reference/model/ir.h"

namespace sonnx {

// Expands `call` of `fn`: formal inputs/outputs become the call's actual names, every internal
// name gets `prefix`, attribute references (ref_attr_name) take the call's attribute or the
// function's default, and each body node records the function's opset for its domain.
std::vector<Node> expand_call(const Node& call, const Function& fn, const std::string& prefix);

// Flattens every call of a function (model-local, or an operator without a reference kernel that
// has a schema body) in the main graph and nested subgraphs, repeatedly, until no call is left.
// Types come from the graph's declared value_info where known; a call whose context-dependent body
// needs input types that are not declared stays a call (its body is built when it runs, from the
// actual inputs: Interpreter::run_node). Throws Unsupported when a node has
// neither a kernel nor a body, and InternalError past a depth bound (recursion is a validation
// error, FUNC-RECURSION, so a validated model never reaches it).
Model inline_model(const Model& model);

}  // namespace sonnx
