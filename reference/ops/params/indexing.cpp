#include "indexing.h"

#include <algorithm>
#include <string>

namespace sonnx {

TopKParams TopKParams::read(const AttrReader& r, int64_t version) {
  TopKParams p;
  p.axis = r.attr_int("axis", -1);
  if (version < 10) {
    if (!r.has_attr("k")) r.fail("attribute 'k' is required");
    p.k = r.attr_int("k", 0);
  }
  if (version >= 11) p.largest = r.attr_int("largest", 1) != 0;
  return p;
}

BlockParams BlockParams::read(const AttrReader& r, int64_t version) {
  BlockParams p;
  p.blocksize = r.attr_int("blocksize", 0);
  if (!r.has_attr("blocksize") || p.blocksize < 1 || p.blocksize > (int64_t{1} << 20))
    r.fail("blocksize must be a positive integer (at most 2^20)");
  if (r.node().op_type == "DepthToSpace" && version >= 11) {
    std::string mode = r.attr_string("mode", "DCR");
    if (mode != "DCR" && mode != "CRD") r.fail("unsupported mode '" + mode + "'");
    p.crd = mode == "CRD";
  }
  return p;
}

OneHotParams OneHotParams::read(const AttrReader& r, int64_t /*version*/) { return {r.attr_int("axis", -1)}; }

GatherNDParams GatherNDParams::read(const AttrReader& r, int64_t version) {
  return {version >= 12 ? r.attr_int("batch_dims", 0) : 0};
}

CompressParams CompressParams::read(const AttrReader& r, int64_t /*version*/) {
  CompressParams p;
  if (r.has_attr("axis")) p.axis = r.attr_int("axis", 0);
  return p;
}

ShapeParams ShapeParams::read(const AttrReader& r, int64_t version) {
  ShapeParams p;
  if (version < 15) return p;
  p.start = r.attr_int("start", 0);
  if (r.has_attr("end")) p.end = r.attr_int("end", 0);
  return p;
}

void ShapeParams::range(int64_t rank, int64_t& begin, int64_t& stop) const {
  auto clamp_axis = [rank](int64_t a) { return std::clamp<int64_t>(a < 0 ? a + rank : a, 0, rank); };
  begin = clamp_axis(start);
  stop = end ? clamp_axis(*end) : rank;
}

CumSumParams CumSumParams::read(const AttrReader& r, int64_t /*version*/) {
  return {r.attr_int("exclusive", 0) != 0, r.attr_int("reverse", 0) != 0};
}

}  // namespace sonnx
