// Max: elementwise maximum of one or more inputs. Versions 1 and 6 need all inputs of the same
// shape; from version 8 they broadcast multidirectionally; 12 adds integer types, 13 bfloat16.
// A NaN in any input makes that element NaN (as numpy.maximum).
#include "op_params.h"
#include "params/legacy.h"
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> max_kernel(OpContext& ctx) { return variadic_extreme(ctx, true); }
}  // namespace
// Version 1's only attribute is the legacy consumed_inputs.
SONNX_PARAMS("", "Max", (1), LegacyConsumedInputsParams);
SONNX_KERNEL("", "Max", 1, max_kernel, Accuracy::Exact);
SONNX_KERNEL("", "Max", 8, max_kernel, Accuracy::Exact);
SONNX_SHAPE_RULE("", "Max", (1, 6, 8, 12, 13), broadcast_rule);
}  // namespace sonnx
