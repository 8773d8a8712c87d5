// fix_inputs (rewrites.h): what the user fixes about the inputs becomes part of the model. A bound
// dimension only narrows the inputs the model accepts to those the user will give; a fixed value
// is the value the input would have at every run. Either way, on those inputs the model computes
// what it computed before.
#include <algorithm>
#include <set>

#include "rewrites.h"

namespace sonnx::admit {
namespace {

std::string shape_text(const std::vector<int64_t>& dims) {
  std::string s;
  for (int64_t d : dims) s += (s.empty() ? "" : ",") + std::to_string(d);
  return "[" + s + "]";
}

// Binds the symbolic dimensions of `declared` to the sizes of `dims`, or throws when they disagree.
void bind_shape(const std::string& what, const TypeInfo& declared, const std::vector<int64_t>& dims,
                std::map<std::string, int64_t>& bound) {
  if (declared.kind != TypeInfo::Kind::Tensor) throw AdmitUsageError(what + " is not a tensor");
  if (!declared.shape) return;  // unknown rank: any shape fits
  const std::vector<Dim>& shape = *declared.shape;
  if (shape.size() != dims.size())
    throw AdmitUsageError(what + " has rank " + std::to_string(shape.size()) + " (declared " + declared.str() + "), not " +
                          std::to_string(dims.size()) + " as " + shape_text(dims));
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0) throw AdmitUsageError(what + ": dimension " + std::to_string(i) + " is negative");
    if (shape[i].value && *shape[i].value != dims[i])
      throw AdmitUsageError(what + " is declared " + declared.str() + ": dimension " + std::to_string(i) + " is " +
                            std::to_string(*shape[i].value) + ", not " + std::to_string(dims[i]));
    if (shape[i].value || shape[i].param.empty()) continue;
    auto [it, fresh] = bound.emplace(shape[i].param, dims[i]);
    if (!fresh && it->second != dims[i])
      throw AdmitUsageError(what + ": dimension " + shape[i].param + " is " + std::to_string(dims[i]) + " here but " +
                            std::to_string(it->second) + " elsewhere");
  }
}

void set_shape(TypeInfo& t, const std::vector<int64_t>& dims) {
  std::vector<Dim> shape;
  for (int64_t d : dims) shape.push_back(Dim{d, ""});
  t.shape = std::move(shape);
}

void substitute(TypeInfo& t, const std::map<std::string, int64_t>& bound) {
  if (t.shape)
    for (Dim& d : *t.shape)
      if (!d.value && !d.param.empty()) {
        auto it = bound.find(d.param);
        if (it != bound.end()) d = Dim{it->second, ""};
      }
  if (t.inner) substitute(*t.inner, bound);
}

}  // namespace

void fix_inputs(Model& m, const InputFixes& fixes, ChangeLog& log) {
  Graph& g = m.graph;
  auto input = [&](const std::string& name, const char* option) -> ValueInfo& {
    auto it = std::find_if(g.inputs.begin(), g.inputs.end(), [&](const ValueInfo& v) { return v.name == name; });
    if (it == g.inputs.end())
      throw AdmitUsageError(std::string(option) + " " + name + ": the model has no input '" + name + "'");
    return *it;
  };

  std::map<std::string, int64_t> bound = fixes.dims;
  for (const auto& [name, dims] : fixes.input_shapes)
    bind_shape("input '" + name + "'", input(name, "--input-shape").type, dims, bound);
  for (const auto& [name, value] : fixes.values) {
    ValueInfo& in = input(name, "--fix");
    if (in.type.elem != DType::Undefined && in.type.elem != value.dtype())
      throw AdmitUsageError("--fix " + name + ": the value is " + std::string(dtype_name(value.dtype())) +
                            ", the input is declared " + in.type.str());
    bind_shape("--fix " + name, in.type, value.shape(), bound);
  }
  for (const auto& [name, dims] : fixes.input_shapes) set_shape(input(name, "--input-shape").type, dims);

  std::set<std::string> used;
  for (auto* list : {&g.inputs, &g.outputs, &g.value_info})
    for (ValueInfo& v : *list) {
      if (v.type.shape)
        for (const Dim& d : *v.type.shape)
          if (!d.value && bound.count(d.param)) used.insert(d.param);
      substitute(v.type, bound);
    }
  for (const auto& [name, size] : fixes.dims)
    if (!used.count(name)) throw AdmitUsageError("--dim " + name + ": no value of the model has a dimension named " + name);
  for (const auto& [name, size] : bound)
    if (used.count(name)) log.add("fix-dimension", name, "SONNX-STATIC-TYPE", name + " = " + std::to_string(size));

  for (const auto& [name, value] : fixes.values) {
    g.inputs.erase(std::find_if(g.inputs.begin(), g.inputs.end(), [&](const ValueInfo& v) { return v.name == name; }));
    auto init = std::find_if(g.initializers.begin(), g.initializers.end(), [&](const auto& i) { return i.first == name; });
    if (init != g.initializers.end()) init->second = value;  // the default the input had
    else g.initializers.emplace_back(name, value);
    log.add("fix-input", name, "SONNX-STATIC-TYPE",
            "the input is the constant given (" + std::string(dtype_name(value.dtype())) + shape_text(value.shape()) + ")");
  }

  for (const ValueInfo& v : g.inputs)
    if (!v.type.is_static_tensor()) {
      std::string how = "--input-shape " + v.name + "=…";
      if (v.type.shape)
        for (const Dim& d : *v.type.shape)
          if (!d.value && !d.param.empty()) how = "--dim " + d.param + "=… or " + how;
      log.refused.push_back("graph input '" + v.name + "' is declared " + v.type.str() + ": fix its shape with " + how);
    }
}

}  // namespace sonnx::admit
