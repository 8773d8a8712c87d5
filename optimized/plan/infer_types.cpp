#include "infer_types.h"

#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include <set>

#include "reference/model/loader.h"

namespace sonnx {

void add_inferred_types(const onnx::ModelProto& proto, Model& model) {
  onnx::ModelProto copy = proto;
  try {
    onnx::ShapeInferenceOptions opts(/*check_type=*/false, /*strict_mode=*/0, /*data_prop=*/true);
    onnx::shape_inference::InferShapes(copy, onnx::OpSchemaRegistry::Instance(), opts);
  } catch (const std::exception&) {
    return;  // nothing inferred: every value keeps what the model declares
  }
  std::set<std::string> known;
  for (const auto& v : model.graph.value_info) known.insert(v.name);
  for (const auto& v : model.graph.inputs) known.insert(v.name);
  for (const auto& vi : copy.graph().value_info())
    if (!known.count(vi.name())) model.graph.value_info.push_back({vi.name(), type_from_proto(vi.type())});
}

}  // namespace sonnx
