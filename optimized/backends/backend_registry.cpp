// Backends by name, and the capability-table check shared by plugins.
#include "backend.h"

#include <algorithm>

#include "sonnx/errors.h"

namespace sonnx {

std::string capability_mismatch(const std::vector<Capability>& caps, const NodeQuery& q) {
  std::string domain = canonical_domain(q.node.domain);
  std::string op = domain.empty() ? q.node.op_type : domain + "." + q.node.op_type;
  bool op_listed = false, opset_ok = false;
  std::string type_problem;
  for (const auto& c : caps) {
    if (canonical_domain(c.domain) != domain || c.op_type != q.node.op_type) continue;
    op_listed = true;
    if (q.opset < c.min_opset || (c.max_opset > 0 && q.opset > c.max_opset)) continue;
    opset_ok = true;
    std::string problem;
    for (size_t i = 0; i < q.input_types.size() && problem.empty(); ++i) {
      if (c.types.empty() || q.node.inputs[i].empty()) continue;
      // An unknown type cannot be promised to the backend: the node stays off it.
      if (std::find(c.types.begin(), c.types.end(), q.input_types[i]) == c.types.end())
        problem = "input " + std::to_string(i) + " is " +
                  (q.input_types[i] == DType::Undefined ? std::string("of a type not known before running")
                                                        : std::string(dtype_name(q.input_types[i]))) +
                  ", which it does not take for " + op;
    }
    if (problem.empty()) return "";
    type_problem = problem;
  }
  if (!op_listed) return "no capability for " + op;
  if (!opset_ok) return "no capability for " + op + " at opset " + std::to_string(q.opset);
  return type_problem;
}

bool capability_matches(const std::vector<Capability>& caps, const NodeQuery& q) { return capability_mismatch(caps, q).empty(); }

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
