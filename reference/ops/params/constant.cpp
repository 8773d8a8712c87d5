#include "constant.h"

#include <string>

namespace sonnx {

ConstantParams ConstantParams::read(const AttrReader& r, int64_t /*version*/) {
  const Node& n = r.node();
  if (n.attributes.size() != 1) r.fail("exactly one value attribute is required");
  const std::string& name = n.attributes[0].name;
  ConstantParams p;
  p.attribute = name;
  auto vector = [](auto v) {
    return Tensor::from_vector<typename decltype(v)::value_type>({static_cast<int64_t>(v.size())}, v);
  };
  if (name == "value") {
    const Attribute& a = n.attributes[0];
    if (a.type != Attribute::Type::Tensor) r.fail("attribute 'value' must be a tensor");
    p.in_node = &a.t;
  } else if (name == "value_float") {
    p.built = Tensor::scalar<float>(r.attr_float(name, 0));
  } else if (name == "value_int") {
    p.built = Tensor::scalar<int64_t>(r.attr_int(name, 0));
  } else if (name == "value_string") {
    p.built = Tensor::scalar<std::string>(r.attr_string(name, ""));
  } else if (name == "value_floats") {
    p.built = vector(r.attr_floats(name));
  } else if (name == "value_ints") {
    p.built = vector(r.attr_ints(name));
  } else if (name == "value_strings") {
    p.built = vector(r.attr_strings(name));
  } else if (name == "sparse_value") {
    p.sparse = true;
  } else {
    r.fail("unknown value attribute '" + name + "'");
  }
  return p;
}

ConstantOfShapeParams ConstantOfShapeParams::read(const AttrReader& r, int64_t /*version*/) {
  ConstantOfShapeParams p;
  if (const Attribute* a = r.attr("value")) {
    if (a->type != Attribute::Type::Tensor) r.fail("attribute 'value' must be a tensor");
    if (a->t.size() != 1) r.fail("attribute 'value' must hold exactly one element");
    p.value = a->t;
  }
  return p;
}

}  // namespace sonnx
