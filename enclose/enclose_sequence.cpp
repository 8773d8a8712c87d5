// Sequences and optionals (SequenceConstruct, SequenceEmpty, SequenceInsert, SequenceAt,
// SequenceErase, SequenceLength, SplitToSequence, ConcatFromSequence, Optional, OptionalHasElement,
// OptionalGetElement): data movement. Each output element is an input element, moved to where the
// ONNX definition puts it; the positions, the split lengths and a sequence's length are exact
// integers, and an optional's emptiness a fact of its bounds, so the reference kernel run once on
// every lower and once on every upper bound moves each bound with its element (lift_monotone,
// enclose_lift.cpp) and the bounds of a sequence are those of its elements (Bounds, encloser.h).
// SequenceMap, which walks a subgraph per element, is enclosed with the control flow
// (enclose_control.cpp).
#include "enclose_ops.h"

namespace sonnx::enclose {

namespace {

// The runs on bounds hold every float type as float64, where the reference cannot tell a float16
// tensor from a float one: the element types it checks are checked here on the bounds' own types.
void sequence_types_agree(const OpCall& c, DType a, DType b, const std::string& what) {
  if (a != DType::Undefined && b != DType::Undefined && a != b)
    throw Trap(c.node.label() + ": " + what + " (" + std::string(dtype_name(b)) + ", not " + std::string(dtype_name(a)) + ")");
}

// SequenceConstruct: its input tensors, of one element type.
std::vector<Bounds> sequence_construct_bounds(const OpCall& c) {
  for (size_t k = 1; k < c.in.size(); ++k)
    sequence_types_agree(c, c.input(0).type, c.input(k).type, "inputs have different element types");
  return lift_monotone(c);
}

// SequenceInsert: the tensor must be of the sequence's element type.
std::vector<Bounds> sequence_insert_bounds(const OpCall& c) {
  sequence_types_agree(c, c.input(0).type, c.input(1).type, "the inserted tensor is not of the sequence's element type");
  return lift_monotone(c);
}

}  // namespace

// Exact: every output value is an input value (spec/accuracy.md, "Admissible results").
SONNX_ENCLOSURE("SequenceConstruct", (11), Allowance::exact(), sequence_construct_bounds);
SONNX_ENCLOSURE("SequenceEmpty", (11), Allowance::exact(), lift_monotone);
SONNX_ENCLOSURE("SequenceInsert", (11), Allowance::exact(), sequence_insert_bounds);
SONNX_ENCLOSURE("SequenceAt", (11), Allowance::exact(), lift_monotone);
SONNX_ENCLOSURE("SequenceErase", (11), Allowance::exact(), lift_monotone);
SONNX_ENCLOSURE("SequenceLength", (11), Allowance::exact(), lift_monotone);
SONNX_ENCLOSURE("SplitToSequence", (11, 24), Allowance::exact(), lift_monotone);
SONNX_ENCLOSURE("ConcatFromSequence", (11), Allowance::exact(), lift_monotone);
SONNX_ENCLOSURE("Optional", (15), Allowance::exact(), lift_monotone);
SONNX_ENCLOSURE("OptionalHasElement", (15, 18), Allowance::exact(), lift_monotone);
SONNX_ENCLOSURE("OptionalGetElement", (15, 18), Allowance::exact(), lift_monotone);

}  // namespace sonnx::enclose
