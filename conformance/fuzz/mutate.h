// Mutations that make a valid generated model invalid in one known way, for the property that
// the validator rejects each with the right rule (spec/restrictions.md):
//   DropEdge        a node input renamed to a value nothing defines  → STRUCT-DEFINED
//   DuplicateOutput a node output renamed to an existing value       → STRUCT-SSA
//   Cycle           an upstream node made to read a downstream value → STRUCT-ACYCLIC
#pragma once
#include <optional>
#include <random>

#include <onnx/onnx_pb.h>

namespace sonnx::fuzz {

enum class Mutation { DropEdge, DuplicateOutput, Cycle };
const char* mutation_name(Mutation m);
const char* expected_rule(Mutation m);

// The mutated model, or nothing when this model offers no place for the mutation.
std::optional<onnx::ModelProto> mutate(const onnx::ModelProto& model, Mutation m, std::mt19937_64& rng);

}  // namespace sonnx::fuzz
