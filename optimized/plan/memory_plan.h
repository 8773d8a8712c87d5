// The memory plan of one graph for one input-shape signature: each intermediate tensor's offset
// in the arena (spec/memory_plan.md). Graph inputs, initializers, graph outputs, strings,
// sequences and optionals are not in the arena.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "compiled_graph.h"
#include "memory_planner.h"

namespace sonnx {

constexpr int64_t kArenaAlignment = 64;  // bytes; every offset and planned size is a multiple

// A foldable step (Step::foldable) as the planning run computed it: what it read (of a Shape or
// Size, only the shape) and what it produced.
struct FoldedStep {
  std::vector<Value> inputs;
  std::vector<Value> outputs;
};

struct MemoryPlan {
  Planner planner = Planner::GreedyBySize;
  bool concurrent = false;           // safe for any schedule, including concurrent steps
  std::vector<int64_t> offset;       // per slot; -1 when the slot is not in the arena
  std::vector<int64_t> bytes;        // per slot: planned bytes (aligned), 0 when not in the arena
  std::vector<int64_t> first, last;  // per slot: lifetime in steps of the schedule (-1: not placed)
  int64_t arena_bytes = 0;
  int64_t lower_bound_bytes = 0;  // max over steps of the bytes live at that step
  // per step: the foldable step's record from the planning run, null when it is not kept
  std::vector<std::shared_ptr<const FoldedStep>> folded;
};

// View groups (spec/memory_plan.md §8): per slot, the first value of its group, or -1 when it is
// not the output of a view step (Step::is_view) whose input is in a plain layout and `shares` it:
// shares(x, s) says whether the output s may take the bytes of the input x. A group is one value
// of the theory: its bytes are its first value's, its lifetime the union of its members'.
std::vector<int> view_groups(const CompiledGraph& g, const std::function<bool(int, int)>& shares);

// `tensor_bytes[s]`: the bytes of slot s's tensor as produced on a run with this signature, or -1
// when it is not a tensor that can live in the arena. With `concurrent`, two values conflict
// unless every step touching one finishes before the other's producer starts in every schedule
// (CompiledGraph::precedes); otherwise, when their lifetimes in the schedule overlap.
MemoryPlan make_memory_plan(const CompiledGraph& g, const std::vector<int64_t>& tensor_bytes, Planner planner, bool concurrent);

// Checks the plan's invariant (spec/memory_plan.md §2, memory_plan.mlw Plan.valid_plan and within)
// against the conflict relation it was made for; returns a description of the first violation, or
// "" when valid. Lifetimes (producer, readers) and, for a concurrent plan, the order between steps
// are recomputed by walking the compiled steps, never read from the plan (its first/last) or the
// graph's precomputed tables, so a plan that shortened a lifetime is caught. Runs in every build on
// every plan that enters a CompiledModel's cache (CompiledModel::add_plan); cheap: linear in the
// steps plus the pairs of values whose byte ranges intersect.
std::string check_memory_plan(const CompiledGraph& g, const MemoryPlan& plan);

}  // namespace sonnx
