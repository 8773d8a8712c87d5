// RotaryEmbedding: the shape rule (the kernel is still to come).
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {
void rotary_embedding_shape(InferContext& ctx) { same_as_input_rule(ctx); }
}  // namespace
SONNX_SHAPE_RULE("", "RotaryEmbedding", (23), rotary_embedding_shape);
}  // namespace sonnx
