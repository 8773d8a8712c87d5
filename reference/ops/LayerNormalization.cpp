// LayerNormalization (version 17): normalizes over the dims [axis, r) (axis default -1, allowed
// range [-r, r)) of X:
//   Mean = mean of X over those dims, Var = mean of (X - Mean)^2, InvStdDev = 1 / sqrt(Var + epsilon)
//   Y = (X - Mean) * InvStdDev * Scale + B
// Scale and the optional B broadcast to X's shape (unidirectionally). The optional outputs Mean and
// InvStdDev have shape [d0, ..., d(axis-1), 1, ..., 1] and element type stash_type (float, the
// default, or bfloat16). The schema asks for the first stage to be computed at least in stash_type
// precision; this kernel computes everything in double and rounds each output once to its type.
#include "op_params.h"
#include "params/normalization.h"
#include "support/shape.h"
#include "support/elementwise.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<double> broadcast_param(OpContext& ctx, const Tensor& p, const Shape& x_shape, const char* name) {
  if (broadcast_shapes(ctx, x_shape, p.shape()) != x_shape)
    ctx.fail(std::string(name) + " of shape " + shape_str(p.shape()) + " does not broadcast to X's shape " + shape_str(x_shape));
  return float_values(ctx, broadcast_to(p, x_shape));
}

std::vector<Value> layer_norm(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  int64_t rank = x.rank();
  LayerNormParams p = LayerNormParams::read(ctx, ctx.version());
  int64_t axis = normalize_axis(ctx, p.axis, rank);
  DType stash = p.stash_type;
  auto epsilon = static_cast<double>(p.epsilon);

  std::vector<double> xv = float_values(ctx, x);
  std::vector<double> scale = broadcast_param(ctx, ctx.input(1), x.shape(), "Scale");
  std::vector<double> bias = ctx.has_input(2) ? broadcast_param(ctx, ctx.input(2), x.shape(), "B")
                                              : std::vector<double>(xv.size(), 0.0);
  int64_t rows = element_count(x.shape(), 0, static_cast<size_t>(axis));
  int64_t cols = element_count(x.shape(), static_cast<size_t>(axis), x.shape().size());
  std::vector<double> y(xv.size()), mean_out(static_cast<size_t>(rows)), inv_out(static_cast<size_t>(rows));
  for (int64_t r = 0; r < rows; ++r) {
    auto base = static_cast<size_t>(r * cols);
    auto n = static_cast<size_t>(cols);
    double mean = 0;
    for (size_t i = 0; i < n; ++i) mean += xv[base + i];
    mean /= static_cast<double>(n);
    double var = 0;
    for (size_t i = 0; i < n; ++i) var += (xv[base + i] - mean) * (xv[base + i] - mean);
    var /= static_cast<double>(n);
    double inv_std = 1.0 / std::sqrt(var + epsilon);
    for (size_t i = 0; i < n; ++i) y[base + i] = (xv[base + i] - mean) * inv_std * scale[base + i] + bias[base + i];
    mean_out[static_cast<size_t>(r)] = mean;
    inv_out[static_cast<size_t>(r)] = inv_std;
  }
  Shape stat_shape = x.shape();
  for (int64_t d = axis; d < rank; ++d) stat_shape[static_cast<size_t>(d)] = 1;
  std::vector<Value> out;
  out.emplace_back(float_tensor(ctx, x.dtype(), x.shape(), y));
  out.emplace_back(float_tensor(ctx, stash, stat_shape, mean_out));
  out.emplace_back(float_tensor(ctx, stash, stat_shape, inv_out));
  return out;
}
}  // namespace
SONNX_PARAMS("", "LayerNormalization", (17), LayerNormParams);
SONNX_KERNEL("", "LayerNormalization", 17, layer_norm, Accuracy::Rounding);
namespace {
// Y has X's shape; Mean and InvStdDev keep the axes before `axis` and have 1 from there, of the
// stash_type (float by default).
void layer_norm_shape(InferContext& ctx) {
  LayerNormParams p = LayerNormParams::read(ctx, ctx.version());
  DType t = ctx.input_elem(0);
  const Dims* x = ctx.input_shape(0);
  ctx.set_output(0, t, x ? std::optional<Dims>(*x) : std::nullopt);
  std::optional<Dims> stats;
  if (x) {
    int64_t r = static_cast<int64_t>(x->size());
    int64_t axis = infer_axis(ctx, p.axis, r);
    stats = Dims(x->begin(), x->begin() + axis);
    stats->resize(x->size(), known_dim(1));
  }
  for (size_t i = 1; i < 3; ++i)
    if (ctx.has_output(i)) ctx.set_output(i, p.stash_type, stats);
}
}  // namespace
SONNX_SHAPE_RULE("", "LayerNormalization", (17), layer_norm_shape);
}  // namespace sonnx
