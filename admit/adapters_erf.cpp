// Erf 9 → 13: version 13 drops the integer types (it keeps float16, float and double, and adds
// bfloat16); the function is the same. A node on floating types is relabelled (one kernel,
// reference/ops/Erf.cpp, serves both versions); a node on integers (whose erf version 9 truncates
// toward zero, so 0 or ±1) has no version-13 form as one node: it would need casts around a
// floating Erf, nodes an upgrade step cannot add, and is refused. Telling them apart needs the
// input's element type.
#include <string>

#include "adapters_support.h"
#include "upgrade.h"

namespace sonnx {
namespace {

void erf_on_floats_only(Node& n, admit::UpgradeContext& ctx) {
  if (n.inputs.empty() || n.inputs[0].empty()) throw admit::UpgradeRefused("input 0 is missing");
  const std::string& x = n.inputs[0];
  DType t = admit::adapt::elem_type(ctx, x);
  if (t == DType::Undefined) throw admit::UpgradeRefused("needs the element type of input " + x);
  if (t != DType::Float16 && t != DType::Float && t != DType::Double)
    throw admit::UpgradeRefused("input " + x + " is " + std::string(dtype_name(t)) +
                                ", which version 13 does not take (it would need casts to a floating type and back)");
}

}  // namespace

SONNX_UPGRADE("", "Erf", 9, 13, erf_on_floats_only);

}  // namespace sonnx
