// The IR back to ONNX protobuf: what `sonnx admit` writes. Every node, attribute, declared type,
// initializer, function and opset import the IR holds is written; what the IR does not keep (doc
// strings, metadata properties, the producer's version) is taken from `header`, the model as it
// was loaded, when given. A sparse initializer or attribute (whose values the IR does not keep) is
// refused with a Trap rather than written wrong.
#pragma once
#include <filesystem>

#include <onnx/onnx_pb.h>

#include "ir.h"

namespace sonnx {

onnx::GraphProto graph_to_proto(const Graph& g);
onnx::ModelProto model_to_proto(const Model& m, const onnx::ModelProto* header = nullptr);
// Writes model_to_proto(m, header) to `file`; throws LoadError when it cannot be written.
void save_model(const Model& m, const std::filesystem::path& file, const onnx::ModelProto* header = nullptr);

}  // namespace sonnx
