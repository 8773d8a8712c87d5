// Dataflow: one ready step at a time, chosen by a pluggable ready-queue policy.
#pragma once
#include <memory>

#include "executor.h"

namespace sonnx {

class ReadyQueue {
 public:
  virtual ~ReadyQueue() = default;
  virtual void push(int step) = 0;
  virtual int pop() = 0;
  virtual bool empty() const = 0;
};
enum class ReadyPolicy { LowestIndex, Fifo, Lifo };
std::unique_ptr<ReadyQueue> make_ready_queue(ReadyPolicy policy);

class DataflowExecutor final : public OptimizedExecutor {
 public:
  DataflowExecutor(std::shared_ptr<const CompiledModel> model, ExecutorOptions options,
                   ReadyPolicy policy = ReadyPolicy::LowestIndex)
      : OptimizedExecutor(std::move(model), std::move(options)), policy_(policy) {}
  const char* name() const override { return "dataflow"; }

 protected:
  void execute_impl(Frame& frame) override;

 private:
  ReadyPolicy policy_;
};

}  // namespace sonnx
