// The state of one graph execution in an optimized executor: the current value of every slot,
// where produced tensors live (the arena at the planned offset, or the heap), and how many readers
// each value still has (a value is dropped after its last reader).
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "optimized/plan/compiled_graph.h"
#include "optimized/plan/memory_plan.h"

namespace sonnx {

class Interpreter;
struct Frame;

// Watches the steps of a run from outside it: which kernel ran each step, how long it took
// (profiling), a planted fault (tests). Told after each step, on the thread that ran it; distinct
// steps may be told at the same time.
class StepObserver {
 public:
  virtual ~StepObserver() = default;
  // `ran`: the fast kernel that ran the step (null: a reference kernel or a function body; a
  // kernel named "folded": outputs taken from the plan); `seconds`: its wall-clock time when the
  // frame's `timed` is set, else 0.
  virtual void step_done(Frame& f, int step, const FastKernel* ran, double seconds) = 0;
};

struct Frame {
  Frame(const CompiledGraph& graph, const Frame* parent, uint64_t seed);

  const CompiledGraph& cg;
  const Frame* parent;
  uint64_t seed;                           // per-step random streams derive from it
  std::vector<Value> own;                  // values produced in this frame
  std::vector<const Value*> at;            // each slot's value: own, an input, a constant or an outer value
  std::vector<FastKernel::Layout> layout;  // per slot: the blocked layout of its bytes (null: plain)
  std::vector<Tensor> storage;             // per slot: the buffer of a blocked tensor off the arena
  std::unique_ptr<std::atomic<int>[]> readers_left;
  std::byte* arena = nullptr;  // with `plan`: planned tensors are views into it
  const MemoryPlan* plan = nullptr;
  std::vector<int64_t>* measure = nullptr;  // when set: record each produced tensor's bytes (-1 otherwise)
  // When set (the planning run): per step, the record of each small foldable step (Step::foldable).
  std::vector<std::shared_ptr<const FoldedStep>>* fold_record = nullptr;
  Interpreter* fallback = nullptr;            // runs nodes without a kernel (context-dependent function bodies)
  StepObserver* observer = nullptr;           // told about each step of this frame
  bool timed = false;                         // the observer wants each step's time
  StepObserver* subgraph_observer = nullptr;  // the observer of frames nested in this one

  const Value* lookup(const std::string& name) const;  // by name, through the enclosing frames
  // Binds inputs (positional; Kind::None = absent), constants and outer values.
  void bind(const std::vector<const Value*>& inputs);
};

// Runs step i of the frame: gathers its inputs, runs the fast or the reference kernel, stores its
// outputs (into the arena when planned and large enough), then drops values whose last reader it
// was. Thread-safe for distinct steps of one frame whose dependencies are done. `fast`, when set,
// replaces the step's own fast kernel (the same node prepared for another thread count).
void run_step(Frame& frame, int i, const FastKernel* fast = nullptr);

// Runs a compiled subgraph to completion in schedule order (If/Loop/Scan bodies; no arena).
std::vector<Value> run_nested(const CompiledGraph& g, const Frame& parent, const std::vector<Value>& inputs, uint64_t seed);

}  // namespace sonnx
