// sonnx: validate, interpret and conformance-test ONNX models under the SONNX graph semantics.
#include <iostream>

#include "commands.h"
#include "sonnx/sonnx.hpp"

int main(int argc, char** argv) {
  CLI::App app{"sonnx: a reference interpreter, validator and conformance suite for ONNX models"};
  app.require_subcommand(1);
  // The data directory (profiles, skip and tolerance lists) too: which installation this is.
  app.set_version_flag("--version", std::string("sonnx ") + sonnx::version() + "\ndata: " + sonnx::data_directory().string());
  int exit_code = 0;
  sonnx::cli::add_check_command(app, exit_code);
  sonnx::cli::add_admit_command(app, exit_code);
  sonnx::cli::add_emit_c_command(app, exit_code);
  sonnx::cli::add_run_command(app, exit_code);
  sonnx::cli::add_conform_command(app, exit_code);
  sonnx::cli::add_plan_command(app, exit_code);
  sonnx::cli::add_bench_command(app, exit_code);
  sonnx::cli::add_fuzz_command(app, exit_code);
  sonnx::cli::add_certify_command(app, exit_code);
  sonnx::cli::add_partition_command(app, exit_code);
  sonnx::cli::add_report_command(app, exit_code);
  sonnx::cli::add_ops_command(app, exit_code);
  sonnx::cli::add_enclose_command(app, exit_code);
  sonnx::cli::add_devices_command(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;  // --help/--version exit 0; usage errors exit 2
  } catch (const sonnx::CheckFailed& e) {
    // The model was refused before running (run, conform's single models, plan, bench).
    std::cerr << "sonnx: " << e.what() << "; not executed (--no-check skips the check)\n";
    for (const auto& d : e.diagnostics()) std::cerr << "  " << sonnx::format_diagnostic(d) << "\n";
    return 1;
  } catch (const sonnx::LoadError& e) {
    std::cerr << "sonnx: " << e.what() << "\n";
    return 2;
  } catch (const sonnx::Unsupported& e) {
    std::cerr << "sonnx: unsupported: " << e.what() << "\n";
    return 1;
  } catch (const sonnx::Trap& e) {
    std::cerr << "sonnx: runtime error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "sonnx: internal error: " << e.what() << "\n";
    return 3;
  }
  return exit_code;
}
