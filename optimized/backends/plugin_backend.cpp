// A backend loaded from a shared library through the C ABI of include/sonnx/backend.h: the
// capability table and optional supports() callback decide placement; prepare/execute/release
// are called through the table; every failure becomes a BackendError (the step then falls back).
#include <dlfcn.h>

#include <algorithm>
#include <cstring>
#include <map>

#include "backend.h"
#include "sonnx/backend.h"
#include "sonnx/errors.h"

namespace sonnx {

namespace {

// The dlopen handle, shared by the backend and every step it compiled.
struct Library {
  void* handle = nullptr;
  const sonnx_backend_v1* api = nullptr;
  ~Library() {
    if (handle) dlclose(handle);
  }
};

// C views of a node list; the strings live in the nodes they describe.
struct NodeDescs {
  std::vector<std::vector<const char*>> inputs, outputs;
  std::vector<std::vector<int32_t>> input_types;
  std::vector<std::vector<sonnx_attribute>> attributes;
  std::vector<sonnx_node> nodes;
};

sonnx_attribute attribute_desc(const Attribute& a) {
  sonnx_attribute d{};
  d.name = a.name.c_str();
  d.type = static_cast<int32_t>(a.type);
  d.f = a.f;
  d.i = a.i;
  d.s = a.s.c_str();
  if (a.type == Attribute::Type::Floats) {
    d.count = a.floats.size();
    d.floats = a.floats.data();
  } else if (a.type == Attribute::Type::Ints) {
    d.count = a.ints.size();
    d.ints = a.ints.data();
  }
  return d;
}

void describe(NodeDescs& out, const Node& n, int64_t opset, const std::vector<DType>& types) {
  auto& in = out.inputs.emplace_back();
  auto& it = out.input_types.emplace_back();
  for (size_t i = 0; i < n.inputs.size(); ++i) {
    in.push_back(n.inputs[i].c_str());
    it.push_back(i < types.size() ? static_cast<int32_t>(types[i]) : 0);
  }
  auto& o = out.outputs.emplace_back();
  for (const auto& s : n.outputs) o.push_back(s.c_str());
  auto& at = out.attributes.emplace_back();
  for (const auto& a : n.attributes) at.push_back(attribute_desc(a));
  sonnx_node d{};
  d.op_type = n.op_type.c_str();
  d.domain = n.domain.c_str();
  d.opset = opset;
  d.num_inputs = in.size();
  d.inputs = in.data();
  d.input_types = it.data();
  d.num_outputs = o.size();
  d.outputs = o.data();
  d.num_attributes = at.size();
  d.attributes = at.data();
  out.nodes.push_back(d);
}

std::map<std::string, DType> declared_element_types(const Graph& g) {
  std::map<std::string, DType> t;
  for (const auto* list : {&g.inputs, &g.value_info, &g.outputs})
    for (const auto& vi : *list)
      if (vi.type.kind == TypeInfo::Kind::Tensor) t[vi.name] = vi.type.elem;
  for (const auto& [name, tensor] : g.initializers) t[name] = tensor.dtype();
  return t;
}

class PluginStep : public CompiledStep {
 public:
  PluginStep(std::shared_ptr<Library> lib, const Model& m) : lib_(std::move(lib)), model_(m) {
    auto types = declared_element_types(model_.graph);
    auto type_of = [&](const std::string& name) {
      auto it = types.find(name);
      return it == types.end() ? DType::Undefined : it->second;
    };
    descs_.inputs.reserve(model_.graph.nodes.size());
    descs_.outputs.reserve(model_.graph.nodes.size());
    descs_.input_types.reserve(model_.graph.nodes.size());
    descs_.attributes.reserve(model_.graph.nodes.size());
    for (const auto& n : model_.graph.nodes) {
      std::vector<DType> in;
      for (const auto& s : n.inputs) in.push_back(type_of(s));
      describe(descs_, n, n.opset_version ? n.opset_version : model_.opset(n.domain), in);
    }
    for (const auto& vi : model_.graph.inputs) {
      in_names_.push_back(vi.name.c_str());
      in_types_.push_back(static_cast<int32_t>(type_of(vi.name)));
    }
    // The ABI has no constants: the step's weights cross it as inputs after the step's own.
    for (const auto& [name, t] : model_.graph.initializers) {
      if (std::any_of(model_.graph.inputs.begin(), model_.graph.inputs.end(),
                      [&](const ValueInfo& vi) { return vi.name == name; }))
        continue;
      in_names_.push_back(name.c_str());
      in_types_.push_back(static_cast<int32_t>(t.dtype()));
      weights_.push_back(&t);
    }
    for (const auto& vi : model_.graph.outputs) out_names_.push_back(vi.name.c_str());
    sonnx_graph g{descs_.nodes.size(), descs_.nodes.data(), in_names_.size(), in_names_.data(),
                  in_types_.data(),    out_names_.size(),   out_names_.data()};
    char err[512] = "";
    int rc = lib_->api->prepare(&g, &compiled_, err, sizeof err);
    if (rc != SONNX_BACKEND_OK)
      throw BackendError(std::string(lib_->api->name) + " could not prepare the step: " + (err[0] ? err : "no reason given"));
  }
  ~PluginStep() override {
    if (compiled_ && lib_->api->release) lib_->api->release(compiled_);
  }

