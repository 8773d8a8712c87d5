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

}  // namespace sonnx
