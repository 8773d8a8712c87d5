// EyeLike: a matrix of the input's 2-D shape with ones on diagonal k (out[i][i+k] = 1) and zeros
// elsewhere, of type `dtype` if given, else the input's type.
#include <optional>

#include "op_params.h"
#include "support/shape.h"
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {
struct EyeLikeParams {
  std::optional<DType> dtype;  // the output's element type; the input's when absent
  int64_t k = 0;               // the diagonal: out[i][i + k] = 1
  static EyeLikeParams read(const AttrReader& r, int64_t /*version*/) {
    EyeLikeParams p;
    p.dtype = r.attr_dtype("dtype");
    if (p.dtype == DType::String) r.fail("EyeLike cannot produce strings");
    p.k = r.attr_int("k", 0);
    return p;
  }
};

std::vector<Value> eye_like(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.rank() != 2) ctx.fail("input must be 2-D");
  EyeLikeParams p = EyeLikeParams::read(ctx, ctx.version());
  DType type = p.dtype.value_or(x.dtype());
  int64_t k = p.k;
  int64_t rows = x.dim(0), cols = x.dim(1);
  Tensor out(type, {rows, cols});
  visit_dtype(type, [&]<class T>() {
    if constexpr (std::is_same_v<T, std::string>) {
      ctx.fail("EyeLike cannot produce strings");
    } else {
      T one_value;
      if constexpr (std::is_same_v<T, bool>) one_value = true;
      else if constexpr (is_half_v<T>) one_value = T(1.0f);
      else one_value = T(1);
      T* o = out.data<T>();
      // Only rows whose column i + k exists; |k| may be huge, so compare before adding.
      for (int64_t i = 0; i < rows; ++i) {
        if (k >= 0 ? k >= cols - i : k < -i) continue;
        o[i * cols + (i + k)] = one_value;
      }
    }
  });
  return one(std::move(out));
}
}  // namespace
SONNX_PARAMS("", "EyeLike", (9, 22), EyeLikeParams);
SONNX_KERNEL("", "EyeLike", 9, eye_like, Accuracy::Exact);

// Version 22 only widens the type lists (the documents' text and structure are unchanged):
// the same kernel.
SONNX_KERNEL("", "EyeLike", 22, eye_like, Accuracy::Exact);
namespace {
void eye_like_shape(InferContext& ctx) {
  require_rank(ctx, 0, 2, "input");
  const Dims* x = ctx.input_shape(0);
  DType type = EyeLikeParams::read(ctx, ctx.version()).dtype.value_or(ctx.input_elem(0));
  ctx.set_output(0, type, x ? std::optional<Dims>(*x) : std::nullopt);
}
}  // namespace
SONNX_SHAPE_RULE("", "EyeLike", (9, 22), eye_like_shape);
}  // namespace sonnx
