// Runs a shell command line with extra arguments in its own process group, with a deadline: on
// timeout the whole group is killed, so a runtime that forks helpers cannot outlive its test.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace sonnx {

struct CommandResult {
  enum class Status { Exited, Signaled, Timeout, NotStarted } status = Status::NotStarted;
  int exit_code = -1;
  int signal = 0;
  std::string output_tail;  // the last lines of its stdout+stderr
};

// Runs `/bin/sh -c 'COMMAND "$@"' sonnx-backend ARGS...`; output goes to `log` (then its tail is read).
CommandResult run_command(const std::string& command, const std::vector<std::string>& args, double timeout_seconds,
                          const std::filesystem::path& log);

// `s` as one word of a shell command line (single-quoted when it holds anything special).
std::string shell_quote(const std::string& s);

}  // namespace sonnx
