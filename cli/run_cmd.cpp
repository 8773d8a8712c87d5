// sonnx run MODEL --input NAME=FILE ... : execute a model on inputs from .pb or .npy files.
#include <iostream>
#include <set>

#include "commands.h"
#include "conformance/executors.h"
#include "reference/model/errors.h"
#include "reference/model/loader.h"
#include "reference/model/npy.h"
#include "reference/model/tensor_proto.h"

namespace sonnx::cli {

namespace {
struct RunArgs {
  std::string model;
  std::vector<std::string> inputs;
  std::string output_dir;
  std::string executor = "reference";
  std::string output_format = "pb";
};

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
  if (dims.size() != t.shape().size())
    throw LoadError("input '" + in.name + "': shape " + shape_str(t.shape()) + ", the model declares " + in.type.str());
  for (size_t i = 0; i < dims.size(); ++i)
    if (dims[i].value && *dims[i].value != t.shape()[i])
      throw LoadError("input '" + in.name + "': shape " + shape_str(t.shape()) + ", the model declares " + in.type.str());
}
}  // namespace

void add_run_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<RunArgs>();
  auto* cmd = app.add_subcommand("run", "Execute a model on inputs and write its outputs");
  cmd->add_option("model", args->model, "Model file (.onnx, or .onnxtxt text syntax)")->required();
  cmd->add_option("--input,-i", args->inputs, "NAME=FILE with FILE a TensorProto/SequenceProto/OptionalProto .pb or a numpy .npy");
  cmd->add_option("--output-dir,-o", args->output_dir, "Write each output as NAME.pb (or .npy) here; default: print a summary only");
  cmd->add_option("--output-format", args->output_format, "pb or npy")->check(CLI::IsMember({"pb", "npy"}))->capture_default_str();
  cmd->add_option("--executor", args->executor, "Executor: reference (the interpreter), linear, dataflow or parallel (optimized; run twice: once to plan memory, once in the planned arena)")->capture_default_str();
  cmd->callback([args, &exit_code] {
    auto lm = load_model(args->model);
    const Model& model = lm->ir;
    std::map<std::string, const ValueInfo*> declared;
    std::set<std::string> initialized;
    for (const auto& [n, t] : model.graph.initializers) initialized.insert(n);
    for (const auto& in : model.graph.inputs) declared[in.name] = &in;
    NamedValues feed;
    for (const auto& spec : args->inputs) {
      auto eq = spec.find('=');
      if (eq == std::string::npos) throw LoadError("--input takes NAME=FILE, got '" + spec + "'");
      std::string name = spec.substr(0, eq), file = spec.substr(eq + 1);
      auto it = declared.find(name);
      if (it == declared.end()) throw LoadError("'" + name + "' is not an input of the model");
      if (feed.count(name)) throw LoadError("input '" + name + "' given twice");
      Value v = std::filesystem::path(file).extension() == ".npy" ? Value(read_npy(file)) : read_value_pb(file, kind_of(it->second->type));
      check_input_type(*it->second, v);
      feed[name] = std::move(v);
    }
    for (const auto& in : model.graph.inputs)
      if (!feed.count(in.name) && !initialized.count(in.name)) throw LoadError("missing input '" + in.name + "' (" + in.type.str() + ")");
    ExecuteFn exec = make_execute_fn(args->executor);
    NamedValues out = exec(model, feed);
    if (!args->output_dir.empty()) std::filesystem::create_directories(args->output_dir);
    for (const auto& o : model.graph.outputs) {
      const Value& v = out.at(o.name);
      std::cout << o.name << ": ";
      if (v.is_tensor()) std::cout << dtype_name(v.tensor.dtype()) << shape_str(v.tensor.shape()) << "\n";
      else if (v.is_sequence()) std::cout << "sequence of " << v.sequence.size() << "\n";
      else std::cout << (v.optional ? "optional (present)" : "optional (empty)") << "\n";
      if (args->output_dir.empty()) continue;
      // Output names may contain '/' or other characters that are not safe in a file name.
      std::string safe;
      for (char c : o.name) safe += (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.') ? c : '_';
      std::filesystem::path base = std::filesystem::path(args->output_dir) / safe;
      if (args->output_format == "npy" && v.is_tensor()) write_npy(base.string() + ".npy", v.tensor);
      else write_value_pb(base.string() + ".pb", v, o.name);
    }
    exit_code = 0;
  });
}

}  // namespace sonnx::cli
