#include "persistent_runner.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <thread>
#include <vector>

#include "command_runner.h"

namespace sonnx {
namespace persistent_serve {  // named, not anonymous: the project is built as a unity build

using Clock = std::chrono::steady_clock;
using json = nlohmann::json;

constexpr size_t kMaxReplyLine = 256 << 10;  // a longer stdout line is garbage
constexpr size_t kLogTailBytes = 4000;
constexpr size_t kMaxMessageBytes = 8000;  // of a reason or message carried back to the caller
// Broker messages stay below this: paths, and a reason and a log tail of a few KB each, even with
// every byte escaped by JSON (6 bytes); also below the socket's send buffer (~200 KB by default).
constexpr size_t kSocketBuffer = 256 << 10;
constexpr double kExitGraceSeconds = 2;     // for a runtime to exit once its stdin is closed
constexpr double kCloseGraceSeconds = 1;    // for a runtime that closed its stdout to exit
constexpr double kUnboundedHandshake = 60;  // the handshake's limit when requests have none

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", s);
  return buf;
}

std::string clipped(const std::string& s, size_t max) { return s.size() > max ? s.substr(0, max) + "..." : s; }

struct Deadline {
  bool bounded = false;
  Clock::time_point at{};
  static Deadline after(double seconds) {
    Deadline d;
    if (seconds > 0) {
      d.bounded = true;
      d.at = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    }
    return d;
  }
  bool passed() const { return bounded && Clock::now() >= at; }
  // For poll(): -1 when unbounded, else the milliseconds left (rounded up), at most `cap` when cap >= 0.
  int poll_ms(int cap = -1) const {
    long long ms = -1;
    if (bounded) {
      auto left = std::chrono::duration_cast<std::chrono::microseconds>(at - Clock::now()).count();
      ms = left <= 0 ? 0 : (left + 999) / 1000;
    }
    if (cap >= 0 && (ms < 0 || ms > cap)) ms = cap;
    return static_cast<int>(std::min<long long>(ms, 1 << 30));
  }
};

void close_fd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

// The runtime process as the broker sees it: stdin, stdout and stderr on pipes, its own process
// group, what it prints besides replies kept as a bounded tail.
class ServedProcess {
 public:
  explicit ServedProcess(std::string command) : command_(std::move(command)) {}
  ~ServedProcess() { kill_now(); }
  ServedProcess(const ServedProcess&) = delete;
  ServedProcess& operator=(const ServedProcess&) = delete;

  bool running() const { return pid_ > 0; }
  const std::string& log() const { return log_; }
  void clear_log() { log_.clear(); }
  void note(const std::string& s) { append_log(s.data(), s.size()); }

  // Starts `/bin/sh -c 'COMMAND "$@"' sonnx-backend --serve`.
  bool start(std::string& error) {
    int in[2], out[2], err[2];
    if (pipe2(in, O_CLOEXEC) != 0) return failed("pipe", error);
    if (pipe2(out, O_CLOEXEC) != 0) {
      close(in[0]), close(in[1]);
      return failed("pipe", error);
    }
    if (pipe2(err, O_CLOEXEC) != 0) {
      close(in[0]), close(in[1]), close(out[0]), close(out[1]);
      return failed("pipe", error);
    }
    std::vector<std::string> argv_s = shell_argv(command_, {"--serve"});
    std::vector<char*> argv;
    for (auto& s : argv_s) argv.push_back(s.data());
    argv.push_back(nullptr);
    pid_t pid = fork();
    if (pid == 0) {
      // Only async-signal-safe calls until exec. dup2 clears close-on-exec on the copies; the
      // pipes' ends are at fds >= 3 (the broker keeps 0-2 open), so no copy lands on itself.
      setpgid(0, 0);
      dup2(in[0], STDIN_FILENO);
      dup2(out[1], STDOUT_FILENO);
      dup2(err[1], STDERR_FILENO);
      signal(SIGPIPE, SIG_DFL);  // the broker ignores these; ignored dispositions survive exec
      signal(SIGINT, SIG_DFL);
      sigset_t none;
      sigemptyset(&none);
      sigprocmask(SIG_SETMASK, &none, nullptr);
      execv("/bin/sh", argv.data());
      _exit(127);
    }
    close(in[0]), close(out[1]), close(err[1]);
    if (pid < 0) {
      close(in[1]), close(out[0]), close(err[0]);
      return failed("fork", error);
    }
    setpgid(pid, pid);  // also here, so the group exists before any kill
    pid_ = pid;
    in_ = in[1], out_ = out[0], err_ = err[0];
    for (int fd : {in_, out_, err_}) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    stdout_buffer_.clear();
    return true;
  }

