// The legacy broadcasting of the binary operators before version 7 (reference/ops/op_params.h):
// Add, Sub, Mul, Div, Pow, And, Or, Xor, Equal, Greater and Less, read by their reference kernels
// (support::legacy_broadcast) and shape rules (support::legacy_broadcast_rule).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "reference/model/attr_reader.h"
#include "sonnx/tensor.h"

namespace sonnx {

// Before version 7 B broadcasts to A only with broadcast=1: its dimensions line up with A's from
// `axis` (default: A's last ones), each equal to A's or 1; a B of one element broadcasts anywhere.
// Without broadcast=1 the shapes must be equal. From version 7 both broadcast multidirectionally
// and these attributes are gone.
struct LegacyBroadcastParams {
  bool legacy = false;  // version < 7
  bool broadcast = false;
  std::optional<int64_t> axis;
  static LegacyBroadcastParams read(const AttrReader& reader, int64_t version);
  // B's shape padded with 1s to A's rank, as it broadcasts to A, into `b_full`: "" when B
  // broadcasts to A, else why not.
  std::string b_shape(const Shape& a, const Shape& b, Shape& b_full) const;
};

}  // namespace sonnx
