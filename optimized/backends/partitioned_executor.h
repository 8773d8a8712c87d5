// Runs an ExecutionPlan (optimized/backends/partition.h): each step on its backend, compiled on first
// use for the element types it meets, values copied across step boundaries. A step whose backend
// fails to prepare or execute runs on the fallback backend (cpu) instead, and the event is kept
// for the report; when fallback is disallowed the failure propagates as BackendError. Steps run on
// the one ready-step scheduler (optimized/exec/ready_scheduler.h): in plan order, or, given a task
// launcher, as their inputs become ready, the calling thread taking one ready step and handing the
// others to the launcher, so steps on different devices overlap.
#pragma once
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backend.h"
#include "optimized/exec/executor.h"
#include "optimized/exec/ready_scheduler.h"
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
  // As run, with steps that can run beside the calling thread's given to `launch` as tasks. The
  // calling thread can finish alone: a task that starts after the run finds nothing and returns.
  NamedValues run(const NamedValues& inputs, const TaskLauncher& launch);
  const ExecutionPlan& plan() const { return plan_; }
  const std::vector<FallbackEvent>& fallbacks() const { return fallbacks_; }

 private:
  struct Prepared;
  NamedValues run_steps(const NamedValues& inputs, const TaskLauncher* launch);
  NamedValues bind(const NamedValues& inputs) const;
  NamedValues step_inputs(size_t k, const NamedValues& env) const;
  NamedValues outputs(const NamedValues& env) const;
  // Runs step k on its backend (preparing it for these inputs' types on first use), falling back
  // to cpu when allowed.
  NamedValues run_backend_step(size_t k, const NamedValues& in);
  ExecutionPlan plan_;
  std::vector<std::unique_ptr<Prepared>> prepared_;
  std::vector<FallbackEvent> fallbacks_;
  std::mutex fallbacks_mutex_;
  DependencyGraph dependencies_;  // step k waits for the steps that make what it reads
  ReadyScheduler scheduler_;
};

// A PartitionedExecutor as an Executor (a Session compiled for a device set): run runs the steps
// in plan order, run_launched gives steps that can overlap to the launcher.
class DeviceSetExecutor : public Executor {
 public:
  explicit DeviceSetExecutor(ExecutionPlan plan) : ex_(std::move(plan)) {}
  NamedValues run(const NamedValues& inputs) override { return ex_.run(inputs); }
  NamedValues run_launched(const NamedValues& inputs, const std::function<void(std::function<void()>)>& launch) override {
    return ex_.run(inputs, launch);
  }
  const char* name() const override { return "devices"; }
  const PartitionedExecutor& partitioned() const { return ex_; }

 private:
  PartitionedExecutor ex_;
};

}  // namespace sonnx
