// Relies on execution.mlw Kahn.kahn: Kahn's algorithm returns a topological order of every node, or reports a cycle exactly when there is one.
// Relies on composition.mlw Validated.validated_schedule: on a graph satisfying STRUCT-SSA and STRUCT-DEFINED, Kahn's algorithm on the successor lists succeeds iff STRUCT-ACYCLIC holds, and its order is then a complete execution.
// Relies on execution.mlw Schedule.kahn_order_topological: on the successor lists of a graph, an order in which every edge goes forward (Kahn's success) is a Dataflow.topological order.
// Relies on execution.mlw Schedule.schedule: Kahn's algorithm on the successor lists of a graph returns a Dataflow.topological order (a complete execution, kahn_order_runs), or fails only when the graph has no topological order.
#include "schedule.h"

#include <deque>

namespace sonnx {

std::optional<std::vector<size_t>> kahn_order(size_t n, const std::vector<std::vector<size_t>>& succ) {
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
  if (order.size() < n) return std::nullopt;  // the unscheduled nodes all wait on each other: a cycle
  return order;
}

std::vector<size_t> find_cycle(size_t n, const std::vector<std::vector<size_t>>& succ) {
  // Iterative depth-first search (no recursion: graphs may have 100,000s of nodes).
  enum : char { White, Grey, Black };
  std::vector<char> color(n, White);
  std::vector<size_t> parent(n, n);
  for (size_t root = 0; root < n; ++root) {
    if (color[root] != White) continue;
    std::vector<std::pair<size_t, size_t>> stack{{root, 0}};
    color[root] = Grey;
    while (!stack.empty()) {
      auto& [u, next] = stack.back();
      if (next < succ[u].size()) {
        size_t v = succ[u][next++];
        if (color[v] == White) {
          color[v] = Grey;
          parent[v] = u;
          stack.emplace_back(v, 0);
        } else if (color[v] == Grey) {
          // The tree path v -> ... -> u plus the edge u -> v closes the cycle.
          std::vector<size_t> path;
          for (size_t w = u; w != v; w = parent[w]) path.push_back(w);
          path.push_back(v);
          return {path.rbegin(), path.rend()};
        }
      } else {
        color[u] = Black;
        stack.pop_back();
      }
    }
  }
  return {};
}

}  // namespace sonnx
