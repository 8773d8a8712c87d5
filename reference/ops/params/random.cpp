#include "random.h"

#include <string>

namespace sonnx {

std::string RandomParams::output_type_error(DType t, int64_t version) {
  if (t == DType::Float || t == DType::Double || t == DType::Float16 || (version >= 22 && t == DType::BFloat16)) return "";
  return "output element type " + std::string(dtype_name(t)) +
         (version >= 22 ? " is not float16, float, double or bfloat16" : " is not float16, float or double");
}

RandomParams RandomParams::read(const AttrReader& r, int64_t version) {
  const std::string& op = r.node().op_type;
  RandomParams p;
  p.normal = op == "RandomNormal" || op == "RandomNormalLike";
  p.like = op == "RandomNormalLike" || op == "RandomUniformLike";
  if (!p.normal && op != "RandomUniform" && op != "RandomUniformLike") r.fail("RandomParams do not describe " + op);
  if (p.normal) {
    p.mean = r.attr_float("mean", 0.0f);
    p.scale = r.attr_float("scale", 1.0f);
  } else {
    p.low = r.attr_float("low", 0.0f);
    p.high = r.attr_float("high", 1.0f);
  }
  p.dtype = r.attr_dtype("dtype");
  if (p.dtype) {
    std::string why = output_type_error(*p.dtype, version);
    if (!why.empty()) r.fail("attribute dtype: " + why);
  }
  if (!p.like) {
    if (!r.has_attr("shape")) r.fail("attribute 'shape' is required");
    p.shape = r.attr_ints("shape");
    for (int64_t d : p.shape)
      if (d < 0) r.fail("shape " + shape_str(p.shape) + " has a negative dim");
  }
  if (r.has_attr("seed")) p.seed = r.attr_float("seed", 0.0f);
  return p;
}

}  // namespace sonnx
