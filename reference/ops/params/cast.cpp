#include "cast.h"

#include <cctype>
#include <limits>
#include <string>

namespace sonnx {

CastParams CastParams::read(const AttrReader& r, int64_t version) {
  CastParams p;
  if (r.node().op_type == "Cast") {
    const Attribute* a = r.attr("to");
    if (!a) r.fail("attribute 'to' is required");
    if (a->type == Attribute::Type::String && version < 6) {
      std::string name;
      for (char c : a->s) name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));  // "FLOAT16" → "float16"
      p.to = dtype_from_name(name);
      if (p.to == DType::Undefined) r.fail("attribute 'to' names no data type: \"" + a->s + "\"");
    } else {  // version 1 tolerates the later integer form
      int64_t to = r.attr_int("to", 0);
      if (to <= 0 || to > std::numeric_limits<int32_t>::max())
        r.fail("attribute 'to' is not a valid data type: " + std::to_string(to));
      if (is_valid_dtype(static_cast<int32_t>(to))) p.to = static_cast<DType>(to);
    }
  }
  if (version >= 19) p.options.saturate = r.attr_int("saturate", 1) != 0;
  p.options.fnuz_inf_to_max = version >= 24;
  if (version >= 24) {
    std::string mode = r.attr_string("round_mode", "up");
    if (mode == "up") p.options.e8m0_rounding = E8M0Rounding::Up;
    else if (mode == "down") p.options.e8m0_rounding = E8M0Rounding::Down;
    else if (mode == "nearest") p.options.e8m0_rounding = E8M0Rounding::Nearest;
    else r.fail("attribute 'round_mode' must be \"up\", \"down\" or \"nearest\", not \"" + mode + "\"");
  }
  return p;
}

}  // namespace sonnx
