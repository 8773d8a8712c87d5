// The parameters of Imputer (ai.onnx.ml 1; reference/ops/op_params.h), read by its reference
// kernel, its shape rule and its enclosure (enclose/enclose_ml.cpp).
#pragma once
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "reference/model/attr_reader.h"
#include "sonnx/dtype.h"

namespace sonnx {

struct ImputerParams {
  std::vector<float> float_values;  // imputed_value_floats (empty when the int64s are given)
  std::vector<int64_t> int_values;  // imputed_value_int64s (empty when the floats are given)
  float replaced_float = 0.0f;
  int64_t replaced_int = 0;

  static ImputerParams read(const AttrReader& r, int64_t /*version*/) {
    ImputerParams p;
    p.float_values = r.attr_floats("imputed_value_floats");
    p.int_values = r.attr_ints("imputed_value_int64s");
    if (p.float_values.empty() == p.int_values.empty())
      r.fail("exactly one of imputed_value_floats and imputed_value_int64s must be given, non-empty");
    p.replaced_float = r.attr_float("replaced_value_float", 0.0f);
    p.replaced_int = r.attr_int("replaced_value_int64", 0);
    return p;
  }
  bool floats() const { return !float_values.empty(); }
  int64_t count() const { return static_cast<int64_t>(floats() ? float_values.size() : int_values.size()); }

  // Whether they fit X of element type `t` (Undefined: unknown) and `features` entries on its last
  // axis (nullopt: unknown): "" or why not.
  std::string fits(DType t, std::optional<int64_t> features) const {
    const std::string type(dtype_name(t));
    if (floats() && t != DType::Undefined && t != DType::Float && t != DType::Double)
      return "imputed_value_floats needs a float or double X, got " + type;
    if (!floats() && t != DType::Undefined && t != DType::Int64 && t != DType::Int32)
      return "imputed_value_int64s needs an int64 or int32 X, got " + type;
    if (t == DType::Int32)
      for (int64_t v : int_values)
        if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max())
          return "imputed value " + std::to_string(v) + " does not fit int32";
    if (features && count() != 1 && count() != *features)
      return "the imputed values have " + std::to_string(count()) + " entries; X has " + std::to_string(*features) + " features";
    return "";
  }
};

}  // namespace sonnx
