// Dataflow: counts each step's unfinished predecessors at run time and runs one ready step at a
// time, chosen by the ready-queue policy (ONE's DataflowExecutor). Its memory plan is safe for any
// order the policy may produce.
// Relies on execution.mlw Dataflow.confluence: two complete dataflow executions end with the same environment (determinism).
// Relies on memory_plan.mlw Concurrent.concurrent_run_is_sequential: the concurrent conflict relation is sufficient: on a plan valid for it, every run respecting the dependencies gives every value (and every read) its sequential contents.
#include <deque>
#include <queue>

#include "dataflow_executor.h"

namespace sonnx {

namespace {

// Ready-queue policies: which ready step runs next.
class LowestIndexFirst : public ReadyQueue {  // the compiled order among ready steps
 public:
  void push(int i) override { q_.push(i); }
  int pop() override {
    int i = q_.top();
    q_.pop();
    return i;
  }
  bool empty() const override { return q_.empty(); }

 private:
  std::priority_queue<int, std::vector<int>, std::greater<>> q_;
};

class Fifo : public ReadyQueue {  // breadth first: the step that became ready first
 public:
  void push(int i) override { q_.push_back(i); }
  int pop() override {
    int i = q_.front();
    q_.pop_front();
    return i;
  }
  bool empty() const override { return q_.empty(); }

 private:
  std::deque<int> q_;
};

class Lifo : public ReadyQueue {  // depth first: the step that became ready last
 public:
  void push(int i) override { q_.push_back(i); }
  int pop() override {
    int i = q_.back();
    q_.pop_back();
    return i;
  }
  bool empty() const override { return q_.empty(); }

 private:
  std::vector<int> q_;
};

}  // namespace

std::unique_ptr<ReadyQueue> make_ready_queue(ReadyPolicy policy) {
  switch (policy) {
    case ReadyPolicy::Fifo: return std::make_unique<Fifo>();
    case ReadyPolicy::Lifo: return std::make_unique<Lifo>();
    case ReadyPolicy::LowestIndex: break;
  }
  return std::make_unique<LowestIndexFirst>();
}

void DataflowExecutor::execute_impl(Frame& frame) {
  const CompiledGraph& g = frame.cg;
  std::vector<int> waiting = g.num_predecessors();
  auto ready = make_ready_queue(policy_);
  for (size_t i = 0; i < waiting.size(); ++i)
    if (waiting[i] == 0) ready->push(static_cast<int>(i));
  while (!ready->empty()) {
    int i = ready->pop();
    run_step(frame, i);
    for (int s : g.successors()[static_cast<size_t>(i)])
      if (--waiting[static_cast<size_t>(s)] == 0) ready->push(s);
  }
}

}  // namespace sonnx
