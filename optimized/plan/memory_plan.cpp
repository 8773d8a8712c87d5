// Relies on memory_plan.mlw Plan.lower_bound_le_arena: every valid plan needs an arena at least the lower bound.
// Relies on memory_plan.mlw Planners.plan_in_order: for any order listing every value, the plan is valid: conflicting values never overlap.
// Relies on memory_plan.mlw Arena.arena_is_heap: under a valid plan, executing in the arena computes what executing on the heap computes: live values keep their heap contents, every kernel reading the arena computes the heap contents.
// Relies on memory_plan.mlw Concurrent.concurrent_run_is_sequential: the concurrent conflict relation is sufficient: on a plan valid for it, every run respecting the dependencies gives every value (and every read) its sequential contents.
#include "memory_plan.h"

#include <algorithm>
#include <string>
#include <utility>

namespace sonnx {

namespace {

struct Conflicts {
  const CompiledGraph& g;
  const MemoryPlan& p;
  // The steps that must be over before another value may reuse this slot's bytes.
  std::vector<int> ends(int s) const {
    const auto& r = g.readers(s);
    return r.empty() ? std::vector<int>{g.producer(s)} : r;
  }
  bool before(int a, int b) const {  // a is dead before b is written, in every schedule
    for (int e : ends(a))
      if (!g.precedes(e, g.producer(b))) return false;
    return true;
  }
  bool operator()(int a, int b) const {
    auto ua = static_cast<size_t>(a), ub = static_cast<size_t>(b);
    if (p.concurrent) return !g.has_reachability() || (!before(a, b) && !before(b, a));
    return p.first[ua] <= p.last[ub] && p.first[ub] <= p.last[ua];
  }
};

int64_t align(int64_t n) { return (n + kArenaAlignment - 1) / kArenaAlignment * kArenaAlignment; }

}  // namespace

MemoryPlan make_memory_plan(const CompiledGraph& g, const std::vector<int64_t>& tensor_bytes, Planner planner,
                            bool concurrent) {
  MemoryPlan p;
  p.planner = planner;
  p.concurrent = concurrent;
  size_t m = g.num_slots();
  p.offset.assign(m, -1);
  p.bytes.assign(m, 0);
  p.first.assign(m, -1);
  p.last.assign(m, -1);
  std::vector<int> placed;  // slots in the arena
  for (size_t s = 0; s < m; ++s) {
    int prod = g.producer(static_cast<int>(s));
    if (prod < 0 || g.is_output(static_cast<int>(s)) || tensor_bytes[s] < 0) continue;
    p.bytes[s] = align(tensor_bytes[s]);
    p.first[s] = prod;
    p.last[s] = prod;
    for (int r : g.readers(static_cast<int>(s))) p.last[s] = std::max<int64_t>(p.last[s], r);
    placed.push_back(static_cast<int>(s));
  }
  std::vector<int64_t> sizes, first, last;
  for (int s : placed) {
    sizes.push_back(p.bytes[static_cast<size_t>(s)]);
    first.push_back(p.first[static_cast<size_t>(s)]);
    last.push_back(p.last[static_cast<size_t>(s)]);
  }
  std::vector<int64_t> offsets;
  if (concurrent && !g.has_reachability()) {
    // Too many steps to know which may run together: give every value its own bytes.
    int64_t at = 0;
    for (int64_t sz : sizes) offsets.push_back(std::exchange(at, at + sz));
  } else if (!concurrent) {
    offsets = plan_offsets_for_intervals(planner, sizes, first, last);
  } else {
    Conflicts c{g, p};
    offsets = plan_offsets(planner, sizes, first, [&](size_t a, size_t b) { return c(placed[a], placed[b]); });
  }
  for (size_t k = 0; k < placed.size(); ++k) p.offset[static_cast<size_t>(placed[k])] = offsets[k];
  p.arena_bytes = arena_size(sizes, offsets);
  p.lower_bound_bytes = live_lower_bound(sizes, first, last, static_cast<int64_t>(g.steps().size()));
  return p;
}

std::string check_memory_plan(const CompiledGraph& g, const MemoryPlan& p) {
  Conflicts c{g, p};
  std::vector<int> placed;
  for (size_t s = 0; s < p.offset.size(); ++s)
    if (p.offset[s] >= 0) placed.push_back(static_cast<int>(s));
  for (int a : placed) {
    auto ua = static_cast<size_t>(a);
    if (p.offset[ua] + p.bytes[ua] > p.arena_bytes) return "'" + g.slot_name(a) + "' does not fit in the arena";
    for (int b : placed) {
      auto ub = static_cast<size_t>(b);
      if (a >= b || !c(a, b)) continue;
      if (p.offset[ua] + p.bytes[ua] > p.offset[ub] && p.offset[ub] + p.bytes[ub] > p.offset[ua])
        return "'" + g.slot_name(a) + "' and '" + g.slot_name(b) + "' may be live together and overlap";
    }
  }
  if (p.arena_bytes < p.lower_bound_bytes) return "arena below the lower bound";
  return "";
}

}  // namespace sonnx
