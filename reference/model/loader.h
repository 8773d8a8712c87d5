// Loading a model file into the IR. A binary ModelProto (.onnx) or ONNX's textual syntax
// (.onnxtxt, read by our parser of ONNX's text syntax, text_syntax.h). Every failure is a LoadError
// with a one-line reason.
#pragma once
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include <onnx/onnx_pb.h>

#include "ir.h"

namespace sonnx {

struct LoadedModel {
  onnx::ModelProto
      proto;  // as read from a .onnx file, less the main graph's initializers (in ir); from a .onnxtxt file, its header only
  Model ir;
};

std::unique_ptr<LoadedModel> load_model(const std::filesystem::path& file);
// A binary model held in memory; `name` labels it in errors, external data resolves against
// base_dir (empty: the current directory).
std::unique_ptr<LoadedModel> load_model_bytes(std::string_view bytes, const std::string& name,
                                              const std::filesystem::path& base_dir);
// Builds the IR from a proto; external data is resolved against base_dir.
Model model_from_proto(const onnx::ModelProto& proto, const std::filesystem::path& base_dir);
Graph graph_from_proto(const onnx::GraphProto& g, const std::filesystem::path& base_dir, const std::string& path);
Node node_from_proto(const onnx::NodeProto& n, const std::filesystem::path& base_dir, const std::string& graph_path);
Function function_from_proto(const onnx::FunctionProto& f, const std::filesystem::path& base_dir);
TypeInfo type_from_proto(const onnx::TypeProto& t);
onnx::TypeProto type_to_proto(const TypeInfo& t);

}  // namespace sonnx
