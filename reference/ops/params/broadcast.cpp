#include "broadcast.h"

namespace sonnx {

LegacyBroadcastParams LegacyBroadcastParams::read(const AttrReader& r, int64_t version) {
  LegacyBroadcastParams p;
  p.legacy = version < 7;
  if (!p.legacy) return p;
  p.broadcast = r.attr_int("broadcast", 0) != 0;
  if (r.has_attr("axis")) p.axis = r.attr_int("axis", 0);
  return p;
}

std::string LegacyBroadcastParams::b_shape(const Shape& a, const Shape& b, Shape& b_full) const {
  auto rank_a = static_cast<int64_t>(a.size()), rank_b = static_cast<int64_t>(b.size());
  if (!broadcast) {
    if (a != b) return "shapes " + shape_str(a) + " and " + shape_str(b) + " differ and broadcast=0";
    b_full = b;
    return "";
  }
  if (rank_b > rank_a) return "legacy broadcast: B has higher rank than A";
  b_full.assign(a.size(), 1);
  if (shape_size(b) == 1) return "";  // a scalar-like B broadcasts everywhere
  int64_t at = axis.value_or(rank_a - rank_b);
  if (at < 0) at += rank_a;
  if (at < 0 || at + rank_b > rank_a) return "legacy broadcast: axis out of range";
  for (int64_t i = 0; i < rank_b; ++i) {
    int64_t d = b[static_cast<size_t>(i)];
    if (d != a[static_cast<size_t>(at + i)] && d != 1)
      return "legacy broadcast: shapes " + shape_str(a) + " and " + shape_str(b) + " do not match at axis";
    b_full[static_cast<size_t>(at + i)] = d;
  }
  return "";
}

}  // namespace sonnx
