#include "shape_rule.h"

namespace sonnx {

bool PartialValue::fully_known() const {
  for (const auto& d : elems)
    if (!d.value) return false;
  return true;
}

std::optional<std::vector<int64_t>> PartialValue::values() const {
  std::vector<int64_t> v;
  for (const auto& d : elems) {
    if (!d.value) return std::nullopt;
    v.push_back(*d.value);
  }
  return v;
}

TypeInfo tensor_type(DType elem, std::optional<std::vector<Dim>> shape) {
  TypeInfo t;
  t.kind = TypeInfo::Kind::Tensor;
  t.elem = elem;
  t.shape = std::move(shape);
  return t;
}

std::vector<Dim> known_dims(const std::vector<int64_t>& dims) {
  std::vector<Dim> out;
  out.reserve(dims.size());
  for (int64_t d : dims) out.push_back(known_dim(d));
  return out;
}

InferContext::InferContext(const Node& node, int64_t version, std::vector<Input> inputs, SubgraphInferrer subgraphs)
    : AttrReader(node),
      node_(node),
      version_(version),
      inputs_(std::move(inputs)),
      subgraphs_(std::move(subgraphs)),
      outputs_(node.outputs.size()),
      partials_(node.outputs.size()),
      values_(node.outputs.size()) {}

DType InferContext::input_elem(size_t i) const {
  const TypeInfo* t = input_type(i);
  if (!t || t->kind == TypeInfo::Kind::Unknown) return DType::Undefined;
  if (t->kind != TypeInfo::Kind::Tensor) fail("input " + std::to_string(i) + " must be a tensor, got " + t->str());
  return t->elem;
}

const std::vector<Dim>* InferContext::input_shape(size_t i) const {
  const TypeInfo* t = input_type(i);
  if (!t || t->kind == TypeInfo::Kind::Unknown) return nullptr;
  if (t->kind != TypeInfo::Kind::Tensor) fail("input " + std::to_string(i) + " must be a tensor, got " + t->str());
  return t->shape ? &*t->shape : nullptr;
}

std::optional<int64_t> InferContext::input_rank(size_t i) const {
  const std::vector<Dim>* s = input_shape(i);
  if (!s) return std::nullopt;
  return static_cast<int64_t>(s->size());
}

std::optional<PartialValue> InferContext::input_partial(size_t i) const {
  if (i >= inputs_.size()) return std::nullopt;
  if (const Tensor* v = inputs_[i].value) {
    if (v->rank() > 1 || v->size() > kMaxKnownElements) return std::nullopt;
    if (!is_integer(v->dtype())) return std::nullopt;
    PartialValue p;
    p.scalar = v->rank() == 0;
    for (int64_t k = 0; k < v->size(); ++k) p.elems.push_back(known_dim(v->as_int64(k)));
    return p;
  }
  if (inputs_[i].partial) return *inputs_[i].partial;
  return std::nullopt;
}

std::optional<std::vector<int64_t>> InferContext::input_ints(size_t i) const {
  if (i >= inputs_.size()) return std::nullopt;
  if (const Tensor* v = inputs_[i].value) {
    if (!is_integer(v->dtype()) || v->size() > kMaxKnownElements) return std::nullopt;
    return v->to_int64_vector();
  }
  if (inputs_[i].partial) return inputs_[i].partial->values();
  return std::nullopt;
}

std::vector<TypeInfo> InferContext::infer_subgraph(const Graph& g, const std::vector<TypeInfo>& inputs) const {
  if (!subgraphs_) return std::vector<TypeInfo>(g.outputs.size());
  return subgraphs_(g, inputs);
}

void InferContext::set_output(size_t i, TypeInfo t) {
  if (i < outputs_.size()) outputs_[i] = std::move(t);
}
void InferContext::set_output_partial(size_t i, PartialValue v) {
  if (i < partials_.size() && v.elems.size() <= static_cast<size_t>(kMaxKnownElements)) partials_[i] = std::move(v);
}
void InferContext::set_output_value(size_t i, Tensor v) {
  if (i < values_.size() && v.size() <= kMaxKnownElements) values_[i] = std::move(v);
}

void InferContext::reset_outputs() {
  outputs_.assign(node_.outputs.size(), TypeInfo{});
  partials_.assign(node_.outputs.size(), std::nullopt);
  values_.assign(node_.outputs.size(), std::nullopt);
}

void InferContext::fail(const std::string& message) const { throw InferError(message); }

}  // namespace sonnx
