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

// ---- Text changes read against the kernels (reference/ops/<Op>.cpp): the older and the newer
// version run the same kernel code, which already does what the newer text states ----
// Conv: SAME_* gives ceil(in / stride) outputs and splits odd padding as version 1's one kernel does;
// the defaults of dilations and strides and "M a multiple of group" are stated.
SONNX_UPGRADE("", "Conv", 1, 11, nullptr);
// Cast: 9 adds strings (a version-6 node casts none); 13 writes out the numeric conversions (out of
// range to ±inf or wrapped, bool as 0/1) that the one Cast kernel applies at every version.
SONNX_UPGRADE("", "Cast", 6, 9, nullptr);
SONNX_UPGRADE("", "Cast", 9, 13, nullptr);
// Clip: min > max gives max everywhere, what version 12's kernel (clamp to min, then to max) computes.
SONNX_UPGRADE("", "Clip", 12, 13, nullptr);
// Softmax, LogSoftmax, Hardmax: the input is no longer called 2-D (the next paragraph of version 1
// already coerces any rank) and negative axes become allowed; same coerced rows, same kernel.
SONNX_UPGRADE("", "Softmax", 1, 11, nullptr);
SONNX_UPGRADE("", "LogSoftmax", 1, 11, nullptr);
SONNX_UPGRADE("", "Hardmax", 1, 11, nullptr);
// MaxPool and AveragePool: the defaults of dilations and strides, the output size per auto_pad and
// ceil_mode, and (22) that windows starting in the end padding are ignored; one pooling kernel
// serves every version and drops those windows from version 10 on (support/window.cpp).
SONNX_UPGRADE("", "MaxPool", 10, 11, nullptr);
SONNX_UPGRADE("", "MaxPool", 11, 12, nullptr);
SONNX_UPGRADE("", "MaxPool", 12, 22, nullptr);
SONNX_UPGRADE("", "AveragePool", 10, 11, nullptr);
SONNX_UPGRADE("", "AveragePool", 19, 22, nullptr);
// Gather: the text becomes a table of shapes and equations, the same indexing; one kernel.
SONNX_UPGRADE("", "Gather", 11, 13, nullptr);
// Mod: the semantics per fmod (Python's % for 0, C's fmod for 1, with fmod's special values) are
// restated; one kernel (the text of 13 ties fmod = 1 to floats, yet its node test mod_int64_fmod
// runs it on int64, as version 10 allowed).
SONNX_UPGRADE("", "Mod", 10, 13, nullptr);
// Slice: negative axes become allowed (11) and the clamping of starts and ends is written as an
// algorithm (13), the one the version-10 kernel already follows.
SONNX_UPGRADE("", "Slice", 10, 11, nullptr);
SONNX_UPGRADE("", "Slice", 11, 13, nullptr);
// ScatterND: the reductions max and min are added; a version-16 node's none, add or mul are
// computed by the same kernel.
SONNX_UPGRADE("", "ScatterND", 16, 18, nullptr);

// ---- Signature changes whose new attribute or optional input defaults to the older meaning ----
// Pad: the optional axes input; omitted, every axis is padded, as in version 13.
SONNX_UPGRADE("", "Pad", 13, 18, nullptr);
// Resize: antialias = 0, no axes (all of them), keep_aspect_ratio_policy = stretch (sizes as
// given): version 13's meaning, computed by version 18's kernel alike.
SONNX_UPGRADE("", "Resize", 13, 18, nullptr);
// Resize: the coordinate mode half_pixel_symmetric is added (a version-18 node has none) and the
// text reformatted; one kernel.
SONNX_UPGRADE("", "Resize", 18, 19, nullptr);

}  // namespace sonnx
