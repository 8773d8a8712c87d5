// Types of the intermediate values of a model, from onnx's shape inference, so fast kernels can
// be prepared for known element types and shapes when the model is compiled. Inference that fails
// on some node just leaves its values without a type (they then run on the reference kernel or
// prepare lazily).
#pragma once
#include <onnx/onnx_pb.h>

#include "reference/model/ir.h"

namespace sonnx {

// Adds to model.graph.value_info every main-graph value whose type inference finds and the model
// does not already declare. `proto` is the model as loaded.
void add_inferred_types(const onnx::ModelProto& proto, Model& model);

}  // namespace sonnx
