// sonnx devices [--model M] [--format json]: every device this process can use (built-in backends
// and plugins from --plugin and SONNX_PLUGIN_PATH) with its type, version and calibration figure;
// with --model, which nodes of the model each device runs and, for the others, why not.
#include <iomanip>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "model_options.h"
#include "sonnx/sonnx.hpp"

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
  cmd->add_option("--model", args->model,
                  "Also say, node by node, which devices run this model's nodes and why the others do not");
  cmd->add_option("--plugin", args->plugins,
                  "A backend plugin (.so) to list; may be repeated (also SONNX_PLUGIN_PATH, ':'-separated files or folders)");
  cmd->add_option("--format", args->format, "text or json")->check(CLI::IsMember({"text", "json"}))->capture_default_str();
  cmd->add_flag("--recalibrate", args->recalibrate, "Measure every figure again instead of reading the per-machine cache");
  cmd->add_flag("--no-calibrate", args->no_calibrate, "Do not measure or show figures");
  args->prepare.add_to(cmd);
  cmd->callback([args, &exit_code] {
    DeviceList list = list_devices(
        {.plugins = args->plugins, .calibrate = !args->no_calibrate, .recalibrate = args->recalibrate});
    const std::vector<DeviceInfo>& devices = list.devices;
    nlohmann::json j{{"devices", nlohmann::json::array()}, {"skipped", list.skipped}};
    std::ostringstream text;
    text << std::left << std::setw(14) << "device" << std::setw(13) << "type" << std::setw(12) << "figure"
         << "version, source\n";
    for (const auto& d : devices) {
      nlohmann::json dj{{"name", d.name},
                        {"type", d.type},
                        {"version", d.version},
                        {"source", d.source},
                        {"figure", d.figure ? nlohmann::json(*d.figure) : nlohmann::json(nullptr)},
                        {"figure_cached", d.figure_cached}};
      if (!d.figure_note.empty()) dj["figure_note"] = d.figure_note;
      j["devices"].push_back(dj);
      std::ostringstream fig;
      if (d.figure) fig << std::fixed << std::setprecision(2) << *d.figure << (d.figure_cached ? " (c)" : "");
      else fig << (args->no_calibrate ? "" : "-");
      text << std::setw(14) << d.name << std::setw(13) << d.type << std::setw(12) << fig.str() << d.version << ", " << d.source
           << "\n";
      if (!d.figure_note.empty()) text << "  " << d.figure_note << "\n";
    }
    if (!args->no_calibrate)
      text << "figure: calibration speed relative to cpu (higher is faster); (c): from the cache of this machine\n";
    for (const auto& s : list.skipped) text << "skipped " << s << "\n";
    if (!args->model.empty()) {
      ModelHandle model = load_prepared(args->model, args->prepare.check());
      const std::vector<NodeSupport> support = node_support(list, model);
      nlohmann::json nodes = nlohmann::json::array();
      text << "\n" << args->model << ": " << support.size() << " nodes\n";
      std::vector<size_t> runs(devices.size(), 0);
      for (const auto& n : support) {
        nlohmann::json on = nlohmann::json::array(), off = nlohmann::json::object();
        std::string line = n.label + ":", why;
        for (size_t d = 0; d < devices.size(); ++d) {
          const std::string& reason = n.why_not[d];
          if (reason.empty()) {
            on.push_back(devices[d].name);
            line += " " + devices[d].name;
            ++runs[d];
          } else {
            off[devices[d].name] = reason;
            why += "\n    not " + devices[d].name + ": " + reason;
          }
        }
        nodes.push_back({{"node", n.node}, {"op_type", n.op_type}, {"devices", on}, {"not", off}});
        text << "  " << line << why << "\n";
      }
      j["model"] = args->model;
      j["nodes"] = nodes;
      for (size_t d = 0; d < devices.size(); ++d) {
        j["devices"][d]["nodes_supported"] = runs[d];
        text << devices[d].name << " runs " << runs[d] << " of " << support.size() << " nodes\n";
      }
    }
    std::cout << (args->format == "json" ? j.dump(2) + "\n" : text.str());
    exit_code = 0;
  });
}

}  // namespace sonnx::cli
