#include "model_inputs.h"

#include <cctype>
#include <filesystem>

#include "sonnx/errors.h"
#include "reference/model/npy.h"
#include "reference/model/tensor_proto.h"

namespace sonnx::cli {

namespace {

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

std::pair<std::string, std::string> split_spec(const std::string& spec, const std::string& option, const std::string& form) {
  auto eq = spec.find('=');
  if (eq == std::string::npos || eq == 0) throw LoadError(option + " takes " + form + ", got '" + spec + "'");
  return {spec.substr(0, eq), spec.substr(eq + 1)};
}

}  // namespace

NamedValues read_input_specs(const Model& model, const std::vector<std::string>& specs) {
  std::map<std::string, const ValueInfo*> declared;
  for (const auto& in : model.graph.inputs) declared[in.name] = &in;
  NamedValues feed;
  for (const auto& spec : specs) {
    auto [name, file] = split_spec(spec, "--input", "NAME=FILE");
    auto it = declared.find(name);
    if (it == declared.end()) throw LoadError("'" + name + "' is not an input of the model");
    if (feed.count(name)) throw LoadError("input '" + name + "' given twice");
    Value v = std::filesystem::path(file).extension() == ".npy" ? Value(read_npy(file)) : read_value_pb(file, kind_of(it->second->type));
    check_input_type(*it->second, v);
    feed[name] = std::move(v);
  }
  return feed;
}

std::map<std::string, int64_t> parse_dims(const std::vector<std::string>& specs) {
  std::map<std::string, int64_t> dims;
  for (const auto& spec : specs) {
    auto [name, value] = split_spec(spec, "--dim", "NAME=VALUE");
    size_t used = 0;
    int64_t v = -1;
    try {
      v = std::stoll(value, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != value.size() || v < 0) throw LoadError("--dim " + name + ": '" + value + "' is not a nonnegative integer");
    dims[name] = v;
  }
  return dims;
}

void InputOptions::add_to(CLI::App* cmd) {
  cmd->add_option("--input,-i", inputs, "NAME=FILE (.pb or .npy); other inputs are synthetic, of the declared shape");
  cmd->add_option("--dim", dims, "NAME=VALUE for a symbolic input dimension (default 1)");
}

NamedValues InputOptions::make(const Model& model) const {
  NamedValues feed = read_input_specs(model, inputs);
  add_synthetic_inputs(model, parse_dims(dims), feed);
  return feed;
}

std::string safe_file_name(const std::string& name) {
  std::string safe;
  for (char c : name) safe += (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.') ? c : '_';
  return safe;
}

}  // namespace sonnx::cli
