// What the control-flow rewrites (specialise.cpp: an If's branch, unroll_loop.cpp: a Loop's body)
// share when they put a nested graph's nodes in the enclosing graph: the renaming of the nested
// graph's values.
#pragma once
#include <map>
#include <string>

#include "reference/model/ir.h"

namespace sonnx::admit {

// Old name -> new name; a name not in the map keeps its name.
using Renames = std::map<std::string, std::string>;

inline std::string renamed(const Renames& r, const std::string& name) {
  auto it = r.find(name);
  return it == r.end() ? name : it->second;
}

// Renames the reads of g's nodes, of the graphs nested in them (they capture g's values) and of
// g's outputs; the names g's nodes define are the caller's to rename.
inline void rename_captures(Graph& g, const Renames& r) {
  for (Node& n : g.nodes) {
    for (std::string& i : n.inputs) i = renamed(r, i);
    for (Attribute& a : n.attributes) {
      if (a.g) rename_captures(*a.g, r);
      for (auto& sub : a.graphs)
        if (sub) rename_captures(*sub, r);
    }
  }
  for (ValueInfo& o : g.outputs) o.name = renamed(r, o.name);
}

}  // namespace sonnx::admit
