// What the quantization enclosures share (enclose_quantize.cpp: QuantizeLinear, DequantizeLinear;
// enclose_qlinear.cpp: QLinearMatMul, QLinearConv): reading any element as an interval, and storing
// a real enclosure as a quantized integer, rounded half to even, plus the zero point, saturated;
// decided where every real in the enclosure gives the same integer (spec/accuracy.md, "Admissible
// results", "Quantization").
#pragma once
#include <algorithm>
#include <string>
#include <utility>

#include "enclose_ops.h"
#include "reference/model/rounding.h"
#include "reference/ops/support/cast.h"
#include "sonnx/errors.h"

namespace sonnx::enclose::quantize_detail {

// Element i of any bounds: an integer's (or any exact value's) point, a float's interval.
inline Interval quant_value(const Bounds& b, int64_t i) { return b.exact() ? Interval::point(b.lo.as_double(i)) : at(b, i); }

// round_half_even(q) + zero_point saturated to `range`: nondecreasing in q (±∞ saturate), so the
// integer is decided where both ends of q's enclosure give the same one.
inline double quant_store(double q, double zero_point, std::pair<double, double> range) {
  return std::clamp(round_half_even(q) + zero_point, range.first, range.second);
}

// The quantized integer of the reals in q, or Undetermined naming the element (an undefined q
// decides nothing).
inline double quant_decide(const OpCall& c, int64_t element, Interval q, double zero_point, std::pair<double, double> range,
                           const char* what) {
  if (!q.has_nan()) {
    double lo = quant_store(q.lo, zero_point, range), hi = quant_store(q.hi, zero_point, range);
    if (lo == hi) return lo;
  }
  throw Undetermined(c.node.label() + ": element " + std::to_string(element) + " of its integer output is not determined at " +
                     "this input: " + what + " lies in [" + std::to_string(q.lo) + ", " + std::to_string(q.hi) +
                     "], which does not round to one integer");
}

// Integer values held as doubles (exact, in the type's range) as exact bounds of `type`.
inline Bounds quant_integers(const OpCall& c, const Tensor& values, DType type) {
  return Bounds::of(support::cast_tensor(c.ctx, values, type));
}

}  // namespace sonnx::enclose::quantize_detail
