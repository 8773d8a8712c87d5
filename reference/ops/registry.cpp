#include "registry.h"

#include <algorithm>

namespace sonnx {

void OpContext::fail(const std::string& message) const {
  throw Trap(node_.label() + " version " + std::to_string(version_) + ": " + message);
}

const Value& OpContext::value(size_t i) const {
  if (!has_input(i)) fail("input " + std::to_string(i) + " is required but missing");
  return *inputs_[i];
}

const Tensor& OpContext::input(size_t i) const {
  const Value& v = value(i);
  if (!v.is_tensor()) fail("input " + std::to_string(i) + " must be a tensor");
  return v.tensor;
}

const Attribute* OpContext::typed_attr(const std::string& name, Attribute::Type type) const {
  const Attribute* a = node_.attr(name);
  if (a && a->type != type)
    fail("attribute '" + name + "' has type " + attribute_type_name(a->type) + ", expected " + attribute_type_name(type));
  return a;
}

int64_t OpContext::attr_int(const std::string& name, int64_t def) const {
  const Attribute* a = typed_attr(name, Attribute::Type::Int);
  return a ? a->i : def;
}
float OpContext::attr_float(const std::string& name, float def) const {
  const Attribute* a = typed_attr(name, Attribute::Type::Float);
  return a ? a->f : def;
}
std::string OpContext::attr_string(const std::string& name, const std::string& def) const {
  const Attribute* a = typed_attr(name, Attribute::Type::String);
  return a ? a->s : def;
}
std::vector<int64_t> OpContext::attr_ints(const std::string& name, const std::vector<int64_t>& def) const {
  const Attribute* a = typed_attr(name, Attribute::Type::Ints);
  return a ? a->ints : def;
}
std::vector<float> OpContext::attr_floats(const std::string& name, const std::vector<float>& def) const {
  const Attribute* a = typed_attr(name, Attribute::Type::Floats);
  return a ? a->floats : def;
}
std::vector<std::string> OpContext::attr_strings(const std::string& name, const std::vector<std::string>& def) const {
  const Attribute* a = typed_attr(name, Attribute::Type::Strings);
  return a ? a->strings : def;
}
const Tensor& OpContext::attr_tensor(const std::string& name) const {
  const Attribute* a = typed_attr(name, Attribute::Type::Tensor);
  if (!a) fail("attribute '" + name + "' is required");
  return a->t;
}
const Graph& OpContext::attr_graph(const std::string& name) const {
  const Attribute* a = typed_attr(name, Attribute::Type::Graph);
  if (!a || !a->g) fail("graph attribute '" + name + "' is required");
  return *a->g;
}

std::vector<Value> OpContext::run_subgraph(const Graph& g, const std::vector<Value>& inputs) const {
  if (!runner_) fail("this executor cannot run subgraphs");
  return runner_(g, inputs);
}

std::mt19937_64& OpContext::rng() const {
  if (!rng_) fail("no random number generator available");
  return *rng_;
}

}  // namespace sonnx
