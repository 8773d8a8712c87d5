// Executable predicates: the structural rules of spec/structure.mlw (module Graph) and the memory
// plan validity of spec/memory_plan.mlw (module Plan), transcribed literally into C++ so a
// property test can compare them with the validator's checks (reference/check) and with
// check_memory_plan (optimized/plan). They are written to be obviously correct, not fast:
// quantifiers are nested loops over a finite universe of names, inductive predicates are least
// fixed points, nothing is cached. Use them on small graphs only (the fuzzer's).
#pragma once
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "reference/model/ir.h"

namespace sonnx::oracle {

// A scope (structure.mlw `visible`): the names visible from outside a graph.
using Visible = std::set<std::string>;

// --- structure.mlw, module Graph -----------------------------------------------------------------

bool present(const std::string& x);
bool assigned(const Graph& g, const std::string& x);
bool captures(const Graph& s, const std::string& x);
bool node_reads(const Graph& g, size_t k, const std::string& x);
bool dep(const Graph& g, size_t j, size_t k);
Visible extend(const Visible& outer, const Graph& g);

// top: the main graph, where an input may have an initializer (its default); see ssa_flat's comment.
bool ssa_flat(const Visible& outer, const Graph& g, bool top = true);  // STRUCT-SSA
bool defined_flat(const Visible& outer, const Graph& g);               // STRUCT-DEFINED
bool output_flat(const Visible& outer, const Graph& g);                // STRUCT-OUTPUT
bool topo_flat(const Visible& outer, const Graph& g);                  // STRUCT-TOPO-ORDER
bool acyclic(const Graph& g);                                          // STRUCT-ACYCLIC
std::vector<bool> useful(const Graph& g);                              // per node (SONNX-DEAD-NODE)
bool no_dead_node(const Graph& g);                                     // SONNX-DEAD-NODE

// The inductive predicates over the main graph and every subgraph (ssa, well_defined, topo_sorted).
bool ssa(const Visible& outer, const Graph& g, bool top = true);
bool well_defined(const Visible& outer, const Graph& g);
bool topo_sorted(const Visible& outer, const Graph& g);

// Every graph level of a model (main graph first, then each subgraph with its scope), with each
// one-level predicate's verdict: what the property test compares with the validator's findings
// at that level (Diagnostic::graph is the level's path).
struct LevelVerdict {
  std::string path;
  const Graph* graph = nullptr;
  Visible outer;
  bool ssa = true, defined = true, output = true, topo = true, acyclic = true;
  int dead_nodes = 0;  // nodes that are not `useful`
};
std::vector<LevelVerdict> level_verdicts(const Graph& main);

// --- memory_plan.mlw, module Plan ----------------------------------------------------------------

// Values 0 .. m-1 with lifetimes [first t, last t], sizes and offsets (all of length m).
bool conflict(const std::vector<int64_t>& first, const std::vector<int64_t>& last, size_t a, size_t b);
bool separated(const std::vector<int64_t>& off, const std::vector<int64_t>& size, size_t a, size_t b);
bool valid_plan(const std::vector<int64_t>& first, const std::vector<int64_t>& last, const std::vector<int64_t>& size,
                const std::vector<int64_t>& off);
bool within(const std::vector<int64_t>& size, const std::vector<int64_t>& off, int64_t arena);

}  // namespace sonnx::oracle
