// sonnx_accepts_runs: the long "check accepts => run executes" loop (issue 14) over N generated
// graphs, each with every validator mutation and near miss. Prints a JSON report (counts, time,
// new findings, known findings matched, runs still going at the time limit); writes their models to --out when given. Exit 0 when nothing was found, 1
// when something was, 2 on a usage error.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "conformance/oracle/accepts_runs.h"

int main(int argc, char** argv) {
  sonnx::oracle::AcceptsRunsOptions o;
  std::filesystem::path out;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << a << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    try {
      if (a == "--graphs") o.graphs = std::stoll(value());
      else if (a == "--seed") o.seed = std::stoull(value());
      else if (a == "--opset") o.opset = std::stoi(value());
      else if (a == "--out") out = value();
      else if (a == "--time-limit") o.time_limit_seconds = std::stod(value());
      else {
        std::cerr << "usage: sonnx_accepts_runs [--graphs N] [--seed S] [--opset 17|27] [--time-limit S] [--out DIR]\n";
        return 2;
      }
    } catch (const std::exception&) {
      std::cerr << a << ": not a number\n";
      return 2;
    }
  }
  o.progress = [](int64_t graphs, int64_t findings) {
    if (graphs % 500 == 0) std::cerr << graphs << " graphs, " << findings << " finding(s)\n";
  };
  auto r = sonnx::oracle::run_accepts_runs(o);
  nlohmann::json j;
  j["graphs"] = r.graphs;
  j["models"] = r.models;
  j["rejected"] = r.rejected;
  j["unreadable"] = r.unreadable;
  j["ran"] = r.ran;
  j["allowed_traps"] = r.allowed_traps;
  j["seconds"] = r.seconds;
  j["accepted"] = r.accepted;
  j["checked"] = r.checked;
  j["traps_by_fragment"] = r.traps_by_fragment;
  j["known_findings"] = r.known;
  j["time_limit_seconds"] = o.time_limit_seconds;
  auto list = [&](const std::vector<sonnx::oracle::AcceptsRunsFinding>& fs, const std::string& what) {
    nlohmann::json a = nlohmann::json::array();
    int k = 0;
    for (const auto& f : fs) {
      nlohmann::json fj{{"recipe", f.recipe}, {"change", f.change}, {"kind", f.verdict.kind}, {"message", f.verdict.message}};
      if (!out.empty()) {
        std::filesystem::create_directories(out);
        auto path = out / (what + "_" + std::to_string(k++) + ".onnx");
        std::ofstream(path, std::ios::binary) << f.model.SerializeAsString();
        fj["model"] = path.string();
      }
      a.push_back(fj);
    }
    return a;
  };
  j["findings"] = list(r.findings, "finding");
  j["unfinished"] = list(r.unfinished, "unfinished");
  std::cout << j.dump(2) << "\n";
  return r.findings.empty() ? 0 : 1;  // known findings are reported, not failures
}
