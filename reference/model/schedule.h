// Kahn's algorithm over a dependency graph of n nodes: the schedule used by the validator (to tell
// a cycle from an unsorted node list, and to find recursion among functions) and the executors.
// spec/execution.md gives the algorithm and proofs/ proves it: the result is a topological order of
// all n nodes, or fewer nodes iff there is a cycle. This code mirrors that WhyML program step by step.
#pragma once
#include <cstddef>
#include <optional>
#include <vector>

namespace sonnx {

// succ[u] lists the nodes that depend on u (an edge u -> v for each v in succ[u]; duplicates allowed).
// The nodes Kahn's algorithm pops, in order: all n of them iff the graph has no cycle (`Kahn.kahn`).
std::vector<size_t> kahn_popped(size_t n, const std::vector<std::vector<size_t>>& succ);

// The full topological order, or nullopt iff there is a cycle.
std::optional<std::vector<size_t>> kahn_order(size_t n, const std::vector<std::vector<size_t>>& succ);

// One cycle (node indices in edge order: each node has an edge to the next, the last to the first),
// or an empty list when Kahn's algorithm schedules every node. The cycle is read from what Kahn's
// algorithm leaves unscheduled, as the proof of `Kahn.kahn` closes it: every unscheduled node has
// an unscheduled predecessor, so walking from predecessor to predecessor n times inside that set
// repeats a node (pigeonhole), and the walk between the two visits is a cycle.
std::vector<size_t> kahn_cycle(size_t n, const std::vector<std::vector<size_t>>& succ);

}  // namespace sonnx
