#include "attr_reader.h"

#include <limits>
#include <string>

namespace sonnx {

const Attribute* AttrReader::typed_attr(const std::string& name, Attribute::Type type) const {
  const Attribute* a = node_.attr(name);
  if (a && a->type != type)
    fail("attribute '" + name + "' has type " + attribute_type_name(a->type) + ", expected " + attribute_type_name(type));
  return a;
}

int64_t AttrReader::attr_int(const std::string& name, int64_t def) const {
  const Attribute* a = typed_attr(name, Attribute::Type::Int);
  return a ? a->i : def;
}
float AttrReader::attr_float(const std::string& name, float def) const {
  const Attribute* a = typed_attr(name, Attribute::Type::Float);
  return a ? a->f : def;
}
std::string AttrReader::attr_string(const std::string& name, const std::string& def) const {
  const Attribute* a = typed_attr(name, Attribute::Type::String);
  return a ? a->s : def;
}
std::vector<int64_t> AttrReader::attr_ints(const std::string& name, const std::vector<int64_t>& def) const {
  const Attribute* a = typed_attr(name, Attribute::Type::Ints);
  return a ? a->ints : def;
}
std::vector<float> AttrReader::attr_floats(const std::string& name, const std::vector<float>& def) const {
  const Attribute* a = typed_attr(name, Attribute::Type::Floats);
  return a ? a->floats : def;
}
std::vector<std::string> AttrReader::attr_strings(const std::string& name, const std::vector<std::string>& def) const {
  const Attribute* a = typed_attr(name, Attribute::Type::Strings);
  return a ? a->strings : def;
}

std::optional<DType> AttrReader::attr_dtype(const std::string& name) const {
  const Attribute* a = typed_attr(name, Attribute::Type::Int);
  if (!a) return std::nullopt;
  if (a->i <= 0 || a->i > std::numeric_limits<int32_t>::max() || !is_valid_dtype(static_cast<int32_t>(a->i)))
    fail("attribute '" + name + "' is not a data type: " + std::to_string(a->i));
  return static_cast<DType>(a->i);
}
DType AttrReader::attr_floating_type(const std::string& name, DType def) const {
  std::optional<DType> t = attr_dtype(name);
  if (t && *t != DType::Float && *t != DType::Double && *t != DType::Float16 && *t != DType::BFloat16)
    fail("attribute '" + name + "' must name a floating type (1, 10, 11 or 16), got " + std::to_string(static_cast<int>(*t)));
  return t.value_or(def);
}
const Tensor* AttrReader::attr_tensor(const std::string& name) const {
  const Attribute* a = typed_attr(name, Attribute::Type::Tensor);
  return a ? &a->t : nullptr;
}
const Graph* AttrReader::attr_graph(const std::string& name) const {
  const Attribute* a = typed_attr(name, Attribute::Type::Graph);
  return a && a->g ? a->g.get() : nullptr;
}
const Tensor& AttrReader::required_tensor(const std::string& name) const {
  const Tensor* t = attr_tensor(name);
  if (!t) fail("attribute '" + name + "' is required");
  return *t;
}
const Graph& AttrReader::required_graph(const std::string& name) const {
  const Graph* g = attr_graph(name);
  if (!g) fail("graph attribute '" + name + "' is required");
  return *g;
}

}  // namespace sonnx
