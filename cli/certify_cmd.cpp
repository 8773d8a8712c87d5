// sonnx certify (--backend NAME|PLUGIN.so | --backend-cmd CMD): run the conformance suites on a
// backend, judge every result against the reference interpreter (strict tolerances, or admissible
// enclosures), and give a verdict per operator and overall (conformance/certify, through the C++ API's certify).
// Exit 0 certified, 1 not.
#include <unistd.h>

#include <iostream>
#include <sstream>

#include "commands.h"
#include "device_options.h"
#include "sonnx/sonnx.hpp"

namespace sonnx::cli {

namespace {

struct CertifyArgs {
  std::string backend, backend_cmd;
  bool persistent = false;  // --backend-cmd through the persistent protocol (CMD --serve)
  std::vector<std::string> suites, reports;
  double timeout = 60;
  std::string resume, shard, filter, skips;
  std::string format = "text";
  std::string judge = "tolerance";
  bool no_fallback = false;
  bool localize = false;  // given explicitly (it is the default where it can be done)
  bool no_localize = false;
  std::string devices, assign = "first";
  std::vector<std::string> plugins;
  std::string repro_dir;  // empty: beside the first --report, else certify-repros/
};

// Where the failed tests' repro directories go (docs/certify-failures.md): --repro-dir, else
// REPORT-repros/ beside the first --report file (its name without the extension), else
// certify-repros/ in the current directory.
std::filesystem::path repro_dir_of(const CertifyArgs& a) {
  if (!a.repro_dir.empty()) return a.repro_dir;
  if (a.reports.empty()) return "certify-repros";
  std::filesystem::path report(a.reports.front());
  return report.parent_path() / (report.stem().string() + "-repros");
}

// Every line of `text` after `by`.
std::string indented(const std::string& text, const std::string& by) {
  std::istringstream in(text);
  std::string out, line;
  while (std::getline(in, line)) out += by + line + "\n";
  return out;
}

// The generated ONNX node suite, made on first use with Debian's python3-onnx.
std::filesystem::path default_suite() {
  try {
    return onnx_node_suite(
        [](const std::filesystem::path& dir) { std::cerr << "certify: generating the ONNX node suite in " << dir << "\n"; });
  } catch (const LoadError& e) {
    throw LoadError(std::string(e.what()) + "; pass --suite DIR");
  }
}

}  // namespace

void add_certify_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<CertifyArgs>();
  auto* cmd = app.add_subcommand("certify",
                                 "Certify a backend or runtime against the reference interpreter on the conformance suites");
  auto* b = cmd->add_option("--backend", args->backend, "Backend: reference, cpu, or a plugin shared library (.so)");
  auto* bc = cmd->add_option(
      "--backend-cmd", args->backend_cmd,
      "Runtime command: run as CMD MODEL INPUT_DIR OUTPUT_DIR (input_K.pb in, output_K.pb out; exit 0 ok, 3 unsupported "
      "with the reason as the last line printed)");
  b->excludes(bc);
  bc->excludes(b);
  cmd->add_flag("--persistent", args->persistent,
                "With --backend-cmd: start the runtime once as CMD --serve and send it one JSON request line per test "
                "(the persistent protocol, docs/backends.md); a hang, crash or garbage reply restarts it");
  cmd->add_option("--suite", args->suites,
                  "Test directories or folders of them (default: the generated ONNX node suite); may be repeated");
  cmd->add_option("--timeout", args->timeout, "Seconds the backend may take per test before it is recorded as a timeout")
      ->capture_default_str();
  cmd->add_option("--report", args->reports, "Write the certificate (.json, .md, .xml or .html); may be repeated");
  cmd->add_option("--repro-dir", args->repro_dir,
                  "Write a repro directory for every failed test in DIR/<test>/ (the failing node or model, its inputs, "
                  "the reference's outputs, the enclosure's bounds, the runtime's outputs, a README; an ONNX test directory "
                  "that --suite reruns). Default: REPORT-repros/ beside the first --report, else certify-repros/");
  cmd->add_option("--resume", args->resume, "JSON-lines file: results in it are kept, new ones appended as they come");
  cmd->add_option("--shard", args->shard, "Run shard K of N (K/N, 0-based); GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS also work");
  cmd->add_option("--filter", args->filter, "Only tests whose name matches this regular expression");
  cmd->add_option("--skips", args->skips, "Skip list (pattern and reason per line); none by default");
  cmd->add_flag("--no-fallback", args->no_fallback,
                "Do not run what the backend cannot on cpu (it counts as unsupported or errored)");
  cmd->add_option("--format", args->format, "Output on stdout: text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  cmd->add_option("--judge", args->judge,
                  "tolerance: the strict tolerances against the reference; enclosure: every float output element must lie in "
                  "its admissible enclosure (spec/accuracy.md), reported per output; a test whose model has none falls back; "
                  "bitwise: every output equal to the reference's, bit for bit (NaN equals NaN)")
      ->check(CLI::IsMember({"tolerance", "enclosure", "bitwise"}))
      ->capture_default_str();
  auto* loc = cmd->add_flag(
      "--localize", args->localize,
      "The default: for each failing test, run its model node by node on the backend (each node fed the "
      "backend's own values; a --backend-cmd runtime is given each one-node model as files) and name the first node whose output leaves its "
      "enclosure; only that node's operator is blamed (else a model's only operator)");
  cmd->add_flag("--no-localize", args->no_localize,
                "Do not localize failing tests: a failing test then blames only its model's only operator")
      ->excludes(loc);
  auto* dv =
      cmd->add_option("--devices", args->devices,
                      "Certify exactly this device set (comma-separated names from `sonnx devices`, or plugin paths) instead "
                      "of one backend; without cpu in the set nothing falls back");
  cmd->add_option("--plugin", args->plugins,
                  "A backend plugin (.so) to add to the devices; may be repeated (also SONNX_PLUGIN_PATH)");
  cmd->add_option("--assign", args->assign, "With --devices: first or profile (measured per test)")
      ->check(CLI::IsMember({"first", "profile"}))
      ->capture_default_str();
  cmd->callback([args, dv, &exit_code] {
    int targets = !args->backend.empty() + !args->backend_cmd.empty() + (dv->count() > 0);
    if (targets != 1) throw LoadError("give one of --backend NAME|PLUGIN.so, --backend-cmd CMD or --devices A,B");
    if (dv->count() && args->no_fallback)
      throw LoadError("--devices names the exact set (cpu in it or not): drop --no-fallback");
    if (dv->count() && split_commas(args->devices).empty())
      throw LoadError("the device set is empty: name at least one device (sonnx devices lists them)");
    if (args->persistent && args->backend_cmd.empty()) throw LoadError("--persistent needs --backend-cmd CMD");
    CertificationOptions opt;
    opt.backend = args->backend;
    opt.backend_command = args->backend_cmd;
    opt.persistent_command = args->persistent;
    opt.devices = split_commas(args->devices);
    opt.plugins = args->plugins;
    opt.assign = args->assign;
    opt.fallback = !args->no_fallback;
    opt.filter = args->filter;
    opt.judge = args->judge;
    opt.localize = !args->no_localize;
    opt.timeout_seconds = args->timeout;
    opt.shard = args->shard;
    opt.skips = args->skips;
    opt.resume = args->resume;
    opt.repro_dir = repro_dir_of(*args);
    opt.progress = isatty(STDERR_FILENO);
    std::vector<std::filesystem::path> roots(args->suites.begin(), args->suites.end());
    if (roots.empty()) roots.push_back(default_suite());
    Certificate report = certify(roots, opt);
    for (const auto& f : args->reports) report.write(f);
    auto s = [&](const char* k) { return report.summary[k]; };
    if (args->format == "json") {
      std::cout << report.json << "\n";
    } else {
      for (const auto& t : report.tests)
        if (t.status != "passed" && t.status != "skipped")
          std::cout << t.status << "  " << t.name << ": " << t.message
                    << (t.localized.empty() ? "" : "\n    localized: " + t.localized)
                    << (t.blame.empty() ? "" : "\n    blame: " + t.blame) << "\n    repro: " << t.repro << "\n"
                    << indented(t.explanation, "    ");
      std::cout << report.judge_statement;
      std::cout << "backend " << report.backend << ": " << s("total") << " tests, " << s("passed") << " passed, " << s("failed")
                << " failed, " << s("unsupported") << " unsupported, " << s("crashed") << " crashed, " << s("timeout")
                << " timeout, " << s("errored") << " errored, " << s("skipped") << " skipped, " << s("fallback")
                << " with fallback\n";
      std::cout << "operators: " << s("operators_certified") << " certified, " << s("operators_failed") << " failed, "
                << s("operators_inconclusive") << " inconclusive, " << s("operators_unsupported") << " unsupported; "
                << s("unattributed") << " failing tests blame no operator\n";
      std::cout << "verdict: " << report.verdict << "\n";
    }
    exit_code = report.verdict == "certified" ? 0 : 1;
  });
}

}  // namespace sonnx::cli
