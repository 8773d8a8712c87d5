// Deterministic synthetic inputs for a model's graph inputs (`sonnx run/bench/partition`, and the
// profiling run of profile-guided device assignment).
#pragma once
#include <cstdint>
#include <map>
#include <string>

#include "reference/model/ir.h"
#include "sonnx/value.h"

namespace sonnx {

// Fills every graph input not in `given` and without an initializer with a tensor of its declared
// type and shape (symbolic dimensions from `dims`, else 1): floats uniform in [-1, 1), integers 0,
// booleans false, from a fixed seed. Throws LoadError when a type is not a static-rank tensor.
void add_synthetic_inputs(const Model& model, const std::map<std::string, int64_t>& dims, NamedValues& given);

}  // namespace sonnx
