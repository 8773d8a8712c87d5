// Runs a piece of work in a forked child so that a crash or a hang in it cannot take the caller
// down: the child's result (a string) comes back through a socket.
#pragma once
#include <functional>
#include <string>

namespace sonnx {

struct IsolatedResult {
  enum class Status { Ok, Crashed, Timeout } status = Status::Ok;
  std::string output;  // what the work returned (Ok)
  std::string detail;  // signal or exit status (Crashed)
};

// timeout_seconds <= 0 means no limit.
IsolatedResult run_isolated(const std::function<std::string()>& work, double timeout_seconds);

// Runs numbered work items one at a time in a forked child that lives across items. A crash or a
// hang costs the item in flight only: its child is gone, and the next item starts a new one. One
// fork per run instead of one per item matters under the sanitizers, where a fork copies the
// shadow memory's page tables (~0.15 s). Not thread-safe; the destructor ends the child.
class IsolatedWorker {
 public:
  explicit IsolatedWorker(std::function<std::string(size_t)> work) : work_(std::move(work)) {}
  ~IsolatedWorker();
  IsolatedWorker(const IsolatedWorker&) = delete;
  IsolatedWorker& operator=(const IsolatedWorker&) = delete;

  IsolatedResult run(size_t item, double timeout_seconds);

 private:
  bool start(IsolatedResult& r);
  void stop(bool kill_child, IsolatedResult* r);
  [[noreturn]] void serve(int fd);

  std::function<std::string(size_t)> work_;
  int pid_ = -1;
  int fd_ = -1;  // the parent's end of the socket pair
};

}  // namespace sonnx
