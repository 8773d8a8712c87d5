#include "legacy.h"

namespace sonnx {

LegacyConsumedInputsParams LegacyConsumedInputsParams::read(const AttrReader& r, int64_t /*version*/) {
  (void)r.attr_ints("consumed_inputs");
  return {};
}

}  // namespace sonnx
