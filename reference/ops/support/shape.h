// Shape arithmetic for shape rules (reference/infer/shape_rule.h): dimensions that may be known,
// symbolic or unknown; axes; broadcasting; and the output shapes operator families share
// (elementwise, reductions, gather/concat/slice/pad, matmul, windows). Each helper fails through
// the InferContext (an inference error naming the node) when the inputs contradict the operator.
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reference/infer/shape_rule.h"

namespace sonnx::support {

using Dims = std::vector<Dim>;

// Dimension values beyond this are refused (shape_size's bound: no tensor can have more elements).
inline constexpr int64_t kMaxDimValue = int64_t{1} << 40;

inline bool same_dim(const Dim& a, const Dim& b) {
  if (a.value || b.value) return a.value == b.value;
  return !a.param.empty() && a.param == b.param;
}
std::string dims_str(const Dims& d);
// Product of dims when all are known (nullopt otherwise or on overflow).
std::optional<int64_t> dims_product(const Dims& d);

// A possibly negative axis into [0, rank); fails when out of range.
int64_t infer_axis(const InferContext& ctx, int64_t axis, int64_t rank, const std::string& what = "axis");
std::vector<int64_t> infer_axes(const InferContext& ctx, const std::vector<int64_t>& axes, int64_t rank);

// Two dims that must be equal (a contraction, a concatenated axis's neighbours): the more known of
// the two; fails when both are known and differ.
Dim unify_dim(const InferContext& ctx, const Dim& a, const Dim& b, const std::string& what);
// Requires a tensor input to have `rank` when its rank is known.
void require_rank(const InferContext& ctx, size_t input, int64_t rank, const std::string& what);

// Multidirectional (numpy) broadcasting; nullopt when some rank is unknown (null entry).
std::optional<Dims> broadcast_shapes(const InferContext& ctx, const std::vector<const Dims*>& shapes);

// The element type shared by the given inputs (first known one); fails when two known differ.
DType common_elem(const InferContext& ctx, const std::vector<size_t>& inputs);

// Output 0 has input 0's type (elementwise operators of one input, normalisations ...).
void same_as_input_rule(InferContext& ctx);
// floor(dim * scale) for each axis with a known dim and scale (Resize, Upsample).
void scale_dims(const InferContext& ctx, Dims& o, const std::vector<int64_t>& axes, const std::vector<double>& scales);
// The elements of input i as doubles when its value is known at inference time.
std::optional<std::vector<double>> float_input(const InferContext& ctx, size_t i);
// AveragePool, MaxPool and LpPool (every version): [N, C, window outputs...].
void pool_shape_rule(InferContext& ctx);
// RNN, GRU and LSTM (every version): Y, Y_h (and LSTM's Y_c) by layout and direction.
void recurrent_shape_rule(InferContext& ctx);
// Output 0 is input 0: its type and its known or partial value (Identity).
void identity_rule(InferContext& ctx);
// Broadcast all inputs; element type shared by all inputs (Add, Max, Sum, ...).
void broadcast_rule(InferContext& ctx);
// Versions before 7 of the binary operators (LegacyBroadcastParams): Y has A's shape, and B must
// fit A as the kernel checks when both shapes are known. `out` the output element type (Undefined:
// the inputs').
void legacy_broadcast_rule(InferContext& ctx, DType out = DType::Undefined);
// Broadcast all inputs; output element type bool (Equal, Less, And, ...).
void broadcast_bool_rule(InferContext& ctx);

// Add/Sub/Mul/Div (versions 1 and 6 broadcast B to A's shape, later versions both ways) with
// integer partial values combined element by element (`op` one of + - * /).
void arithmetic_rule(InferContext& ctx, char op);
// Elementwise integer arithmetic on partial values, a 1-element side broadcast to the other:
// known with known is known; x+0, x-0, x*1, x/1 keep a symbol; everything else is unknown.
std::optional<PartialValue> partial_arith(const PartialValue& a, const PartialValue& b, char op);

// Reduced shape: `axes` (normalized) removed or kept as 1; empty axes means all axes unless
// noop_with_empty_axes, then the input shape.
Dims reduce_dims(const Dims& in, const std::vector<int64_t>& axes, bool keepdims, bool noop_with_empty_axes);

// The Reduce* operators, as ReduceParams says. `elem` the output element type.
void reduce_rule(InferContext& ctx, DType elem);

// MatMul's numpy semantics: 1-D operands promoted and the added axis removed; batch dims broadcast.
std::optional<Dims> matmul_dims(const InferContext& ctx, const Dims* a, const Dims* b);

// Spatial output sizes of a window (Conv, pools) over `in` (N, C, spatial...): known dims through
// support::window_output, unknown ones stay unknown. `kernel` are the kernel's spatial sizes.
// With `windows_meet_input`, a known axis where some window has no element of the input fails
// (support::window_without_input).
Dims window_dims(const InferContext& ctx, const Dims& in_spatial, const std::vector<int64_t>& kernel, bool ceil_mode,
                 bool use_dilations = true, bool windows_meet_input = false);

// Conv-like output [N, channels, spatial...] of input `x` (input 0) and a kernel with spatial sizes
// `kernel` (null: unknown); `channels` the output channel dim. Fails on a rank mismatch.
std::optional<Dims> conv_like_dims(const InferContext& ctx, const Dim& channels, const std::vector<int64_t>* kernel,
                                   bool ceil_mode, bool use_dilations, bool windows_meet_input = false);

// Conv, ConvInteger, QLinearConv: output [N, M, spatial...] with M = W[0]; kernel sizes from
// kernel_shape or W; C = W[1] * group. W is input `w_input`; `t` the output element type.
void conv_rule(InferContext& ctx, size_t w_input, DType t);

// The union of two types a value may have (If branches, a loop-carried value before and after an
// iteration): dims that agree stay, others become unknown, a rank mismatch gives unknown rank.
// Fails when the kinds or element types differ.
TypeInfo union_type(const InferContext& ctx, const TypeInfo& a, const TypeInfo& b, const std::string& what);
TypeInfo sequence_of(TypeInfo elem);
TypeInfo optional_of(TypeInfo elem);
// map(key, tensor(value)): the type of an ai.onnx.ml map (its values scalars of `value`).
TypeInfo map_of(DType key, DType value);

// A dim from a known value, checking it is a sane size.
Dim size_dim(const InferContext& ctx, int64_t v, const std::string& what);

// GlobalAveragePool/GlobalMaxPool/GlobalLpPool: [N, C, 1, ..., 1].
void global_pool_shape_rule(InferContext& ctx);
// Adagrad/Adam/Momentum: inputs R, T, then n tensors X, n gradients G and `per - 1` groups of n
// state tensors; the outputs are the new X and the new states, each of its input's type.
void optimizer_shape_rule(InferContext& ctx, size_t per);

}  // namespace sonnx::support
