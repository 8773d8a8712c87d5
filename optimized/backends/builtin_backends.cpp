// The built-in backends: `reference` runs a step with the reference interpreter; `cpu` compiles it
// for the Linear executor (fast kernels where one applies, reference kernels elsewhere). Both run
// every operator the reference has a kernel or a function body for, and control flow (If, Loop,
// Scan), whose bodies their kernels run.
#include "backend.h"

#include "optimized/exec/executor.h"
#include "reference/interp/inliner.h"
#include "reference/ops/registry.h"

namespace sonnx {

namespace {

bool reference_runs(const NodeQuery& q) {
  ResolvedOp r = resolve_op(q.model, q.node, q.opset);
  if (r.is_local_function || r.has_function_body) return true;
  return r.has_schema && OpRegistry::instance().find(canonical_domain(q.node.domain), q.node.op_type, r.version) != nullptr;
}

class InterpreterStep : public CompiledStep {
 public:
  explicit InterpreterStep(const Model& m) : model_(m) {}
  NamedValues execute(const NamedValues& inputs) override { return Interpreter(model_).run(inputs); }

 private:
  Model model_;
};

class LinearStep : public CompiledStep {
 public:
  explicit LinearStep(const Model& m)
      : compiled_(std::make_shared<const CompiledModel>(m, compile_options_for("linear", 1))),
        executor_(make_executor("linear", compiled_)) {}
  NamedValues execute(const NamedValues& inputs) override { return executor_->run(inputs); }

 private:
  std::shared_ptr<const CompiledModel> compiled_;
  std::unique_ptr<Executor> executor_;
};

class ReferenceBackend : public Backend {
 public:
  std::string name() const override { return "reference"; }
  std::string version() const override { return "sonnx 0.1.0"; }
  bool runs_everything() const override { return true; }
  bool supports(const NodeQuery& q) const override { return reference_runs(q); }
  std::unique_ptr<CompiledStep> prepare(const Model& m) const override { return std::make_unique<InterpreterStep>(m); }
};

class CpuBackend : public Backend {
 public:
  std::string name() const override { return "cpu"; }
  std::string version() const override { return "sonnx 0.1.0 (linear executor, oneDNN kernels)"; }
  bool runs_everything() const override { return true; }
  bool supports(const NodeQuery& q) const override { return reference_runs(q); }
  std::unique_ptr<CompiledStep> prepare(const Model& m) const override { return std::make_unique<LinearStep>(m); }
};

}  // namespace

std::shared_ptr<Backend> make_reference_backend() { return std::make_shared<ReferenceBackend>(); }
std::shared_ptr<Backend> make_cpu_backend() { return std::make_shared<CpuBackend>(); }

}  // namespace sonnx