  enum class Read { Line, Timeout, Closed, TooLong };
  // The next stdout line that starts with '{' (a reply, or the handshake); other lines are logged.
  Read read_reply_line(std::string& line, const Deadline& deadline) {
    for (;;) {
      size_t newline;
      while ((newline = stdout_buffer_.find('\n')) != std::string::npos) {
        std::string l = stdout_buffer_.substr(0, newline);
        stdout_buffer_.erase(0, newline + 1);
        if (!l.empty() && l.back() == '\r') l.pop_back();
        size_t first = l.find_first_not_of(" \t");
        if (first != std::string::npos && l[first] == '{') {
          line = std::move(l);
          return Read::Line;
        }
        l += '\n';
        append_log(l.data(), l.size());
      }
      if (stdout_buffer_.size() > kMaxReplyLine) return Read::TooLong;
      if (out_ < 0) return Read::Closed;
      if (deadline.passed()) return Read::Timeout;
      pump(deadline.poll_ms(), false);
    }
  }

  enum class Write { Done, Timeout, Closed };
  Write write_line(const std::string& line, const Deadline& deadline) {
    size_t done = 0;
    while (done < line.size()) {
      if (in_ < 0) return Write::Closed;
      ssize_t n = write(in_, line.data() + done, line.size() - done);
      if (n > 0) {
        done += static_cast<size_t>(n);
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        if (deadline.passed()) return Write::Timeout;
        pump(deadline.poll_ms(), true);  // its output is drained meanwhile, so it cannot block on it
        continue;
      }
      return Write::Closed;  // EPIPE (SIGPIPE is ignored in the broker)
    }
    return Write::Done;
  }

  // Whether the runtime has ended since its last reply (before a request is sent to it).
  bool ended_meanwhile(int& wait_status) {
    pid_t w = waitpid(pid_, &wait_status, WNOHANG);
    if (w != pid_) return false;
    reaped_ = true;
    return true;
  }

  // After its stdout closed (or its stdin refused a write): how the runtime ended. It gets a
  // moment to exit (the rest of its stderr read meanwhile); then its group is killed and it is
  // reaped. `killed`: it had not exited by itself.
  CommandResult reap_after_close(bool& killed, int already_reaped_status = 0) {
    int status = already_reaped_status;
    Deadline grace = Deadline::after(kCloseGraceSeconds);
    for (;;) {
      if (!reaped_ && waitpid(pid_, &status, WNOHANG) == pid_) reaped_ = true;
      if ((reaped_ && err_ < 0) || grace.passed()) break;
      if (out_ >= 0 || err_ >= 0) pump(grace.poll_ms(10), false);
      else std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    killed = !reaped_;
    finish(status);
    return command_ended(status);
  }

  // Kills its process group now and reaps it.
  void kill_now() {
    if (pid_ <= 0) return;
    int status = 0;
    finish(status);
  }

  // The clean end: stdin closed, a grace period to exit (its output drained meanwhile), then its group killed.
  void shutdown() {
    if (pid_ <= 0) return;
    close_fd(in_);
    int status = 0;
    Deadline grace = Deadline::after(kExitGraceSeconds);
    while (!grace.passed()) {
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        reaped_ = true;
        break;
      }
      if (out_ >= 0 || err_ >= 0) pump(grace.poll_ms(10), false);
      else std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    finish(status);
  }

 private:
  static bool failed(const char* what, std::string& error) {
    error = std::string(what) + " failed: " + std::strerror(errno);
    return false;
  }

  void append_log(const char* p, size_t n) {
    log_.append(p, n);
    if (log_.size() > 2 * kLogTailBytes) log_.erase(0, log_.size() - kLogTailBytes);
  }

  // One poll: stderr into the log, stdout into its buffer, ends of file noted. True when stdin
  // can take bytes (only asked with `want_write`).
  bool pump(int timeout_ms, bool want_write) {
    pollfd fds[3];
    int n = 0, io = -1, ie = -1, iw = -1;
    if (out_ >= 0) io = n, fds[n++] = {out_, POLLIN, 0};
    if (err_ >= 0) ie = n, fds[n++] = {err_, POLLIN, 0};
    if (want_write && in_ >= 0) iw = n, fds[n++] = {in_, POLLOUT, 0};
    if (n == 0) return false;
    if (poll(fds, static_cast<nfds_t>(n), timeout_ms) <= 0) return false;  // timeout or EINTR: the caller looks again
    char buf[16384];
    if (io >= 0 && fds[io].revents != 0) {
      ssize_t k = read(out_, buf, sizeof buf);
      if (k > 0) stdout_buffer_.append(buf, static_cast<size_t>(k));
      else if (k == 0 || (errno != EINTR && errno != EAGAIN)) close_fd(out_);
    }
    if (ie >= 0 && fds[ie].revents != 0) {
      ssize_t k = read(err_, buf, sizeof buf);
      if (k > 0) append_log(buf, static_cast<size_t>(k));
      else if (k == 0 || (errno != EINTR && errno != EAGAIN)) close_fd(err_);
    }
    return iw >= 0 && fds[iw].revents != 0;
  }

  // Kills the group (helpers it left behind too), reaps the leader if still needed, closes the pipes.
  void finish(int& status) {
    kill(-pid_, SIGKILL);
    if (!reaped_)
      while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
    for (int* fd : {&in_, &out_, &err_}) close_fd(*fd);
    stdout_buffer_.clear();
    pid_ = -1;
    reaped_ = false;
  }

  std::string command_;
  pid_t pid_ = -1;
  bool reaped_ = false;
  int in_ = -1, out_ = -1, err_ = -1;
  std::string stdout_buffer_;
  std::string log_;
};

// The broker's side: one message in (hello, run, quit), one message out, until quit or until
// every holder of the other end has closed it.
class Broker {
 public:
  Broker(int socket, const std::string& command, double timeout)
      : socket_(socket), process_(command), timeout_(timeout), handshake_timeout_(timeout > 0 ? timeout : kUnboundedHandshake) {}

