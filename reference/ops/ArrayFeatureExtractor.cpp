// ArrayFeatureExtractor (ai.onnx.ml 1): picks elements of the last axis of X by the indices Y (any
// shape, read flattened): Z[..., j] = X[..., Y[j]]. Z has X's leading dims and as many last-axis
// entries as Y has elements; a 1-D X gives a [1, k] matrix (as onnxruntime and onnx's reference
// implementation do; the spec says "an array"). An index outside [0, last dim) traps.
#include "support/kernel.h"
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {

std::vector<Value> array_feature_extractor(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& y = ctx.input(1);
  require_type(ctx, y, DType::Int64, "Y");
  if (x.rank() < 1) ctx.fail("X must have at least one dimension");
  const int64_t last = x.dim(x.rank() - 1);
  const int64_t k = y.size();
  const int64_t* idx = y.data<int64_t>();
  for (int64_t j = 0; j < k; ++j)
    if (idx[j] < 0 || idx[j] >= last)
      ctx.fail("index " + std::to_string(idx[j]) + " is outside [0, " + std::to_string(last) + ")");
  Shape shape = x.rank() == 1 ? Shape{1} : Shape(x.shape().begin(), x.shape().end() - 1);
  shape.push_back(k);
  Tensor out(x.dtype(), shape);
  const int64_t n_rows = k == 0 ? 0 : x.size() / last;  // k > 0 means last > 0 (indices checked)
  visit_dtype(x.dtype(), [&]<class T>() {
    const T* in = x.data<T>();
    T* o = out.data<T>();
    for (int64_t r = 0; r < n_rows; ++r)
      for (int64_t j = 0; j < k; ++j) o[r * k + j] = in[r * last + idx[j]];
  });
  return one(std::move(out));
}

void array_feature_extractor_shape(InferContext& ctx) {
  const Dims* x = ctx.input_shape(0);
  const Dims* y = ctx.input_shape(1);
  std::optional<Dims> out;
  if (x) {
    if (x->empty()) ctx.fail("X must have at least one dimension");
    out = x->size() == 1 ? Dims{known_dim(1)} : Dims(x->begin(), x->end() - 1);
    std::optional<int64_t> k = y ? dims_product(*y) : std::nullopt;
    out->push_back(k ? known_dim(*k) : Dim{});
  }
  ctx.set_output(0, ctx.input_elem(0), out);
}

}  // namespace
SONNX_KERNEL("ai.onnx.ml", "ArrayFeatureExtractor", 1, array_feature_extractor, Accuracy::Exact);
SONNX_SHAPE_RULE("ai.onnx.ml", "ArrayFeatureExtractor", (1), array_feature_extractor_shape);
}  // namespace sonnx
