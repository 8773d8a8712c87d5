// Scatter (deprecated in version 11 in favour of ScatterElements, with the same meaning): writes
// updates into a copy of data at positions whose `axis` coordinate comes from indices.
#include "op_params.h"
#include "support/shape.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
// Scatter's one attribute (ScatterParams are ScatterElements' and ScatterND's).
struct DeprecatedScatterParams {
  int64_t axis = 0;  // checked against the rank by scatter_elements
  static DeprecatedScatterParams read(const AttrReader& r, int64_t /*version*/) { return {r.attr_int("axis", 0)}; }
};

std::vector<Value> scatter(OpContext& ctx) {
  int64_t axis = DeprecatedScatterParams::read(ctx, ctx.version()).axis;
  return one(scatter_elements(ctx, ctx.input(0), ctx.input(1), ctx.input(2), axis, Reduction::None));
}
}  // namespace
SONNX_PARAMS("", "Scatter", (9), DeprecatedScatterParams);
SONNX_KERNEL("", "Scatter", 9, scatter, Accuracy::Exact);
SONNX_SHAPE_RULE("", "Scatter", (9, 11), same_as_input_rule);
}  // namespace sonnx
