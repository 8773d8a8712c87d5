// OneHotEncoder (ai.onnx.ml 1): Y (float) has X's shape and a new last axis of |categories|; Y[i, j]
// is 1 where element i of X is category j, else 0. Exactly one of cats_strings (for string X) and
// cats_int64s (for int64, int32, float or double X) is given, non-empty. An element that is no
// category gives a row of zeros when zeros = 1 (the default) and traps when zeros = 0.
// Decisions (spec/ops/OneHotEncoder.md): float and double elements are cast to integers by
// truncation toward zero (the text's "cast"; a NaN, an infinity or a value beyond int64 is no
// category); a category listed twice is its last position; X may have any rank.
#include <cmath>
#include <map>
#include <optional>

#include "op_params.h"
#include "params/one_hot_encoder.h"
#include "support/kernel.h"
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {

// Element i of a numeric X as the integer it is cast to: truncated toward zero; nullopt for NaN,
// infinities and values int64 cannot hold.
std::optional<int64_t> one_hot_encoder_integer(const Tensor& x, int64_t i) {
  if (x.dtype() == DType::Int64 || x.dtype() == DType::Int32) return x.as_int64(i);
  const double v = std::trunc(x.as_double(i));
  constexpr double kTwo63 = 9223372036854775808.0;  // 2^63
  if (!(v >= -kTwo63 && v < kTwo63)) return std::nullopt;
  return static_cast<int64_t>(v);
}

// The category position of each element of X (-1: none); the last of repeated categories wins.
std::vector<int64_t> one_hot_encoder_positions(const OneHotEncoderParams& p, const Tensor& x) {
  std::vector<int64_t> pos(static_cast<size_t>(x.size()), -1);
  if (x.dtype() == DType::String) {
    std::map<std::string, int64_t> where;
    for (size_t j = 0; j < p.string_cats.size(); ++j) where[p.string_cats[j]] = static_cast<int64_t>(j);
    for (int64_t i = 0; i < x.size(); ++i)
      if (auto it = where.find(x.data<std::string>()[i]); it != where.end()) pos[static_cast<size_t>(i)] = it->second;
    return pos;
  }
  std::map<int64_t, int64_t> where;
  for (size_t j = 0; j < p.int_cats.size(); ++j) where[p.int_cats[j]] = static_cast<int64_t>(j);
  for (int64_t i = 0; i < x.size(); ++i) {
    const std::optional<int64_t> v = one_hot_encoder_integer(x, i);
    if (!v) continue;
    if (auto it = where.find(*v); it != where.end()) pos[static_cast<size_t>(i)] = it->second;
  }
  return pos;
}

std::vector<Value> one_hot_encoder(OpContext& ctx) {
  const OneHotEncoderParams p = OneHotEncoderParams::read(ctx, ctx.version());
  const Tensor& x = ctx.input(0);
  if (std::string why = p.fits(x.dtype()); !why.empty()) ctx.fail(why);
  const int64_t k = p.count();
  Shape shape = x.shape();
  shape.push_back(k);
  Tensor y(DType::Float, shape);  // zero-filled
  const std::vector<int64_t> pos = one_hot_encoder_positions(p, x);
  float* out = y.data<float>();
  for (int64_t i = 0; i < x.size(); ++i) {
    const int64_t j = pos[static_cast<size_t>(i)];
    if (j >= 0) out[i * k + j] = 1.0f;
    else if (!p.zeros) ctx.fail("element " + std::to_string(i) + " of X is no category, and zeros = 0");
  }
  return one(std::move(y));
}

void one_hot_encoder_shape(InferContext& ctx) {
  const OneHotEncoderParams p = OneHotEncoderParams::read(ctx, ctx.version());
  if (std::string why = p.fits(ctx.input_elem(0)); !why.empty()) ctx.fail(why);
  const Dims* x = ctx.input_shape(0);
  std::optional<Dims> out;
  if (x) {
    out = *x;
    out->push_back(known_dim(p.count()));
  }
  ctx.set_output(0, DType::Float, out);
}

}  // namespace
SONNX_KERNEL("ai.onnx.ml", "OneHotEncoder", 1, one_hot_encoder, Accuracy::Exact);
SONNX_SHAPE_RULE("ai.onnx.ml", "OneHotEncoder", (1), one_hot_encoder_shape);
SONNX_PARAMS("ai.onnx.ml", "OneHotEncoder", (1), OneHotEncoderParams);
}  // namespace sonnx
