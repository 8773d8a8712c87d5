#include "loader.h"

#include <fcntl.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "sonnx/errors.h"
#include "tensor_proto.h"
#include "text_syntax.h"

namespace sonnx {
namespace fs = std::filesystem;

TypeInfo type_from_proto(const onnx::TypeProto& t) {
  TypeInfo info;
  switch (t.value_case()) {
    case onnx::TypeProto::kTensorType:
    case onnx::TypeProto::kSparseTensorType: {
      bool sparse = t.value_case() == onnx::TypeProto::kSparseTensorType;
      info.kind = sparse ? TypeInfo::Kind::SparseTensor : TypeInfo::Kind::Tensor;
      int32_t elem = sparse ? t.sparse_tensor_type().elem_type() : t.tensor_type().elem_type();
      info.elem = is_valid_dtype(elem) ? static_cast<DType>(elem) : DType::Undefined;
      bool has_shape = sparse ? t.sparse_tensor_type().has_shape() : t.tensor_type().has_shape();
      if (has_shape) {
        const auto& shape = sparse ? t.sparse_tensor_type().shape() : t.tensor_type().shape();
        std::vector<Dim> dims;
        for (const auto& d : shape.dim()) {
          Dim dim;
          if (d.has_dim_value()) dim.value = d.dim_value();
          else if (d.has_dim_param()) dim.param = d.dim_param();
          dims.push_back(dim);
        }
        info.shape = std::move(dims);
      }
      break;
    }
    case onnx::TypeProto::kSequenceType:
      info.kind = TypeInfo::Kind::Sequence;
      info.inner = std::make_shared<TypeInfo>(type_from_proto(t.sequence_type().elem_type()));
      break;
    case onnx::TypeProto::kOptionalType:
      info.kind = TypeInfo::Kind::Optional;
      info.inner = std::make_shared<TypeInfo>(type_from_proto(t.optional_type().elem_type()));
      break;
    case onnx::TypeProto::kMapType:
      info.kind = TypeInfo::Kind::Map;
      info.map_key = is_valid_dtype(t.map_type().key_type()) ? static_cast<DType>(t.map_type().key_type()) : DType::Undefined;
      info.inner = std::make_shared<TypeInfo>(type_from_proto(t.map_type().value_type()));
      break;
    default: break;
  }
  return info;
}

onnx::TypeProto type_to_proto(const TypeInfo& t) {
  onnx::TypeProto p;
  auto write_shape = [&](onnx::TensorShapeProto* shape) {
    for (const Dim& d : *t.shape) {
      auto* dim = shape->add_dim();
      if (d.value) dim->set_dim_value(*d.value);
      else if (!d.param.empty()) dim->set_dim_param(d.param);
    }
  };
  switch (t.kind) {
    case TypeInfo::Kind::Tensor: {
      auto* tt = p.mutable_tensor_type();
      tt->set_elem_type(static_cast<int32_t>(t.elem));
      if (t.shape) write_shape(tt->mutable_shape());
      break;
    }
    case TypeInfo::Kind::SparseTensor: {
      auto* tt = p.mutable_sparse_tensor_type();
      tt->set_elem_type(static_cast<int32_t>(t.elem));
      if (t.shape) write_shape(tt->mutable_shape());
      break;
    }
    case TypeInfo::Kind::Map:
      p.mutable_map_type()->set_key_type(static_cast<int32_t>(t.map_key));
      if (t.inner) *p.mutable_map_type()->mutable_value_type() = type_to_proto(*t.inner);
      break;
    case TypeInfo::Kind::Sequence:
      if (t.inner) *p.mutable_sequence_type()->mutable_elem_type() = type_to_proto(*t.inner);
      break;
    case TypeInfo::Kind::Optional:
      if (t.inner) *p.mutable_optional_type()->mutable_elem_type() = type_to_proto(*t.inner);
      break;
    default: break;
  }
  return p;
}

namespace {

ValueInfo value_info_from_proto(const onnx::ValueInfoProto& v) {
  return ValueInfo{v.name(), v.has_type() ? type_from_proto(v.type()) : TypeInfo{}};
}

Attribute attribute_from_proto(const onnx::AttributeProto& a, const fs::path& base_dir, const std::string& graph_path,
                               const Node& owner) {
  using T = Attribute::Type;
  Attribute out;
  out.name = a.name();
  out.ref_attr_name = a.ref_attr_name();
  int type = a.type();
  if (type < 0 || type > static_cast<int>(T::TypeProtos)) throw LoadError("attribute '" + a.name() + "': unknown type");
  out.type = static_cast<T>(type);
  switch (out.type) {
    case T::Float: out.f = a.f(); break;
    case T::Int: out.i = a.i(); break;
    case T::String: out.s = a.s(); break;
    case T::Tensor: out.t = tensor_from_proto(a.t(), base_dir); break;
    case T::Graph:
      out.g = std::make_shared<Graph>(graph_from_proto(a.g(), base_dir, subgraph_path(graph_path, owner, a.name())));
      break;
    case T::TypeProto: out.tp = type_from_proto(a.tp()); break;
    case T::Floats: out.floats.assign(a.floats().begin(), a.floats().end()); break;
    case T::Ints: out.ints.assign(a.ints().begin(), a.ints().end()); break;
    case T::Strings: out.strings.assign(a.strings().begin(), a.strings().end()); break;
    case T::Tensors:
      for (const auto& t : a.tensors()) out.tensors.push_back(tensor_from_proto(t, base_dir));
      break;
    case T::Graphs:
      for (int i = 0; i < a.graphs_size(); ++i)
        out.graphs.push_back(
            std::make_shared<Graph>(graph_from_proto(a.graphs(i), base_dir, subgraph_path(graph_path, owner, a.name(), i))));
      break;
    default: break;  // sparse tensors and the UNDEFINED type stay as declared; the validator reports them
  }
  return out;
}

std::string read_all(const fs::path& file) {
  std::error_code ec;
  if (!fs::exists(file, ec)) throw LoadError("'" + file.string() + "': no such file");
  if (fs::is_directory(file, ec)) throw LoadError("'" + file.string() + "' is a directory, not a model file");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw LoadError("'" + file.string() + "': cannot open for reading");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

Node node_from_proto(const onnx::NodeProto& n, const fs::path& base_dir, const std::string& graph_path) {
  Node node;
  node.name = n.name();
  node.op_type = n.op_type();
  node.domain = canonical_domain(n.domain());
  node.inputs.assign(n.input().begin(), n.input().end());
  node.outputs.assign(n.output().begin(), n.output().end());
  for (const auto& a : n.attribute()) node.attributes.push_back(attribute_from_proto(a, base_dir, graph_path, node));
  return node;
}

Graph graph_from_proto(const onnx::GraphProto& g, const fs::path& base_dir, const std::string& path) {
  Graph graph;
  graph.name = g.name();
  graph.path = path;
  for (const auto& v : g.input()) graph.inputs.push_back(value_info_from_proto(v));
  for (const auto& v : g.output()) graph.outputs.push_back(value_info_from_proto(v));
  for (const auto& v : g.value_info()) graph.value_info.push_back(value_info_from_proto(v));
  for (const auto& t : g.initializer()) graph.initializers.emplace_back(t.name(), tensor_from_proto(t, base_dir));
  for (const auto& s : g.sparse_initializer()) graph.sparse_initializers.push_back(s.values().name());
  for (const auto& n : g.node()) {
    graph.nodes.push_back(node_from_proto(n, base_dir, path));
    graph.nodes.back().index = graph.nodes.size() - 1;
  }
  return graph;
}

Function function_from_proto(const onnx::FunctionProto& f, const fs::path& base_dir) {
  Function fn;
  fn.name = f.name();
  fn.domain = canonical_domain(f.domain());
  fn.inputs.assign(f.input().begin(), f.input().end());
  fn.outputs.assign(f.output().begin(), f.output().end());
  fn.attributes.assign(f.attribute().begin(), f.attribute().end());
  std::string path = "function " + f.domain() + "." + f.name();
  (void)base_dir;  // onnx 1.12's FunctionProto has no attribute defaults (attribute_proto is 1.13+)
  for (const auto& n : f.node()) {
    fn.nodes.push_back(node_from_proto(n, base_dir, path));
    fn.nodes.back().index = fn.nodes.size() - 1;
  }
  for (const auto& o : f.opset_import()) fn.opset_imports[canonical_domain(o.domain())] = o.version();
  return fn;
}

Model model_from_proto(const onnx::ModelProto& proto, const fs::path& base_dir) {
  Model m;
  m.ir_version = proto.ir_version();
  m.producer = proto.producer_name();
  for (const auto& o : proto.opset_import()) m.opset_imports[canonical_domain(o.domain())] = o.version();
  m.graph = graph_from_proto(proto.graph(), base_dir, "main");
  for (const auto& f : proto.functions()) m.functions.push_back(function_from_proto(f, base_dir));
  return m;
}

// Parses a binary model straight from the file (protobuf reads it in small chunks: the file's bytes
// are never held whole beside the parsed message).
static void parse_model_file(const fs::path& file, onnx::ModelProto& proto) {
  std::error_code ec;
  if (!fs::exists(file, ec)) throw LoadError("'" + file.string() + "': no such file");
  if (fs::is_directory(file, ec)) throw LoadError("'" + file.string() + "' is a directory, not a model file");
  auto size = fs::file_size(file, ec);
  if (ec) throw LoadError("'" + file.string() + "': cannot open for reading");
  if (size == 0) throw LoadError("'" + file.string() + "': empty file");
  int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw LoadError("'" + file.string() + "': cannot open for reading");
  bool parsed = proto.ParseFromFileDescriptor(fd);
  ::close(fd);
  if (!parsed)
    throw LoadError("'" + file.string() + "': not a valid ONNX ModelProto (protobuf parse failed: truncated or not a model)");
}

// The IR of a parsed binary model; `label` names it in errors.
static void build_ir(LoadedModel& lm, const std::string& label, const fs::path& base) {
  // A random byte string can parse as a protobuf message that is no model at all.
  if (!lm.proto.has_graph()) throw LoadError(label + ": no graph in the model (not an ONNX model?)");
  if (lm.proto.ir_version() <= 0) throw LoadError(label + ": missing or invalid ir_version");
  try {
    // The main graph's initializers leave the proto and their raw data becomes the IR tensors'
    // storage (no copy of the weights); nothing reads them from the proto afterwards.
    auto initializers = std::move(*lm.proto.mutable_graph()->mutable_initializer());
    lm.ir = model_from_proto(lm.proto, base);
    for (auto& t : initializers) lm.ir.graph.initializers.emplace_back(t.name(), tensor_from_proto(std::move(t), base));
  } catch (const Trap& e) {
    throw LoadError(label + ": " + e.what());
  }
}

std::unique_ptr<LoadedModel> load_model(const fs::path& file) {
  auto lm = std::make_unique<LoadedModel>();
  if (file.extension() == ".onnxtxt") {
    std::string bytes = read_all(file);
    if (bytes.empty()) throw LoadError("'" + file.string() + "': empty file");
    try {
      lm->ir = text::parse_model(bytes);
    } catch (const text::ParseError& e) {
      throw LoadError("'" + file.string() + "': text syntax error at " + e.what());
    } catch (const Trap& e) {
      throw LoadError("'" + file.string() + "': " + e.what());
    }
    if (lm->ir.ir_version <= 0) throw LoadError("'" + file.string() + "': missing or invalid ir_version");
    // The proto carries the header only: the text syntax has nothing else the validator reads from it.
    lm->proto.set_ir_version(lm->ir.ir_version);
    lm->proto.set_producer_name(lm->ir.producer);
    for (const auto& [domain, version] : lm->ir.opset_imports) {
      auto* op = lm->proto.add_opset_import();
      op->set_domain(domain);
      op->set_version(version);
    }
    lm->ir.path = file.string();
    return lm;
  }
  parse_model_file(file, lm->proto);
  build_ir(*lm, "'" + file.string() + "'", fs::absolute(file).parent_path());
  lm->ir.path = file.string();
  return lm;
}

std::unique_ptr<LoadedModel> load_model_bytes(std::string_view bytes, const std::string& name, const fs::path& base_dir) {
  auto lm = std::make_unique<LoadedModel>();
  if (bytes.empty()) throw LoadError("'" + name + "': no bytes");
  if (bytes.size() > static_cast<size_t>(INT32_MAX))
    throw LoadError("'" + name +
                    "': a model held in memory must be under 2 GiB (protobuf's limit); keep its weights as external data");
  if (!lm->proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    throw LoadError("'" + name + "': not a valid ONNX ModelProto (protobuf parse failed: truncated or not a model)");
  build_ir(*lm, "'" + name + "'", base_dir);
  lm->ir.path = name;
  return lm;
}

}  // namespace sonnx
