// BitwiseXor: the shape rule (the kernel is still to come).
#include "support/shape.h"

namespace sonnx {
using support::broadcast_rule;
SONNX_SHAPE_RULE("", "BitwiseXor", (18), broadcast_rule);
}  // namespace sonnx
