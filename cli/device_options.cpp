#include "device_options.h"

#include <algorithm>

#include "optimized/backends/assign.h"
#include "optimized/backends/devices.h"
#include "sonnx/errors.h"

namespace sonnx::cli {

void DeviceArgs::add_to(CLI::App* cmd, bool cache_flag) {
  devices_option = cmd->add_option("--devices", devices,
                                   "Compile for exactly these devices (comma-separated names from `sonnx devices`, or plugin "
                                   "paths); without cpu in the set nothing falls back to cpu");
  cmd->add_option("--plugin", plugins, "A backend plugin (.so) to add to the devices; may be repeated (also SONNX_PLUGIN_PATH)");
  cmd->add_option("--assign", assign,
                  "With --devices: first (each node on the first device of the set that runs it) or profile (measure every "
                  "node on every device, then place nodes to shorten the critical path, copies included)")
      ->check(CLI::IsMember({"first", "profile"}))
      ->capture_default_str();
  if (cache_flag)
    cmd->add_flag("--no-profile-cache", no_profile_cache, "With --assign profile: measure again instead of using the profile cache");
}

std::vector<std::string> DeviceArgs::names() const {
  auto list = split_commas(devices);
  if (list.empty()) throw LoadError("the device set is empty: name at least one device (sonnx devices lists them)");
  return list;
}

ExecutionPlan DeviceArgs::plan(const Model& model, const NamedValues& profile_inputs) const {
  auto set = select_devices(discover_devices(plugins), names());
  return plan_for_device_set(model, set, assign == "profile", profile_inputs, !no_profile_cache);
}

nlohmann::json device_plan_json(const ExecutionPlan& plan) {
  nlohmann::json backends = nlohmann::json::array(), steps = nlohmann::json::array();
  for (const auto& b : plan.backends) backends.push_back({{"name", b->name()}, {"version", b->version()}});
  for (const auto& st : plan.steps) {
    nlohmann::json nodes = nlohmann::json::array();
    for (size_t i : st.nodes) nodes.push_back({{"name", plan.model.graph.nodes[i].name}, {"op_type", plan.model.graph.nodes[i].op_type}});
    steps.push_back({{"backend", plan.backends[st.backend]->name()}, {"control", st.control}, {"nodes", nodes},
                     {"inputs", st.inputs}, {"outputs", st.outputs}, {"copies", st.copies}});
  }
  nlohmann::json j{{"backends", backends},
                   {"fallback", plan.fallback < 0 ? nlohmann::json(nullptr) : nlohmann::json(plan.backends[static_cast<size_t>(plan.fallback)]->name())},
                   {"steps", steps},
                   {"unsupported_ops", plan.unsupported_ops}};
  if (plan.assignment) {
    const Assignment& a = *plan.assignment;
    nlohmann::json nodes = nlohmann::json::array(), alone = nlohmann::json::object();
    std::vector<std::string> device(a.nodes.size());
    for (const auto& st : plan.steps)
      for (size_t i : st.nodes) device.at(i) = plan.backends[st.backend]->name();
    for (size_t i = 0; i < a.nodes.size(); ++i) {
      nlohmann::json ms = nlohmann::json::object();
      for (size_t b = 0; b < a.nodes[i].ms.size(); ++b)
        ms[plan.backends[b]->name()] = a.nodes[i].ms[b] < 0 ? nlohmann::json(nullptr) : nlohmann::json(a.nodes[i].ms[b]);
      nodes.push_back({{"name", plan.model.graph.nodes[i].name}, {"op_type", plan.model.graph.nodes[i].op_type}, {"device", device[i]},
                       {"measured_ms", ms}, {"start_ms", a.nodes[i].start}, {"finish_ms", a.nodes[i].finish}});
    }
    for (const auto& [name, ms] : a.alone_ms) alone[name] = ms;
    j["assignment"] = {{"nodes", nodes}, {"predicted_ms", a.makespan_ms}, {"alone_ms", alone},
                       {"copy_ms_per_mib", a.copy_ms_per_mib}, {"from_cache", a.from_cache}};
  }
  return j;
}

}  // namespace sonnx::cli
