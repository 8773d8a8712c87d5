// Names a graph defines and names it captures from the enclosing graph (static scoping of
// spec/structure.md). The values bound to names while a graph runs are the interpreter's
// ValueScope (reference/interp/interpreter.h).
#pragma once
#include <set>
#include <string>

#include "ir.h"

namespace sonnx {

// Names a graph defines itself: its inputs, initializers and node outputs (non-empty).
std::set<std::string> defined_names(const Graph& g);
// Names used in g (by its nodes, its outputs, or its nested subgraphs) that g does not define:
// what it captures from the enclosing scope.
std::set<std::string> free_names(const Graph& g);
// Free names of all subgraph attributes of a node: the implicit inputs the node needs defined.
std::set<std::string> implicit_inputs(const Node& n);
// Every name that occurs in g or the nodes, at any depth: graph inputs, outputs, initializers,
// value_info, node inputs and outputs, and the same in every nested subgraph ("" excluded).
void collect_all_names(const Graph& g, std::set<std::string>& out);
void collect_all_names(const std::vector<Node>& nodes, std::set<std::string>& out);
// The names the nested subgraphs of the nodes define, at any depth (their inputs, initializers and
// node outputs); not the names the nodes themselves output.
void collect_subgraph_definitions(const std::vector<Node>& nodes, std::set<std::string>& out);

}  // namespace sonnx
