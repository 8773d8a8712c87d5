// The C++ API's value files and model inputs (include/sonnx/tensor_files.hpp): the loader's .npy
// and .pb readers and writers, checked against the graph inputs' declared types.
#include <limits>
#include "reference/interp/interpreter.h"
#include "reference/model/loader.h"
#include "reference/model/npy.h"
#include "reference/model/synthetic_inputs.h"
#include "reference/model/tensor_proto.h"
#include "sonnx/sonnx.hpp"

namespace sonnx {

namespace {

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
  Value v = read_value_file(file, value_pb_kind(declared->type));
  check_input_type(*declared, v);
  try {  // a map's key and value types (and what a run checks of every input)
    check_given_input(*declared, v);
  } catch (const Trap& e) {
    throw LoadError(e.what());
  }
  return v;
}

Value read_input_text(const ModelHandle& model, const std::string& input, const std::string& numbers) {
  const ValueInfo* declared = nullptr;
  for (const auto& in : model.impl().ir.graph.inputs)
    if (in.name == input) declared = &in;
  if (!declared) throw LoadError("'" + input + "' is not an input of the model");
  const TypeInfo& t = declared->type;
  if (t.kind != TypeInfo::Kind::Tensor || t.elem == DType::Undefined || t.elem == DType::String)
    throw LoadError("input '" + input + "' is declared " + t.str() + ": give its value in a file");
  std::vector<double> values;
  for (size_t start = 0; start <= numbers.size();) {
    size_t end = numbers.find(',', start);
    if (end == std::string::npos) end = numbers.size();
    std::string item = numbers.substr(start, end - start);
    size_t used = 0;
    double v = 0;
    try {
      v = std::stod(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (item.empty() || used != item.size()) throw LoadError("input '" + input + "': '" + item + "' is not a number");
    values.push_back(v);
    start = end + 1;
  }
  bool scalar = t.shape && t.shape->empty();
  if (scalar && values.size() != 1) throw LoadError("input '" + input + "' is a scalar: give one number");
  if (t.shape && t.shape->size() > 1)
    throw LoadError("input '" + input + "' has rank " + std::to_string(t.shape->size()) + ": give its value in a file");
  Tensor x(t.elem, scalar ? Shape{} : Shape{static_cast<int64_t>(values.size())});
  visit_dtype(t.elem, [&]<class T>() {
    if constexpr (std::is_arithmetic_v<T> || std::is_same_v<T, float16_t> || std::is_same_v<T, bfloat16_t>) {
      for (size_t i = 0; i < values.size(); ++i) {
        T v{};
        if constexpr (std::is_integral_v<T>) {
          long double w = values[i];
          if (w < static_cast<long double>(std::numeric_limits<T>::lowest()) ||
              w > static_cast<long double>(std::numeric_limits<T>::max()))
            throw LoadError("input '" + input + "': " + std::to_string(values[i]) + " is out of the range of " +
                            std::string(dtype_name(t.elem)));
          v = static_cast<T>(values[i]);
        } else if constexpr (std::is_same_v<T, double>) {
          v = values[i];
        } else {
          v = static_cast<T>(static_cast<float>(values[i]));
        }
        if (static_cast<double>(v) != values[i])
          throw LoadError("input '" + input + "': " + std::to_string(values[i]) + " is not a value of its type " +
                          std::string(dtype_name(t.elem)));
        x.data<T>()[i] = v;
      }
    } else {
      throw LoadError("input '" + input + "' is declared " + t.str() + ": give its value in a file");
    }
  });
  Value v(std::move(x));
  check_input_type(*declared, v);
  return v;
}

void add_synthetic_inputs(const ModelHandle& model, const std::map<std::string, int64_t>& dims, NamedValues& given) {
  add_synthetic_inputs(model.impl().ir, dims, given);
}

}  // namespace sonnx
