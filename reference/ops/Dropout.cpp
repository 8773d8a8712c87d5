// Dropout. Inference: output = data, mask all true. Training: each element is kept with
// probability 1 - ratio (mask true) and scaled: output = data * mask / (1 - ratio).
//
// Versions:
//  1, 6  attributes is_test (default 0) and ratio (default 0.5): is_test=0 is training mode (the
//        schema: "if nonzero, run dropout in test mode where the output is simply Y = X"). The
//        mask's type constraint is T (the data type), so the mask is 1/0 in the data type.
//        consumed_inputs (v1) is ignored.
//  7     ratio only; the schema has no way to select training, so this is inference. Mask type T.
//  10    as 7 with a bool mask.
//  12    ratio (default 0.5) and training_mode (default false) are optional scalar inputs; the
//        optional seed attribute seeds the generator (otherwise the interpreter's generator is used).
//        Mask is bool. 13 adds bfloat16 data.
//  22    adds the float8 types e4m3fn, e4m3fnuz, e5m2, e5m2fnuz for data and ratio. In training a
//        float8 output is data * scale rounded once to nearest even; a value out of range becomes
//        what Cast with saturate=0 gives (NaN, or ±inf for e5m2), as the plain conversion of onnx's
//        reference (numpy astype) does.
// ratio must lie in [0, 1); ratio 0 drops nothing. Random draws: one uniform [0, 1) per element in
// row-major order, kept when >= ratio. Arithmetic in double, rounded once to the element type.
#include "op_params.h"
#include "params/dropout.h"
#include "support/shape.h"
#include "support/cast.h"

namespace sonnx {
using namespace support;
namespace {
Tensor mask_tensor(const OpContext& ctx, DType type, const Shape& shape, const std::vector<bool>& keep) {
  if (type == DType::Bool) {
    Tensor m(DType::Bool, shape);
    bool* p = m.data<bool>();
    for (size_t i = 0; i < keep.size(); ++i) p[i] = keep[i];
    return m;
  }
  std::vector<double> v(keep.size());
  for (size_t i = 0; i < keep.size(); ++i) v[i] = keep[i] ? 1.0 : 0.0;
  return float_tensor(ctx, type, shape, v);
}

// The classic floating types, and the float8 types from version 22.
bool floating(const OpContext& ctx, DType t) { return is_float(t) || (ctx.version() >= 22 && is_float8(t)); }

// mask_type: Bool, or the data type for versions ≤ 7.
std::vector<Value> dropout(OpContext& ctx, const DropoutParams& p, bool training, double ratio, DType mask_type) {
  const Tensor& x = ctx.input(0);
  std::vector<Value> out;
  std::vector<bool> keep(static_cast<size_t>(x.size()), true);
  if (!training || ratio == 0.0) {
    if (!floating(ctx, x.dtype())) ctx.fail("data must be a floating tensor");
    out.emplace_back(x);
  } else {
    if (!(ratio > 0.0 && ratio < 1.0)) ctx.fail("ratio must be in [0, 1), got " + std::to_string(ratio));
    std::mt19937_64 seeded(static_cast<uint64_t>(p.seed.value_or(0)));
    std::mt19937_64& gen = p.seed ? seeded : ctx.rng();
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    if (!floating(ctx, x.dtype())) ctx.fail("data must be a floating tensor");
    Tensor xv(DType::Double, x.shape());  // exact values of any floating type
    double* v = xv.data<double>();
    double scale = 1.0 / (1.0 - ratio);
    for (int64_t i = 0; i < x.size(); ++i) {
      auto k = static_cast<size_t>(i);
      keep[k] = uniform(gen) >= ratio;
      v[i] = keep[k] ? x.as_double(i) * scale : 0.0;
    }
    if (is_float8(x.dtype())) {
      NarrowOptions plain;
      plain.saturate = false;
      out.emplace_back(cast_tensor(ctx, xv, x.dtype(), plain));
    } else {
      out.emplace_back(float_tensor(ctx, x.dtype(), x.shape(), {v, v + x.size()}));
    }
  }
  if (ctx.has_output(1)) out.emplace_back(mask_tensor(ctx, mask_type, x.shape(), keep));
  return out;
}

// Versions before 12: the mode and ratio are DropoutParams'; the mask has the data type before 10.
std::vector<Value> dropout_v1(OpContext& ctx) {
  DropoutParams p = DropoutParams::read(ctx, ctx.version());
  DType mask = ctx.version() < 10 ? ctx.input(0).dtype() : DType::Bool;
  return dropout(ctx, p, p.training, p.training ? static_cast<double>(p.ratio) : 0.0, mask);
}

std::vector<Value> dropout_v12(OpContext& ctx) {
  DropoutParams p = DropoutParams::read(ctx, ctx.version());
  double ratio = p.ratio;
  if (ctx.has_input(1)) {
    const Tensor& r = ctx.input(1);
    if (r.size() != 1 || !floating(ctx, r.dtype())) ctx.fail("ratio must be a floating scalar");
    ratio = r.as_double(0);
  }
  bool training = false;
  if (ctx.has_input(2)) {
    const Tensor& t = ctx.input(2);
    if (t.size() != 1 || t.dtype() != DType::Bool) ctx.fail("training_mode must be a bool scalar");
    training = t.data<bool>()[0];
  }
  return dropout(ctx, p, training, ratio, DType::Bool);
}
}  // namespace
SONNX_PARAMS("", "Dropout", (1, 6, 7, 10, 12, 13, 22), DropoutParams);
SONNX_KERNEL("", "Dropout", 1, dropout_v1, Accuracy::Random);
SONNX_KERNEL("", "Dropout", 7, dropout_v1, Accuracy::Exact);
SONNX_KERNEL("", "Dropout", 10, dropout_v1, Accuracy::Exact);
SONNX_KERNEL("", "Dropout", 12, dropout_v12, Accuracy::Random);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "Dropout", 22, dropout_v12, Accuracy::Random);
namespace {
// Output 0 is X; the mask has X's shape, of X's type in versions 1-7 and bool from 10.
void dropout_shape(InferContext& ctx) {
  same_as_input_rule(ctx);
  const Dims* x = ctx.input_shape(0);
  DType mask = ctx.version() < 10 ? ctx.input_elem(0) : DType::Bool;
  if (ctx.has_output(1)) ctx.set_output(1, mask, x ? std::optional<Dims>(*x) : std::nullopt);
}
}  // namespace
SONNX_SHAPE_RULE("", "Dropout", (1, 6, 7, 10, 12, 13, 22), dropout_shape);
}  // namespace sonnx
