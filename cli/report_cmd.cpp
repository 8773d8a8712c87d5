// sonnx report merge OUT IN.json... : combine the JSON certificates of shards (or of resumed runs)
// into one; the verdicts are recomputed from the union of the tests (a test in several inputs
// keeps the last one). OUT's extension picks the format (.json, .md, .xml, .html).
#include <fstream>
#include <iostream>

#include "commands.h"
#include "conformance/certify/cert_report.h"
#include "sonnx/errors.h"

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
  auto* merge = report->add_subcommand("merge", "Merge shard certificates (JSON) into one report");
  merge->add_option("out", args->out, "Output report (.json, .md, .xml or .html)")->required();
  merge->add_option("inputs", args->inputs, "Certificates written by `sonnx certify --report X.json`")->required();
  merge->callback([args, &exit_code] {
    CertReport merged;
    for (const auto& file : args->inputs) {
      std::ifstream in(file);
      if (!in) throw LoadError("cannot read '" + file + "'");
      CertReport part;
      try {
        part = cert_report_from_json(nlohmann::json::parse(in));
      } catch (const nlohmann::json::exception& e) {
        throw LoadError("'" + file + "' is not a certify JSON report: " + e.what());
      }
      if (merged.backend.empty()) {
        merged.backend = part.backend;
        merged.backend_version = part.backend_version;
      } else if (merged.backend != part.backend) {
        throw LoadError("'" + file + "' certifies " + part.backend + ", not " + merged.backend);
      }
      for (const auto& s : part.suites)
        if (std::find(merged.suites.begin(), merged.suites.end(), s) == merged.suites.end()) merged.suites.push_back(s);
      for (auto& t : part.tests) merged.tests.push_back(std::move(t));
    }
    aggregate(merged);
    write_cert_report(merged, args->out);
    std::cout << "merged " << args->inputs.size() << " reports: " << merged.summary["total"] << " tests, verdict " << merged.verdict << "\n";
    exit_code = merged.verdict == "certified" ? 0 : 1;
  });
}

}  // namespace sonnx::cli
