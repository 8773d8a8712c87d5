// Shrinking a failing recipe to a minimal one: fewest operator choices, then the smallest
// dimension bound, then the simplest per-operator seeds, keeping only changes that still fail.
#pragma once
#include <functional>

#include "recipe.h"

namespace sonnx::fuzz {

// `fails` rebuilds and re-checks a candidate; `budget` bounds the number of candidates tried.
Recipe shrink_recipe(Recipe r, const std::function<bool(const Recipe&)>& fails, int budget = 400);

}  // namespace sonnx::fuzz
