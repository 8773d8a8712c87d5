// Offset assignment for the arena: spec/memory_plan.md §3–4, proved in spec/memory_plan.mlw.
// Values are numbered 0..m-1; `conflicts(a, b)` says whether two values may be live at the same
// time (interval overlap for a fixed order; "may overlap in some schedule" for the dataflow and
// parallel executors). Every planner places values one at a time at the lowest offset apart
// from the conflicting values already placed, so the plan is valid whatever the order.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace sonnx {

enum class Planner { GreedyBySize, FirstFit };
Planner parse_planner(const std::string& name);  // "greedy" | "first-fit"; throws std::invalid_argument
const char* planner_name(Planner p);

using ConflictFn = std::function<bool(size_t, size_t)>;

// The lowest offset where `size` bytes fit apart from `blocks` (offset, size), sorted by offset.
int64_t place(int64_t size, const std::vector<std::pair<int64_t, int64_t>>& blocks);

// Places the values in `order` (each value once); returns the offset of each value.
std::vector<int64_t> plan_in_order(const std::vector<int64_t>& sizes, const std::vector<size_t>& order,
                                   const ConflictFn& conflicts);

// greedy-by-size: largest first (ties: lower number first). first-fit: by first step, then number.
std::vector<int64_t> plan_offsets(Planner planner, const std::vector<int64_t>& sizes, const std::vector<int64_t>& first_step,
                                  const ConflictFn& conflicts);

// The same plan as plan_offsets with the interval conflict relation (first[a] <= last[b] and
// first[b] <= last[a]), found through the values live at each step instead of every placed value:
// near-linear for graphs whose values live briefly (100,000-node graphs plan in milliseconds).
std::vector<int64_t> plan_offsets_for_intervals(Planner planner, const std::vector<int64_t>& sizes,
                                                const std::vector<int64_t>& first, const std::vector<int64_t>& last);

int64_t arena_size(const std::vector<int64_t>& sizes, const std::vector<int64_t>& offsets);

// max over steps s of the bytes of the values with first ≤ s ≤ last.
int64_t live_lower_bound(const std::vector<int64_t>& sizes, const std::vector<int64_t>& first, const std::vector<int64_t>& last,
                         int64_t steps);

}  // namespace sonnx
