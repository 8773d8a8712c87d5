// Version steps an upgrade relabels after a person read both versions' text (spec/upgrade-steps.md):
// signature changes whose added attribute (or output, or optional input) has a default that
// reproduces the older version's meaning, and text changes that do not change the meaning of a
// node valid at the older version. One reason each; tests/conformance/upgrade_suite.cpp checks them
// on the node suites, bitwise. The text changes not listed here are still to be read.
#include "upgrade.h"

namespace sonnx {

// select_last_index = 0: the first index of the extreme value, as version 11 takes it.
SONNX_UPGRADE("", "ArgMax", 11, 12, nullptr);
// ceil_mode = 0: the floor of the output-size formula, version 7's only one.
SONNX_UPGRADE("", "AveragePool", 7, 10, nullptr);
// dilations = 1 on every axis: version 11's window.
SONNX_UPGRADE("", "AveragePool", 11, 19, nullptr);
// saturate concerns casts to the float8 types, which version 13 does not have.
SONNX_UPGRADE("", "Cast", 13, 19, nullptr);
// round_mode concerns casts to float8e8m0, which version 23 does not have.
SONNX_UPGRADE("", "Cast", 23, 24, nullptr);
// sparse_value and the value_* forms are alternatives to `value`, the one attribute of version 9.
SONNX_UPGRADE("", "Constant", 9, 11, nullptr);
SONNX_UPGRADE("", "Constant", 11, 12, nullptr);
// C became optional; a version-9 node always has it.
SONNX_UPGRADE("", "Gemm", 9, 11, nullptr);
// layout = 0: [seq, batch, ...], version 7's only layout.
SONNX_UPGRADE("", "GRU", 7, 14, nullptr);
SONNX_UPGRADE("", "LSTM", 7, 14, nullptr);
// storage_order = 0 and the optional Indices output: a version-1 node has one output.
SONNX_UPGRADE("", "MaxPool", 1, 8, nullptr);
// ceil_mode = 0 and dilations = 1: version 8's window.
SONNX_UPGRADE("", "MaxPool", 8, 10, nullptr);
// allowzero = 0: a 0 in the shape copies the input's dimension, as in version 13.
SONNX_UPGRADE("", "Reshape", 13, 14, nullptr);
// reduction = "none": the updates overwrite, as in version 13.
SONNX_UPGRADE("", "ScatterND", 13, 16, nullptr);
// start = 0 and no end: the whole shape, as in version 13.
SONNX_UPGRADE("", "Shape", 13, 15, nullptr);

// ---- Text changes ----
// Wording, formatting and markup only.
SONNX_UPGRADE("", "ArgMax", 12, 13, nullptr);
SONNX_UPGRADE("", "BatchNormalization", 14, 15, nullptr);
SONNX_UPGRADE("", "Gemm", 11, 13, nullptr);
SONNX_UPGRADE("", "Pow", 12, 13, nullptr);
SONNX_UPGRADE("", "ReduceMean", 11, 13, nullptr);
// "(Opset 14 change): Extend supported types ...": the note of a type widening.
SONNX_UPGRADE("", "Add", 13, 14, nullptr);
SONNX_UPGRADE("", "Sub", 13, 14, nullptr);
SONNX_UPGRADE("", "Mul", 13, 14, nullptr);
SONNX_UPGRADE("", "Div", 13, 14, nullptr);
// Negative axes become allowed (a valid older node has none), and the text says what was already
// required (an axis in range, a non-empty input, same shapes off the axis).
SONNX_UPGRADE("", "ArgMax", 1, 11, nullptr);
SONNX_UPGRADE("", "Concat", 4, 11, nullptr);
SONNX_UPGRADE("", "Flatten", 9, 11, nullptr);
SONNX_UPGRADE("", "ReduceMean", 1, 11, nullptr);
SONNX_UPGRADE("", "ReduceSum", 1, 11, nullptr);
SONNX_UPGRADE("", "Split", 2, 11, nullptr);
SONNX_UPGRADE("", "Squeeze", 1, 11, nullptr);
SONNX_UPGRADE("", "Unsqueeze", 1, 11, nullptr);
// Gather: the examples become equations, and negative indices' range [-s, s-1] is stated.
SONNX_UPGRADE("", "Gather", 1, 11, nullptr);
// Transpose: "its length must be equal to the rank of the input", which no shorter perm ever met.
SONNX_UPGRADE("", "Transpose", 13, 21, nullptr);
// Squeeze and Unsqueeze: axes described as a "1D tensor" instead of a "List".
SONNX_UPGRADE("", "Squeeze", 21, 23, nullptr);
SONNX_UPGRADE("", "Unsqueeze", 21, 23, nullptr);
// Max and Min broadcast from 8; a version-6 node has inputs of one shape, where broadcasting is
// the identity.
SONNX_UPGRADE("", "Max", 6, 8, nullptr);
SONNX_UPGRADE("", "Min", 6, 8, nullptr);
// Abs, Ceil, Floor: the text adds what the functions already return at integers, ±0, NaN and ±inf.
SONNX_UPGRADE("", "Abs", 6, 13, nullptr);
SONNX_UPGRADE("", "Ceil", 6, 13, nullptr);
SONNX_UPGRADE("", "Floor", 6, 13, nullptr);
// Pad: the constant's default for the new string and bool types (11 → 13); a new mode, wrap (18 → 19).
SONNX_UPGRADE("", "Pad", 11, 13, nullptr);
SONNX_UPGRADE("", "Pad", 18, 19, nullptr);

}  // namespace sonnx
