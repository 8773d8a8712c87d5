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

// The argument vector of that shell: `/bin/sh -c 'COMMAND "$@"' sonnx-backend ARGS...`.
std::vector<std::string> shell_argv(const std::string& command, const std::vector<std::string>& args);

// How a command run through that shell ended, from its wait status (Exited or Signaled; the
// output tail left empty). sh reports a child killed by signal N as exit status 128+N: read as N.
CommandResult command_ended(int wait_status);

// `s` as one word of a shell command line (single-quoted when it holds anything special).
std::string shell_quote(const std::string& s);

}  // namespace sonnx
