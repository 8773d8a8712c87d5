#include "calibration.h"

#include <cmath>
#include <iterator>
#include <optional>

#include "device_cache.h"
#include "partition.h"
#include "reference/model/synthetic_inputs.h"
#include "reference/model/text_syntax.h"
#include "step_timing.h"

namespace sonnx {

namespace {

struct Probe {
  const char* op;
  const char* text;
};

const Probe kProbes[] = {
    {"Conv", R"(<ir_version: 8, opset_import: ["" : 17]>
probe (float[1,16,32,32] x, float[16,16,3,3] w) => (float[1,16,30,30] y) { y = Conv(x, w) })"},
    {"MatMul", R"(<ir_version: 8, opset_import: ["" : 17]>
probe (float[128,128] a, float[128,128] b) => (float[128,128] y) { y = MatMul(a, b) })"},
    {"Add", R"(<ir_version: 8, opset_import: ["" : 17]>
probe (float[64,1024] a, float[64,1024] b) => (float[64,1024] y) { y = Add(a, b) })"},
    {"Relu", R"(<ir_version: 8, opset_import: ["" : 17]>
probe (float[64,1024] x) => (float[64,1024] y) { y = Relu(x) })"},
};

std::string cache_key(const Backend& b) { return b.name() + " " + b.version(); }

}  // namespace

std::vector<Calibration> calibrate(const std::vector<std::shared_ptr<Backend>>& devices, bool recalibrate) {
  const std::string file = "calibration.json";
  nlohmann::json cache = read_cache(file);
  if (!cache.is_object() || cache.value("machine", "") != machine_id())
    cache = {{"machine", machine_id()}, {"devices", nlohmann::json::object()}};
  std::vector<Calibration> out(devices.size());
  std::vector<size_t> todo;
  for (size_t d = 0; d < devices.size(); ++d) {
    const nlohmann::json& devs = cache["devices"];
    auto it = devs.find(cache_key(*devices[d]));
    if (recalibrate || it == devs.end()) {
      todo.push_back(d);
      continue;
    }
    if (!(*it)["figure"].is_null()) out[d].figure = (*it)["figure"].get<double>();
    out[d].note = (*it).value("note", "");
    out[d].from_cache = true;
  }
  if (todo.empty()) return out;

  // The probes, their inputs, and cpu's time on each (measured once, when a device first needs it).
  const size_t num_probes = std::size(kProbes);
  std::vector<Model> models;
  std::vector<NamedValues> inputs(num_probes);
  for (size_t k = 0; k < num_probes; ++k) {
    models.push_back(text::parse_model(kProbes[k].text));
    add_synthetic_inputs(models[k], {}, inputs[k]);
  }
  auto cpu = make_cpu_backend();
  std::vector<std::optional<StepTiming>> cpu_time(num_probes);
  for (size_t d : todo) {
    double log_sum = 0;
    int probes = 0;
    std::string skipped;
    for (size_t k = 0; k < num_probes; ++k) {
      const Probe& p = kProbes[k];
      const Model& m = models[k];
      if (!devices[d]->supports(node_queries(m).at(0))) continue;
      StepTiming mine = time_step(*devices[d], m, inputs[k]);
      if (devices[d]->name() == "cpu") cpu_time[k] = mine;
      if (!cpu_time[k]) cpu_time[k] = time_step(*cpu, m, inputs[k]);
      const StepTiming& base = *cpu_time[k];
      if (!mine.error.empty() || !base.error.empty() || mine.ms <= 0 || base.ms <= 0) {
        skipped += std::string(skipped.empty() ? "" : ", ") + p.op + " (" + (mine.error.empty() ? base.error : mine.error) + ")";
        continue;
      }
      log_sum += std::log(base.ms / mine.ms);
      ++probes;
    }
    Calibration& c = out[d];
    if (devices[d]->name() == "cpu") c.figure = 1.0;  // the unit, by definition
    else if (probes > 0) c.figure = std::exp(log_sum / probes);
    if (probes == 0) c.note = "runs none of the calibration probes (Conv, MatMul, Add, Relu on float32)";
    if (!skipped.empty()) c.note += std::string(c.note.empty() ? "" : "; ") + "failed probes: " + skipped;
    cache["devices"][cache_key(*devices[d])] = {{"figure", c.figure ? nlohmann::json(*c.figure) : nlohmann::json(nullptr)},
                                                {"note", c.note}};
  }
  write_cache(file, cache);
  return out;
}

}  // namespace sonnx
