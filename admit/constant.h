// The one test the rewrites use for "this value is the same at every run".
#pragma once
#include <string>

#include "reference/model/ir.h"

namespace sonnx::admit {

// The value of `name` when it is the same at every run: an initializer of g that is not also a
// graph input (an initializer of an input is only its default). Null otherwise.
inline const Tensor* constant(const Graph& g, const std::string& name) {
  for (const ValueInfo& v : g.inputs)
    if (v.name == name) return nullptr;
  for (const auto& [n, t] : g.initializers)
    if (n == name) return &t;
  return nullptr;
}

}  // namespace sonnx::admit
