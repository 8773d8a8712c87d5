// GridSample's padding of a pixel coordinate and its index rule (reference/ops/GridSample.cpp),
// shared with its enclosure (enclose/enclose_gridsample.cpp).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "reference/ops/params/grid_sample.h"

namespace sonnx::support {

// v reflected into [twice_low / 2, twice_high / 2] (a triangle wave of period twice the span).
inline double grid_reflect(double v, double twice_low, double twice_high) {
  if (twice_low == twice_high) return 0;
  double lo = twice_low / 2, span = (twice_high - twice_low) / 2;
  v = std::fabs(v - lo);
  double extra = std::fmod(v, span);
  double flips = std::floor(v / span);
  return std::fmod(flips, 2.0) == 0 ? extra + lo : span - extra + lo;
}

// Applies border / reflection padding to a pixel coordinate along an axis of `size` pixels:
// border clamps to [0, size − 1]; reflection reflects about the corner pixels' centres (align) or
// their outer edges, −0.5 and size − 0.5, then clamps; zeros leaves it.
inline double grid_pad_coordinate(double v, int64_t size, GridPadding pad, bool align) {
  double hi = static_cast<double>(size - 1);
  if (pad == GridPadding::Border) return std::clamp(v, 0.0, hi);
  if (pad == GridPadding::Reflection) {
    v = align ? grid_reflect(v, 0, 2 * hi) : grid_reflect(v, -1, 2 * static_cast<double>(size) - 1);
    return std::clamp(v, 0.0, hi);
  }
  return v;
}

// Keeps a coordinate far outside the input (or NaN-free infinity) within int64 range: it only
// matters as "outside".
inline int64_t grid_index(double v) {
  if (!(v >= -1e15)) return int64_t{-1000000000000000};
  if (v > 1e15) return int64_t{1000000000000000};
  return static_cast<int64_t>(v);
}

}  // namespace sonnx::support
