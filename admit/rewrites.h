// The rewrites of `sonnx admit` other than the version upgrade (upgrade.h) and the decompositions
// (decompose.h), each documented in spec/admission.md with the rule whose findings it removes and
// why it keeps the model's meaning. Each records what it changed in a ChangeLog and what it could
// not do in log.refused. They work on the main graph unless they say otherwise.
#pragma once
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "change.h"
#include "reference/model/ir.h"

namespace sonnx::admit {

// A request that can not apply to this model (an unknown input, a shape of the wrong rank, ...):
// the caller's mistake, reported as bad input.
struct AdmitUsageError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// What the user fixes: symbolic dimensions by name, an input's whole shape, an input's value.
struct InputFixes {
  std::map<std::string, int64_t> dims;
  std::map<std::string, std::vector<int64_t>> input_shapes;
  std::map<std::string, Tensor> values;
};

// Fixes the inputs (fix_inputs.cpp): binds the symbolic dimensions (of the inputs' shapes, then
// the named ones) everywhere the main graph declares them, and turns each fixed input into an
// initializer. Throws AdmitUsageError for a fix that contradicts the model; records in log.refused
// each graph input left without a static shape.
void fix_inputs(Model& m, const InputFixes& fixes, ChangeLog& log);

// Removes Identity nodes and Dropout nodes in inference mode (prune.cpp): their readers read the
// input instead (or, for a graph output, the input's producer writes the output's name).
void remove_identities(Model& m, ChangeLog& log);
// Removes nodes no graph output depends on and initializers no node reads (prune.cpp).
void remove_dead(Model& m, ChangeLog& log);

// Folds constants (fold.cpp): every node of the main graph whose inputs are all constants (or whose
// outputs inference knows in full, as a Shape of a static value) is run by the reference kernel
// of its version at the model's opset and replaced by initializers holding its outputs.
void fold_constants(Model& m, ChangeLog& log);

// Replaces the first If of the main graph whose condition is a constant by the nodes of the branch it
// takes (specialise.cpp); false when there is none. Its outputs keep their names.
bool specialise_control_flow(Model& m, ChangeLog& log);
// Replaces the first Loop of the main graph with a constant trip count M (and an initial condition
// absent or constant) whose body's condition stays true by M copies of its body, the scan outputs
// stacked by Unsqueeze and Concat (unroll_loop.cpp); false when there is none. Its outputs keep
// their names. A loop whose unrolling would exceed 10,000 nodes is left.
bool unroll_loops(Model& m, ChangeLog& log);
// Why a control-flow node of g (If, Loop, Scan) stays, for log.refused after the node's "name: ":
// the inputs to fix with --fix when the value deciding it depends on some, else what stops its
// rewrite (unroll_loop.cpp). "" for another node.
std::string control_flow_refusal(const Graph& g, const Node& n);

// Writes the value an omitted optional input stands for as an initializer read as that input
// (optional_io.cpp: recurrent nodes, Resize, Clip, Slice, Pad); refuses the others.
void write_omitted_inputs(Model& m, ChangeLog& log);
// Drops trailing optional outputs no node reads (optional_io.cpp); an unread output before a read
// one is refused, or with `expose` made a graph output (which changes the model's interface: it
// gains an output).
void trim_unused_outputs(Model& m, bool expose, ChangeLog& log);

// Writes out every attribute a node leaves at its default (explicit_attrs.cpp), from the
// catalogue's default of the node's operator version; all graphs.
void write_default_attributes(Model& m, ChangeLog& log);

// Declares every value of the main graph with the type and static shape sonnx's inference finds
// (declare_types.cpp), replacing what the model declared (inference refines declarations and
// reports contradictions as errors).
void declare_types(Model& m, ChangeLog& log);

}  // namespace sonnx::admit
