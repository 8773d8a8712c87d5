// Runs a piece of work in a forked child so that a crash or a hang in it cannot take the caller
// down: the child's result (a string) comes back through a pipe.
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

}  // namespace sonnx
