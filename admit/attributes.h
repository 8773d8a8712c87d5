// Attributes the rewrites write: one constructor per kind, and setting one on a node (replacing
// an attribute of the same name).
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "reference/model/ir.h"

namespace sonnx::admit {

inline Attribute int_attribute(const std::string& name, int64_t value) {
  Attribute a;
  a.name = name;
  a.type = Attribute::Type::Int;
  a.i = value;
  return a;
}
inline Attribute float_attribute(const std::string& name, float value) {
  Attribute a;
  a.name = name;
  a.type = Attribute::Type::Float;
  a.f = value;
  return a;
}
inline Attribute string_attribute(const std::string& name, const std::string& value) {
  Attribute a;
  a.name = name;
  a.type = Attribute::Type::String;
  a.s = value;
  return a;
}
inline Attribute ints_attribute(const std::string& name, const std::vector<int64_t>& value) {
  Attribute a;
  a.name = name;
  a.type = Attribute::Type::Ints;
  a.ints = value;
  return a;
}

inline void set_attribute(Node& n, Attribute a) {
  std::erase_if(n.attributes, [&](const Attribute& old) { return old.name == a.name; });
  n.attributes.push_back(std::move(a));
}

}  // namespace sonnx::admit
