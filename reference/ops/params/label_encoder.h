// The parameters of LabelEncoder (ai.onnx.ml; reference/ops/op_params.h), read by its reference
// kernel, its shape rule and its enclosure (enclose/enclose_ml.cpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "reference/model/attr_reader.h"

namespace sonnx {

struct LabelEncoderParams {
  // Version 1: classes_strings maps an index to its string and a string to the index of its first
  // occurrence; default_int64 / default_string answer what is not found.
  std::vector<std::string> classes;
  int64_t default_int64 = -1;
  std::string default_string = "_Unused";
  // From version 2: the keys and values (1-D, of one length; from version 4 also *_tensor) and the
  // default, one element of the values' type (from version 4 default_tensor when given).
  Tensor keys, values, default_value;
  static LabelEncoderParams read(const AttrReader& r, int64_t version);
};

}  // namespace sonnx
