// The reference interpreter behind the Executor interface ("reference"): no compilation, no
// memory plan; every node runs its reference kernel or function body. Each run starts from the
// same random seed, as the optimized executors' runs do, so running twice gives the same outputs.
#pragma once
#include "executor.h"
#include "reference/interp/interpreter.h"

namespace sonnx {

class ReferenceExecutor final : public Executor {
 public:
  // Keeps its own copy of the model (the interpreter reads it while running).
  ReferenceExecutor(Model model, const ExecutorOptions& options) : model_(std::move(model)), seed_(options.seed) {}
  NamedValues run(const NamedValues& inputs) override { return Interpreter(model_, seed_).run(inputs); }
  const char* name() const override { return "reference"; }

 private:
  Model model_;
  uint64_t seed_;
};

}  // namespace sonnx
