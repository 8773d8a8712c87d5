// declare_types (rewrites.h): a declaration states what a value is; declaring what sonnx's inference
// proves it to be changes no value.
#include <set>

#include "reference/infer/infer.h"
#include "rewrites.h"

namespace sonnx::admit {

void declare_types(Model& m, ChangeLog& log) {
  Graph& g = m.graph;
  const InferenceResult inf = infer_model(m);
  auto inferred = [&](const std::string& name) -> const TypeInfo* {
    auto it = inf.types.find(name);
    return it != inf.types.end() && it->second.is_static_tensor() ? &it->second : nullptr;
  };
  int declared = 0;
  for (ValueInfo& v : g.outputs)
    if (const TypeInfo* t = inferred(v.name); t && !v.type.is_static_tensor()) {
      v.type = *t;
      ++declared;
    }
  std::set<std::string> io;
  for (const auto* list : {&g.inputs, &g.outputs})
    for (const ValueInfo& v : *list) io.insert(v.name);
  std::vector<ValueInfo> value_info;
  for (const Node& n : g.nodes)
    for (const std::string& o : n.outputs) {
      if (o.empty() || io.count(o)) continue;
      if (const TypeInfo* t = inferred(o)) {
        value_info.push_back({o, *t});
        ++declared;
      }
    }
  // Values inference could not type keep what the model declared (the check then names them).
  std::set<std::string> typed;
  for (const ValueInfo& v : value_info) typed.insert(v.name);
  for (const ValueInfo& v : g.value_info)
    if (!typed.count(v.name) && !io.count(v.name)) value_info.push_back(v);
  g.value_info = std::move(value_info);
  if (declared > 0)
    log.add("declare-types", std::to_string(declared) + " values", "SONNX-STATIC-TYPE",
            "declared with the element type and static shape inference finds");
}

}  // namespace sonnx::admit
