// Relies on memory_plan.mlw Plan.lower_bound_le_arena: every valid plan needs an arena at least the lower bound.
// Relies on memory_plan.mlw Planners.plan_in_order: for any order listing every value, the plan is valid: conflicting values never overlap.
// Relies on memory_plan.mlw Arena.arena_is_heap: under a valid plan, executing in the arena computes what executing on the heap computes: live values keep their heap contents, every kernel reading the arena computes the heap contents.
// Relies on memory_plan.mlw Concurrent.concurrent_run_is_sequential: the concurrent conflict relation is sufficient: on a plan valid for it, every run respecting the dependencies gives every value (and every read) its sequential contents.
#include "memory_plan.h"

#include <algorithm>
#include <set>
#include <tuple>
#include <string>
#include <utility>

namespace sonnx {

namespace {

struct Conflicts {
  const CompiledGraph& g;
  const MemoryPlan& p;
  // Per placed value: the steps that must be over before another value may reuse its bytes.
  const std::vector<std::vector<int>>& ends;
  bool before(int a, int b) const {  // a is dead before b is written, in every schedule
    for (int e : ends[static_cast<size_t>(a)])
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

std::vector<int> view_groups(const CompiledGraph& g, const std::function<bool(int, int)>& shares) {
  std::vector<int> root(g.num_slots(), -1);
  for (const Step& step : g.steps()) {
    if (!step.is_view()) continue;
    int x = step.inputs[0], s = step.outputs[0];
    if (x < 0 || s < 0 || g.producer(x) < 0 || g.steps()[static_cast<size_t>(g.producer(x))].blocked_output || !shares(x, s))
      continue;
    int r = root[static_cast<size_t>(x)];
    root[static_cast<size_t>(s)] = r >= 0 ? r : x;
  }
  return root;
}

MemoryPlan make_memory_plan(const CompiledGraph& g, const std::vector<int64_t>& tensor_bytes, Planner planner, bool concurrent) {
  MemoryPlan p;
  p.planner = planner;
  p.concurrent = concurrent;
  size_t m = g.num_slots();
  p.offset.assign(m, -1);
  p.bytes.assign(m, 0);
  p.first.assign(m, -1);
  p.last.assign(m, -1);
  std::vector<char> in_arena(m, 0);
  for (size_t s = 0; s < m; ++s) {
    int prod = g.producer(static_cast<int>(s));
    if (prod < 0 || g.is_output(static_cast<int>(s)) || tensor_bytes[s] < 0) continue;
    in_arena[s] = 1;
    p.bytes[s] = align(tensor_bytes[s]);
    p.first[s] = prod;
    p.last[s] = prod;
    for (int r : g.readers(static_cast<int>(s))) p.last[s] = std::max<int64_t>(p.last[s], r);
  }
  // A view group is placed as its first value, with the bytes and lifetime of the whole group.
  std::vector<int> view_of = view_groups(g, [&](int x, int s) {
    return in_arena[static_cast<size_t>(x)] && in_arena[static_cast<size_t>(s)];
  });
  std::vector<std::vector<int>> ends(m);  // per placed value: its group's readers (or producers)
  for (size_t s = 0; s < m; ++s) {
    if (!in_arena[s]) continue;
    int r = view_of[s];
    auto root = r >= 0 ? static_cast<size_t>(r) : s;
    p.bytes[root] = std::max(p.bytes[root], p.bytes[s]);
    p.last[root] = std::max(p.last[root], p.last[s]);
    const auto& readers = g.readers(static_cast<int>(s));
    if (readers.empty()) ends[root].push_back(g.producer(static_cast<int>(s)));
    ends[root].insert(ends[root].end(), readers.begin(), readers.end());
  }
  std::vector<int> placed;  // slots in the arena with bytes of their own
  for (size_t s = 0; s < m; ++s)
    if (in_arena[s] && view_of[s] < 0) placed.push_back(static_cast<int>(s));
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
    Conflicts c{g, p, ends};
    offsets = plan_offsets(planner, sizes, first, [&](size_t a, size_t b) { return c(placed[a], placed[b]); });
  }
  for (size_t k = 0; k < placed.size(); ++k) p.offset[static_cast<size_t>(placed[k])] = offsets[k];
  for (size_t s = 0; s < m; ++s)
    if (view_of[s] >= 0) p.offset[s] = p.offset[static_cast<size_t>(view_of[s])];
  p.arena_bytes = arena_size(sizes, offsets);
  p.lower_bound_bytes = live_lower_bound(sizes, first, last, static_cast<int64_t>(g.steps().size()));
  return p;
}

namespace {

// What the check knows of the graph, recomputed by walking the compiled steps (the schedule the
// plan is for): never the plan's own first/last, nor the graph's precomputed reader lists.
struct StepFacts {
  std::vector<int> producer;           // per slot: the first step writing it, -1 if none
  std::vector<int> last_reader;        // per slot: the last step reading it (inputs or captures), -1 if none
  std::vector<std::vector<int>> ends;  // per slot: the steps after which its bytes may be reused
};

StepFacts facts_from_steps(const CompiledGraph& g) {
  StepFacts f;
  size_t m = g.num_slots();
  f.producer.assign(m, -1);
  f.last_reader.assign(m, -1);
  std::vector<std::vector<int>> readers(m);
  const auto& steps = g.steps();
  for (size_t i = 0; i < steps.size(); ++i) {
    int step = static_cast<int>(i);
    for (int s : steps[i].outputs)
      if (s >= 0 && f.producer[static_cast<size_t>(s)] < 0) f.producer[static_cast<size_t>(s)] = step;
    auto read = [&](int s) {
      if (s < 0) return;
      auto& r = readers[static_cast<size_t>(s)];
      if (r.empty() || r.back() != step) r.push_back(step);
      f.last_reader[static_cast<size_t>(s)] = step;
    };
    for (int s : steps[i].inputs) read(s);
    for (int s : steps[i].captures) read(s);
  }
  f.ends.resize(m);
  for (size_t s = 0; s < m; ++s) f.ends[s] = readers[s].empty() ? std::vector<int>{f.producer[s]} : std::move(readers[s]);
  return f;
}

// reach[a] bit b: every schedule runs step a before step b (a path of reads a -> ... -> b), from
// the steps' reads of values other steps produce. Steps are numbered in a topological order
// (check_well_formed), so every edge goes forward and one backward sweep closes the relation.
std::vector<std::vector<uint64_t>> reachability_from_steps(const CompiledGraph& g, const StepFacts& f) {
  size_t n = g.steps().size(), words = (n + 63) / 64;
  std::vector<std::vector<int>> succ(n);
  for (size_t i = 0; i < n; ++i) {
    auto edge = [&](int s) {
      if (s < 0) return;
      int p = f.producer[static_cast<size_t>(s)];
      if (p >= 0 && p != static_cast<int>(i)) succ[static_cast<size_t>(p)].push_back(static_cast<int>(i));
    };
    for (int s : g.steps()[i].inputs) edge(s);
    for (int s : g.steps()[i].captures) edge(s);
  }
  std::vector<std::vector<uint64_t>> reach(n, std::vector<uint64_t>(words, 0));
  for (size_t a = n; a-- > 0;)
    for (int b : succ[a]) {
      auto ub = static_cast<size_t>(b);
      reach[a][ub / 64] |= uint64_t{1} << (ub % 64);
      for (size_t w = 0; w < words; ++w) reach[a][w] |= reach[ub][w];
    }
  return reach;
}

}  // namespace

std::string check_memory_plan(const CompiledGraph& g, const MemoryPlan& p) {
  size_t m = g.num_slots();
  if (p.offset.size() != m || p.bytes.size() != m) return "the plan is for another graph (slot count)";
  StepFacts f = facts_from_steps(g);
  std::vector<char> kept_out(m, 0);  // values that must keep their own buffers
  for (int s : g.input_slots()) kept_out[static_cast<size_t>(s)] = 1;
  for (int s : g.output_slots()) kept_out[static_cast<size_t>(s)] = 1;
  for (int s : g.outer_slots()) kept_out[static_cast<size_t>(s)] = 1;
  for (const auto& [s, v] : g.constants()) kept_out[static_cast<size_t>(s)] = 1;
  std::vector<int> placed;
  for (size_t s = 0; s < m; ++s) {
    if (p.offset[s] < 0) continue;
    std::string name = "'" + g.slot_name(static_cast<int>(s)) + "'";
    if (kept_out[s]) return name + " is a graph input, output, constant or outer value: it may not be in the arena";
    if (f.producer[s] < 0) return name + " is in the arena but no step produces it";
    if (p.offset[s] % kArenaAlignment != 0) return name + " is not aligned";
    if (p.bytes[s] < 0 || p.offset[s] + p.bytes[s] > p.arena_bytes) return name + " does not fit in the arena";
  }
  // The output of a view step at its input's offset shares its bytes (§8): the group is one value,
  // with the bytes of its largest member, alive from its first producer to every member's last reader.
  std::vector<int> view_of = view_groups(g, [&](int x, int s) {
    auto ux = static_cast<size_t>(x), us = static_cast<size_t>(s);
    return p.offset[ux] >= 0 && p.offset[us] == p.offset[ux];
  });
  std::vector<int64_t> bytes = p.bytes;
  for (size_t s = 0; s < m; ++s) {
    auto r = static_cast<size_t>(view_of[s]);
    if (p.offset[s] < 0) continue;
    if (view_of[s] < 0) {
      placed.push_back(static_cast<int>(s));
      continue;
    }
    bytes[r] = std::max(bytes[r], bytes[s]);
    f.ends[r].insert(f.ends[r].end(), f.ends[s].begin(), f.ends[s].end());
    f.last_reader[r] = std::max({f.last_reader[r], f.last_reader[s], f.producer[s]});
  }
  // Two placed values conflict when both may be live at once: with a sequential plan, when their
  // lifetimes [producer, last reader] in the schedule intersect (memory_plan.mlw, Plan.conflict);
  // with a concurrent one, unless one is dead before the other is written in every schedule.
  // Conflicting values must have separated byte ranges (Plan.valid_plan).
  std::vector<std::vector<uint64_t>> reach;
  bool known_order = !p.concurrent || g.steps().size() <= CompiledGraph::kMaxReachSteps;
  if (p.concurrent && known_order) reach = reachability_from_steps(g, f);
  auto precedes = [&](int a, int b) {
    auto ub = static_cast<size_t>(b);
    return (reach[static_cast<size_t>(a)][ub / 64] >> (ub % 64)) & 1;
  };
  auto dead_before = [&](size_t a, size_t b) {  // a's bytes are free before b is written, in every schedule
    for (int e : f.ends[a])
      if (!precedes(e, f.producer[b])) return false;
    return true;
  };
  auto last = [&](size_t s) { return std::max(f.producer[s], f.last_reader[s]); };
  auto conflict = [&](size_t a, size_t b) { return !known_order || (!dead_before(a, b) && !dead_before(b, a)); };
  auto overlap_error = [&](size_t a, size_t b) {
    return "'" + g.slot_name(static_cast<int>(a)) + "' and '" + g.slot_name(static_cast<int>(b)) +
           "' may be live together and overlap";
  };
  // Byte ranges [off, off + bytes) apart (memory_plan.mlw, Plan.separated).
  auto separated = [&](size_t a, size_t b) {
    return p.offset[a] + bytes[a] <= p.offset[b] || p.offset[b] + bytes[b] <= p.offset[a];
  };
  if (!p.concurrent) {
    // Sweep over the steps: values enter at their producer's step and leave after their last
    // reader's; the live ones are kept ordered by (offset, end). While the plan is valid they are
    // pairwise apart, so their ends grow with their offsets, and an entering value can only
    // overlap the live value just before it in that order or those starting inside its range.
    std::vector<int> by_first = placed, by_last = placed;
    std::sort(by_first.begin(), by_first.end(),
              [&](int a, int b) { return f.producer[static_cast<size_t>(a)] < f.producer[static_cast<size_t>(b)]; });
    std::sort(by_last.begin(), by_last.end(),
              [&](int a, int b) { return last(static_cast<size_t>(a)) < last(static_cast<size_t>(b)); });
    using Key = std::tuple<int64_t, int64_t, int>;  // offset, end, slot
    auto key = [&](size_t s) { return Key{p.offset[s], p.offset[s] + bytes[s], static_cast<int>(s)}; };
    std::set<Key> live;
    size_t gone = 0;
    for (int entering : by_first) {
      auto v = static_cast<size_t>(entering);
      for (; gone < by_last.size() && last(static_cast<size_t>(by_last[gone])) < f.producer[v]; ++gone)
        live.erase(key(static_cast<size_t>(by_last[gone])));
      auto it = live.lower_bound(key(v));
      if (it != live.begin()) {
        auto before = static_cast<size_t>(std::get<2>(*std::prev(it)));
        if (!separated(before, v)) return overlap_error(before, v);
      }
      for (; it != live.end() && std::get<0>(*it) < p.offset[v] + bytes[v]; ++it)
        if (!separated(static_cast<size_t>(std::get<2>(*it)), v)) return overlap_error(static_cast<size_t>(std::get<2>(*it)), v);
      live.insert(key(v));
    }
  } else {
    // Any two values may conflict: compare those whose byte ranges intersect, visited by offset.
    std::sort(placed.begin(), placed.end(),
              [&](int a, int b) { return p.offset[static_cast<size_t>(a)] < p.offset[static_cast<size_t>(b)]; });
    for (size_t i = 0; i < placed.size(); ++i) {
      auto a = static_cast<size_t>(placed[i]);
      for (size_t j = i + 1; j < placed.size(); ++j) {
        auto b = static_cast<size_t>(placed[j]);
        if (p.offset[b] >= p.offset[a] + bytes[a]) break;  // sorted: no later value starts inside a
        if (!separated(a, b) && conflict(a, b)) return overlap_error(a, b);
      }
    }
  }
  if (p.arena_bytes < p.lower_bound_bytes) return "arena below the lower bound";
  return "";
}

}  // namespace sonnx