  [[noreturn]] void serve() {
    signal(SIGPIPE, SIG_IGN);  // a runtime gone while we write to it is an EPIPE, not our death
    signal(SIGINT, SIG_IGN);   // on ^C the owner dies, its socket end closes, and we stop the runtime
    // 0-2 stay open (on /dev/null where they were closed), so that the runtime's pipes never land on them.
    for (int fd = 0; fd <= 2; ++fd)
      if (fcntl(fd, F_GETFD) < 0) open("/dev/null", O_RDWR);
    std::string buf(kSocketBuffer, '\0');
    for (;;) {
      ssize_t n = recv(socket_, buf.data(), buf.size(), 0);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      json message = json::parse(buf.begin(), buf.begin() + n, nullptr, false);
      if (!message.is_object() || !message.contains("op") || !message["op"].is_string()) continue;
      std::string op = message["op"];
      if (op == "quit") break;
      json answer;
      try {
        answer = op == "hello" ? hello() : op == "run" ? run(message) : json{{"status", "broken"}, {"message", "unknown op"}};
      } catch (const std::exception& e) {  // the caller gets an answer whatever happens here
        process_.kill_now();               // and the next request a runtime in a known state
        answer = {{"status", "broken"}, {"message", std::string("the runtime's broker failed: ") + e.what()}};
      }
      answer["id"] = message.contains("id") ? message["id"] : json();
      const std::string& log = process_.log();
      answer["log"] = log.size() > kLogTailBytes ? log.substr(log.size() - kLogTailBytes) : log;
      std::string out = answer.dump(-1, ' ', false, json::error_handler_t::replace);
      while (send(socket_, out.data(), out.size(), MSG_NOSIGNAL) < 0 && errno == EINTR) {
      }
    }
    process_.shutdown();
    _exit(0);  // not the owner's atexit handlers and static destructors
  }

 private:
  json hello() {
    process_.clear_log();
    json answer;
    if (ensure_started(answer)) answer = {{"status", "ok"}, {"name", name_}, {"version", version_}};
    return answer;
  }

  // A running runtime that has made its handshake, started now if there is none; else `answer`
  // says why not (no_handshake).
  bool ensure_started(json& answer) {
    int status = 0;
    if (process_.running() && process_.ended_meanwhile(status)) {
      bool killed = false;
      CommandResult end = process_.reap_after_close(killed, status);
      process_.note("sonnx: the runtime had ended after its last reply (" + ended_text(end, killed) + "); started again\n");
    }
    if (process_.running()) return true;
    std::string error;
    if (!process_.start(error)) {
      answer = {{"status", "no_handshake"}, {"message", "cannot start it: " + error}};
      return false;
    }
    std::string line, why;
    switch (process_.read_reply_line(line, Deadline::after(handshake_timeout_))) {
      case ServedProcess::Read::Line: {
        json h = json::parse(line, nullptr, false);
        if (h.is_object() && h.contains("sonnx_protocol")) {
          if (h["sonnx_protocol"] == 1) {
            name_ = h.contains("name") && h["name"].is_string() ? h["name"].get<std::string>() : "";
            version_ = h.contains("version") && h["version"].is_string() ? h["version"].get<std::string>() : "";
            return true;
          }
          why = "its handshake names protocol version " + h["sonnx_protocol"].dump() + "; sonnx speaks version 1";
        } else {
          why = "its first line is not a handshake: " + clipped(line, 200);
        }
        process_.kill_now();
        break;
      }
      case ServedProcess::Read::Timeout:
        why = "no handshake within " + seconds_text(handshake_timeout_) + " s";
        process_.kill_now();
        break;
      case ServedProcess::Read::TooLong:
        why = "its first line is longer than " + std::to_string(kMaxReplyLine) + " bytes";
        process_.kill_now();
        break;
      case ServedProcess::Read::Closed: {
        bool killed = false;
        CommandResult end = process_.reap_after_close(killed);
        why = ended_text(end, killed) + " before its handshake";
        break;
      }
    }
    answer = {{"status", "no_handshake"}, {"message", why}};
    return false;
  }

