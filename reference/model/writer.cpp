#include "writer.h"

#include <fstream>

#include "loader.h"
#include "sonnx/errors.h"
#include "tensor_proto.h"

namespace sonnx {

namespace {

onnx::ValueInfoProto value_info_to_proto(const ValueInfo& v) {
  onnx::ValueInfoProto p;
  p.set_name(v.name);
  if (v.type.kind != TypeInfo::Kind::Unknown) *p.mutable_type() = type_to_proto(v.type);
  return p;
}

onnx::NodeProto node_to_proto(const Node& n);

onnx::AttributeProto attribute_to_proto(const Attribute& a) {
  using T = Attribute::Type;
  onnx::AttributeProto p;
  p.set_name(a.name);
  p.set_type(static_cast<onnx::AttributeProto::AttributeType>(a.type));
  if (!a.ref_attr_name.empty()) {
    p.set_ref_attr_name(a.ref_attr_name);
    return p;
  }
  switch (a.type) {
    case T::Float: p.set_f(a.f); break;
    case T::Int: p.set_i(a.i); break;
    case T::String: p.set_s(a.s); break;
    case T::Tensor: *p.mutable_t() = tensor_to_proto(a.t); break;
    case T::Graph:
      if (a.g) *p.mutable_g() = graph_to_proto(*a.g);
      break;
    case T::TypeProto: *p.mutable_tp() = type_to_proto(a.tp); break;
    case T::Floats: p.mutable_floats()->Add(a.floats.begin(), a.floats.end()); break;
    case T::Ints: p.mutable_ints()->Add(a.ints.begin(), a.ints.end()); break;
    case T::Strings:
      for (const auto& s : a.strings) p.add_strings(s);
      break;
    case T::Tensors:
      for (const auto& t : a.tensors) *p.add_tensors() = tensor_to_proto(t);
      break;
    case T::Graphs:
      for (const auto& g : a.graphs)
        if (g) *p.add_graphs() = graph_to_proto(*g);
      break;
    case T::SparseTensor:
    case T::SparseTensors: throw Trap("attribute '" + a.name + "': sparse tensors are not kept, so cannot be written");
    default: break;
  }
  return p;
}

onnx::NodeProto node_to_proto(const Node& n) {
  onnx::NodeProto p;
  p.set_name(n.name);
  p.set_op_type(n.op_type);
  p.set_domain(n.domain);
  for (const auto& i : n.inputs) p.add_input(i);
  for (const auto& o : n.outputs) p.add_output(o);
  for (const auto& a : n.attributes) *p.add_attribute() = attribute_to_proto(a);
  return p;
}

onnx::FunctionProto function_to_proto(const Function& f) {
  onnx::FunctionProto p;
  p.set_name(f.name);
  p.set_domain(f.domain);
  for (const auto& i : f.inputs) p.add_input(i);
  for (const auto& o : f.outputs) p.add_output(o);
  for (const auto& a : f.attributes) p.add_attribute(a);
  for (const auto& n : f.nodes) *p.add_node() = node_to_proto(n);
  for (const auto& [domain, version] : f.opset_imports) {
    auto* o = p.add_opset_import();
    o->set_domain(domain);
    o->set_version(version);
  }
  return p;
}

}  // namespace

onnx::GraphProto graph_to_proto(const Graph& g) {
  if (!g.sparse_initializers.empty())
    throw Trap("graph " + g.path + ": sparse initializer '" + g.sparse_initializers.front() +
               "' is not kept, so cannot be written");
  onnx::GraphProto p;
  p.set_name(g.name);
  for (const auto& v : g.inputs) *p.add_input() = value_info_to_proto(v);
  for (const auto& v : g.outputs) *p.add_output() = value_info_to_proto(v);
  for (const auto& v : g.value_info) *p.add_value_info() = value_info_to_proto(v);
  for (const auto& [name, t] : g.initializers) *p.add_initializer() = tensor_to_proto(t, name);
  for (const auto& n : g.nodes) *p.add_node() = node_to_proto(n);
  return p;
}

onnx::ModelProto model_to_proto(const Model& m, const onnx::ModelProto* header) {
  onnx::ModelProto p;
  if (header) {
    p = *header;
    p.clear_graph();
    p.clear_functions();
    p.clear_opset_import();
  } else {
    p.set_producer_name(m.producer);
  }
  p.set_ir_version(m.ir_version);
  for (const auto& [domain, version] : m.opset_imports) {
    auto* o = p.add_opset_import();
    o->set_domain(domain);
    o->set_version(version);
  }
  *p.mutable_graph() = graph_to_proto(m.graph);
  for (const auto& f : m.functions)
    if (!f.sonnx_body) *p.add_functions() = function_to_proto(f);
  return p;
}

void save_model(const Model& m, const std::filesystem::path& file, const onnx::ModelProto* header) {
  onnx::ModelProto p = model_to_proto(m, header);
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out || !p.SerializeToOstream(&out)) throw LoadError("'" + file.string() + "': cannot write the model");
}

}  // namespace sonnx
