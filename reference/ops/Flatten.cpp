// Flatten: reshapes to 2-D [d_0*...*d_(axis-1), d_axis*...*d_n]; axis in [-r, r] (negative from
// version 11; accepted throughout), default 1.
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> flatten(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  int64_t rank = x.rank();
  int64_t axis = ctx.attr_int("axis", 1);
  if (axis < -rank || axis > rank)
    ctx.fail("axis " + std::to_string(axis) + " is out of range [-" + std::to_string(rank) + ", " + std::to_string(rank) + "]");
  if (axis < 0) axis += rank;
  Shape out{element_count(x.shape(), 0, static_cast<size_t>(axis)),
            element_count(x.shape(), static_cast<size_t>(axis), x.shape().size())};
  return one(x.reshaped(out));
}
}  // namespace
SONNX_KERNEL("", "Flatten", 1, flatten, Accuracy::Exact);

// Versions 21, 23, 24, 25 only widen the type lists (the documents' text and
// structure are unchanged): the same kernel.
SONNX_KERNEL("", "Flatten", 21, flatten, Accuracy::Exact);
SONNX_KERNEL("", "Flatten", 23, flatten, Accuracy::Exact);
SONNX_KERNEL("", "Flatten", 24, flatten, Accuracy::Exact);
SONNX_KERNEL("", "Flatten", 25, flatten, Accuracy::Exact);
}  // namespace sonnx
