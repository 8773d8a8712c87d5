// The nodes whose value types sonnx's inference knows, each with a lookup of those types: every node
// of the main graph and its subgraphs, and every node of every call of a model-local function as
// inlining expands it (InferenceResult::calls), named as in the function's body. TYPE-INFERENCE
// (types.cpp) and SONNX-NO-IMPLICIT-CONVERSION (conversion.cpp) check these nodes.
#pragma once
#include <functional>
#include <string>

#include "reference/infer/infer.h"
#include "rules.h"

namespace sonnx {

using TypeLookup = std::function<const TypeInfo*(const std::string& name)>;
// `graph` is the graph path, or "function <domain>.<name>" for a node of a function body. Calls of
// local functions are not visited themselves: their expanded bodies are.
using TypedNodeVisitor = std::function<void(const Node& n, const std::string& graph, const TypeLookup& type_of)>;
void for_each_typed_node(const Model& m, const InferenceResult& r, const TypedNodeVisitor& visit);

// The inference result of the context's model, computed once and shared by the rules that use it.
const InferenceResult& inference_of(CheckContext& c);

// Whether inference may run: no recursion (it would not end) and no structural or function-body
// error (its findings would only echo that error).
bool inference_applies(const CheckContext& c);

// A type as the catalogue spells its constraints: "tensor(float)", "seq(tensor(int64))", ...
std::string constraint_spelling(const TypeInfo& t);
// Whether a spelling is fully known (no undefined element type inside).
bool known_spelling(const std::string& s);

}  // namespace sonnx
