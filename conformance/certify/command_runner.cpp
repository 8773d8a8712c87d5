#include "command_runner.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

namespace sonnx {

namespace {

std::string tail_of(const std::filesystem::path& file, size_t max_bytes) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  if (s.size() > max_bytes) s = "..." + s.substr(s.size() - max_bytes);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

}  // namespace

CommandResult run_command(const std::string& command, const std::vector<std::string>& args, double timeout_seconds,
                          const std::filesystem::path& log) {
  CommandResult r;
  std::vector<std::string> argv_s = shell_argv(command, args);
  std::vector<char*> argv;
  for (auto& s : argv_s) argv.push_back(s.data());
  argv.push_back(nullptr);
  pid_t pid = fork();
  if (pid < 0) {
    r.output_tail = "fork failed";
    return r;
  }
  if (pid == 0) {
    setpgid(0, 0);
    int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      dup2(fd, STDOUT_FILENO);
      dup2(fd, STDERR_FILENO);
      close(fd);
    }
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) dup2(devnull, STDIN_FILENO);
    execv("/bin/sh", argv.data());
    _exit(127);
  }
  setpgid(pid, pid);  // also here, so the group exists before any kill below
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
  int status = 0;
  auto pause = std::chrono::milliseconds(1);
  while (true) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) break;
    if (timeout_seconds > 0 && std::chrono::steady_clock::now() >= deadline) {
      kill(-pid, SIGKILL);
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      r.status = CommandResult::Status::Timeout;
      r.output_tail = tail_of(log, 2000);
      return r;
    }
    std::this_thread::sleep_for(pause);
    if (pause < std::chrono::milliseconds(20)) pause *= 2;
  }
  kill(-pid, SIGKILL);  // helpers it left behind
  r = command_ended(status);
  r.output_tail = tail_of(log, 2000);
  return r;
}

std::vector<std::string> shell_argv(const std::string& command, const std::vector<std::string>& args) {
  std::vector<std::string> argv{"/bin/sh", "-c", command + " \"$@\"", "sonnx-backend"};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

CommandResult command_ended(int wait_status) {
  CommandResult r;
  if (WIFSIGNALED(wait_status)) {
    r.status = CommandResult::Status::Signaled;
    r.signal = WTERMSIG(wait_status);
    return r;
  }
  r.status = CommandResult::Status::Exited;
  r.exit_code = WEXITSTATUS(wait_status);
  if (r.exit_code > 128 && r.exit_code < 128 + 65) {
    r.status = CommandResult::Status::Signaled;
    r.signal = r.exit_code - 128;
  }
  return r;
}

std::string shell_quote(const std::string& s) {
  if (!s.empty() && s.find_first_of(" '\"$\\;&|<>()*?`") == std::string::npos) return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace sonnx
