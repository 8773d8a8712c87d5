// The enclosure of SVMClassifier's pairwise coupling (Wu, Lin and Weng 2004, their second method,
// as libsvm iterates it; reference/ops/support/svm.h): from the k×k pair probabilities r, the class
// probabilities p that minimise pᵀQp subject to Σp = 1, Q_tt = Σ_{j≠t} r_jt², Q_tj = −r_jt·r_tj.
// The iteration stops once the optimality error max_t |(Qp)_t − pᵀQp| is below ε = 0.005/k, so the
// meaning of the output is every p it may stop at: Σp = 1 and every |(Qp)_t − pᵀQp| ≤ ε
// (spec/ops/SVMClassifier.md). With b = −pᵀQp that set is the solutions of the bordered system
//   M [p; b] = [ρ; σ],  M = [Q e; eᵀ 0],  |ρ_t| ≤ ε, σ = 1,
// over every Q the bounds of r allow. It is enclosed by Krawczyk's operator: with R ≈ M's midpoint
// inverse (double), z̃ = R [0; 1], C ⊇ I − R·M and g ⊇ R([ρ; σ] − M z̃) in interval arithmetic,
// α = ‖C‖∞ < 1 proves every M of the box invertible and every solution within β/(1 − α) of z̃
// (β = ‖g‖∞), and then z ∈ z̃ + g + C·[−β/(1 − α), β/(1 − α)] componentwise.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "interval.h"
#include "type_rounding.h"

namespace sonnx::enclose {

// What an admissible implementation may differ by: the type it computes in (float or wider). Its
// Q is the type's rounding of Q (each entry within γ_k relative); its stopping test is evaluated in
// the type (ε plus that evaluation's error); its renormalisations let Σp drift by one γ_3 per
// coordinate step over at most max(100, k) rounds of k steps.
struct SvmCouplingAllowance {
  const FloatFormat* type = nullptr;  // nullptr: the real semantics (exact arithmetic)
};

// p's enclosure for pair probabilities r (k×k row-major, r[i k + j] for i ≠ j), or an empty vector
// with `why` set where the bounds are too wide for the proof (α ≥ 1, or a midpoint matrix singular).
std::vector<Interval> svm_coupling_enclosure(const std::vector<Interval>& r, int64_t k, SvmCouplingAllowance allowance,
                                             std::string& why);

}  // namespace sonnx::enclose
