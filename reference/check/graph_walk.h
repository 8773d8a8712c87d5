// Visits the main graph and every nested subgraph, with the names visible from enclosing scopes.
#pragma once
#include <functional>
#include <map>
#include <set>
#include <string>

#include "reference/model/ir.h"

namespace sonnx {

using GraphVisitor = std::function<void(const Graph& g, const std::set<std::string>& outer)>;
void for_each_graph(const Graph& main, const GraphVisitor& visit);

// The dependency edges between a graph's nodes: succ[u] = nodes using a value u defines (through
// an input or a subgraph's capture of it).
std::vector<std::vector<size_t>> node_successors(const Graph& g);

std::string node_id(const Node& n);

// Visits every node of the model: main graph, subgraphs, model-local function bodies (and their
// subgraphs), with the graph path and the opset imports in force for it.
using NodeVisitor = std::function<void(const Node& n, const std::string& path, const std::map<std::string, int64_t>& opsets,
                                       const Function* in_function)>;
void for_each_node(const Model& m, const NodeVisitor& visit);  // name, or "#index" when unnamed

}  // namespace sonnx
