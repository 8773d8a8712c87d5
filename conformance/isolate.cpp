#include "isolate.h"

#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>

namespace sonnx {
namespace {

bool write_all(int fd, const void* data, size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    // MSG_NOSIGNAL: a child that died must not take the parent down with SIGPIPE.
    ssize_t n = send(fd, p, size, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

// Reads exactly size bytes before the deadline (none when timeout_seconds <= 0).
enum class ReadStatus { Ok, Closed, Timeout };
ReadStatus read_all(int fd, void* data, size_t size, std::chrono::steady_clock::time_point deadline, bool bounded) {
  char* p = static_cast<char*>(data);
  while (size > 0) {
    int wait_ms = -1;
    if (bounded) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
      if (left <= 0) return ReadStatus::Timeout;
      wait_ms = static_cast<int>(std::min<long long>(left, 1 << 30));
    }
    pollfd pfd{fd, POLLIN, 0};
    int pr = poll(&pfd, 1, wait_ms);
    if (pr < 0 && errno == EINTR) continue;
    if (pr == 0) return ReadStatus::Timeout;
    ssize_t n = read(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return ReadStatus::Closed;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return ReadStatus::Ok;
}

std::string exit_detail(int status) {
  if (WIFSIGNALED(status))
    return "killed by signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  return "ended";
}

}  // namespace

IsolatedWorker::~IsolatedWorker() { stop(false, nullptr); }

void IsolatedWorker::serve(int fd) {
  uint64_t item = 0;
  // The parent closing its end (EOF) ends the child.
  while (read_all(fd, &item, sizeof item, {}, false) == ReadStatus::Ok) {
    std::string out;
    try {
      out = work_(static_cast<size_t>(item));
    } catch (...) {
      _exit(3);
    }
    uint64_t size = out.size();
    if (!write_all(fd, &size, sizeof size) || !write_all(fd, out.data(), out.size())) _exit(4);
  }
  _exit(0);  // skip static destructors and atexit handlers of the parent's state
}

bool IsolatedWorker::start(IsolatedResult& r) {
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
    r.status = IsolatedResult::Status::Crashed;
    r.detail = std::string("socketpair failed: ") + std::strerror(errno);
    return false;
  }
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    r.status = IsolatedResult::Status::Crashed;
    r.detail = std::string("fork failed: ") + std::strerror(errno);
    return false;
  }
  if (pid == 0) {
    close(fds[0]);
    serve(fds[1]);
  }
  close(fds[1]);
  pid_ = pid;
  fd_ = fds[0];
  return true;
}

void IsolatedWorker::stop(bool kill_child, IsolatedResult* r) {
  if (pid_ < 0) return;
  close(fd_);  // a live child reads EOF and exits
  if (kill_child) kill(pid_, SIGKILL);
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  if (r) r->detail = exit_detail(status);
  pid_ = -1;
  fd_ = -1;
}

IsolatedResult IsolatedWorker::run(size_t item, double timeout_seconds) {
  IsolatedResult r;
  if (pid_ < 0 && !start(r)) return r;
  bool bounded = timeout_seconds > 0;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                         std::chrono::duration<double>(bounded ? timeout_seconds : 0));
  uint64_t id = item, size = 0;
  ReadStatus got = write_all(fd_, &id, sizeof id) ? read_all(fd_, &size, sizeof size, deadline, bounded) : ReadStatus::Closed;
  if (got == ReadStatus::Ok) {
    r.output.resize(static_cast<size_t>(size));
    got = read_all(fd_, r.output.data(), r.output.size(), deadline, bounded);
  }
  if (got == ReadStatus::Ok) return r;
  r.output.clear();
  r.status = got == ReadStatus::Timeout ? IsolatedResult::Status::Timeout : IsolatedResult::Status::Crashed;
  stop(got == ReadStatus::Timeout, &r);
  return r;
}

IsolatedResult run_isolated(const std::function<std::string()>& work, double timeout_seconds) {
  IsolatedWorker worker([&](size_t) { return work(); });
  return worker.run(0, timeout_seconds);
}

}  // namespace sonnx
