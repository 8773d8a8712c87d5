#include "device_options.h"

#include <sstream>

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
    cmd->add_flag("--no-profile-cache", no_profile_cache,
                  "With --assign profile: measure again instead of using the profile cache");
}

std::vector<std::string> DeviceArgs::names() const {
  auto list = split_commas(devices);
  if (list.empty()) throw LoadError("the device set is empty: name at least one device (sonnx devices lists them)");
  return list;
}

DeviceSetOptions DeviceArgs::options() const { return {names(), plugins, assign, !no_profile_cache}; }

DevicePlan DeviceArgs::plan(const ModelHandle& model, const NamedValues& profile_inputs) const {
  return plan_for_devices(model, options(), profile_inputs);
}

std::vector<std::string> split_commas(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream ss(list);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

nlohmann::json device_plan_json(const DevicePlan& plan) {
  nlohmann::json backends = nlohmann::json::array(), steps = nlohmann::json::array();
  for (const auto& [name, version] : plan.devices) backends.push_back({{"name", name}, {"version", version}});
  for (const auto& st : plan.steps) {
    nlohmann::json nodes = nlohmann::json::array();
    for (const auto& n : st.nodes) nodes.push_back({{"name", n.name}, {"op_type", n.op_type}});
    steps.push_back({{"backend", st.device},
                     {"control", st.control},
                     {"nodes", nodes},
                     {"inputs", st.inputs},
                     {"outputs", st.outputs},
                     {"copies", st.copies}});
  }
  nlohmann::json j{{"backends", backends},
                   {"fallback", plan.fallback ? nlohmann::json(*plan.fallback) : nlohmann::json(nullptr)},
                   {"steps", steps},
                   {"unsupported_ops", plan.unsupported_ops}};
  if (plan.assignment) {
    const DeviceAssignment& a = *plan.assignment;
    nlohmann::json nodes = nlohmann::json::array(), alone = nlohmann::json::object();
    for (const auto& n : a.nodes) {
      nlohmann::json ms = nlohmann::json::object();
      for (size_t b = 0; b < n.measured_ms.size(); ++b)
        ms[plan.devices[b].first] = n.measured_ms[b] < 0 ? nlohmann::json(nullptr) : nlohmann::json(n.measured_ms[b]);
      nodes.push_back({{"name", n.name},
                       {"op_type", n.op_type},
                       {"device", n.device},
                       {"measured_ms", ms},
                       {"start_ms", n.start_ms},
                       {"finish_ms", n.finish_ms}});
    }
    for (const auto& [name, ms] : a.alone_ms) alone[name] = ms;
    j["assignment"] = {{"nodes", nodes},
                       {"predicted_ms", a.predicted_ms},
                       {"alone_ms", alone},
                       {"copy_ms_per_mib", a.copy_ms_per_mib},
                       {"from_cache", a.from_cache}};
  }
  return j;
}

}  // namespace sonnx::cli
