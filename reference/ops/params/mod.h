// Mod's parameters (reference/ops/op_params.h), read by its reference kernel and enclosure.
#pragma once
#include <cstdint>

#include "reference/model/attr_reader.h"

namespace sonnx {

struct ModParams {
  bool fmod = false;  // the remainder of C's fmod (sign of the dividend) rather than Python's %; 0 or 1 (checked)
  static ModParams read(const AttrReader& reader, int64_t version);
};

}  // namespace sonnx
