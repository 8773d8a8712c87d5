// BatchNormalization: Y = scale * (X - mean) / sqrt(var + epsilon) + B per channel.
// X is (N x C x D1 ... Dn); a 1-D X of size N has C = 1 (documented from version 9, accepted always).
//
// Inference (test mode): mean and var are the inputs (estimated statistics).
// Training: the current statistics of the batch are used instead, computed per channel over N and
// D1..Dn (population variance, divisor = element count), and the running statistics are updated:
//   running = input * momentum + current * (1 - momentum).
//
// Versions:
//  1, 6  attributes is_test (default 0) and spatial (default 1); consumed_inputs (v1) is ignored.
//  7     spatial only.  Versions 1/6/7 with spatial=0: statistics per activation, i.e. per element of
//        (C x D1 x ... x Dn), so scale/B/mean/var have C*D1*...*Dn elements.
//  1..9  outputs Y, mean, var, saved_mean, saved_var: requesting any output after Y selects training
//        mode (the schema's "output case #1"); only Y is test mode. For 1/6, is_test=1 together with
//        extra outputs is contradictory and traps. The schema leaves saved_mean/saved_var loosely
//        defined ("saved mean/variance ... to speed up gradient computation"); this kernel returns the
//        current batch mean and the current batch (population) variance.
//  14    training_mode attribute (default 0); outputs Y, running_mean, running_var (extra outputs are
//        invalid in inference mode and trap); mean/var may have another float type (U) than X.
//  15    scale/B may also have their own float type (T1); same computation.
// All arithmetic in double, each output rounded once to its element type.
#include "op_params.h"
#include "params/batch_normalization.h"
#include "support/shape.h"
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {

// Which statistics slot ("feature") each element of X uses.
struct FeatureMap {
  int64_t features = 0;
  std::vector<int64_t> of;  // per element of X
};

FeatureMap feature_map(const OpContext& ctx, const Shape& s, bool spatial) {
  if (s.empty()) ctx.fail("X must have at least one dimension");
  FeatureMap m;
  int64_t size = shape_size(s);
  m.of.resize(static_cast<size_t>(size));
  if (s.size() == 1) {  // (N): a single channel
    m.features = 1;
    return m;  // all zeros
  }
  int64_t c = s[1];
  int64_t inner = element_count(s, 2, s.size());
  m.features = spatial ? c : c * inner;
  for (int64_t i = 0; i < size; ++i) m.of[static_cast<size_t>(i)] = spatial ? (i / inner) % c : i % (c * inner);
  return m;
}

std::vector<Value> batch_norm(OpContext& ctx, bool training, bool spatial, bool v14_outputs) {
  const Tensor& x = ctx.input(0);
  FeatureMap fm = feature_map(ctx, x.shape(), spatial);
  const char* names[] = {"X", "scale", "B", "mean", "var"};
  std::vector<std::vector<double>> p(5);
  for (size_t k = 0; k < 5; ++k) {
    p[k] = float_values(ctx, ctx.input(k));
    if (k > 0 && static_cast<int64_t>(p[k].size()) != fm.features)
      ctx.fail(std::string("input ") + names[k] + " has " + std::to_string(p[k].size()) + " elements, expected " +
               std::to_string(fm.features));
  }
  const std::vector<double>& xv = p[0];
  const std::vector<double>& scale = p[1];
  const std::vector<double>& bias = p[2];
  std::vector<double> mean = p[3], var = p[4];
  BatchNormParams params = BatchNormParams::read(ctx, ctx.version());
  auto epsilon = static_cast<double>(params.epsilon);
  auto features = static_cast<size_t>(fm.features);

  std::vector<double> cur_mean(features, 0.0), cur_var(features, 0.0), count(features, 0.0);
  if (training) {
    for (size_t i = 0; i < xv.size(); ++i) {
      auto f = static_cast<size_t>(fm.of[i]);
      cur_mean[f] += xv[i];
      count[f] += 1;
    }
    for (size_t f = 0; f < features; ++f) cur_mean[f] /= count[f];
    for (size_t i = 0; i < xv.size(); ++i) {
      auto f = static_cast<size_t>(fm.of[i]);
      double d = xv[i] - cur_mean[f];
      cur_var[f] += d * d;
    }
    for (size_t f = 0; f < features; ++f) cur_var[f] /= count[f];
  }
  const std::vector<double>& use_mean = training ? cur_mean : mean;
  const std::vector<double>& use_var = training ? cur_var : var;
  std::vector<double> y(xv.size());
  for (size_t i = 0; i < xv.size(); ++i) {
    auto f = static_cast<size_t>(fm.of[i]);
    y[i] = scale[f] * (xv[i] - use_mean[f]) / std::sqrt(use_var[f] + epsilon) + bias[f];
  }

  std::vector<Value> out;
  out.emplace_back(float_tensor(ctx, x.dtype(), x.shape(), y));
  if (!training) return out;
  auto momentum = static_cast<double>(params.momentum);
  std::vector<double> run_mean(features), run_var(features);
  for (size_t f = 0; f < features; ++f) {
    run_mean[f] = mean[f] * momentum + cur_mean[f] * (1 - momentum);
    run_var[f] = var[f] * momentum + cur_var[f] * (1 - momentum);
  }
  const Tensor& in_mean = ctx.input(3);
  const Tensor& in_var = ctx.input(4);
  out.emplace_back(float_tensor(ctx, in_mean.dtype(), in_mean.shape(), run_mean));
  out.emplace_back(float_tensor(ctx, in_var.dtype(), in_var.shape(), run_var));
  if (!v14_outputs) {
    out.emplace_back(float_tensor(ctx, x.dtype(), in_mean.shape(), cur_mean));
    out.emplace_back(float_tensor(ctx, x.dtype(), in_var.shape(), cur_var));
  }
  return out;
}

bool extra_outputs_requested(const OpContext& ctx) {
  for (size_t k = 1; k < ctx.num_outputs(); ++k)
    if (ctx.has_output(k)) return true;
  return false;
}

std::vector<Value> batch_norm_kernel(OpContext& ctx) {
  BatchNormParams p = BatchNormParams::read(ctx, ctx.version());
  bool extra = extra_outputs_requested(ctx);
  if (p.is_test && extra) ctx.fail("is_test=1 allows only the output Y");
  if (ctx.version() < 14) return batch_norm(ctx, extra, p.spatial, false);
  if (!p.training_mode && extra) ctx.fail("running_mean/running_var are only defined with training_mode=1");
  return batch_norm(ctx, p.training_mode, true, true);
}
}  // namespace
// One kernel: BatchNormParams and the version choose the mode and the outputs.
SONNX_PARAMS("", "BatchNormalization", (1, 6, 7, 9, 14, 15), BatchNormParams);
SONNX_KERNEL("", "BatchNormalization", 1, batch_norm_kernel, Accuracy::Rounding);
SONNX_KERNEL("", "BatchNormalization", 7, batch_norm_kernel, Accuracy::Rounding);
SONNX_KERNEL("", "BatchNormalization", 9, batch_norm_kernel, Accuracy::Rounding);
SONNX_KERNEL("", "BatchNormalization", 14, batch_norm_kernel, Accuracy::Rounding);
namespace {
// Y has X's shape; the running and saved statistics (outputs 1-4, when present) are per channel
// ([C]). From version 14 the statistics may have another element type (U, input 3's).
void batch_norm_shape(InferContext& ctx) {
  DType t = ctx.input_elem(0);
  const Dims* x = ctx.input_shape(0);
  ctx.set_output(0, t, x ? std::optional<Dims>(*x) : std::nullopt);
  Dim c = x && x->size() >= 2 ? (*x)[1] : Dim{};
  DType u = ctx.version() >= 14 ? ctx.input_elem(3) : t;
  if (u == DType::Undefined) u = t;
  for (size_t i = 1; i < ctx.num_outputs(); ++i)
    if (ctx.has_output(i)) ctx.set_output(i, u, Dims{c});
}
}  // namespace
SONNX_SHAPE_RULE("", "BatchNormalization", (1, 6, 7, 9, 14, 15), batch_norm_shape);
}  // namespace sonnx
