// Relies on execution.mlw Kahn.kahn: Kahn's algorithm returns a topological order of every node, or reports a cycle exactly when there is one.
// Relies on composition.mlw Validated.validated_schedule: on a graph satisfying STRUCT-SSA and STRUCT-DEFINED, Kahn's algorithm on the successor lists succeeds iff STRUCT-ACYCLIC holds, and its order is then a complete execution.
// Relies on execution.mlw Schedule.kahn_order_topological: on the successor lists of a graph, an order in which every edge goes forward (Kahn's success) is a Dataflow.topological order.
// Relies on execution.mlw Schedule.schedule: Kahn's algorithm on the successor lists of a graph returns a Dataflow.topological order (a complete execution, kahn_order_runs), or fails only when the graph has no topological order.
// Relies on composition.mlw Recursion.kahn_decides_recursion: Kahn's algorithm on the call graph schedules every function iff FUNC-RECURSION holds, and then every call goes forward in its order.
#include "schedule.h"

#include <algorithm>
#include <deque>

namespace sonnx {

std::vector<size_t> kahn_popped(size_t n, const std::vector<std::vector<size_t>>& succ) {
  std::vector<size_t> indegree(n, 0);
  for (size_t u = 0; u < n; ++u)
    for (size_t v : succ[u]) ++indegree[v];
  std::deque<size_t> ready;  // FIFO of nodes whose predecessors are all scheduled
  for (size_t u = 0; u < n; ++u)
    if (indegree[u] == 0) ready.push_back(u);
  std::vector<size_t> order;
  order.reserve(n);
  while (!ready.empty()) {
    size_t u = ready.front();
    ready.pop_front();
    order.push_back(u);
    for (size_t v : succ[u])
      if (--indegree[v] == 0) ready.push_back(v);
  }
  return order;
}

std::optional<std::vector<size_t>> kahn_order(size_t n, const std::vector<std::vector<size_t>>& succ) {
  std::vector<size_t> order = kahn_popped(n, succ);
  if (order.size() < n) return std::nullopt;  // the unscheduled nodes all wait on each other: a cycle
  return order;
}

std::vector<size_t> kahn_cycle(size_t n, const std::vector<std::vector<size_t>>& succ) {
  std::vector<size_t> popped = kahn_popped(n, succ);
  if (popped.size() == n) return {};
  std::vector<bool> left(n, true);
  for (size_t u : popped) left[u] = false;
  // One predecessor inside the unscheduled set for each unscheduled node (it exists: its in-degree
  // from unpopped nodes is still positive when the queue runs dry).
  std::vector<size_t> pred(n, n);
  for (size_t u = 0; u < n; ++u)
    if (left[u])
      for (size_t v : succ[u])
        if (left[v] && pred[v] == n) pred[v] = u;
  size_t start = 0;
  while (!left[start]) ++start;
  // Walk back n steps: after them the walk is inside a cycle; then follow it until it closes.
  size_t w = start;
  for (size_t i = 0; i < n; ++i) w = pred[w];
  std::vector<size_t> cycle{w};
  for (size_t x = pred[w]; x != w; x = pred[x]) cycle.push_back(x);
  std::reverse(cycle.begin(), cycle.end());  // predecessors were followed: reverse to edge order
  return cycle;
}

}  // namespace sonnx