  json run(const json& message) {
    process_.clear_log();
    json answer;
    if (!ensure_started(answer)) return answer;
    json request = {{"id", ++requests_},
                    {"model", message.value("model", "")},
                    {"inputs", message.value("inputs", "")},
                    {"outputs", message.value("outputs", "")}};
    Deadline deadline = Deadline::after(timeout_);
    switch (process_.write_line(request.dump() + "\n", deadline)) {
      case ServedProcess::Write::Done: break;
      case ServedProcess::Write::Timeout: return timed_out();
      case ServedProcess::Write::Closed: return ended();
    }
    std::string line;
    switch (process_.read_reply_line(line, deadline)) {
      case ServedProcess::Read::Line: return judge_reply(line);
      case ServedProcess::Read::Timeout: return timed_out();
      case ServedProcess::Read::Closed: return ended();
      case ServedProcess::Read::TooLong:
        process_.kill_now();
        return {{"status", "garbage"}, {"message", "a reply line longer than " + std::to_string(kMaxReplyLine) + " bytes"}};
    }
    return {{"status", "broken"}, {"message", "unreachable"}};
  }

  json judge_reply(const std::string& line) {
    json reply = json::parse(line, nullptr, false);
    std::string why;
    if (!reply.is_object()) why = "the reply line is not a JSON object: ";
    else if (!reply.contains("id") || reply["id"] != requests_)
      why = "the reply line does not answer request " + std::to_string(requests_) + ": ";
    else if (!reply.contains("status") || !reply["status"].is_string()) why = "the reply line has no status: ";
    if (why.empty()) {
      std::string status = reply["status"];
      auto text = [&](const char* key) {
        return reply.contains(key) && reply[key].is_string() ? clipped(reply[key].get<std::string>(), kMaxMessageBytes) : "";
      };
      if (status == "ok") return {{"status", "ok"}};
      if (status == "unsupported") return {{"status", "unsupported"}, {"message", text("reason")}};
      if (status == "error") return {{"status", "error"}, {"message", text("message")}};
      why = "the reply line's status is none of ok, unsupported, error: ";
    }
    process_.kill_now();  // out of step with us: a new runtime serves the next request
    return {{"status", "garbage"}, {"message", why + clipped(line, 200)}};
  }

  json timed_out() {
    process_.kill_now();
    return {{"status", "timeout"}, {"message", "no reply within " + seconds_text(timeout_) + " s"}};
  }

  json ended() {
    bool killed = false;
    CommandResult end = process_.reap_after_close(killed);
    if (!killed && end.status == CommandResult::Status::Signaled)
      return {{"status", "crashed"}, {"signal", end.signal}, {"message", ended_text(end, killed)}};
    return {{"status", "exited"}, {"exit_code", killed ? -1 : end.exit_code}, {"message", ended_text(end, killed)}};
  }

  static std::string ended_text(const CommandResult& end, bool killed) {
    if (killed) return "it closed its stdout but did not exit";
    if (end.status == CommandResult::Status::Signaled)
      return "it was killed by signal " + std::to_string(end.signal) + " (" + strsignal(end.signal) + ")";
    return "it exited with status " + std::to_string(end.exit_code);
  }

