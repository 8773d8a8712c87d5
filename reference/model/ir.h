// The in-memory IR of an ONNX model: graphs of nodes over SSA-named values. Built from a
// ModelProto by the loader; read by the validator, the interpreter and the executors.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sonnx/tensor.h"

namespace sonnx {

struct Graph;

// One dimension: a known size, a symbolic name (dim_param), or unknown.
struct Dim {
  std::optional<int64_t> value;
  std::string param;
};

// The type of a value as declared in the model (TypeProto).
struct TypeInfo {
  enum class Kind { Unknown, Tensor, SparseTensor, Sequence, Optional, Map };
  Kind kind = Kind::Unknown;
  DType elem = DType::Undefined;          // Tensor / SparseTensor element type
  std::optional<std::vector<Dim>> shape;  // Tensor: absent = unknown rank
  std::shared_ptr<TypeInfo> inner;        // Sequence / Optional element; Map value
  DType map_key = DType::Undefined;       // Map key type

  bool is_static_tensor() const;  // Tensor with known type and every dim a number
  std::string str() const;        // "tensor(float)[1,3,?]", "seq(tensor(int64))", ...
};

struct ValueInfo {
  std::string name;
  TypeInfo type;
};

struct Attribute {
  // Numbered as onnx::AttributeProto::AttributeType.
  enum class Type {
    Undefined = 0,
    Float = 1,
    Int = 2,
    String = 3,
    Tensor = 4,
    Graph = 5,
    Floats = 6,
    Ints = 7,
    Strings = 8,
    Tensors = 9,
    Graphs = 10,
    SparseTensor = 11,
    SparseTensors = 12,
    TypeProto = 13,
    TypeProtos = 14
  };
  std::string name;
  Type type = Type::Undefined;
  std::string ref_attr_name;  // inside a function body: refers to the caller's attribute
  float f = 0;
  int64_t i = 0;
  std::string s;
  Tensor t;
  std::shared_ptr<Graph> g;
  TypeInfo tp;
  std::vector<float> floats;
  std::vector<int64_t> ints;
  std::vector<std::string> strings;
  std::vector<Tensor> tensors;
  std::vector<std::shared_ptr<Graph>> graphs;
};
const char* attribute_type_name(Attribute::Type t);

struct Node {
  std::string name;
  std::string op_type;
  std::string domain;                // "" is ai.onnx
  std::vector<std::string> inputs;   // "" = omitted optional input
  std::vector<std::string> outputs;  // "" = omitted optional output
  std::vector<Attribute> attributes;

  const Attribute* attr(const std::string& attr_name) const;
  bool has_subgraph() const;  // a graph or graphs attribute (If, Loop, Scan, ...)
  std::string label() const;  // "name (Op)" or "#index (Op)" style label for messages
  size_t index = 0;           // position in its graph's node list
  int64_t opset_version = 0;  // set by the inliner: the function body's opset for this node's domain
};

struct Graph {
  std::string name;
  std::vector<ValueInfo> inputs;
  std::vector<ValueInfo> outputs;
  std::vector<ValueInfo> value_info;
  std::vector<std::pair<std::string, Tensor>> initializers;
  std::vector<std::string> sparse_initializers;  // names only: the profile rejects them
  std::vector<Node> nodes;
  std::string path;  // "main", "main/If_0:then_branch", ... for diagnostics
};

struct Function {
  std::string name;
  std::string domain;
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  std::vector<std::string> attributes;  // attribute parameter names
  std::vector<Attribute> attribute_defaults;
  std::vector<Node> nodes;
  std::map<std::string, int64_t> opset_imports;
  // An operator version's body written by sonnx (spec/functions/): only there is a node `@attr` a
  // graph call. In a model's own function it is an ordinary (unknown) operator.
  bool sonnx_body = false;
};

struct Model {
  int64_t ir_version = 0;
  std::string producer;
  std::map<std::string, int64_t> opset_imports;  // domain ("" = ai.onnx) -> version
  Graph graph;
  std::vector<Function> functions;
  std::string path;  // file it was loaded from

  const Function* find_function(const std::string& domain, const std::string& name) const;
  int64_t opset(const std::string& domain) const;  // 0 if not imported
};

// Gives every graph nested in g's attributes, at any depth, its own copy: a copy of a Graph or Model
// shares its nested graphs, so one that will be changed must own them first.
void own_subgraphs(Graph& g);

// "ai.onnx" and "" name the same domain.
inline std::string canonical_domain(const std::string& d) { return d == "ai.onnx" ? "" : d; }
// "Relu" for ai.onnx, "domain.Op" otherwise: how messages and reports name an operator.
inline std::string qualified_op_type(const Node& n) {
  std::string d = canonical_domain(n.domain);
  return d.empty() ? n.op_type : d + "." + n.op_type;
}
// The path of the graph held by attribute `attr` of node n of the graph at graph_path (index: its
// position in a list of graphs, or -1): "main/If_0:then_branch", "main/Scan:body[1]".
inline std::string subgraph_path(const std::string& graph_path, const Node& n, const std::string& attr, int index = -1) {
  std::string p = graph_path + "/" + (n.name.empty() ? n.op_type : n.name) + ":" + attr;
  return index < 0 ? p : p + "[" + std::to_string(index) + "]";
}

}  // namespace sonnx
