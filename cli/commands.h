// Each subcommand lives in its own file and registers itself on the app. A command's callback
// stores its exit code (0 ok, 1 the model/implementation failed the check, 2 usage or unreadable
// input) in `exit_code`.
#pragma once
#include <CLI/CLI.hpp>

namespace sonnx::cli {

void add_check_command(CLI::App& app, int& exit_code);
void add_run_command(CLI::App& app, int& exit_code);
void add_conform_command(CLI::App& app, int& exit_code);
void add_plan_command(CLI::App& app, int& exit_code);
void add_bench_command(CLI::App& app, int& exit_code);
void add_fuzz_command(CLI::App& app, int& exit_code);
void add_certify_command(CLI::App& app, int& exit_code);
void add_partition_command(CLI::App& app, int& exit_code);
void add_report_command(CLI::App& app, int& exit_code);
void add_ops_command(CLI::App& app, int& exit_code);
void add_enclose_command(CLI::App& app, int& exit_code);
void add_devices_command(CLI::App& app, int& exit_code);
void add_admit_command(CLI::App& app, int& exit_code);
void add_emit_c_command(CLI::App& app, int& exit_code);

}  // namespace sonnx::cli
