#include "dependencies.h"

#include <algorithm>
#include <unordered_set>

#include "reference/model/names.h"
#include "reference/model/schedule.h"

namespace sonnx {

void DependencyGraph::add_edges() {
  size_t n = writer_of_read_.size();
  successors_.assign(n, {});
  num_predecessors_.assign(n, 0);
  std::vector<int> from;
  for (size_t i = 0; i < n; ++i) {
    from.clear();
    for (int p : writer_of_read_[i])
      if (p >= 0) from.push_back(p);
    std::sort(from.begin(), from.end());
    from.erase(std::unique(from.begin(), from.end()), from.end());
    num_predecessors_[i] = static_cast<int>(from.size());
    for (int p : from) successors_[static_cast<size_t>(p)].push_back(static_cast<int>(i));
  }
}

namespace {
std::vector<std::vector<size_t>> as_sizes(const std::vector<std::vector<int>>& succ) {
  std::vector<std::vector<size_t>> out(succ.size());
  for (size_t i = 0; i < succ.size(); ++i) out[i].assign(succ[i].begin(), succ[i].end());
  return out;
}
}  // namespace

std::optional<std::vector<size_t>> DependencyGraph::topological_order() const {
  return kahn_order(size(), as_sizes(successors_));
}

std::vector<size_t> DependencyGraph::cycle() const { return kahn_cycle(size(), as_sizes(successors_)); }

std::vector<std::string> node_reads(const Node& n) {
  std::vector<std::string> r;
  std::unordered_set<std::string> seen;  // a Concat may read thousands of values
  auto read = [&](const std::string& s) {
    if (!s.empty() && seen.insert(s).second) r.push_back(s);
  };
  for (const auto& s : n.inputs) read(s);
  bool has_subgraph = false;
  for (const auto& a : n.attributes) has_subgraph = has_subgraph || a.g || !a.graphs.empty();
  if (has_subgraph)
    for (const auto& s : implicit_inputs(n)) read(s);
  return r;
}

DependencyGraph node_dependencies(const Graph& g, std::vector<std::vector<std::string>>* reads) {
  std::vector<std::vector<std::string>> writes, own_reads;
  std::vector<std::vector<std::string>>& r = reads ? *reads : own_reads;
  writes.reserve(g.nodes.size());
  r.clear();
  r.reserve(g.nodes.size());
  for (const Node& n : g.nodes) {
    writes.push_back(n.outputs);
    r.push_back(node_reads(n));
  }
  return DependencyGraph(writes, r);
}

}  // namespace sonnx
