#include "pool.h"

#include <string>

namespace sonnx {

PoolParams PoolParams::read(const AttrReader& r, int64_t version) {
  const std::string& op = r.node().op_type;
  PoolParams p;
  if (op.rfind("Global", 0) != 0) {  // the global pools have no window
    if (!r.has_attr("kernel_shape")) r.fail("attribute 'kernel_shape' is required");
    p.kernel_shape = r.attr_ints("kernel_shape");
  }
  if (op == "MaxPool" || op == "AveragePool" || op == "LpPool") {
    const bool has_ceil_mode = version >= (op == "LpPool" ? 18 : 10);
    const bool has_dilations = version >= (op == "MaxPool" ? 10 : op == "AveragePool" ? 19 : 18);
    p.ceil_mode = r.attr_int("ceil_mode", 0) != 0;
    if (p.ceil_mode && !has_ceil_mode) r.fail(op + " has no ceil_mode in this version");
    if (!has_dilations)
      for (int64_t d : r.attr_ints("dilations", {}))
        if (d != 1) r.fail(op + " has no dilations in this version");
  }
  if (op == "AveragePool") {
    if (version >= 7) p.count_include_pad = r.attr_int("count_include_pad", 0) != 0;
  } else if (op == "MaxPool") {
    p.storage_order = r.attr_int("storage_order", 0);
    if (p.storage_order != 0 && p.storage_order != 1) r.fail("storage_order must be 0 or 1");
  } else if (op == "LpPool" || op == "GlobalLpPool") {
    p.p = version < 2 ? static_cast<double>(r.attr_float("p", 2.0f)) : static_cast<double>(r.attr_int("p", 2));
  }
  return p;
}

}  // namespace sonnx