  int socket_;
  ServedProcess process_;
  double timeout_, handshake_timeout_;
  unsigned long long requests_ = 0;
  std::string name_, version_;
};

ServeOutcome::Status status_named(const std::string& s) {
  using S = ServeOutcome::Status;
  if (s == "ok") return S::Ok;
  if (s == "unsupported") return S::Unsupported;
  if (s == "error") return S::Error;
  if (s == "timeout") return S::Timeout;
  if (s == "crashed") return S::Crashed;
  if (s == "exited") return S::Exited;
  if (s == "garbage") return S::Garbage;
  if (s == "no_handshake") return S::NoHandshake;
  return S::Broken;
}

// One message to the broker and its answer (answers to requests of processes gone before they
// read them are recognised by their id and dropped). Bounded when the runner's requests are.
json ask_broker(int socket, json message, unsigned long long id, double limit_seconds) {
  message["id"] = id;
  std::string out = message.dump();
  while (send(socket, out.data(), out.size(), MSG_NOSIGNAL) < 0) {
    if (errno == EINTR) continue;
    return {{"status", "broken"}, {"message", std::string("the runtime's broker process is gone: ") + std::strerror(errno)}};
  }
  auto limit = Deadline::after(limit_seconds);
  std::string buf(kSocketBuffer, '\0');
  for (;;) {
    pollfd p{socket, POLLIN, 0};
    int ready = poll(&p, 1, limit.poll_ms());
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0)
      return {{"status", "broken"},
              {"message", "no answer from the runtime's broker process within " + seconds_text(limit_seconds) + " s"}};
    ssize_t n = recv(socket, buf.data(), buf.size(), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return {{"status", "broken"}, {"message", "the runtime's broker process is gone"}};
    json answer = json::parse(buf.begin(), buf.begin() + n, nullptr, false);
    if (answer.is_object() && answer.value("id", json()) == id) return answer;
  }
}

}  // namespace persistent_serve

PersistentRunner::PersistentRunner(const std::string& command, double timeout_seconds) {
  timeout_ = timeout_seconds;
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
    throw std::runtime_error(std::string("socketpair failed: ") + std::strerror(errno));
  pid_t pid = fork();
  if (pid < 0) {
    close(sv[0]), close(sv[1]);
    throw std::runtime_error(std::string("fork failed: ") + std::strerror(errno));
  }
  if (pid == 0) {
    close(sv[0]);
    persistent_serve::Broker(sv[1], command, timeout_seconds).serve();
  }
  close(sv[1]);
  socket_ = sv[0];
  broker_ = pid;
  owner_ = getpid();
  nlohmann::json hello = persistent_serve::ask_broker(socket_, {{"op", "hello"}}, next_id(), answer_limit());
  if (hello.value("status", "") != "ok") {
    std::string why = hello.value("message", "no answer");
    std::string log = hello.value("log", "");
    bool broken = hello.value("status", "") == "broken";
    stop();
    if (broken) throw std::runtime_error(why);
    throw NoHandshakeError(why, log);
  }
  name_ = hello.value("name", "");
  version_ = hello.value("version", "");
}

PersistentRunner::~PersistentRunner() { stop(); }

void PersistentRunner::stop() {
  if (socket_ < 0) return;
  if (getpid() == owner_) {  // a forked copy of the runner must not end the owner's broker
    std::string quit = nlohmann::json{{"op", "quit"}}.dump();
    send(socket_, quit.data(), quit.size(), MSG_NOSIGNAL);
  }
  close(socket_);
  socket_ = -1;
  if (getpid() == owner_)
    while (waitpid(broker_, nullptr, 0) < 0 && errno == EINTR) {
    }
  broker_ = -1;
}

unsigned long long PersistentRunner::next_id() {
  // Unique across the processes forked from the owner: each counts from the same value.
  return (static_cast<unsigned long long>(getpid()) << 32) | ++counter_;
}

double PersistentRunner::answer_limit() const {
  // The broker answers within a handshake, a request and the grace periods; this bound only
  // catches a broker that is stuck. None when requests have none.
  return timeout_ > 0 ? 2 * timeout_ + persistent_serve::kExitGraceSeconds + 30 : 0;
}

ServeOutcome PersistentRunner::run(const std::string& model, const std::string& input_dir, const std::string& output_dir) {
  std::lock_guard<std::mutex> lock(mutex_);
  ServeOutcome out;
  nlohmann::json answer;
  try {
    answer = persistent_serve::ask_broker(socket_,
                                          {{"op", "run"}, {"model", model}, {"inputs", input_dir}, {"outputs", output_dir}},
                                          next_id(), answer_limit());
  } catch (const nlohmann::json::exception&) {
    out.status = ServeOutcome::Status::Error;
    out.message = "a path is not valid UTF-8 (the persistent protocol carries paths as JSON strings)";
    return out;
  }
  out.status = persistent_serve::status_named(answer.value("status", ""));
  out.message = answer.value("message", "");
  out.log = answer.value("log", "");
  out.exit_code = answer.value("exit_code", 0);
  out.signal = answer.value("signal", 0);
  return out;
}

}  // namespace sonnx
