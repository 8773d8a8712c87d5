// The C++ API's value files and model inputs (include/sonnx/tensor_files.hpp): the loader's .npy
// and .pb readers and writers, checked against the graph inputs' declared types.
#include "reference/model/loader.h"
#include "reference/model/npy.h"
#include "reference/model/synthetic_inputs.h"
#include "reference/model/tensor_proto.h"
#include "sonnx/sonnx.hpp"

namespace sonnx {

namespace {

// The proto a .pb file for an input of this type holds.
std::string kind_of(const TypeInfo& t) {
  if (t.kind == TypeInfo::Kind::Sequence) return "sequence";
  if (t.kind == TypeInfo::Kind::Optional) return "optional";
  return "tensor";
}

// Checks a given value against the graph input's declared type: element type and known dims.
void check_input_type(const ValueInfo& in, const Value& v) {
  if (in.type.kind != TypeInfo::Kind::Tensor || !v.is_tensor()) return;
  const Tensor& t = v.tensor;
  if (in.type.elem != DType::Undefined && in.type.elem != t.dtype())
    throw LoadError("input '" + in.name + "': element type " + std::string(dtype_name(t.dtype())) + ", the model declares " +
                    std::string(dtype_name(in.type.elem)));
  if (!in.type.shape) return;
  const auto& dims = *in.type.shape;
  bool ok = dims.size() == t.shape().size();
  for (size_t i = 0; ok && i < dims.size(); ++i) ok = !dims[i].value || *dims[i].value == t.shape()[i];
  if (!ok) throw LoadError("input '" + in.name + "': shape " + shape_str(t.shape()) + ", the model declares " + in.type.str());
}

}  // namespace

Value read_value_file(const std::filesystem::path& file, const std::string& kind) {
  if (file.extension() == ".npy") return Value(read_npy(file));
  return read_value_pb(file, kind);
}

void write_value_file(const std::filesystem::path& file, const Value& value, const std::string& name) {
  if (file.extension() != ".npy") return write_value_pb(file, value, name);
  if (!value.is_tensor()) throw LoadError("cannot write '" + file.string() + "': a .npy file holds a tensor");
  write_npy(file, value.tensor);
}

Value read_input(const ModelHandle& model, const std::string& input, const std::filesystem::path& file) {
  const ValueInfo* declared = nullptr;
  for (const auto& in : model.impl().ir.graph.inputs)
    if (in.name == input) declared = &in;  // the last of a repeated name, as a map by name keeps it
  if (!declared) throw LoadError("'" + input + "' is not an input of the model");
  Value v = read_value_file(file, kind_of(declared->type));
  check_input_type(*declared, v);
  return v;
}

void add_synthetic_inputs(const ModelHandle& model, const std::map<std::string, int64_t>& dims, NamedValues& given) {
  add_synthetic_inputs(model.impl().ir, dims, given);
}

}  // namespace sonnx
