// Runs an ExecutionPlan (optimized/backends/partition.h): each step on its backend, compiled on first
// use for the element types it meets, values copied across step boundaries. A step whose backend
// fails to prepare or execute runs on the fallback backend (cpu) instead, and the event is kept
// for the report; when fallback is disallowed the failure propagates as BackendError.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "backend.h"
#include "partition.h"

namespace sonnx {

struct FallbackEvent {
  size_t step = 0;
  std::string backend;  // the backend that failed
  std::string phase;    // "prepare" or "execute"
  std::string reason;
  std::vector<std::string> ops;  // the step's operators, now run by the fallback
};

class PartitionedExecutor {
 public:
  explicit PartitionedExecutor(ExecutionPlan plan);
  ~PartitionedExecutor();
  NamedValues run(const NamedValues& inputs);
  const ExecutionPlan& plan() const { return plan_; }
  const std::vector<FallbackEvent>& fallbacks() const { return fallbacks_; }

 private:
  struct Prepared;
  // Runs step k on its backend (preparing it for these inputs' types on first use), falling back
  // to cpu when allowed.
  NamedValues run_backend_step(size_t k, const NamedValues& in);
  ExecutionPlan plan_;
  std::vector<std::unique_ptr<Prepared>> prepared_;
  std::vector<FallbackEvent> fallbacks_;
};

}  // namespace sonnx
