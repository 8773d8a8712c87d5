// Constant: a tensor fixed by exactly one attribute (value; from version 12 also value_float(s),
// value_int(s), value_string(s)). Sparse values are not supported by the reference.
// Relies on ops/shape_ops.mlw Constant.constant_unique: Constant's output is determined by its one value attribute.
#include "support/shape.h"
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
namespace {
// The type and shape of the one value attribute; the value itself when small.
void constant_shape(InferContext& ctx) {
  const Node& n = ctx.node();
  if (n.attributes.size() != 1) ctx.fail("exactly one value attribute is required");
  const Attribute& a = n.attributes[0];
  auto vec = [&](DType t, size_t count) { ctx.set_output(0, t, Dims{known_dim(static_cast<int64_t>(count))}); };
  if (a.name == "value") {
    if (a.type != Attribute::Type::Tensor) ctx.fail("attribute 'value' must be a tensor");
    ctx.set_output(0, a.t.dtype(), known_dims(a.t.shape()));
    ctx.set_output_value(0, a.t);
  } else if (a.name == "value_float") {
    ctx.set_output(0, DType::Float, Dims{});
  } else if (a.name == "value_int") {
    ctx.set_output(0, DType::Int64, Dims{});
    ctx.set_output_value(0, Tensor::scalar<int64_t>(ctx.attr_int("value_int", 0)));
  } else if (a.name == "value_string") {
    ctx.set_output(0, DType::String, Dims{});
  } else if (a.name == "value_floats") {
    vec(DType::Float, ctx.attr_floats("value_floats").size());
  } else if (a.name == "value_ints") {
    auto v = ctx.attr_ints("value_ints");
    vec(DType::Int64, v.size());
    if (v.size() <= static_cast<size_t>(kMaxKnownElements))
      ctx.set_output_value(0, Tensor::from_vector<int64_t>({static_cast<int64_t>(v.size())}, v));
  } else if (a.name == "value_strings") {
    vec(DType::String, ctx.attr_strings("value_strings").size());
  } else if (a.name != "sparse_value") {
    ctx.fail("unknown value attribute '" + a.name + "'");
  }
}
}  // namespace
SONNX_SHAPE_RULE("", "Constant", (1, 9, 11, 12, 13, 19, 21, 23, 24, 25), constant_shape);
}  // namespace sonnx