  NamedValues execute(const NamedValues& inputs) override {
    std::vector<sonnx_tensor> in;
    std::vector<Tensor> keep;  // owned copies of the inputs (a copy at the boundary)
    keep.reserve(model_.graph.inputs.size() + weights_.size());
    for (const auto& vi : model_.graph.inputs) {
      auto it = inputs.find(vi.name);
      if (it == inputs.end() || !it->second.is_tensor()) throw BackendError("input '" + vi.name + "' is not a tensor");
      if (it->second.tensor.dtype() == DType::String) throw BackendError("string tensors do not cross the C ABI");
      keep.push_back(it->second.tensor);
      Tensor& t = keep.back();
      in.push_back({static_cast<int32_t>(t.dtype()), static_cast<int32_t>(t.rank()), const_cast<int64_t*>(t.shape().data()),
                    t.raw(), t.byte_size()});
    }
    for (const Tensor* w : weights_) {
      if (w->dtype() == DType::String) throw BackendError("string tensors do not cross the C ABI");
      keep.push_back(*w);  // a copy: the plugin may not write a weight the step keeps
      Tensor& t = keep.back();
      in.push_back({static_cast<int32_t>(t.dtype()), static_cast<int32_t>(t.rank()), const_cast<int64_t*>(t.shape().data()),
                    t.raw(), t.byte_size()});
    }
    std::vector<sonnx_tensor> out(model_.graph.outputs.size());
    std::memset(out.data(), 0, out.size() * sizeof(sonnx_tensor));
    char err[512] = "";
    int rc = lib_->api->execute(compiled_, in.data(), in.size(), out.data(), out.size(), err, sizeof err);
    NamedValues result;
    std::string problem;
    if (rc != SONNX_BACKEND_OK) problem = std::string("execute failed: ") + (err[0] ? err : "no reason given");
    for (size_t k = 0; k < out.size(); ++k) {
      if (problem.empty()) {
        const sonnx_tensor& o = out[k];
        auto type = static_cast<DType>(o.elem_type);
        if (!is_valid_dtype(o.elem_type) || type == DType::String || type == DType::Undefined || o.rank < 0 ||
            (o.rank > 0 && !o.dims)) {
          problem = "output " + std::to_string(k) + " is not a tensor sonnx can read";
        } else {
          Shape shape(o.dims, o.dims + o.rank);
          try {
            Tensor t(type, shape);
            if (t.byte_size() != o.byte_size || (o.byte_size > 0 && !o.data))
              problem = "output " + std::to_string(k) + " has " + std::to_string(o.byte_size) + " bytes for shape " +
                        shape_str(shape);
            else if (o.byte_size > 0) std::memcpy(t.raw(), o.data, o.byte_size);
            if (problem.empty()) result[model_.graph.outputs[k].name] = std::move(t);
          } catch (const std::exception& e) {
            problem = "output " + std::to_string(k) + ": " + e.what();
          }
        }
      }
      if (lib_->api->release_tensor && (out[k].data || out[k].dims)) lib_->api->release_tensor(&out[k]);
    }
    if (!problem.empty()) throw BackendError(std::string(lib_->api->name) + ": " + problem);
    return result;
  }

