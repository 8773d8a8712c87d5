// A graph compiled for the optimized executors: values numbered as slots, nodes as steps in a
// fixed topological order (Kahn's algorithm, spec/execution.md §3), the dependencies between
// steps, each value's lifetime, and the subgraphs of If/Loop/Scan compiled the same way (nested
// plans). Immutable once built; shared by every runtime instance.
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "optimized/kernels/fast_kernel.h"
#include "reference/model/dependencies.h"
#include "reference/model/ir.h"
#include "sonnx/value.h"
#include "reference/ops/registry.h"

namespace sonnx {

struct CompileOptions {
  bool fast_kernels = true;  // use optimized/kernels where one applies (else reference kernels only)
  bool fuse = true;          // fold Relu/Clip/Add into a preceding Conv when the fast kernel can
  // Threads each kernel will run with: oneDNN fixes its work split when a primitive is made.
  int kernel_threads = 1;
  // Let a fast kernel hold a weight that only its step reads (FastKernel::hold_input) and drop the
  // plain tensor from the compiled model (CompiledModel::plain_model rebuilds it).
  bool hold_weights = true;
};

struct Step {
  const Node* node = nullptr;           // the node run (for a fused step: the first, e.g. the Conv)
  std::vector<const Node*> fused;       // nodes folded into it (Add, Relu, ...), in order
  const Node* folded = nullptr;         // a BatchNormalization (or scalar Mul, then Add) folded into node's weights and bias
  std::vector<int64_t> fused_versions;  // their operator versions
  std::vector<const KernelEntry*> fused_kernels;  // their reference kernels (to run unfused)
  int64_t opset = 0;                              // the model's (or function's) opset for the node's domain
  int64_t version = 0;                            // operator version selected (schema since_version)
  const KernelEntry* kernel = nullptr;            // reference kernel; null: run through the interpreter
  std::unique_ptr<FastKernel> fast;               // set when a fast kernel applies
  std::vector<int> inputs;                        // slot per input, -1 when omitted (a fused sum adds one last input)
  std::vector<int> outputs;                       // slot per output, -1 when omitted
  std::vector<int> captures;                      // slots of values its subgraphs read from this scope
  bool blocked_output = false;                    // its output stays in the fast kernel's blocked layout (choose_layouts)
  // A shape computation: a Shape or Size, or a deterministic step reading only constants and
  // outputs of such steps. Its outputs are a function of the shapes the Shape and Size steps read,
  // so the memory plan (one per input-shape signature) records them from the planning run, and a
  // later run whose step inputs are the recorded ones takes the recorded outputs (frame.cpp).
  bool foldable = false;
  // Decided when compiled (CompiledGraph::decide_kinds), so that running a step compares no names:
  bool shape_only = false;  // a Shape or Size: its result depends on its input's shape only
  bool view = false;        // its one output may be a view of its first input (FastKernel::output_is_input_view)
  // A fused step that runs its nodes one by one when its fast kernel refuses the input shapes: a
  // fused Add whose operand broadcasts, or a pattern (e.g. the decomposed LayerNorm) it does not cover.
  bool unfused_when_refused = false;
  bool reads_only_shape() const { return shape_only; }
  bool is_view() const { return view; }
  std::string label() const;
};

class CompiledGraph {
 public:
  // `g` must outlive the compiled graph. Names it reads but does not define are outer slots,
  // looked up in the enclosing scope when it runs.
  // `weights_owner`: g itself, when the caller owns it and lets kernels hold its weights
  // (CompileOptions::hold_weights): such an initializer becomes a Tensor::held in g, as do the
  // originals of a Conv's weights once a BatchNormalization is folded into them (no step reads them).
  // `plain_source`: g compiled before (with other options), whose kernels hold some of g's weights:
  // kernels here prepare with their plain values (plain_value) and take its folded weights.
  CompiledGraph(const Model& model, const Graph& g, const CompileOptions& options, Graph* weights_owner = nullptr,
                const CompiledGraph* plain_source = nullptr);

  const Graph& graph() const { return *graph_; }
  const std::vector<Step>& steps() const { return steps_; }
  size_t num_slots() const { return slot_names_.size(); }
  const std::string& slot_name(int s) const { return slot_names_[static_cast<size_t>(s)]; }
  int slot_of(const std::string& name) const;  // -1 if not a slot here

