// The parameters of Constant and ConstantOfShape (reference/ops/op_params.h), read by their
// reference kernels and shape rules.
#pragma once
#include <cstdint>
#include <string>

#include "reference/model/attr_reader.h"
#include "sonnx/tensor.h"

namespace sonnx {

// Constant: exactly one value attribute (checked): `value` (a tensor), from version 12 also
// value_float(s), value_int(s), value_string(s) (a scalar or a 1-D tensor), or sparse_value (which
// sonnx does not run: the kernel refuses it, type inference leaves the output unknown).
struct ConstantParams {
  std::string attribute;  // which one: "value", "value_float", ...
  bool sparse = false;
  const Tensor& value() const { return in_node ? *in_node : built; }
  static ConstantParams read(const AttrReader& reader, int64_t version);

 private:
  const Tensor* in_node = nullptr;  // the `value` attribute's tensor, in the node (not copied)
  Tensor built;                     // the others'
};

// ConstantOfShape: the one-element tensor `value` (default float 0; checked).
struct ConstantOfShapeParams {
  Tensor value = Tensor::scalar<float>(0.0f);
  static ConstantOfShapeParams read(const AttrReader& reader, int64_t version);
};

}  // namespace sonnx
