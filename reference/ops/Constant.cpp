// Constant: a tensor fixed by exactly one attribute (value; from version 12 also value_float(s),
// value_int(s), value_string(s)). Sparse values are not supported by the reference.
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> constant(OpContext& ctx) {
  const Node& n = ctx.node();
  if (n.attributes.size() != 1) ctx.fail("exactly one value attribute is required");
  const Attribute& a = n.attributes[0];
  if (a.name == "value") return one(ctx.attr_tensor("value"));
  if (a.name == "value_float") return one(Tensor::scalar<float>(ctx.attr_float("value_float", 0)));
  if (a.name == "value_int") return one(Tensor::scalar<int64_t>(ctx.attr_int("value_int", 0)));
  if (a.name == "value_string") return one(Tensor::scalar<std::string>(ctx.attr_string("value_string", "")));
  if (a.name == "value_floats") {
    auto v = ctx.attr_floats("value_floats");
    return one(Tensor::from_vector<float>({static_cast<int64_t>(v.size())}, v));
  }
  if (a.name == "value_ints") {
    auto v = ctx.attr_ints("value_ints");
    return one(Tensor::from_vector<int64_t>({static_cast<int64_t>(v.size())}, v));
  }
  if (a.name == "value_strings") {
    auto v = ctx.attr_strings("value_strings");
    return one(Tensor::from_vector<std::string>({static_cast<int64_t>(v.size())}, v));
  }
  ctx.fail("unsupported attribute '" + a.name + "' (sparse constants are not supported)");
}
}  // namespace
SONNX_KERNEL("", "Constant", 1, constant, Accuracy::Exact);

// Versions 19, 21, 23, 24, 25 only widen the type lists (the documents' text and
// structure are unchanged): the same kernel.
SONNX_KERNEL("", "Constant", 19, constant, Accuracy::Exact);
SONNX_KERNEL("", "Constant", 21, constant, Accuracy::Exact);
SONNX_KERNEL("", "Constant", 23, constant, Accuracy::Exact);
SONNX_KERNEL("", "Constant", 24, constant, Accuracy::Exact);
SONNX_KERNEL("", "Constant", 25, constant, Accuracy::Exact);
}  // namespace sonnx
