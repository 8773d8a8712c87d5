// Centered enclosures: each element of a float tensor as a double-double midpoint and a radius, the
// interval [mid − rad, mid + rad]. Under the `real` semantics the operators of deep feed-forward
// networks (the sums of products, the pools, the arithmetic, the elementary functions and data
// movement; enclose_centered*.cpp, listed in enclose_centered.cpp) carry them beside the double
// bounds: double bounds are at least an ulp wide per operator, and a layer multiplies its input's
// width by about Σ|w|·|x| / |Σ w·x| (tens, on resnet18), so the rounding of the first layers, not
// the model, decided the width of the logits. Bounds::lo and hi stay the enclosure every other
// operator reads.
#pragma once
#include <memory>
#include <vector>

#include "double_double.h"
#include "enclose_ops.h"

namespace sonnx::enclose {

struct Centered {
  std::vector<double> hi, lo, rad;  // the midpoint hi[i] + lo[i] (normalized), the radius rad[i] ≥ 0
  explicit Centered(size_t n = 0) : hi(n), lo(n), rad(n) {}
  size_t size() const { return hi.size(); }
  DD mid(size_t i) const { return {hi[i], lo[i]}; }
  void set(size_t i, DD m, double r) {
    hi[i] = m.hi;
    lo[i] = m.lo;
    rad[i] = r;
  }
};

// The centered form of float bounds: the one an operator attached, or the midpoint and radius of
// lo and hi. Null where an element is unbounded or undefined.
std::shared_ptr<const Centered> centered_of(const Bounds& b);

// Bounds of `type` and `shape` from a centered form: lo and hi rounded outward, the form attached.
Bounds centered_bounds(DType type, const Shape& shape, std::shared_ptr<const Centered> c);

// Σ |x|·r_w + r_x·(|w| + r_w) over the terms of a product x·w of centered values (the radius of
// the product's sum); bound() rounds it up, with the relative error of its own round-to-nearest sum.
// Terms of two points count for nothing: the radius of a sum of points is 0.
class RadiusSum {
 public:
  void add(double x_hi, double x_rad, double w_hi, double w_rad) {
    if (x_rad == 0 && w_rad == 0) return;
    r_ += std::fabs(x_hi) * w_rad + x_rad * (std::fabs(w_hi) + w_rad);
    ++n_;
  }
  void add(double rad) {
    if (rad == 0) return;
    r_ += rad;
    ++n_;
  }
  // |x| ≤ |x.hi|·(1 + u); three roundings per term and the sum's γ_n: (1 + 1.01·(n + 4)·u), and
  // 3η per term in the subnormal range.
  double bound() const {
    constexpr double u = 0x1p-53, eta = 0x1p-1074;
    if (n_ == 0) return 0;
    double n = static_cast<double>(n_);
    return up(up(r_ * up(1 + 1.01 * (n + 4) * u)) + 3 * n * eta);
  }

 private:
  double r_ = 0;
  int64_t n_ = 0;
};

// a + b for non-negative bounds a and b, rounded up; exact where one is 0 (a point stays a point).
inline double add_up(double a, double b) { return a == 0 ? b : b == 0 ? a : up(a + b); }

// The centered element of a sum's value and its radius: the midpoint the sum's, the radius r plus
// the sum's error bound.
inline void set_sum(Centered& y, size_t i, const DDSum& sum, double r) {
  auto [m, err] = sum.result();
  y.set(i, m, add_up(r, err));
}

}  // namespace sonnx::enclose
