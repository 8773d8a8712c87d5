// Small known integer values: turning a fully known partial value into a tensor of the value's
// element type, so the reference kernels can fold what follows.
#pragma once
#include <optional>
#include <vector>

#include "sonnx/tensor.h"
#include "shape_rule.h"

namespace sonnx {

// A tensor of integer element type `elem` holding `values` (shape [n], or [] when `scalar`);
// nullopt when `elem` is not an integer type or a value does not fit it.
std::optional<Tensor> int_tensor(DType elem, const std::vector<int64_t>& values, bool scalar);
// The tensor a partial value stands for, when every element is known.
std::optional<Tensor> tensor_from_partial(const PartialValue& p, DType elem);

}  // namespace sonnx
