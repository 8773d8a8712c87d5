// FeatureVectorizer (ai.onnx.ml 1): Y (float) [N, D1 + ... + Dk] is the inputs X1..Xk (each [N, C]
// or a [C] vector as [1, C]) side by side: Xi's row r goes to Y's row r at columns D1 + ... + D(i-1)
// onward, its first min(C, Di) entries copied (converted to float, rounded once) and the rest of
// its Di columns 0. Di is inputdimensions[i]. Decisions (spec/ops/FeatureVectorizer.md): one
// inputdimensions entry per input, each >= 0; every input has the same number of rows (no
// broadcasting of a vector against N rows); ranks other than 1 and 2 are refused; the inputs
// share one element type (the type constraint's T1).
#include <algorithm>

#include "op_params.h"
#include "support/kernel.h"
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {

struct FeatureVectorizerParams {
  std::vector<int64_t> dims;  // inputdimensions: the columns each input occupies in Y
  int64_t total = 0;          // their sum: Y's columns

  static FeatureVectorizerParams read(const AttrReader& r, int64_t /*version*/) {
    FeatureVectorizerParams p;
    p.dims = r.attr_ints("inputdimensions");
    if (p.dims.empty()) r.fail("inputdimensions must be given, one entry per input");
    for (int64_t d : p.dims) {
      if (d < 0) r.fail("inputdimensions must not be negative, got " + std::to_string(d));
      if (d > kMaxDimValue - p.total) r.fail("inputdimensions add up to more than a dimension can hold");
      p.total += d;
    }
    return p;
  }
  // Whether there is one entry per input: "" or why not.
  std::string fits(size_t inputs) const {
    if (inputs == dims.size()) return "";
    return "there are " + std::to_string(inputs) + " inputs but " + std::to_string(dims.size()) + " inputdimensions entries";
  }
};

bool feature_vectorizer_takes(DType t) {
  return t == DType::Int32 || t == DType::Int64 || t == DType::Float || t == DType::Double;
}

std::vector<Value> feature_vectorizer(OpContext& ctx) {
  const FeatureVectorizerParams p = FeatureVectorizerParams::read(ctx, ctx.version());
  if (std::string why = p.fits(ctx.num_inputs()); !why.empty()) ctx.fail(why);
  const Tensor& first = ctx.input(0);
  if (!feature_vectorizer_takes(first.dtype()))
    ctx.fail("the inputs must be int32, int64, float or double, got " + std::string(dtype_name(first.dtype())));
  int64_t n = -1;  // the rows every input has
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    const Tensor& x = ctx.input(i);
    require_same_type(ctx, first, x);
    if (x.rank() != 1 && x.rank() != 2)
      ctx.fail("input " + std::to_string(i) + " must be [N, C] or [C], got rank " + std::to_string(x.rank()));
    const int64_t rows = x.rank() == 1 ? 1 : x.dim(0);
    if (n >= 0 && rows != n)
      ctx.fail("input " + std::to_string(i) + " has " + std::to_string(rows) + " rows, input 0 has " + std::to_string(n));
    n = rows;
  }
  std::vector<double> out(static_cast<size_t>(n * p.total), 0.0);
  int64_t offset = 0;  // the first column of the current input in Y
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    const Tensor& x = ctx.input(i);
    const std::vector<double> in = real_values(ctx, x);
    const int64_t c = x.dim(x.rank() - 1);
    const int64_t width = std::min(c, p.dims[i]);  // copied; the rest of dims[i] stays 0
    for (int64_t r = 0; r < n; ++r)
      for (int64_t k = 0; k < width; ++k)
        out[static_cast<size_t>(r * p.total + offset + k)] = in[static_cast<size_t>(r * c + k)];
    offset += p.dims[i];
  }
  return one(float_tensor(ctx, DType::Float, {n, p.total}, out));
}

void feature_vectorizer_shape(InferContext& ctx) {
  const FeatureVectorizerParams p = FeatureVectorizerParams::read(ctx, ctx.version());
  if (std::string why = p.fits(ctx.num_inputs()); !why.empty()) ctx.fail(why);
  std::vector<size_t> all(ctx.num_inputs());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  const DType t = common_elem(ctx, all);
  if (t != DType::Undefined && !feature_vectorizer_takes(t))
    ctx.fail("the inputs must be int32, int64, float or double, got " + std::string(dtype_name(t)));
  std::optional<Dim> n;  // the rows, unified over the inputs of known rank
  for (size_t i = 0; i < all.size(); ++i) {
    const Dims* x = ctx.input_shape(i);
    if (!x) continue;
    if (x->size() != 1 && x->size() != 2)
      ctx.fail("input " + std::to_string(i) + " must be [N, C] or [C], got rank " + std::to_string(x->size()));
    const Dim rows = x->size() == 1 ? known_dim(1) : (*x)[0];
    n = n ? unify_dim(ctx, *n, rows, "the rows of input " + std::to_string(i)) : rows;
  }
  ctx.set_output(0, DType::Float, Dims{n.value_or(Dim{}), known_dim(p.total)});
}

}  // namespace
SONNX_KERNEL("ai.onnx.ml", "FeatureVectorizer", 1, feature_vectorizer, Accuracy::Rounding);
SONNX_SHAPE_RULE("ai.onnx.ml", "FeatureVectorizer", (1), feature_vectorizer_shape);
SONNX_PARAMS("ai.onnx.ml", "FeatureVectorizer", (1), FeatureVectorizerParams);
}  // namespace sonnx
