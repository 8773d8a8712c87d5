// Backends by name, and the capability-table check shared by plugins.
#include "backend.h"

#include <algorithm>

#include "sonnx/errors.h"

namespace sonnx {

bool capability_matches(const std::vector<Capability>& caps, const NodeQuery& q) {
  std::string domain = canonical_domain(q.node.domain);
  for (const auto& c : caps) {
    if (canonical_domain(c.domain) != domain || c.op_type != q.node.op_type) continue;
    if (q.opset < c.min_opset || (c.max_opset > 0 && q.opset > c.max_opset)) continue;
    bool types_ok = true;
    for (size_t i = 0; i < q.input_types.size() && types_ok; ++i) {
      if (c.types.empty() || q.node.inputs[i].empty()) continue;
      // An unknown type cannot be promised to the backend: the node stays off it.
      types_ok = std::find(c.types.begin(), c.types.end(), q.input_types[i]) != c.types.end();
    }
    if (types_ok) return true;
  }
  return false;
}

bool is_plugin_path(const std::string& s) {
  return s.find('/') != std::string::npos || (s.size() > 3 && s.compare(s.size() - 3, 3, ".so") == 0);
}

std::shared_ptr<Backend> make_backend(const std::string& name) {
  if (name == "reference") return make_reference_backend();
  if (name == "cpu") return make_cpu_backend();
  if (is_plugin_path(name)) return load_plugin_backend(name);
  throw LoadError("unknown backend '" + name + "' (reference, cpu, or a plugin's .so path)");
}

}  // namespace sonnx
