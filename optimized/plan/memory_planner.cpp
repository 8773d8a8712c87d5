// Relies on memory_plan.mlw Plan.lower_bound_le_arena: every valid plan needs an arena at least the lower bound.
// Relies on memory_plan.mlw Blocks.place: place returns the lowest offset apart from every conflicting block.
// Relies on memory_plan.mlw Planners.plan_in_order: for any order listing every value, the plan is valid: conflicting values never overlap.
// Relies on memory_plan.mlw Planners.greedy_by_size: greedy by size: valid plan, every value fits, lower bound at most the arena.
// Relies on memory_plan.mlw Planners.first_fit: first fit: valid plan, every value fits, lower bound at most the arena.
#include "memory_planner.h"

#include <algorithm>
#include <numeric>
#include <cstdint>
#include <stdexcept>
#include <utility>

namespace sonnx {

Planner parse_planner(const std::string& name) {
  if (name == "greedy" || name == "greedy-by-size") return Planner::GreedyBySize;
  if (name == "first-fit") return Planner::FirstFit;
  throw std::invalid_argument("unknown planner '" + name + "' (greedy, first-fit)");
}

const char* planner_name(Planner p) { return p == Planner::GreedyBySize ? "greedy" : "first-fit"; }

int64_t place(int64_t size, const std::vector<std::pair<int64_t, int64_t>>& blocks) {
  int64_t best = 0;
  for (const auto& [o, s] : blocks) {
    if (best + size <= o) break;  // the gap [best, o) is large enough
    best = std::max(best, o + s);
  }
  return best;
}

std::vector<int64_t> plan_in_order(const std::vector<int64_t>& sizes, const std::vector<size_t>& order,
                                   const ConflictFn& conflicts) {
  std::vector<int64_t> off(sizes.size(), 0);
  std::vector<size_t> placed;
  std::vector<std::pair<int64_t, int64_t>> conf;
  for (size_t t : order) {
    conf.clear();
    for (size_t p : placed)
      if (p != t && conflicts(t, p)) conf.emplace_back(off[p], sizes[p]);
    std::sort(conf.begin(), conf.end());
    off[t] = place(sizes[t], conf);
    placed.push_back(t);
  }
  return off;
}

namespace {
std::vector<size_t> placement_order(Planner planner, const std::vector<int64_t>& sizes, const std::vector<int64_t>& first_step) {
  std::vector<size_t> order(sizes.size());
  std::iota(order.begin(), order.end(), size_t{0});
  if (planner == Planner::GreedyBySize)
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return sizes[a] > sizes[b]; });
  else std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return first_step[a] < first_step[b]; });
  return order;
}
}  // namespace

std::vector<int64_t> plan_offsets(Planner planner, const std::vector<int64_t>& sizes, const std::vector<int64_t>& first_step,
                                  const ConflictFn& conflicts) {
  return plan_in_order(sizes, placement_order(planner, sizes, first_step), conflicts);
}

std::vector<int64_t> plan_offsets_for_intervals(Planner planner, const std::vector<int64_t>& sizes,
                                                const std::vector<int64_t>& first, const std::vector<int64_t>& last) {
  std::vector<int64_t> off(sizes.size(), 0);
  int64_t steps = 0;
  for (int64_t l : last) steps = std::max(steps, l + 1);
  std::vector<std::vector<size_t>> live_at(static_cast<size_t>(steps));  // placed values live at each step
  std::vector<size_t> seen(sizes.size(), SIZE_MAX);                      // last t that collected each value
  std::vector<std::pair<int64_t, int64_t>> conf;
  for (size_t t : placement_order(planner, sizes, first)) {
    conf.clear();
    for (int64_t s = first[t]; s <= last[t]; ++s)
      for (size_t p : live_at[static_cast<size_t>(s)])
        if (std::exchange(seen[p], t) != t) conf.emplace_back(off[p], sizes[p]);
    std::sort(conf.begin(), conf.end());
    off[t] = place(sizes[t], conf);
    for (int64_t s = first[t]; s <= last[t]; ++s) live_at[static_cast<size_t>(s)].push_back(t);
  }
  return off;
}

int64_t arena_size(const std::vector<int64_t>& sizes, const std::vector<int64_t>& offsets) {
  int64_t a = 0;
  for (size_t t = 0; t < sizes.size(); ++t) a = std::max(a, offsets[t] + sizes[t]);
  return a;
}

int64_t live_lower_bound(const std::vector<int64_t>& sizes, const std::vector<int64_t>& first, const std::vector<int64_t>& last,
                         int64_t steps) {
  // Sweep: add each value's size at its first step, remove it after its last.
  std::vector<int64_t> delta(static_cast<size_t>(steps) + 1, 0);
  for (size_t t = 0; t < sizes.size(); ++t) {
    delta[static_cast<size_t>(first[t])] += sizes[t];
    delta[static_cast<size_t>(last[t]) + 1] -= sizes[t];
  }
  int64_t live = 0, lb = 0;
  for (int64_t s = 0; s < steps; ++s) lb = std::max(lb, live += delta[static_cast<size_t>(s)]);
  return lb;
}

}  // namespace sonnx