  const std::vector<int>& input_slots() const { return input_slots_; }    // graph inputs, in order
  const std::vector<int>& output_slots() const { return output_slots_; }  // graph outputs, in order
  // Initializers as values (graph inputs with an initializer take it as their default).
  const std::vector<std::pair<int, Value>>& constants() const { return constants_; }
  // The plain values of a constant a fast kernel holds (constants() has a Tensor::held there).
  Tensor plain_constant(int slot) const;
  // A copy of the plain values of constant `name`, held or not (InternalError if it is none).
  Tensor plain_value(const std::string& name) const;
  // Slots whose value comes from an enclosing scope, with the name to look up.
  const std::vector<int>& outer_slots() const { return outer_slots_; }

  // Per step (in schedule order): the steps that wait for it, and how many steps it waits for.
  const DependencyGraph& dependencies() const { return deps_; }
  const std::vector<std::vector<int>>& successors() const { return deps_.successors(); }
  const std::vector<int>& num_predecessors() const { return deps_.num_predecessors(); }
  // Per slot: the step that produces it (-1: input, constant or outer), the steps that read it
  // (including subgraph captures), and whether it is a graph output.
  int producer(int slot) const { return producer_[static_cast<size_t>(slot)]; }
  const std::vector<int>& readers(int slot) const { return readers_[static_cast<size_t>(slot)]; }
  bool is_output(int slot) const { return is_output_[static_cast<size_t>(slot)]; }
  // True when step a finishes before step b starts in every schedule (a path a -> ... -> b).
  // Only available for graphs of at most kMaxReachSteps steps (has_reachability()).
  bool precedes(int a, int b) const;
  bool has_reachability() const { return !reach_.empty() || steps_.empty(); }
  // True when every other step is before or after this one in every schedule: nothing else can
  // be ready or running while it runs (false when reachability is not computed).
  bool runs_alone(int step) const { return !alone_.empty() && alone_[static_cast<size_t>(step)]; }
  static constexpr size_t kMaxReachSteps = 8192;

  // The compiled subgraph of an If/Loop/Scan attribute; null for a graph that is not one (a
  // kernel may build a graph of its own, as Gradient does: compile it with compile_other).
  const CompiledGraph* subgraph(const Graph* g) const;
  std::unique_ptr<CompiledGraph> compile_other(const Graph& g) const;

 private:
  int add_slot(const std::string& name);
  void build_steps(const Model& model, const CompileOptions& options, Graph* weights_owner, const CompiledGraph* plain_source);
  void hold_weights(const Step& step, const std::vector<std::string>& input_names, std::map<std::string, Tensor*>& holdable);
  void release(Tensor& t, const std::string& name);  // t becomes a Tensor::held, here and in constants_
  void build_dependencies();
  void decide_kinds();
  void choose_layouts();
  void mark_foldable();

  const Model* model_;
  CompileOptions options_;
  const Graph* graph_;
  std::vector<std::string> slot_names_;
  std::unordered_map<std::string, int> slot_index_;
  std::vector<int> input_slots_, output_slots_, outer_slots_;
  std::vector<std::pair<int, Value>> constants_;
  std::vector<Step> steps_;
  DependencyGraph deps_;
  std::vector<int> producer_;
  std::vector<std::vector<int>> readers_;
  std::vector<char> is_output_;
  std::vector<std::vector<uint64_t>> reach_;  // reach_[a] bit b: a path a -> ... -> b
  std::vector<char> alone_;                   // per step: runs_alone
  std::map<const Graph*, std::unique_ptr<CompiledGraph>> subgraphs_;
  std::vector<std::unique_ptr<Node>> fused_nodes_;  // Convs with a BN folded in or the sum operand as a last input
  std::deque<Tensor> own_;  // weights and biases with a BatchNormalization folded in; plain_source's plain values
};

// The well-formedness the proofs assume, checked on a compiled graph (spec/structure.md,
// execution.md): every value is produced by at most one step and never one that is a graph input,
// constant or outer value (STRUCT-SSA), every value a step reads (inputs and captures) is an input,
// a constant, an outer value or produced by an earlier step (STRUCT-DEFINED and STRUCT-TOPO-ORDER
// for the schedule). Computed from the steps alone. Returns the first violation, or "". Every
// build runs it on every compiled graph (a Trap when it fails: a model run without the check).
std::string check_well_formed(const CompiledGraph& g);
// The tables the executors use (producer, readers, graph outputs, predecessor counts, successors)
// against the same facts recomputed from the steps; "" when they agree. Every build runs it on
// every compiled graph (an InternalError when it fails).
std::string check_step_tables(const CompiledGraph& g);

}  // namespace sonnx
