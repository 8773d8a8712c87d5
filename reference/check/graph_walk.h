// Visits the main graph and every nested subgraph, with the names visible from enclosing scopes.
#pragma once
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "reference/model/ir.h"

namespace sonnx {

using GraphVisitor = std::function<void(const Graph& g, const std::set<std::string>& outer)>;
void for_each_graph(const Graph& main, const GraphVisitor& visit);

std::string node_id(const Node& n);

// Visits every node of the model: main graph, subgraphs, model-local function bodies (and their
// subgraphs), with the graph path and the opset imports in force for it.
using NodeVisitor = std::function<void(const Node& n, const std::string& path, const std::map<std::string, int64_t>& opsets,
                                       const Function* in_function)>;
void for_each_node(const Model& m, const NodeVisitor& visit);

// One list of nodes of the model: the main graph, a subgraph, or the body of a model-local function
// (which inlining copies into the graph in place of each call), or a subgraph inside such a body.
// Rules that inspect nodes visit every list, so that they judge what inlining will produce.
struct NodeList {
  const std::vector<Node>& nodes;
  std::vector<std::string> outputs;  // the graph's outputs, or the function's results
  const Graph* graph;                // null for a function body (which has no initializers)
  const Function* function;          // the function this list belongs to; null outside functions
  const std::string& path;           // "main", "main/<node>:<attr>", "function <domain>.<name>"
  const std::map<std::string, int64_t>& opsets;
};
void for_each_node_list(const Model& m, const std::function<void(const NodeList&)>& visit);

}  // namespace sonnx
