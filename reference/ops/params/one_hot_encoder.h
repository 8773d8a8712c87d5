// The parameters of OneHotEncoder (ai.onnx.ml 1; reference/ops/op_params.h), read by its reference
// kernel, its shape rule and its enclosure (enclose/enclose_ml.cpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "reference/model/attr_reader.h"
#include "sonnx/dtype.h"

namespace sonnx {

struct OneHotEncoderParams {
  std::vector<int64_t> int_cats;         // cats_int64s (empty when the strings are given)
  std::vector<std::string> string_cats;  // cats_strings (empty when the ints are given)
  bool zeros = true;                     // an unknown element gives zeros (else traps)

  static OneHotEncoderParams read(const AttrReader& r, int64_t /*version*/) {
    OneHotEncoderParams p;
    p.int_cats = r.attr_ints("cats_int64s");
    p.string_cats = r.attr_strings("cats_strings");
    if (p.int_cats.empty() == p.string_cats.empty())
      r.fail("exactly one of cats_int64s and cats_strings must be given, non-empty");
    const int64_t zeros = r.attr_int("zeros", 1);
    if (zeros != 0 && zeros != 1) r.fail("zeros must be 0 or 1, got " + std::to_string(zeros));
    p.zeros = zeros == 1;
    return p;
  }
  int64_t count() const { return static_cast<int64_t>(int_cats.empty() ? string_cats.size() : int_cats.size()); }

  // Whether the categories fit X of element type `t` (Undefined: unknown): "" or why not.
  std::string fits(DType t) const {
    if (t == DType::Undefined) return "";
    const bool numeric = t == DType::Int64 || t == DType::Int32 || t == DType::Float || t == DType::Double;
    if (t != DType::String && !numeric)
      return "X must be string, int64, int32, float or double, got " + std::string(dtype_name(t));
    if (t == DType::String && string_cats.empty()) return "a string X needs cats_strings";
    if (numeric && int_cats.empty()) return "a numeric X needs cats_int64s";
    return "";
  }
};

}  // namespace sonnx
