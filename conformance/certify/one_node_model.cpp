#include "one_node_model.h"

#include "reference/ops/op_table.h"
#include "sonnx/errors.h"

namespace sonnx {

namespace {

TypeInfo type_of(const Value& v) {
  TypeInfo t;
  t.kind = TypeInfo::Kind::Tensor;
  t.elem = v.tensor.dtype();
  std::vector<Dim> dims;
  for (int64_t d : v.tensor.shape()) dims.push_back(Dim{d, ""});
  t.shape = dims;
  return t;
}

}  // namespace

Model one_node_model(const Model& flat, const Node& n, const NamedValues& values, Interpreter& reference,
                     std::vector<Value>* outputs) {
  std::vector<Value> args;
  for (const auto& in : n.inputs) args.push_back(in.empty() ? Value() : values.at(in));
  std::vector<const Value*> ptrs;
  for (size_t k = 0; k < args.size(); ++k) ptrs.push_back(n.inputs[k].empty() ? nullptr : &args[k]);
  ValueScope scope;
  std::vector<Value> out = reference.run_node(n, ptrs, scope, node_opset(flat, n));
  Model m;
  m.ir_version = flat.ir_version;
  m.opset_imports = flat.opset_imports;
  // A node from an inlined function body runs under the body's opset: imported, so that the model
  // written to a repro directory means the same.
  if (n.opset_version != 0) m.opset_imports[canonical_domain(n.domain)] = n.opset_version;
  m.graph.name = "one_node_" + n.name;
  m.graph.path = "main";
  Node copy = n;
  copy.index = 0;
  m.graph.nodes.push_back(copy);
  for (const auto& in : n.inputs) {
    if (in.empty()) continue;
    bool seen = false;
    for (const auto& vi : m.graph.inputs) seen = seen || vi.name == in;
    if (!seen) m.graph.inputs.push_back({in, type_of(values.at(in))});
  }
  for (size_t k = 0; k < n.outputs.size() && k < out.size(); ++k) {
    if (n.outputs[k].empty()) continue;
    if (!out[k].is_tensor()) throw Unsupported("output '" + n.outputs[k] + "' is not a tensor");
    m.graph.outputs.push_back({n.outputs[k], type_of(out[k])});
  }
  if (outputs) *outputs = std::move(out);
  return m;
}

}  // namespace sonnx
