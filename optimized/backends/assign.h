// Profile-guided device assignment (`--assign profile`; ONE's HEScheduler, after HEFT: Topcuoglu,
// Hariri and Wu 2002). A profiling run measures every main-graph node on every device of the set
// that runs it (each node alone as a step, fed the values the reference computes for the given
// inputs), and the cost of copying a MiB at a device boundary. Nodes are then taken by upward rank
// (a node's mean time plus the longest ranked path after it, copies included) and each goes to the
// device where it would finish first, given when that device is free and when its inputs arrive
// (a copy when they come from another device). The measurements are cached by model, input
// shapes, devices and machine (device_cache.h).
#pragma once
#include <memory>
#include <vector>

#include "backend.h"
#include "partition.h"

namespace sonnx {

// A node that no device of `devices` runs goes to cpu when `allow_fallback`, else Unsupported
// (as partition). Returns the options that make partition() follow the assignment.
PartitionOptions assign_by_profile(const Model& model, const std::vector<std::shared_ptr<Backend>>& devices,
                                   const NamedValues& inputs, bool allow_fallback, bool use_cache = true);

// The plan for exactly the device set `set`: cpu is the fallback only when it is in the set; nodes
// go first-fit or, with `by_profile`, by profile-guided assignment on `inputs`.
ExecutionPlan plan_for_device_set(const Model& model, const std::vector<std::shared_ptr<Backend>>& set, bool by_profile,
                                  const NamedValues& inputs, bool use_cache = true);

// HEFT itself, on measured costs: cost[i][d] (< 0: device d cannot run node i), the nodes'
// successors with the MiB each edge carries, and the copy cost per MiB. Fills placement, order
// and each node's predicted start and finish; returns the predicted makespan (ms).
double heft_schedule(const std::vector<std::vector<double>>& cost,
                     const std::vector<std::vector<std::pair<size_t, double>>>& succ, double copy_ms_per_mib,
                     std::vector<size_t>& placement, std::vector<size_t>& order, std::vector<NodeCost>& timeline);

}  // namespace sonnx
