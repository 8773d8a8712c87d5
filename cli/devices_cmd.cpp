// sonnx devices [--model M] [--format json]: every device this process can use (built-in backends
// and plugins from --plugin and SONNX_PLUGIN_PATH) with its type, version and calibration figure;
// with --model, which nodes of the model each device runs and, for the others, why not.
#include <iomanip>
#include <iostream>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "model_options.h"
#include "optimized/backends/calibration.h"
#include "optimized/backends/devices.h"
#include "optimized/backends/partition.h"

namespace sonnx::cli {

namespace {

struct DevicesArgs {
  std::string model;
  std::vector<std::string> plugins;
  std::string format = "text";
  bool recalibrate = false, no_calibrate = false;
  PrepareArgs prepare;
};

}  // namespace

void add_devices_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<DevicesArgs>();
  auto* cmd = app.add_subcommand("devices", "List the devices (built-in backends and plugins) with their calibration figures; "
                                            "with --model, which nodes each runs");
  cmd->add_option("--model", args->model, "Also say, node by node, which devices run this model's nodes and why the others do not");
  cmd->add_option("--plugin", args->plugins, "A backend plugin (.so) to list; may be repeated (also SONNX_PLUGIN_PATH, ':'-separated files or folders)");
  cmd->add_option("--format", args->format, "text or json")->check(CLI::IsMember({"text", "json"}))->capture_default_str();
  cmd->add_flag("--recalibrate", args->recalibrate, "Measure every figure again instead of reading the per-machine cache");
  cmd->add_flag("--no-calibrate", args->no_calibrate, "Do not measure or show figures");
  args->prepare.add_to(cmd);
  cmd->callback([args, &exit_code] {
    DeviceCatalog catalog = discover_devices(args->plugins);
    std::vector<std::shared_ptr<Backend>> backends;
    for (const auto& d : catalog.devices) backends.push_back(d.backend);
    std::vector<Calibration> cal = args->no_calibrate ? std::vector<Calibration>(backends.size()) : calibrate(backends, args->recalibrate);
    nlohmann::json j{{"devices", nlohmann::json::array()}, {"skipped", catalog.skipped}};
    std::ostringstream text;
    text << std::left << std::setw(14) << "device" << std::setw(13) << "type" << std::setw(12) << "figure" << "version, source\n";
    for (size_t d = 0; d < backends.size(); ++d) {
      const Backend& b = *backends[d];
      nlohmann::json dj{{"name", b.name()}, {"type", b.type()}, {"version", b.version()}, {"source", catalog.devices[d].source},
                        {"figure", cal[d].figure ? nlohmann::json(*cal[d].figure) : nlohmann::json(nullptr)},
                        {"figure_cached", cal[d].from_cache}};
      if (!cal[d].note.empty()) dj["figure_note"] = cal[d].note;
      j["devices"].push_back(dj);
      std::ostringstream fig;
      if (cal[d].figure) fig << std::fixed << std::setprecision(2) << *cal[d].figure << (cal[d].from_cache ? " (c)" : "");
      else fig << (args->no_calibrate ? "" : "-");
      text << std::setw(14) << b.name() << std::setw(13) << b.type() << std::setw(12) << fig.str() << b.version() << ", "
           << catalog.devices[d].source << "\n";
      if (!cal[d].note.empty()) text << "  " << cal[d].note << "\n";
    }
    if (!args->no_calibrate)
      text << "figure: calibration speed relative to cpu (higher is faster); (c): from the cache of this machine\n";
    for (const auto& s : catalog.skipped) text << "skipped " << s << "\n";
    if (!args->model.empty()) {
      auto lm = prepare_model(args->model, args->prepare.options());
      const Model& m = lm->ir;
      nlohmann::json nodes = nlohmann::json::array();
      text << "\n" << args->model << ": " << m.graph.nodes.size() << " nodes\n";
      std::vector<size_t> runs(backends.size(), 0);
      const std::vector<NodeQuery> queries = node_queries(m);
      for (size_t i = 0; i < m.graph.nodes.size(); ++i) {
        const NodeQuery& q = queries[i];
        nlohmann::json on = nlohmann::json::array(), off = nlohmann::json::object();
        std::string line = m.graph.nodes[i].label() + ":", why;
        for (size_t d = 0; d < backends.size(); ++d) {
          std::string reason = device_why_not(*backends[d], q);
          if (reason.empty()) {
            on.push_back(backends[d]->name());
            line += " " + backends[d]->name();
            ++runs[d];
          } else {
            off[backends[d]->name()] = reason;
            why += "\n    not " + backends[d]->name() + ": " + reason;
          }
        }
        nodes.push_back({{"node", m.graph.nodes[i].name}, {"op_type", m.graph.nodes[i].op_type}, {"devices", on}, {"not", off}});
        text << "  " << line << why << "\n";
      }
      j["model"] = args->model;
      j["nodes"] = nodes;
      for (size_t d = 0; d < backends.size(); ++d) {
        j["devices"][d]["nodes_supported"] = runs[d];
        text << backends[d]->name() << " runs " << runs[d] << " of " << m.graph.nodes.size() << " nodes\n";
      }
    }
    std::cout << (args->format == "json" ? j.dump(2) + "\n" : text.str());
    exit_code = 0;
  });
}

}  // namespace sonnx::cli
