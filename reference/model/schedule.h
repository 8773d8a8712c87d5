// Kahn's algorithm over a dependency graph of n nodes: the schedule used by the validator (to tell
// a cycle from an unsorted node list) and the executors. spec/execution.md gives the algorithm and
// proofs/ proves it: the result is a topological order of all n nodes, or nullopt iff there is a
// cycle. This code mirrors that WhyML program step by step.
#pragma once
#include <cstddef>
#include <optional>
#include <vector>

namespace sonnx {

// succ[u] lists the nodes that depend on u (an edge u -> v for each v in succ[u]; duplicates allowed).
std::optional<std::vector<size_t>> kahn_order(size_t n, const std::vector<std::vector<size_t>>& succ);

// Finds one cycle among the nodes (as a list of node indices in order), or an empty list.
std::vector<size_t> find_cycle(size_t n, const std::vector<std::vector<size_t>>& succ);

}  // namespace sonnx
