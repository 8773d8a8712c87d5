#include "label_encoder.h"

namespace sonnx {

namespace {

template <class T>
Tensor vector_tensor(const std::vector<T>& v) {
  return Tensor::from_vector<T>({static_cast<int64_t>(v.size())}, v);
}

// The one attribute of a family (keys_* or values_*) the node sets, as a 1-D tensor.
Tensor label_encoder_column(const AttrReader& r, const std::string& family, bool tensors_allowed) {
  std::vector<Tensor> set;
  if (const Attribute* a = r.attr(family + "_strings")) set.push_back(vector_tensor(a->strings));
  if (const Attribute* a = r.attr(family + "_int64s")) set.push_back(vector_tensor(a->ints));
  if (const Attribute* a = r.attr(family + "_floats")) set.push_back(vector_tensor(a->floats));
  if (tensors_allowed && r.has_attr(family + "_tensor")) {
    const Tensor& t = r.required_tensor(family + "_tensor");
    if (t.rank() != 1) r.fail(family + "_tensor must be 1-D");
    set.push_back(t);
  }
  if (set.size() != 1) r.fail("exactly one " + family + "_* attribute must be set, found " + std::to_string(set.size()));
  return std::move(set[0]);
}

// The output for an element not among the keys: a one-element tensor of the values' type.
Tensor label_encoder_default(const AttrReader& r, DType type, bool tensors_allowed) {
  if (tensors_allowed && r.has_attr("default_tensor")) {
    const Tensor& d = r.required_tensor("default_tensor");
    if (d.size() != 1 || d.dtype() != type) r.fail("default_tensor must hold one element of the values' type");
    return d;
  }
  switch (type) {
    case DType::String: return Tensor::scalar<std::string>(r.attr_string("default_string", "_Unused"));
    case DType::Int64: return Tensor::scalar<int64_t>(r.attr_int("default_int64", -1));
    case DType::Float: return Tensor::scalar<float>(r.attr_float("default_float", -0.0f));
    case DType::Int32: return Tensor::scalar<int32_t>(-1);
    case DType::Int16: return Tensor::scalar<int16_t>(-1);
    case DType::Double: return Tensor::scalar<double>(-0.0);
    default: break;
  }
  r.fail("values of type " + std::string(dtype_name(type)) + " are not supported");
  return {};  // not reached: GCC does not see fail() as noreturn through the virtual call
}

}  // namespace

LabelEncoderParams LabelEncoderParams::read(const AttrReader& r, int64_t version) {
  LabelEncoderParams p;
  if (version < 2) {
    p.classes = r.attr_strings("classes_strings");
    p.default_int64 = r.attr_int("default_int64", -1);
    p.default_string = r.attr_string("default_string", "_Unused");
    return p;
  }
  const bool v4 = version >= 4;
  p.keys = label_encoder_column(r, "keys", v4);
  p.values = label_encoder_column(r, "values", v4);
  if (p.keys.size() != p.values.size())
    r.fail("keys and values differ in length (" + std::to_string(p.keys.size()) + " and " + std::to_string(p.values.size()) +
           ")");
  p.default_value = label_encoder_default(r, p.values.dtype(), v4);
  return p;
}

}  // namespace sonnx
