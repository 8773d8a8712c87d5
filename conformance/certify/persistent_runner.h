// A runtime served persistently (docs/backends.md, "Persistent protocol"): started once as
// `CMD --serve`, it announces itself with a handshake line on stdout and then answers one JSON line
// per request line on its stdin. A request without a reply within the timeout, a reply that is not
// one, or the runtime dying costs that request only: the runtime's process group is killed and a
// new one is started for the next request.
//
// The runtime is owned by a small broker process forked when the runner is made. `sonnx certify`
// runs each test in a forked child (conformance/isolate.h), which cannot keep a process it starts,
// nor reap it; the broker outlives those children, starts, restarts and reaps the runtime, and
// every process forked from the runner's owner reaches it through one inherited socket (one
// message per request and per answer, so an interrupted caller cannot tear the stream).
#pragma once
#include <mutex>
#include <stdexcept>
#include <string>

namespace sonnx {

struct ServeOutcome {
  // Ok, Unsupported and Error are the runtime's replies; Timeout (no reply in time), Crashed (it
  // died of a signal), Exited (it ended, or closed its stdout, without replying), Garbage (a reply
  // line that is not a reply to this request) and NoHandshake (a new runtime did not announce
  // itself) are the runner's findings; Broken: the broker itself is gone.
  enum class Status { Ok, Unsupported, Error, Timeout, Crashed, Exited, Garbage, NoHandshake, Broken };
  Status status = Status::Broken;
  std::string message;  // the runtime's reason or message, or what went wrong
  std::string log;      // the tail of what the runtime printed besides its replies (stderr first of all)
  int exit_code = 0;    // Exited
  int signal = 0;       // Crashed
};

// No handshake from a new runtime: `what()` says why (no line in time, it exited, another line
// came first), `log` is what it printed meanwhile.
struct NoHandshakeError : std::runtime_error {
  NoHandshakeError(const std::string& why, std::string printed) : std::runtime_error(why), log(std::move(printed)) {}
  std::string log;
};

class PersistentRunner {
 public:
  // Forks the broker, which starts `/bin/sh -c 'COMMAND "$@"' sonnx-backend --serve` and waits for
  // its handshake (within timeout_seconds, or 60 s when that is 0). Throws NoHandshakeError when
  // none comes (the command does not speak the protocol), std::runtime_error when nothing can be started.
  PersistentRunner(const std::string& command, double timeout_seconds);
  // Asks the broker to stop the runtime (stdin closed, a short grace, then its group killed) and reaps it.
  ~PersistentRunner();
  PersistentRunner(const PersistentRunner&) = delete;
  PersistentRunner& operator=(const PersistentRunner&) = delete;

  // From the handshake: the runtime's own name and version (empty when it gave none).
  const std::string& runtime_name() const { return name_; }
  const std::string& runtime_version() const { return version_; }

  // One request: run MODEL on INPUT_DIR/input_K.pb, writing OUTPUT_DIR/output_K.pb. Safe to call from
  // a process forked after the runner was made; calls are serialised.
  ServeOutcome run(const std::string& model, const std::string& input_dir, const std::string& output_dir);

 private:
  void stop();
  unsigned long long next_id();
  double answer_limit() const;

  std::mutex mutex_;
  double timeout_ = 0;
  int socket_ = -1;  // this side of the broker's socket pair
  int broker_ = -1;  // its pid
  int owner_ = -1;   // the pid of the process that made the runner (forked copies share the socket)
  unsigned counter_ = 0;
  std::string name_, version_;
};

}  // namespace sonnx
