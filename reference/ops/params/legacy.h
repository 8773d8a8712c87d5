// The parameters of the version-1 operators whose one attribute is the legacy `consumed_inputs`
// (reference/ops/op_params.h): an optimisation hint of the first opsets, a list of ints that
// changes nothing in the result. Read so that a malformed one is reported like any attribute.
#pragma once
#include <cstdint>

#include "reference/model/attr_reader.h"

namespace sonnx {

struct LegacyConsumedInputsParams {
  static LegacyConsumedInputsParams read(const AttrReader& reader, int64_t version);
};

}  // namespace sonnx
