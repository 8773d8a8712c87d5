#include "mutate.h"

#include <map>
#include <set>
#include <vector>

namespace sonnx::fuzz {

const char* mutation_name(Mutation m) {
  switch (m) {
    case Mutation::DropEdge: return "drop-edge";
    case Mutation::DuplicateOutput: return "duplicate-output";
    case Mutation::Cycle: return "cycle";
  }
  return "?";
}

const char* expected_rule(Mutation m) {
  switch (m) {
    case Mutation::DropEdge: return "STRUCT-DEFINED";
    case Mutation::DuplicateOutput: return "STRUCT-SSA";
    case Mutation::Cycle: return "STRUCT-ACYCLIC";
  }
  return "?";
}

namespace {

size_t pick(std::mt19937_64& rng, size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); }

}  // namespace

std::optional<onnx::ModelProto> mutate(const onnx::ModelProto& model, Mutation m, std::mt19937_64& rng) {
  onnx::ModelProto out = model;
  auto* g = out.mutable_graph();
  int n = g->node_size();
  if (n == 0) return std::nullopt;
  std::map<std::string, int> producer;
  for (int i = 0; i < n; ++i)
    for (const auto& o : g->node(i).output()) producer[o] = i;
  switch (m) {
    case Mutation::DropEdge: {
      // Any edge into a node: its source disappears from the consumer's point of view.
      std::vector<std::pair<int, int>> edges;
      for (int i = 0; i < n; ++i)
        for (int k = 0; k < g->node(i).input_size(); ++k)
          if (!g->node(i).input(k).empty()) edges.push_back({i, k});
      if (edges.empty()) return std::nullopt;
      auto [i, k] = edges[pick(rng, edges.size())];
      g->mutable_node(i)->set_input(k, g->node(i).input(k) + "__dropped");
      return out;
    }
    case Mutation::DuplicateOutput: {
      // A later node's output takes the name of an earlier value (a graph input or node output).
      std::vector<std::string> earlier;
      for (const auto& in : g->input()) earlier.push_back(in.name());
      int i = static_cast<int>(pick(rng, static_cast<size_t>(n)));
      for (int j = 0; j < i; ++j)
        for (const auto& o : g->node(j).output()) earlier.push_back(o);
      if (earlier.empty()) return std::nullopt;
      std::string old = g->node(i).output(0), dup = earlier[pick(rng, earlier.size())];
      g->mutable_node(i)->set_output(0, dup);
      // Keep the graph's references to the old name pointing at the renamed value.
      for (auto& node : *g->mutable_node())
        for (auto& in : *node.mutable_input())
          if (in == old) in = dup;
      for (auto& o : *g->mutable_output())
        if (o.name() == old) o.set_name(dup);
      return out;
    }
    case Mutation::Cycle: {
      // An edge j → i (i reads j's output); j then also reads i's output: j → i → j.
      std::vector<std::pair<int, int>> edges;
      for (int i = 0; i < n; ++i)
        for (const auto& in : g->node(i).input()) {
          auto it = producer.find(in);
          if (it != producer.end() && g->node(it->second).input_size() > 0) edges.push_back({it->second, i});
        }
      if (edges.empty()) return std::nullopt;
      auto [j, i] = edges[pick(rng, edges.size())];
      auto* nj = g->mutable_node(j);
      nj->set_input(static_cast<int>(pick(rng, static_cast<size_t>(nj->input_size()))), g->node(i).output(0));
      return out;
    }
  }
  return std::nullopt;
}

}  // namespace sonnx::fuzz
