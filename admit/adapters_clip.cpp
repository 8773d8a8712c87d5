// Clip 6 → 11: the float attributes min and max become the optional scalar inputs 1 and 2, of X's
// element type. Version 6 rounds each bound (the attribute, else its default, float's lowest or
// max) to X's type and clips with it (reference/ops/Clip.cpp, clip_v1); version 11 clips with the
// input it is given, else with X's type's own lowest or largest finite value. So the rewrite gives
// each bound version 6 uses, rounded to X's type as version 6 rounds it, as an initializer, and
// omits a bound only where version 11's default is the same number: an absent attribute on float.
// (On double version 6 clips at ±3.4028234663852886e38; on float16 its default rounds to ±inf,
// so ±inf stay, where version 11's default clips them to ±65504.) The element type must be known.
#include <limits>
#include <string>

#include "adapters_support.h"
#include "reference/ops/support/numeric.h"
#include "upgrade.h"

namespace sonnx {
namespace {

template <class T>
Tensor rounded_bound(float v) {
  return Tensor::scalar<T>(support::round_from_double<T>(static_cast<double>(v)));
}

void clip_attributes_to_inputs(Node& n, admit::UpgradeContext& ctx) {
  using namespace admit::adapt;
  if (n.inputs.empty() || n.inputs[0].empty()) throw admit::UpgradeRefused("input 0 is missing");
  for (size_t k = 1; k < n.inputs.size(); ++k)
    if (!n.inputs[k].empty()) throw admit::UpgradeRefused("a version-6 Clip reads one input");
  const Attribute* lo = find_attr(n, "min");
  const Attribute* hi = find_attr(n, "max");
  for (const Attribute* a : {lo, hi})
    if (a && a->type != Attribute::Type::Float) throw admit::UpgradeRefused("attribute " + a->name + " is not a float");
  const std::string& x = n.inputs[0];
  DType t = elem_type(ctx, x);
  if (t == DType::Undefined) throw admit::UpgradeRefused("needs the element type of input " + x);
  auto bound = [&](float v) {
    switch (t) {
      case DType::Float: return rounded_bound<float>(v);
      case DType::Double: return rounded_bound<double>(v);
      case DType::Float16: return rounded_bound<float16_t>(v);
      default: throw admit::UpgradeRefused("input " + x + " is " + std::string(dtype_name(t)) + ", not a type of Clip-6");
    }
  };
  bool same_defaults = t == DType::Float;  // version 11's omitted bounds are version 6's defaults
  std::string min_input, max_input;
  if (lo || !same_defaults)
    min_input = ctx.add_initializer(hint(n, "min"), bound(lo ? lo->f : std::numeric_limits<float>::lowest()));
  if (hi || !same_defaults)
    max_input = ctx.add_initializer(hint(n, "max"), bound(hi ? hi->f : std::numeric_limits<float>::max()));
  n.inputs = {x, min_input, max_input};
  while (n.inputs.back().empty()) n.inputs.pop_back();
  erase_attr(n, "min");
  erase_attr(n, "max");
}

}  // namespace

SONNX_UPGRADE("", "Clip", 6, 11, clip_attributes_to_inputs);

}  // namespace sonnx
