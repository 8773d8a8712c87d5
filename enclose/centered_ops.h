// What the centered enclosures (enclose_centered*.cpp) share: each operator's centered enclosure,
// which returns nullopt where it does not apply, and the helpers they build on. In a named
// namespace: the unity build joins these files with the ordinary enclosures' (conv, gemm, ...).
#pragma once
#include <mpfr.h>

#include <optional>

#include "centered.h"

namespace sonnx::enclose::centered_ops {

using CenteredPtr = std::shared_ptr<const Centered>;
using Result = std::optional<std::vector<Bounds>>;
constexpr double kU = 0x1p-53, kEta = 0x1p-1074;

// The centered form of input k (a float tensor), or null.
inline CenteredPtr centered_input(const OpCall& c, size_t k) { return centered_of(float_input(c, k)); }

// Output bounds of input 0's type from a centered form.
inline Bounds output(const OpCall& c, const Shape& shape, Centered y) {
  return centered_bounds(c.input(0).type, shape, std::make_shared<const Centered>(std::move(y)));
}

// An MPFR value within `err` of a real as a centered double-double (enclose_centered.cpp).
std::pair<DD, double> to_centered(const mpfr_t v, double err);

// enclose_centered.cpp
Result movement(const OpCall& c);
// enclose_centered_arith.cpp
Result relu(const OpCall& c);
Result add(const OpCall& c);
Result sub(const OpCall& c);
Result mul(const OpCall& c);
Result div(const OpCall& c);
Result sin(const OpCall& c);
Result cos(const OpCall& c);
Result exp(const OpCall& c);
Result log(const OpCall& c);
Result sqrt(const OpCall& c);
Result tanh(const OpCall& c);
Result erf(const OpCall& c);
Result sigmoid(const OpCall& c);
// enclose_centered_linear.cpp
Result conv(const OpCall& c);
Result gemm(const OpCall& c);
Result matmul(const OpCall& c);
Result batch_normalization(const OpCall& c);
Result max_pool(const OpCall& c);
Result global_average_pool(const OpCall& c);

}  // namespace sonnx::enclose::centered_ops
