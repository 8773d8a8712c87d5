// Devices and the plans that place a model on them (docs/backends.md): the devices this process
// can use (`sonnx devices`), which nodes each runs, and a model split into steps on devices, either
// for exactly a device set (`--devices`, as SessionOptions::devices) or by a preference list of
// backends with cpu as the fallback (`sonnx partition --backends`). The tools below take a model as
// load_prepared (tools.hpp) makes it: checked and with its types inferred.
#pragma once
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sonnx.hpp"

// Everything this header declares is the library's public API: exported from libsonnx.so, whose
// other symbols are hidden (api/CMakeLists.txt).
#pragma GCC visibility push(default)
namespace sonnx {

struct DeviceListOptions {
  std::vector<std::string> plugins{};  // plugin libraries (.so) to add, beside SONNX_PLUGIN_PATH
  bool calibrate = true;               // measure (or read from the per-machine cache) each device's figure
  bool recalibrate = false;            // measure again instead of reading the cache
};

struct DeviceInfo {
  std::string name, type, version;  // type: cpu, accelerator, reference or other
  std::string source;               // "built-in", or the plugin's path
  // Calibration speed relative to cpu (higher is faster); none when the device runs no probe or
  // calibration was not asked for. figure_note: why there is none, or which probes it skipped.
  std::optional<double> figure;
  std::string figure_note;
  bool figure_cached = false;  // the figure came from the cache of this machine
};

struct DeviceList {
  std::vector<DeviceInfo> devices;     // the built-ins, then --plugin, then SONNX_PLUGIN_PATH
  std::vector<std::string> skipped;    // files on SONNX_PLUGIN_PATH that are not plugins: "path: why"
  std::shared_ptr<const void> detail;  // the loaded devices (internal)
};

// Every device this process can use. Throws LoadError for a plugin that does not load, or two
// devices with one name.
DeviceList list_devices(const DeviceListOptions& options = {});

// One main-graph node and, per device of the list (in its order), why the device does not run it:
// "" when it does.
struct NodeSupport {
  std::string node, op_type;
  std::string label;  // as messages name the node: "name (Op)"
  std::vector<std::string> why_not;
};
std::vector<NodeSupport> node_support(const DeviceList& devices, const ModelHandle& model);

struct DeviceSetOptions {
  std::vector<std::string> devices{};  // names from list_devices, or plugin paths; at least one
  std::vector<std::string> plugins{};
  // "first": each node on the first device of the set that runs it; "profile": each node measured
  // on every device (on the profiling inputs), then placed to shorten the critical path, copies
  // included.
  std::string assign = "first";
  bool profile_cache = true;  // with "profile": reuse the measurements cached per model and machine
};

struct PlannedNode {
  std::string name, op_type;
};

// A subgraph run on one device; values crossing from another device are copied in.
struct DeviceStep {
  std::string device;
  bool control = false;  // an If, Loop or Scan run whole by a built-in backend
  std::vector<PlannedNode> nodes;
  std::vector<std::string> inputs, outputs;  // values read from outside the step; made for later steps or outputs
  std::vector<std::string> copies;           // inputs made on another device (or given by the caller)
};

// Why profile-guided assignment put a node where it is.
struct NodeAssignment {
  std::string name, op_type, device;
  std::vector<double> measured_ms;     // per device of the plan, in its order; < 0: cannot run it
  double start_ms = 0, finish_ms = 0;  // predicted, from the start of a run
};

struct DeviceAssignment {
  std::vector<NodeAssignment> nodes;                     // every main-graph node
  double predicted_ms = 0;                               // the predicted critical path, devices working side by side
  std::vector<std::pair<std::string, double>> alone_ms;  // the same prediction on each device that runs every node
  double copy_ms_per_mib = 0;
  bool from_cache = false;  // the measurements came from the profile cache
};

struct DevicePlan {
  // Name and version, in preference order, then the fallback when the list lacked it.
  std::vector<std::pair<std::string, std::string>> devices;
  std::optional<std::string> fallback;         // the device that runs what the others cannot; none without fallback
  std::vector<DeviceStep> steps;               // in run order
  std::vector<std::string> unsupported_ops;    // nodes no preferred device runs, on the fallback: "Op" or "domain.Op"
  std::optional<DeviceAssignment> assignment;  // with assign "profile"
  std::string text;                            // the plan listed for people, as `sonnx partition` prints it
  std::shared_ptr<const void> detail;          // the plan to run (internal)
};

// The plan for exactly a device set: cpu is the fallback only when it is in the set. Throws
// LoadError (a bad set or assign) or Unsupported (nodes no device of the set runs, each named).
DevicePlan plan_for_devices(const ModelHandle& model, const DeviceSetOptions& options, const NamedValues& profile_inputs = {});

// The plan by preference: each node on the first of `backends` (reference, cpu or a plugin path)
// that runs it, cpu the fallback unless `fallback` is false (then a node none runs is Unsupported).
// Throws LoadError for an unknown backend or an empty list.
DevicePlan partition_by_preference(const ModelHandle& model, const std::vector<std::string>& backends, bool fallback = true);

// A step that failed on its device and ran on the fallback.
struct StepFallback {
  size_t step = 0;
  std::string backend;  // the device that failed
  std::string phase;    // prepare or execute
  std::string reason;
};

struct DevicePlanRun {
  // A step failed and the plan has no fallback: the failure, and nothing else is filled.
  std::optional<std::string> backend_error;
  NamedValues outputs;
  std::vector<StepFallback> fallbacks;
  bool matches_reference = false;  // the reference interpreter's outputs, under the certification tolerances
};

// Runs the plan once on `inputs` (every graph input without an initializer) and compares its
// outputs with the reference interpreter's. Throws Trap or Unsupported as a run does.
DevicePlanRun run_device_plan(const DevicePlan& plan, const NamedValues& inputs);

}  // namespace sonnx
#pragma GCC visibility pop
