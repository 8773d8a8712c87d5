// Combining two descriptions of one value's type: what inference found and what the model
// declares (or what a subgraph's declared input says and what its caller passes). Unknown parts
// of one are filled from the other; a contradiction (element types, ranks, two different known
// dims) is reported.
#pragma once
#include <string>

#include "reference/model/ir.h"

namespace sonnx {

// The merge of `inferred` and `declared`; on a contradiction `conflict` says what differs (and the
// result keeps the inferred side). An empty `conflict` means they agree.
TypeInfo merge_types(const TypeInfo& inferred, const TypeInfo& declared, std::string& conflict);

}  // namespace sonnx
