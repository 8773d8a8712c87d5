#include "quantize.h"

#include <string>

namespace sonnx {

namespace {
// A data type attribute: absent or 0 (the default) for none, else a data type.
std::optional<DType> data_type(const AttrReader& r, const char* name) {
  return r.attr_int(name, 0) == 0 ? std::nullopt : r.attr_dtype(name);
}
}  // namespace

QuantizeParams QuantizeParams::read(const AttrReader& r, int64_t version) {
  bool quantize = r.node().op_type == "QuantizeLinear";
  QuantizeParams p;
  if (version >= 13) p.axis = r.attr_int("axis", 1);
  if (version >= 21) p.block_size = r.attr_int("block_size", 0);
  if (version >= (quantize ? 21 : 23)) p.output_dtype = data_type(r, "output_dtype");
  if (quantize && version >= 19) p.saturate = r.attr_int("saturate", 1) != 0;
  if (quantize && version >= 23) p.precision = data_type(r, "precision");
  return p;
}

}  // namespace sonnx
