// Types of the intermediate values of a model, from sonnx's own type and shape inference
// (reference/infer/), so fast kernels can be prepared for known element types and shapes when the
// model is compiled. A value inference cannot type keeps no type (it then runs on the reference
// kernel or prepares lazily).
#pragma once
#include "reference/model/ir.h"

namespace sonnx {

// Adds to model.graph.value_info every main-graph value whose type inference finds and the model
// does not already declare.
void add_inferred_types(Model& model);

}  // namespace sonnx
