// Scatter (deprecated in version 11 in favour of ScatterElements, with the same meaning): writes
// updates into a copy of data at positions whose `axis` coordinate comes from indices.
#include "support/shape.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> scatter(OpContext& ctx) {
  return one(scatter_elements(ctx, ctx.input(0), ctx.input(1), ctx.input(2), ctx.attr_int("axis", 0), Reduction::None));
}
}  // namespace
SONNX_KERNEL("", "Scatter", 9, scatter, Accuracy::Exact);
SONNX_SHAPE_RULE("", "Scatter", (9, 11), same_as_input_rule);
}  // namespace sonnx
