// The executable-predicate differential: the validator's structural rules against the literal
// transcriptions of structure.mlw (structure_oracle.h), graph level by graph level.
//
// What is compared (Diagnostic::graph names the level; a level's verdict is "the rule reports
// something there"):
//   STRUCT-SSA         at every level:  reported  <=>  not ssa_flat
//   STRUCT-OUTPUT      at every level whose output names are all present: reported <=> not output_flat
//   STRUCT-DEFINED     over the model:  STRUCT-DEFINED or STRUCT-OUTPUT reported somewhere  <=>
//                      not well_defined (the inductive predicate: defined_flat and output_flat at
//                      every level; the theory counts a subgraph's captures as reads of the node
//                      that holds it, the validator checks each read where it is made, one level
//                      deeper, and a subgraph output as STRUCT-OUTPUT)
// and, when the model satisfies STRUCT-SSA (the theory's `dep` and `useful` follow every producer
// of a name, the validator the first; they agree when there is one):
//   STRUCT-ACYCLIC     at every level:  reported  <=>  not acyclic
//   SONNX-DEAD-NODE    at every level:  number reported  =  number of nodes that are not useful
// and, when the model also satisfies STRUCT-DEFINED:
//   STRUCT-TOPO-ORDER  at every level:  reported  <=>  not topo_flat and acyclic (a cyclic level is
//                      STRUCT-ACYCLIC's finding; the validator says nothing more about its order)
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "sonnx/diagnostic.h"
#include "reference/check/profile.h"
#include "reference/model/loader.h"

namespace sonnx::oracle {

// The rules compared, as a profile (the rest of the validator does not run).
const Profile& structure_profile();

// The validator under test: the diagnostics it reports for a model.
using Validator = std::function<std::vector<Diagnostic>(const LoadedModel&)>;
// The real one: validate() with structure_profile().
Validator real_validator();

// Every disagreement between the validator and the oracle, one per line; "" when they agree.
std::string compare_structure(const LoadedModel& model, const Validator& validator);

}  // namespace sonnx::oracle
