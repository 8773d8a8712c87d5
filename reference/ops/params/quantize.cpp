#include "quantize.h"

#include <string>

namespace sonnx {

namespace {
// A data type attribute: absent or 0 for none, else a valid type (checked).
std::optional<DType> dtype_attr(const AttrReader& r, const char* name) {
  int64_t d = r.attr_int(name, 0);
  if (d == 0) return std::nullopt;
  if (d < 0 || d > 1000 || !is_valid_dtype(static_cast<int32_t>(d)))
    r.fail(std::string("attribute '") + name + "' is not a data type sonnx knows: " + std::to_string(d));
  return static_cast<DType>(d);
}
}  // namespace

QuantizeParams QuantizeParams::read(const AttrReader& r, int64_t version) {
  bool quantize = r.node().op_type == "QuantizeLinear";
  QuantizeParams p;
  if (version >= 13) p.axis = r.attr_int("axis", 1);
  if (version >= 21) p.block_size = r.attr_int("block_size", 0);
  if (version >= (quantize ? 21 : 23)) p.output_dtype = dtype_attr(r, "output_dtype");
  if (quantize && version >= 19) p.saturate = r.attr_int("saturate", 1) != 0;
  if (quantize && version >= 23) p.precision = dtype_attr(r, "precision");
  return p;
}

}  // namespace sonnx
