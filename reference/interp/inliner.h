// Function inlining: the one place that turns a call of a function (model-local or an operator's
// schema body) into the function's nodes. The interpreter expands calls on demand; inline_model
// flattens a whole model for the executors. spec/functions.md states what this must preserve.
// Which body a node has (and whether it needs one) is the operator table's answer: op_table.h.
#pragma once
#include <set>
#include <string>
#include <vector>

#include "reference/model/ir.h"

namespace sonnx {

// A prefix no name of `taken` starts with: stem + k + "_" for the smallest k >= counter, and counter
// is moved past k. Every name prefix + x is then fresh with respect to `taken` (spec/functions.md
// §2), and x -> prefix + x is injective. Two prefixes of one stem differ in k, and since k is
// followed by '_', no name made with one starts with the other: a caller whose names are either in
// `taken` or made with earlier prefixes of the same stem gets fresh names without adding them to
// `taken`.
std::string fresh_prefix(const std::string& stem, int& counter, const std::set<std::string>& taken);

// Expands `call` of `fn`: formal inputs/outputs become the call's actual names, every other name of
// the body (node outputs, and every name the body's subgraphs define, at any depth) gets `prefix`,
// attribute references (ref_attr_name) take the call's attribute or the function's default, and
// each body node records the function's opset for its domain. The caller chooses `prefix` with
// fresh_prefix against the names visible where the call is, so no expanded name collides with one
// of them.
std::vector<Node> expand_call(const Node& call, const Function& fn, const std::string& prefix);

// Flattens every call of a function (model-local, or an operator without a reference kernel that
// has a schema body) in the main graph and nested subgraphs, repeatedly, until no call is left.
// Expanded names take prefixes "__inl<k>_" that no name of the model (at any depth) starts with.
// Types come from the graph's declared value_info where known; a call whose context-dependent body
// needs input types that are not declared stays a call (its body is built when it runs, from the
// actual inputs: Interpreter::run_node). Throws Unsupported when a node has
// neither a kernel nor a body, and InternalError past a depth bound (recursion is a validation
// error, FUNC-RECURSION, so a validated model never reaches it).
Model inline_model(const Model& model);

}  // namespace sonnx