 private:
  std::shared_ptr<Library> lib_;
  Model model_;
  NodeDescs descs_;
  std::vector<const char*> in_names_, out_names_;
  std::vector<int32_t> in_types_;
  std::vector<const Tensor*> weights_;  // the step's initializers, passed after its inputs
  void* compiled_ = nullptr;
};

const char* device_type_name(int32_t t) {
  switch (t) {
    case SONNX_DEVICE_CPU: return "cpu";
    case SONNX_DEVICE_ACCELERATOR: return "accelerator";
    case SONNX_DEVICE_REFERENCE: return "reference";
    default: return "other";
  }
}

class PluginBackend : public Backend {
 public:
  PluginBackend(std::shared_ptr<Library> lib, std::vector<Capability> caps) : lib_(std::move(lib)), caps_(std::move(caps)) {}
  std::string name() const override { return lib_->api->name; }
  std::string version() const override { return lib_->api->version ? lib_->api->version : ""; }
  std::string type() const override {
    return device_type_name(lib_->api->abi_version >= 2 ? lib_->api->device_type : SONNX_DEVICE_OTHER);
  }
  std::vector<Capability> capabilities() const override { return caps_; }
  bool supports(const NodeQuery& q) const override { return why_not(q).empty(); }
  std::string why_not(const NodeQuery& q) const override {
    std::string why = capability_mismatch(caps_, q);
    if (!why.empty() || !lib_->api->supports) return why;
    NodeDescs d;
    describe(d, q.node, q.opset, q.input_types);
    return lib_->api->supports(&d.nodes[0]) != 0 ? "" : "its supports() callback declines this node (attributes or arity)";
  }
  std::unique_ptr<CompiledStep> prepare(const Model& m) const override { return std::make_unique<PluginStep>(lib_, m); }

 private:
  std::shared_ptr<Library> lib_;
  std::vector<Capability> caps_;
};

// The capability table as rows, refusing one the host could misread: a row without an operator,
// an empty or inverted opset range, or an element type that is not an ONNX type.
std::vector<Capability> read_capabilities(const sonnx_backend_v1& api, const std::string& path) {
  if (api.num_capabilities > 0 && !api.capabilities)
    throw LoadError("backend plugin '" + path + "' declares " + std::to_string(api.num_capabilities) +
                    " capabilities but gives no table");
  std::vector<Capability> caps;
  for (size_t i = 0; i < api.num_capabilities; ++i) {
    const sonnx_capability& c = api.capabilities[i];
    std::string row = "backend plugin '" + path + "' capability " + std::to_string(i) + ": ";
    if (!c.op_type || !*c.op_type) throw LoadError(row + "no operator");
    Capability cap;
    cap.domain = c.domain ? c.domain : "";
    cap.op_type = c.op_type;
    if (c.min_opset < 1)
      throw LoadError(row + cap.op_type + " from opset " + std::to_string(c.min_opset) + " (opsets start at 1)");
    if (c.max_opset != 0 && c.max_opset < c.min_opset)
      throw LoadError(row + cap.op_type + " for opsets " + std::to_string(c.min_opset) + " to " + std::to_string(c.max_opset) +
                      " (an empty range)");
    cap.min_opset = c.min_opset;
    cap.max_opset = c.max_opset;
    if (c.num_types > 0 && !c.types) throw LoadError(row + cap.op_type + " declares element types but gives none");
    for (size_t t = 0; t < c.num_types; ++t) {
      if (!is_valid_dtype(c.types[t]) || c.types[t] == 0)
        throw LoadError(row + cap.op_type + " lists element type " + std::to_string(c.types[t]) + ", which is not an ONNX type");
      cap.types.push_back(static_cast<DType>(c.types[t]));
    }
    caps.push_back(std::move(cap));
  }
  return caps;
}

}  // namespace

std::shared_ptr<Backend> load_plugin_backend(const std::string& path) {
  auto lib = std::make_shared<Library>();
  lib->handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib->handle) throw LoadError("cannot load backend plugin '" + path + "': " + dlerror());
  auto entry = reinterpret_cast<sonnx_backend_get_fn>(dlsym(lib->handle, SONNX_BACKEND_ENTRY));
  if (!entry) throw LoadError("'" + path + "' is not a sonnx backend: no symbol " SONNX_BACKEND_ENTRY);
  // The newest ABI first; a plugin written for version 1 answers only that.
  lib->api = entry(SONNX_BACKEND_ABI_VERSION);
  if (!lib->api) lib->api = entry(1);
  if (!lib->api)
    throw LoadError("'" + path + "' serves neither backend ABI version " + std::to_string(SONNX_BACKEND_ABI_VERSION) + " nor 1");
  if (lib->api->abi_version < 1 || lib->api->abi_version > SONNX_BACKEND_ABI_VERSION || !lib->api->prepare || !lib->api->execute)
    throw LoadError("'" + path + "' returned an incomplete backend table (ABI " + std::to_string(lib->api->abi_version) + ")");
  if (!lib->api->name || !*lib->api->name) throw LoadError("backend plugin '" + path + "' has no name");
  std::string name = lib->api->name;
  if (name == "cpu" || name == "reference")
    throw LoadError("backend plugin '" + path + "' calls itself '" + name + "', a built-in device's name");
  auto caps = read_capabilities(*lib->api, path);
  return std::make_shared<PluginBackend>(std::move(lib), std::move(caps));
}

}  // namespace sonnx
