// Erf 9 → 13: version 13 drops the integer types (it keeps float16, float and double, and adds
// bfloat16); the function is the same. A node on floating types is relabelled (one kernel,
// reference/ops/Erf.cpp, serves both versions). On integers, version 9 computes erf in double of
// the value converted to double and converts the result back toward zero (0 or ±1): the rewrite
// writes exactly that, a Cast to double before a double Erf and a Cast back to the integer type
// after it (Cast converts an integer to the nearest double and a double in [-1, 1] toward zero).
// Telling them apart needs the input's element type.
#include <string>

#include "adapters_support.h"
#include "upgrade.h"

namespace sonnx {
namespace {

void erf_in_double(Node& n, admit::UpgradeContext& ctx) {
  if (n.inputs.empty() || n.inputs[0].empty()) throw admit::UpgradeRefused("input 0 is missing");
  const std::string& x = n.inputs[0];
  DType t = admit::adapt::elem_type(ctx, x);
  if (t == DType::Undefined) throw admit::UpgradeRefused("needs the element type of input " + x);
  if (t == DType::Float16 || t == DType::Float || t == DType::Double) return;
  if (!is_integer(t)) throw admit::UpgradeRefused("input " + x + " is " + std::string(dtype_name(t)));
  using namespace admit::adapt;
  std::string in = ctx.new_name(hint(n, "double")), out = ctx.new_name(hint(n, "erf"));
  Node to_double = new_node(ctx, n, "Cast", "to_double", {x}, {in});
  set_int_attr(to_double, "to", static_cast<int64_t>(DType::Double));
  Node back = new_node(ctx, n, "Cast", "to_" + std::string(dtype_name(t)), {out}, {n.outputs[0]});
  set_int_attr(back, "to", static_cast<int64_t>(t));
  n.inputs[0] = in;
  n.outputs[0] = out;
  ctx.add_node_before(std::move(to_double));
  ctx.add_node_after(std::move(back));
}

}  // namespace

SONNX_UPGRADE("", "Erf", 9, 13, erf_in_double);

}  // namespace sonnx
