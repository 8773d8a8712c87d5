#include "ir.h"

namespace sonnx {

bool TypeInfo::is_static_tensor() const {
  if (kind != Kind::Tensor || elem == DType::Undefined || !shape) return false;
  for (const Dim& d : *shape)
    if (!d.value) return false;
  return true;
}

std::string TypeInfo::str() const {
  switch (kind) {
    case Kind::Unknown: return "unknown";
    case Kind::Tensor:
    case Kind::SparseTensor: {
      std::string s = std::string(kind == Kind::Tensor ? "tensor(" : "sparse_tensor(") + std::string(dtype_name(elem)) + ")";
      if (!shape) return s + "[*]";
      s += "[";
      for (size_t i = 0; i < shape->size(); ++i) {
        const Dim& d = (*shape)[i];
        s += (i ? "," : "") + (d.value ? std::to_string(*d.value) : d.param.empty() ? "?" : d.param);
      }
      return s + "]";
    }
    case Kind::Sequence: return "seq(" + (inner ? inner->str() : "?") + ")";
    case Kind::Optional: return "optional(" + (inner ? inner->str() : "?") + ")";
    case Kind::Map: return "map(" + std::string(dtype_name(map_key)) + "," + (inner ? inner->str() : "?") + ")";
  }
  return "unknown";
}

const char* attribute_type_name(Attribute::Type t) {
  static const char* names[] = {"UNDEFINED",      "FLOAT",      "INT",        "STRING",  "TENSOR", "GRAPH",
                                "FLOATS",         "INTS",       "STRINGS",    "TENSORS", "GRAPHS", "SPARSE_TENSOR",
                                "SPARSE_TENSORS", "TYPE_PROTO", "TYPE_PROTOS"};
  auto i = static_cast<size_t>(t);
  return i < std::size(names) ? names[i] : "UNDEFINED";
}

bool Node::has_subgraph() const {
  for (const auto& a : attributes)
    if (a.type == Attribute::Type::Graph || a.type == Attribute::Type::Graphs) return true;
  return false;
}

const Attribute* Node::attr(const std::string& attr_name) const {
  for (const auto& a : attributes)
    if (a.name == attr_name) return &a;
  return nullptr;
}

std::string Node::label() const {
  std::string id = name.empty() ? "#" + std::to_string(index) : name;
  return id + " (" + (domain.empty() ? "" : domain + ".") + op_type + ")";
}

const Function* Model::find_function(const std::string& dom, const std::string& fn_name) const {
  for (const auto& f : functions)
    if (f.name == fn_name && canonical_domain(f.domain) == canonical_domain(dom)) return &f;
  return nullptr;
}

int64_t Model::opset(const std::string& domain) const {
  auto it = opset_imports.find(canonical_domain(domain));
  return it == opset_imports.end() ? 0 : it->second;
}

void own_subgraphs(Graph& g) {
  for (Node& n : g.nodes)
    for (Attribute& a : n.attributes) {
      if (a.g) {
        a.g = std::make_shared<Graph>(*a.g);
        own_subgraphs(*a.g);
      }
      for (auto& sub : a.graphs)
        if (sub) {
          sub = std::make_shared<Graph>(*sub);
          own_subgraphs(*sub);
        }
    }
}

}  // namespace sonnx
