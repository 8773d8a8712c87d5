// One node of a model as a model of its own, for running it alone on a backend (localization in
// certify and in fuzzing): its inputs become graph inputs typed as the given values, its outputs
// graph outputs typed as the reference's results of it on those values.
#pragma once
#include "reference/interp/interpreter.h"
#include "reference/model/ir.h"
#include "sonnx/value.h"

namespace sonnx {

// `flat`: the model the node belongs to, functions inlined (for its opset imports). `values` holds
// a tensor for every input the node reads. Throws Unsupported for an output that is not a tensor,
// and whatever the reference throws running the node. `outputs`, when given, receives the
// reference's results (in the node's output order).
Model one_node_model(const Model& flat, const Node& n, const NamedValues& values, Interpreter& reference,
                     std::vector<Value>* outputs = nullptr);

}  // namespace sonnx
