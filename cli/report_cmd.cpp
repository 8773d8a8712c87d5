// sonnx report merge OUT IN.json... : combine the JSON certificates of shards (or of resumed runs)
// into one; the verdicts are recomputed from the union of the tests (a test in several inputs
// keeps the last one). OUT's extension picks the format (.json, .md, .xml, .html). Fuzz campaigns
// (`sonnx fuzz --report X.json` with a target) merge likewise: counts add up, defect groups merge
// by key, each keeping its smallest repro (.json, or text).
#include <iostream>

#include "commands.h"
#include "sonnx/sonnx.hpp"

namespace sonnx::cli {

namespace {
struct MergeArgs {
  std::string out;
  std::vector<std::string> inputs;
};
}  // namespace

void add_report_command(CLI::App& app, int& exit_code) {
  auto* report = app.add_subcommand("report", "Work with certification reports");
  report->require_subcommand(1);
  auto args = std::make_shared<MergeArgs>();
  auto* merge = report->add_subcommand("merge", "Merge shard certificates or fuzz campaigns (JSON) into one report");
  merge->add_option("out", args->out, "Output report (.json, .md, .xml or .html; a campaign: .json or text)")->required();
  merge
      ->add_option("inputs", args->inputs,
                   "Certificates written by `sonnx certify --report X.json`, or campaigns by `sonnx fuzz --report X.json`")
      ->required();
  merge->callback([args, &exit_code] {
    std::vector<std::filesystem::path> files(args->inputs.begin(), args->inputs.end());
    if (is_fuzz_campaign(files.front())) {
      FuzzCampaign merged = merge_fuzz_campaigns(files);
      merged.write(args->out);
      std::cout << "merged " << files.size() << " campaigns: " << merged.graphs << " graphs, " << merged.defect_groups
                << " distinct defects\n";
      exit_code = merged.defect_groups > 0 ? 1 : 0;
      return;
    }
    Certificate merged = merge_certificates(files);
    merged.write(args->out);
    std::cout << "merged " << args->inputs.size() << " reports: " << merged.summary["total"] << " tests, verdict "
              << merged.verdict << "\n";
    exit_code = merged.verdict == "certified" ? 0 : 1;
  });
}

}  // namespace sonnx::cli
