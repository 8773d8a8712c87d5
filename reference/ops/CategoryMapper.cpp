// CategoryMapper (ai.onnx.ml 1): maps each element of X through the pairs (cats_int64s[i],
// cats_strings[i]), keeping X's shape. The direction comes from X's element type: a string X gives
// int64 (default_int64, -1, for a string not among the pairs), an int64 X gives string
// (default_string, "_Unused"). Decisions (spec/ops/CategoryMapper.md): both defaults may be given
// (the one of the other direction is unused); a key listed twice maps to its last pair.
#include <map>

#include "op_params.h"
#include "support/kernel.h"
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {

struct CategoryMapperParams {
  std::vector<int64_t> ints;         // cats_int64s
  std::vector<std::string> strings;  // cats_strings, pairwise with ints
  int64_t default_int64 = -1;
  std::string default_string = "_Unused";

  static CategoryMapperParams read(const AttrReader& r, int64_t /*version*/) {
    CategoryMapperParams p;
    p.ints = r.attr_ints("cats_int64s");
    p.strings = r.attr_strings("cats_strings");
    if (p.ints.size() != p.strings.size())
      r.fail("cats_int64s has " + std::to_string(p.ints.size()) + " entries and cats_strings " +
             std::to_string(p.strings.size()) + "; they must be of one length");
    p.default_int64 = r.attr_int("default_int64", -1);
    p.default_string = r.attr_string("default_string", "_Unused");
    return p;
  }
};

// Y's element type for X's (Undefined for Undefined); fails for a type that has no direction.
template <class Ctx>
DType category_mapper_output(const Ctx& ctx, DType x) {
  if (x == DType::String) return DType::Int64;
  if (x == DType::Int64) return DType::String;
  if (x != DType::Undefined) ctx.fail("X must be string or int64, got " + std::string(dtype_name(x)));
  return DType::Undefined;
}

std::vector<Value> category_mapper(OpContext& ctx) {
  const CategoryMapperParams p = CategoryMapperParams::read(ctx, ctx.version());
  const Tensor& x = ctx.input(0);
  Tensor y(category_mapper_output(ctx, x.dtype()), x.shape());
  if (x.dtype() == DType::String) {
    std::map<std::string, int64_t> to_int;
    for (size_t j = 0; j < p.strings.size(); ++j) to_int[p.strings[j]] = p.ints[j];  // the last pair wins
    for (int64_t i = 0; i < x.size(); ++i) {
      auto it = to_int.find(x.data<std::string>()[i]);
      y.data<int64_t>()[i] = it == to_int.end() ? p.default_int64 : it->second;
    }
  } else {
    std::map<int64_t, std::string> to_string;
    for (size_t j = 0; j < p.ints.size(); ++j) to_string[p.ints[j]] = p.strings[j];  // the last pair wins
    for (int64_t i = 0; i < x.size(); ++i) {
      auto it = to_string.find(x.data<int64_t>()[i]);
      y.data<std::string>()[i] = it == to_string.end() ? p.default_string : it->second;
    }
  }
  return one(std::move(y));
}

void category_mapper_shape(InferContext& ctx) {
  (void)CategoryMapperParams::read(ctx, ctx.version());
  const DType out = category_mapper_output(ctx, ctx.input_elem(0));
  const Dims* x = ctx.input_shape(0);
  ctx.set_output(0, out, x ? std::optional<Dims>(*x) : std::nullopt);
}

}  // namespace
SONNX_KERNEL("ai.onnx.ml", "CategoryMapper", 1, category_mapper, Accuracy::Exact);
SONNX_SHAPE_RULE("ai.onnx.ml", "CategoryMapper", (1), category_mapper_shape);
SONNX_PARAMS("ai.onnx.ml", "CategoryMapper", (1), CategoryMapperParams);
}  // namespace sonnx
