// Operator versions that a later version re-states with a function body without changing what they
// compute: ONNX only widened the type constraints (Selu-6 and HardSigmoid-6 as 22, Softsign-1 as
// 22), or moved `axes` from an attribute to an optional input (ReduceL1, ReduceL2, ReduceLogSum,
// ReduceLogSumExp and ReduceSumSquare 1, 11 and 13 as 18; an absent `axes` reduces every axis in
// both). The encloser encloses such a node as the later version's body (encloser.cpp;
// spec/accuracy.md, "Operators defined by a function body").
#include "enclose_ops.h"

namespace sonnx::enclose {

SONNX_RESTATED_ENCLOSURE("Selu", (6), {22, false});
SONNX_RESTATED_ENCLOSURE("HardSigmoid", (6), {22, false});
SONNX_RESTATED_ENCLOSURE("Softsign", (1), {22, false});
SONNX_RESTATED_ENCLOSURE("ReduceL1", (1, 11, 13), {18, true});
SONNX_RESTATED_ENCLOSURE("ReduceL2", (1, 11, 13), {18, true});
SONNX_RESTATED_ENCLOSURE("ReduceLogSum", (1, 11, 13), {18, true});
SONNX_RESTATED_ENCLOSURE("ReduceLogSumExp", (1, 11, 13), {18, true});
SONNX_RESTATED_ENCLOSURE("ReduceSumSquare", (1, 11, 13), {18, true});

}  // namespace sonnx::enclose
