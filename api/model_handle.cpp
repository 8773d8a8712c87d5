// The C++ API's loading and checking (include/sonnx/sonnx.hpp): models, findings, the rules of a profile.
#include <set>

#include "reference/check/rules.h"
#include "reference/check/validator.h"
#include "reference/model/data_dir.h"
#include "reference/model/loader.h"
#include "sonnx/sonnx.hpp"

namespace sonnx {

const char* version() { return SONNX_VERSION; }

ModelHandle::ModelHandle(std::shared_ptr<const LoadedModel> impl) : impl_(std::move(impl)) {
  if (!impl_) throw InternalError("ModelHandle: no model");
  name_ = impl_->ir.path;
}

const std::string& ModelHandle::name() const { return name_; }
int64_t ModelHandle::ir_version() const { return impl_->ir.ir_version; }
std::map<std::string, int64_t> ModelHandle::opset_imports() const {
  return {impl_->ir.opset_imports.begin(), impl_->ir.opset_imports.end()};
}

std::vector<std::pair<std::string, std::string>> ModelHandle::inputs() const {
  const Graph& g = impl_->ir.graph;
  std::set<std::string> initialized;
  for (const auto& init : g.initializers) initialized.insert(init.first);
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& in : g.inputs)
    if (!initialized.count(in.name)) out.emplace_back(in.name, in.type.str());
  return out;
}

std::vector<std::pair<std::string, std::string>> ModelHandle::outputs() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& o : impl_->ir.graph.outputs) out.emplace_back(o.name, o.type.str());
  return out;
}

ModelHandle load(const std::filesystem::path& file) { return ModelHandle(load_model(file)); }

ModelHandle load_bytes(std::string_view bytes, const std::string& name, const std::filesystem::path& base_dir) {
  return ModelHandle(load_model_bytes(bytes, name, base_dir));
}

std::vector<Diagnostic> check(const ModelHandle& model, const std::string& profile) {
  return validate(model.impl(), load_profile(profile));
}

ProfileRules profile_rules(const std::string& profile) {
  Profile p = load_profile(profile);
  ProfileRules out{p.name, {}};
  for (const auto& r : all_rules())
    if (p.rules.count(r.id)) out.rules.push_back({r.id, r.severity, r.summary});
  return out;
}

std::filesystem::path data_directory() { return data_dir(); }

}  // namespace sonnx
