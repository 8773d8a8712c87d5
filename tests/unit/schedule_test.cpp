// Kahn's algorithm and the cycle read from what it leaves unscheduled (reference/model/schedule),
// against an independent oracle: the transitive closure of small random graphs.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "reference/model/schedule.h"

namespace sonnx {
namespace {

using Succ = std::vector<std::vector<size_t>>;

// reach[u][v]: a path of at least one edge from u to v (Warshall).
std::vector<std::vector<bool>> closure(const Succ& succ) {
  size_t n = succ.size();
  std::vector<std::vector<bool>> r(n, std::vector<bool>(n, false));
  for (size_t u = 0; u < n; ++u)
    for (size_t v : succ[u]) r[u][v] = true;
  for (size_t k = 0; k < n; ++k)
    for (size_t i = 0; i < n; ++i)
      if (r[i][k])
        for (size_t j = 0; j < n; ++j)
          if (r[k][j]) r[i][j] = true;
  return r;
}

Succ random_graph(std::mt19937& rng, size_t n, bool acyclic) {
  std::vector<size_t> perm(n);
  for (size_t i = 0; i < n; ++i) perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), rng);  // a hidden topological order
  Succ succ(n);
  size_t edges = n ? rng() % (2 * n + 1) : 0;
  for (size_t e = 0; e < edges; ++e) {
    size_t a = rng() % n, b = rng() % n;
    if (acyclic && a >= b) continue;
    succ[perm[a]].push_back(perm[b]);  // duplicates allowed
  }
  return succ;
}

TEST(Schedule, KahnOrdersEveryAcyclicGraphTopologically) {
  std::mt19937 rng(1);
  for (int trial = 0; trial < 500; ++trial) {
    size_t n = rng() % 20;
    Succ succ = random_graph(rng, n, true);
    auto order = kahn_order(n, succ);
    ASSERT_TRUE(order) << "trial " << trial;
    ASSERT_EQ(order->size(), n);
    std::vector<size_t> pos(n, n);
    for (size_t k = 0; k < n; ++k) pos[(*order)[k]] = k;
    for (size_t u = 0; u < n; ++u) {
      ASSERT_LT(pos[u], n) << "node " << u << " missing";
      for (size_t v : succ[u]) ASSERT_LT(pos[u], pos[v]) << "edge " << u << "->" << v << " goes backwards";
    }
  }
}

TEST(Schedule, KahnRejectsExactlyTheCyclicGraphs) {
  std::mt19937 rng(2);
  int cyclic = 0;
  for (int trial = 0; trial < 500; ++trial) {
    size_t n = 1 + rng() % 12;
    Succ succ = random_graph(rng, n, false);
    auto r = closure(succ);
    bool has_cycle = false;
    for (size_t u = 0; u < n; ++u) has_cycle = has_cycle || r[u][u];
    cyclic += has_cycle;
    ASSERT_EQ(!kahn_order(n, succ).has_value(), has_cycle) << "trial " << trial;
    std::vector<size_t> cycle = kahn_cycle(n, succ);
    ASSERT_EQ(!cycle.empty(), has_cycle) << "trial " << trial;
    std::vector<size_t> sorted = cycle;  // a cycle, not a walk: no node twice
    std::sort(sorted.begin(), sorted.end());
    ASSERT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end()) << "trial " << trial;
    for (size_t k = 0; k < cycle.size(); ++k) {  // consecutive nodes (and last -> first) are edges
      size_t u = cycle[k], v = cycle[(k + 1) % cycle.size()];
      ASSERT_NE(std::find(succ[u].begin(), succ[u].end(), v), succ[u].end()) << "no edge " << u << "->" << v;
    }
  }
  EXPECT_GT(cyclic, 50);  // the random graphs exercise both answers
  EXPECT_LT(cyclic, 450);
}

}  // namespace
}  // namespace sonnx
