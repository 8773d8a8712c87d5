// Swish: the shape rule (the kernel is still to come).
#include "support/shape.h"

namespace sonnx {
using support::same_as_input_rule;
SONNX_SHAPE_RULE("", "Swish", (24), same_as_input_rule);
}  // namespace sonnx
