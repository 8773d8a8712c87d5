// The device options of run, bench, partition, plan and certify: `--devices a,b` (compile for
// exactly that set; without cpu in it there is no fallback), `--plugin PATH` (more devices beside
// SONNX_PLUGIN_PATH) and `--assign first|profile` (DeviceSetOptions, sonnx/devices.hpp).
#pragma once
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sonnx/sonnx.hpp"

namespace sonnx::cli {

struct DeviceArgs {
  std::string devices;
  std::vector<std::string> plugins;
  std::string assign = "first";
  bool no_profile_cache = false;
  CLI::Option* devices_option = nullptr;
  // `cache_flag`: also --no-profile-cache (commands that profile in this process).
  void add_to(CLI::App* cmd, bool cache_flag = true);
  bool given() const { return devices_option && devices_option->count() > 0; }
  // The names in --devices; LoadError when it was given empty.
  std::vector<std::string> names() const;
  DeviceSetOptions options() const;  // names() and the other options
  // The plan for exactly the chosen set; `profile_inputs` feed the profiling run of
  // --assign profile. Throws LoadError (bad set) or Unsupported (a node no device runs).
  DevicePlan plan(const ModelHandle& model, const NamedValues& profile_inputs) const;
};

// "a,b" -> {"a", "b"}; empty items dropped.
std::vector<std::string> split_commas(const std::string& list);

// The plan as JSON: devices, steps, and with profile-guided assignment each node's measured
// times and predicted start and finish.
nlohmann::json device_plan_json(const DevicePlan& plan);

}  // namespace sonnx::cli
