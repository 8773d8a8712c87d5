// Which steps of a graph wait for which: the one dependency graph the validator, type inference,
// the compiled graph, the device partitioner and assigner, and the executors' schedulers read.
// A step writes some values and reads some; it waits for the step that writes each value it reads.
// A value no step writes (an input, a constant, an outer value) makes no edge; a step that reads
// its own output waits for itself (a cycle, as spec/structure.md STRUCT-ACYCLIC counts it).
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "reference/model/ir.h"

namespace sonnx {

class DependencyGraph {
 public:
  DependencyGraph() = default;
  // writes[i] and reads[i]: the values step i writes and reads (any hashable key; empty strings
  // and negative numbers mean "absent"). A value written by several steps belongs to the first.
  template <class Key>
  DependencyGraph(const std::vector<std::vector<Key>>& writes, const std::vector<std::vector<Key>>& reads);

  size_t size() const { return num_predecessors_.size(); }
  // Per step: the steps that wait for it (increasing, each once), and how many steps it waits for.
  const std::vector<std::vector<int>>& successors() const { return successors_; }
  const std::vector<int>& num_predecessors() const { return num_predecessors_; }
  // The step that writes the k-th value step i reads (-1: no step does).
  int writer(size_t i, size_t k) const { return writer_of_read_[i][k]; }
  // Kahn's order of the steps (reference/model/schedule.h), or nullopt on a cycle.
  std::optional<std::vector<size_t>> topological_order() const;
  // One cycle, in edge order, or empty when there is none (kahn_cycle).
  std::vector<size_t> cycle() const;

 private:
  void add_edges();  // from writer_of_read_
  std::vector<std::vector<int>> successors_, writer_of_read_;
  std::vector<int> num_predecessors_;
};

// Every value a node reads: its inputs in order, then what its subgraphs capture from enclosing
// scopes (implicit_inputs), each once.
std::vector<std::string> node_reads(const Node& n);

// The dependencies between a graph's nodes: node i reads node_reads(g.nodes[i]) and writes its
// outputs. `reads`, when given, receives those lists (DependencyGraph::writer indexes them).
DependencyGraph node_dependencies(const Graph& g, std::vector<std::vector<std::string>>* reads = nullptr);

namespace detail {
inline bool absent(const std::string& s) { return s.empty(); }
inline bool absent(int s) { return s < 0; }
}  // namespace detail

template <class Key>
DependencyGraph::DependencyGraph(const std::vector<std::vector<Key>>& writes, const std::vector<std::vector<Key>>& reads) {
  std::unordered_map<Key, int> writer;
  for (size_t i = 0; i < writes.size(); ++i)
    for (const Key& v : writes[i])
      if (!detail::absent(v)) writer.emplace(v, static_cast<int>(i));
  writer_of_read_.resize(writes.size());
  for (size_t i = 0; i < reads.size() && i < writes.size(); ++i)
    for (const Key& v : reads[i]) {
      auto it = detail::absent(v) ? writer.end() : writer.find(v);
      writer_of_read_[i].push_back(it == writer.end() ? -1 : it->second);
    }
  add_edges();
}

}  // namespace sonnx
