// The C++ API's devices and device plans (include/sonnx/devices.hpp) over optimized/backends/: the
// internal plan is kept with the public one, which copies out what callers read.
#include "conformance/certify/strict_compare.h"
#include "optimized/backends/assign.h"
#include "optimized/backends/calibration.h"
#include "optimized/backends/devices.h"
#include "optimized/backends/partition.h"
#include "optimized/backends/partitioned_executor.h"
#include "optimized/exec/make_executor.h"
#include "reference/model/loader.h"
#include "sonnx/sonnx.hpp"

namespace sonnx {

namespace {

const DeviceCatalog& catalog_of(const DeviceList& list) {
  if (!list.detail) throw LoadError("this device list has no devices");
  return *static_cast<const DeviceCatalog*>(list.detail.get());
}

DevicePlan public_plan(ExecutionPlan plan) {
  DevicePlan out;
  auto device = [&](size_t b) { return plan.backends[b]->name(); };
  const auto& nodes = plan.model.graph.nodes;
  for (const auto& b : plan.backends) out.devices.emplace_back(b->name(), b->version());
  if (plan.fallback >= 0) out.fallback = device(static_cast<size_t>(plan.fallback));
  for (const auto& st : plan.steps) {
    DeviceStep step{device(st.backend), st.control, {}, st.inputs, st.outputs, st.copies};
    for (size_t i : st.nodes) step.nodes.push_back({nodes[i].name, nodes[i].op_type});
    out.steps.push_back(std::move(step));
  }
  out.unsupported_ops = plan.unsupported_ops;
  if (plan.assignment) {
    const Assignment& a = *plan.assignment;
    DeviceAssignment da{{}, a.makespan_ms, a.alone_ms, a.copy_ms_per_mib, a.from_cache};
    std::vector<std::string> placed(a.nodes.size());
    for (const auto& st : plan.steps)
      for (size_t i : st.nodes) placed.at(i) = device(st.backend);
    for (size_t i = 0; i < a.nodes.size(); ++i)
      da.nodes.push_back({nodes[i].name, nodes[i].op_type, placed[i], a.nodes[i].ms, a.nodes[i].start, a.nodes[i].finish});
    out.assignment = std::move(da);
  }
  out.text = plan_text(plan);
  out.detail = std::make_shared<const ExecutionPlan>(std::move(plan));
  return out;
}

}  // namespace

DeviceList list_devices(const DeviceListOptions& options) {
  auto catalog = std::make_shared<const DeviceCatalog>(discover_devices(options.plugins));
  std::vector<std::shared_ptr<Backend>> backends;
  for (const auto& d : catalog->devices) backends.push_back(d.backend);
  std::vector<Calibration> cal = options.calibrate ? calibrate(backends, options.recalibrate)
                                                   : std::vector<Calibration>(backends.size());
  DeviceList out;
  for (size_t d = 0; d < backends.size(); ++d) {
    const Backend& b = *backends[d];
    out.devices.push_back(
        {b.name(), b.type(), b.version(), catalog->devices[d].source, cal[d].figure, cal[d].note, cal[d].from_cache});
  }
  out.skipped = catalog->skipped;
  out.detail = catalog;  // node_support asks the same devices
  return out;
}

std::vector<NodeSupport> node_support(const DeviceList& devices, const ModelHandle& model) {
  const DeviceCatalog& catalog = catalog_of(devices);
  const Model& m = model.impl().ir;
  const std::vector<NodeQuery> queries = node_queries(m);
  std::vector<NodeSupport> out;
  for (size_t i = 0; i < m.graph.nodes.size(); ++i) {
    const Node& n = m.graph.nodes[i];
    NodeSupport s{n.name, n.op_type, n.label(), {}};
    for (const auto& d : catalog.devices) s.why_not.push_back(device_why_not(*d.backend, queries[i]));
    out.push_back(std::move(s));
  }
  return out;
}

DevicePlan plan_for_devices(const ModelHandle& model, const DeviceSetOptions& options, const NamedValues& profile_inputs) {
  if (options.assign != "first" && options.assign != "profile")
    throw LoadError("assign is first or profile, not '" + options.assign + "'");
  auto set = select_devices(discover_devices(options.plugins), options.devices);
  return public_plan(
      plan_for_device_set(model.impl().ir, set, options.assign == "profile", profile_inputs, options.profile_cache));
}

DevicePlan partition_by_preference(const ModelHandle& model, const std::vector<std::string>& backends, bool fallback) {
  if (backends.empty()) throw LoadError("no backend given to partition on");
  std::vector<std::shared_ptr<Backend>> preference;
  for (const auto& name : backends) preference.push_back(make_backend(name));
  PartitionOptions po;
  po.allow_fallback = fallback;
  return public_plan(partition(model.impl().ir, preference, po));
}

DevicePlanRun run_device_plan(const DevicePlan& plan, const NamedValues& inputs) {
  if (!plan.detail) throw LoadError("this device plan has nothing to run");
  const ExecutionPlan& full = *static_cast<const ExecutionPlan*>(plan.detail.get());
  PartitionedExecutor ex(full);  // a copy: the weights are shared, not copied
  DevicePlanRun r;
  try {
    r.outputs = ex.run(inputs);
  } catch (const BackendError& e) {  // a step failed and there is no fallback
    r.backend_error = e.what();
    return r;
  }
  NamedValues want = make_executor(full.model, "reference")->run(inputs);
  bool same = r.outputs.size() == want.size();
  for (const auto& [name, v] : want) {
    auto it = r.outputs.find(name);
    same = same && it != r.outputs.end() && strict_compare(it->second, v, Accuracy::Rounding).ok;
  }
  for (const auto& f : ex.fallbacks()) r.fallbacks.push_back({f.step, f.backend, f.phase, f.reason});
  r.matches_reference = same;
  return r;
}

}  // namespace sonnx
