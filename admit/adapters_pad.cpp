// Pad 2 → 11: the attributes pads and value become inputs 1 (int64, the same list) and 2 (the
// constant, a scalar of X's element type). Version 2 pads with its float `value` (default 0)
// converted to X's type (reference/ops/Pad.cpp, pad_v1); version 11 pads with constant_value,
// else with zero. So the rewrite gives the constant, converted to X's type as version 2 converts
// it, as an initializer when the mode is constant and the value is not +0 (the only case where it
// is read and differs from version 11's default); that case needs X's element type. The layout of
// pads ([x1_begin, x2_begin, ..., x1_end, x2_end, ...], negative amounts crop) and the modes are
// the same in both versions, which one function pads with.
#include <bit>
#include <string>

#include "adapters_support.h"
#include "reference/ops/support/numeric.h"
#include "upgrade.h"

namespace sonnx {
namespace {

template <class T>
Tensor constant_as(float v) {
  return Tensor::scalar<T>(support::to_storage<T>(v));
}

void pad_attributes_to_inputs(Node& n, admit::UpgradeContext& ctx) {
  using namespace admit::adapt;
  if (n.inputs.empty() || n.inputs[0].empty()) throw admit::UpgradeRefused("input 0 is missing");
  for (size_t k = 1; k < n.inputs.size(); ++k)
    if (!n.inputs[k].empty()) throw admit::UpgradeRefused("a version-2 Pad reads one input");
  const Attribute* pads = find_attr(n, "pads");
  if (!pads) throw admit::UpgradeRefused("attribute pads is missing");
  if (pads->type != Attribute::Type::Ints) throw admit::UpgradeRefused("attribute pads is not a list of ints");
  const Attribute* value = find_attr(n, "value");
  if (value && value->type != Attribute::Type::Float) throw admit::UpgradeRefused("attribute value is not a float");
  std::string mode = string_attr(n, "mode", "constant");
  const std::string& x = n.inputs[0];

  std::string constant;
  if (mode == "constant" && value && std::bit_cast<uint32_t>(value->f) != 0u) {
    DType t = elem_type(ctx, x);
    if (t == DType::Undefined)
      throw admit::UpgradeRefused("needs the element type of input " + x + " (the type of the constant)");
    Tensor c;
    switch (t) {
      case DType::Float: c = constant_as<float>(value->f); break;
      case DType::Double: c = constant_as<double>(value->f); break;
      case DType::Float16: c = constant_as<float16_t>(value->f); break;
      default: throw admit::UpgradeRefused("input " + x + " is " + std::string(dtype_name(t)) + ", not a type of Pad-2");
    }
    constant = ctx.add_initializer(hint(n, "constant_value"), std::move(c));
  }
  std::string amounts = ctx.add_initializer(hint(n, "pads"),
                                            Tensor::from_vector<int64_t>({static_cast<int64_t>(pads->ints.size())}, pads->ints));
  n.inputs = {x, amounts};
  if (!constant.empty()) n.inputs.push_back(constant);
  erase_attr(n, "pads");
  erase_attr(n, "value");
}

}  // namespace

SONNX_UPGRADE("", "Pad", 2, 11, pad_attributes_to_inputs);

}  // namespace sonnx
