#include "shrink.h"

namespace sonnx::fuzz {

Recipe shrink_recipe(Recipe r, const std::function<bool(const Recipe&)>& fails, int budget) {
  auto attempt = [&](const Recipe& cand) {
    if (budget <= 0) return false;
    --budget;
    if (!fails(cand)) return false;
    r = cand;
    return true;
  };
  bool progress = true;
  while (progress && budget > 0) {
    progress = false;
    // Drop chunks of choices, halving the chunk size (delta debugging), down to single choices.
    for (size_t chunk = std::max<size_t>(1, r.ops.size() / 2); chunk >= 1; chunk /= 2) {
      for (size_t i = 0; i + chunk <= r.ops.size();) {
        Recipe cand = r;
        cand.ops.erase(cand.ops.begin() + static_cast<long>(i), cand.ops.begin() + static_cast<long>(i + chunk));
        if (attempt(cand)) progress = true;
        else i += chunk;
      }
      if (chunk == 1) break;
    }
    // Smaller dims.
    for (int d = 1; d < r.max_dim; ++d) {
      Recipe cand = r;
      cand.max_dim = d;
      if (attempt(cand)) {
        progress = true;
        break;
      }
    }
    // Simpler per-choice randomness (seed 0), one choice at a time.
    for (size_t i = 0; i < r.ops.size(); ++i) {
      if (r.ops[i].seed == 0) continue;
      Recipe cand = r;
      cand.ops[i].seed = 0;
      if (attempt(cand)) progress = true;
    }
  }
  return r;
}

}  // namespace sonnx::fuzz
