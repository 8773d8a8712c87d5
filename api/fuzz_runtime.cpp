// The C++ API's runtime fuzzing (include/sonnx/tools.hpp): a campaign against a target, and merging
// campaigns.
#include <fstream>

#include "conformance/fuzz/recipe.h"
#include "conformance/fuzz/target_fuzz.h"
#include "sonnx/sonnx.hpp"

namespace sonnx {

namespace {

FuzzCampaign campaign_of(std::shared_ptr<const fuzz::TargetCampaign> c) {
  FuzzCampaign out;
  out.target = c->target;
  out.target_version = c->target_version;
  out.graphs = c->graphs;
  out.passed = c->passed;
  out.failed = c->failed;
  out.skipped = c->skipped;
  out.defect_groups = c->groups.size();
  out.seconds = c->seconds;
  out.text = fuzz::campaign_text(*c);
  out.json = fuzz::campaign_json(*c).dump(2);
  out.detail = std::move(c);
  return out;
}

nlohmann::json read_json(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw LoadError("cannot read '" + file.string() + "'");
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw LoadError("'" + file.string() + "' is not JSON: " + e.what());
  }
}

}  // namespace

void FuzzCampaign::write(const std::filesystem::path& file) const {
  std::ofstream out(file);
  if (!out) throw LoadError("cannot write '" + file.string() + "'");
  out << (file.extension() == ".json" ? json : text) << "\n";
}

FuzzCampaign fuzz_runtime(const RuntimeFuzzingOptions& options) {
  int targets = !options.backend.empty() + !options.backend_command.empty() + !options.devices.empty();
  if (targets != 1) throw LoadError("fuzz one target: a backend, a backend command or a device set");
  if (options.persistent && options.backend_command.empty()) throw LoadError("the persistent protocol is for a backend command");
  if (options.seconds < 0 || options.max_graphs < 0 || options.max_groups < 0 || options.timeout_seconds <= 0)
    throw LoadError("fuzzing takes non-negative seconds, graphs and groups, and a positive timeout");
  fuzz::require_campaign_opset(options.opset);
  fuzz::TargetFuzzOptions o;
  o.seconds = options.seconds;
  o.max_graphs = options.max_graphs;
  o.seed = options.seed;
  o.shard = parse_shard(options.shard);
  o.opset = options.opset;
  if (!options.profile.empty() && options.profile != "sonnx")
    throw LoadError("fuzzing restricts the operators to the sonnx profile only, not '" + options.profile + "'");
  o.sonnx_ops = options.profile == "sonnx";
  o.out = options.out;
  o.max_groups = options.max_groups;
  o.progress = options.progress;
  auto target = !options.backend_command.empty()
                    ? make_command_target(options.backend_command, options.timeout_seconds, options.persistent)
                : !options.devices.empty() ? make_device_set_target(options.devices, options.plugins, false)
                                           : make_backend_target(options.backend, true);
  return campaign_of(std::make_shared<fuzz::TargetCampaign>(fuzz::fuzz_target(*target, o)));
}

FuzzCampaign merge_fuzz_campaigns(const std::vector<std::filesystem::path>& files) {
  if (files.empty()) throw LoadError("no campaign to merge");
  auto merged = std::make_shared<fuzz::TargetCampaign>();
  for (const auto& file : files) {
    fuzz::TargetCampaign part;
    try {
      part = fuzz::campaign_from_json(read_json(file));
    } catch (const nlohmann::json::exception& e) {
      throw LoadError("'" + file.string() + "' is not a fuzz campaign report: " + e.what());
    } catch (const LoadError& e) {
      throw LoadError("'" + file.string() + "': " + e.what());
    }
    fuzz::merge_campaign(*merged, part, file.string());
  }
  return campaign_of(std::move(merged));
}

bool is_fuzz_campaign(const std::filesystem::path& file) {
  nlohmann::json j = read_json(file);
  return j.is_object() && j.value("kind", "") == "fuzz-campaign";
}

}  // namespace sonnx
