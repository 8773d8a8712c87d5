// Near-miss models: one small structural change to a valid model, at any graph level (the main
// graph or a subgraph of If/Loop), for the property tests that compare the executable predicates
// (structure_oracle.h) with the validator and that check "check accepts => run executes". Unlike
// conformance/fuzz/mutate.h, a near miss has no expected rule: some are still valid (two
// independent nodes swapped, an initializer given as an input's default), the oracle decides.
#pragma once
#include <optional>
#include <random>
#include <vector>

#include <onnx/onnx_pb.h>

namespace sonnx::oracle {

enum class NearMiss {
  SwapAdjacent,           // two adjacent nodes of one graph change places
  MoveBeforeProducer,     // a node moves to just before the producer of one of its inputs
  ReverseEdge,            // j -> k via x becomes k -> j: k reads one of j's inputs instead, j reads k's output
  SelfLoop,               // a node reads its own output
  ReadLater,              // a node input becomes the output of a later node of the same graph
  DuplicateName,          // a node output renamed to another name assigned in its graph or visible from outside
  DuplicateInitializer,   // an initializer (or a graph input) listed twice
  InputWithInitializer,   // an initializer added under a graph input's name (the STRUCT-SSA corner)
  DeadNode,               // an Identity node added whose output nothing reads
  DropGraphOutput,        // a graph output removed (its producer may become dead)
  SubgraphOutputIsOuter,  // a subgraph output renamed to a value of an enclosing graph of the type it declares
  ReassignOuter,          // a subgraph node output renamed to a name of an enclosing graph
  UndefinedInput,         // a node input renamed to a name nothing defines
  OmitInput,              // a node input becomes "" (absent)
  CaptureLater,           // a subgraph node reads a value its enclosing graph defines after the If/Loop node
  UndefinedOutput,        // a graph output renamed to a name nothing defines
  SubgraphOutputIsLater,  // a subgraph output renamed to a value its enclosing graph defines after the If/Loop node
  SubgraphOutputRetyped,  // a subgraph output renamed to a value of an enclosing graph of another declared type
};
inline constexpr int kNearMissCount = 18;

const char* near_miss_name(NearMiss m);
std::vector<NearMiss> all_near_misses();

// The mutated model, or nothing when the model offers no place for this change.
std::optional<onnx::ModelProto> near_miss(const onnx::ModelProto& model, NearMiss m, std::mt19937_64& rng);

}  // namespace sonnx::oracle
