#include "isolate.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>

namespace sonnx {

IsolatedResult run_isolated(const std::function<std::string()>& work, double timeout_seconds) {
  IsolatedResult r;
  int fds[2];
  if (pipe(fds) != 0) {
    r.status = IsolatedResult::Status::Crashed;
    r.detail = std::string("pipe failed: ") + std::strerror(errno);
    return r;
  }
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    r.status = IsolatedResult::Status::Crashed;
    r.detail = std::string("fork failed: ") + std::strerror(errno);
    return r;
  }
  if (pid == 0) {
    close(fds[0]);
    std::string out;
    try {
      out = work();
    } catch (...) {
      _exit(3);
    }
    const char* p = out.data();
    size_t left = out.size();
    while (left > 0) {
      ssize_t n = write(fds[1], p, left);
      if (n <= 0) _exit(4);
      p += n;
      left -= static_cast<size_t>(n);
    }
    close(fds[1]);
    _exit(0);  // skip static destructors and atexit handlers of the parent's state
  }
  close(fds[1]);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
  char buf[65536];
  bool timed_out = false;
  while (true) {
    int wait_ms = -1;
    if (timeout_seconds > 0) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
      if (left <= 0) {
        timed_out = true;
        break;
      }
      wait_ms = static_cast<int>(std::min<long long>(left, 1 << 30));
    }
    pollfd pfd{fds[0], POLLIN, 0};
    int pr = poll(&pfd, 1, wait_ms);
    if (pr < 0 && errno == EINTR) continue;
    if (pr == 0) {
      timed_out = true;
      break;
    }
    ssize_t n = read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    r.output.append(buf, static_cast<size_t>(n));
  }
  close(fds[0]);
  if (timed_out) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out) {
    r.status = IsolatedResult::Status::Timeout;
  } else if (WIFSIGNALED(status)) {
    r.status = IsolatedResult::Status::Crashed;
    r.detail = std::string("killed by signal ") + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
  } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
    r.status = IsolatedResult::Status::Crashed;
    r.detail = "exited with status " + std::to_string(WEXITSTATUS(status));
  }
  return r;
}

}  // namespace sonnx
