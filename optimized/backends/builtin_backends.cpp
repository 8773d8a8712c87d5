// The built-in backends: `reference` runs a step with the reference interpreter; `cpu` compiles it
// for the Linear executor (fast kernels where one applies, reference kernels elsewhere). Both run
// every operator the reference has a kernel or a function body for, and control flow (If, Loop,
// Scan), whose bodies their kernels run.
#include "backend.h"

#include "optimized/exec/make_executor.h"
#include "reference/ops/op_table.h"

namespace sonnx {

namespace {

// Why the interpreter has no way to run the node ("" when it has one).
std::string reference_why_not(const NodeQuery& q) {
  std::string why;
  if (runnable(resolve_op(q.model, q.node, q.opset), q.node, q.opset, why)) return "";
  return why.empty() ? "no kernel" : why;
}

bool reference_runs(const NodeQuery& q) { return reference_why_not(q).empty(); }

// A step run by an executor made by name: "reference" (the interpreter) or "linear" (cpu).
class ExecutorStep : public CompiledStep {
 public:
  ExecutorStep(const Model& m, const char* executor) : executor_(make_executor(m, executor)) {}
  NamedValues execute(const NamedValues& inputs) override { return executor_->run(inputs); }

 private:
  std::unique_ptr<Executor> executor_;
};

class ReferenceBackend : public Backend {
 public:
  std::string name() const override { return "reference"; }
  std::string version() const override { return "sonnx 0.1.0"; }
  bool runs_everything() const override { return true; }
  std::string type() const override { return "reference"; }
  bool supports(const NodeQuery& q) const override { return reference_runs(q); }
  std::string why_not(const NodeQuery& q) const override { return reference_why_not(q); }
  std::unique_ptr<CompiledStep> prepare(const Model& m) const override { return std::make_unique<ExecutorStep>(m, "reference"); }
};

class CpuBackend : public Backend {
 public:
  std::string name() const override { return "cpu"; }
  std::string version() const override { return "sonnx 0.1.0 (linear executor, oneDNN kernels)"; }
  bool runs_everything() const override { return true; }
  std::string type() const override { return "cpu"; }
  bool supports(const NodeQuery& q) const override { return reference_runs(q); }
  std::string why_not(const NodeQuery& q) const override { return reference_why_not(q); }
  std::unique_ptr<CompiledStep> prepare(const Model& m) const override { return std::make_unique<ExecutorStep>(m, "linear"); }
};

}  // namespace

std::shared_ptr<Backend> make_reference_backend() { return std::make_shared<ReferenceBackend>(); }
std::shared_ptr<Backend> make_cpu_backend() { return std::make_shared<CpuBackend>(); }

}  // namespace sonnx
