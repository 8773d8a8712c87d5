#include "infer_types.h"

#include <set>

#include "reference/infer/infer.h"

namespace sonnx {

void add_inferred_types(Model& model) {
  InferenceResult inferred = infer_model(model);
  std::set<std::string> known;
  for (const auto* list : {&model.graph.value_info, &model.graph.inputs, &model.graph.outputs})
    for (const auto& v : *list) known.insert(v.name);
  for (const auto& [name, t] : model.graph.initializers) known.insert(name);
  for (const auto& [name, type] : inferred.types)
    if (type.kind != TypeInfo::Kind::Unknown && !known.count(name)) model.graph.value_info.push_back({name, type});
}

}  // namespace sonnx
