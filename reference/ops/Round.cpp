// Round: elementwise nearest integer, halves to the nearest even integer (version 11).
// ±0, ±inf and NaN are returned unchanged.
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {

double round_half_even(double x) {
  if (!std::isfinite(x)) return x;
  double f = std::floor(x);
  double diff = x - f;  // exact for doubles in [0, 1)
  double r;
  if (diff < 0.5) r = f;
  else if (diff > 0.5) r = f + 1.0;
  else r = std::fmod(f, 2.0) == 0.0 ? f : f + 1.0;  // a tie: pick the even neighbour
  return std::copysign(r, x);  // keeps -0 for inputs in [-0.5, -0]
}

std::vector<Value> round_kernel(OpContext& ctx) { return one(float_unary(ctx, ctx.input(0), round_half_even)); }
}  // namespace
SONNX_KERNEL("", "Round", 11, round_kernel, Accuracy::Exact);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "Round", 22, round_kernel, Accuracy::Exact);
SONNX_SHAPE_RULE("", "Round", (11, 22), same_as_input_rule);
}  // namespace sonnx
