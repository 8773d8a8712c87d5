// The execution plan across backends (docs/design.md §2.7 "Partitioning"; NNAPI's ExecutionPlan):
// the main graph's nodes, in a topological order, are placed on the first backend of the
// preference list that supports them; consecutive nodes on the same backend form one step, a
// subgraph model of its own. Values crossing a step boundary between different backends are
// copied there. A node with subgraphs (If, Loop, Scan) becomes a control step of its own on a
// built-in backend (cpu or reference), whose kernels run the bodies and pick the branch or the
// iteration at run time — a simplification of NNAPI's IfStep/WhileStep, which would let the
// bodies' nodes run on other backends too. A node no listed backend supports goes to the
// fallback backend (`cpu`) when fallback is allowed; otherwise partitioning fails (Unsupported).
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backend.h"
#include "reference/model/ir.h"

namespace sonnx {

// Profile-guided assignment (assign.h): what put each node where it is.
struct NodeCost {
  std::vector<double> ms;        // measured time per backend (ExecutionPlan::backends); < 0: cannot run it
  double start = 0, finish = 0;  // predicted, in ms from the start of the run
};
struct Assignment {
  std::vector<NodeCost> nodes;                           // per main-graph node
  double copy_ms_per_mib = 0;                            // measured cost of a copy at a device boundary
  double makespan_ms = 0;                                // the predicted critical path, devices working side by side
  std::vector<std::pair<std::string, double>> alone_ms;  // the same prediction on each device that runs every node
  bool from_cache = false;                               // the measurements came from the profile cache
};

struct PlanStep {
  size_t backend = 0;                // index into ExecutionPlan::backends
  bool control = false;              // an If/Loop/Scan node run by a built-in backend
  std::vector<size_t> nodes;         // indices into the flat model's main-graph nodes, in run order
  std::vector<std::string> inputs;   // values it reads from outside the step (incl. outer captures)
  std::vector<std::string> outputs;  // values it makes that later steps or the graph outputs read
  std::vector<std::string> copies;   // inputs produced on another backend (or given by the caller)
  Model subgraph;                    // the step as a model: inputs, initializers it uses, nodes, outputs
};

struct ExecutionPlan {
  Model model;  // the model as given (a function call is one node; cpu and reference run bodies)
  std::vector<std::shared_ptr<Backend>> backends;  // preference order, then the fallback if added
  int fallback = -1;                               // index of the fallback backend (cpu), -1 when fallback is disallowed
  std::vector<PlanStep> steps;
  // Nodes placed on the fallback because no preferred backend supports them: "Op" or
  // "domain.Op" per node.
  std::vector<std::string> unsupported_ops;
  std::optional<Assignment> assignment;  // with profile-guided assignment
};

struct PartitionOptions {
  bool allow_fallback = true;
  // A given placement (backend index per main-graph node) and node order, else the first backend
  // in preference order that runs each node, in a topological order.
  std::vector<size_t> placement;
  std::optional<std::vector<size_t>> order;
  std::optional<Assignment> assignment;  // kept in the plan for plan_text
};

// Throws Unsupported when nodes have no backend (fallback disallowed), naming every such node
// with each device's reason, and LoadError on a cycle.
ExecutionPlan partition(const Model& model, std::vector<std::shared_ptr<Backend>> preference,
                        const PartitionOptions& options = {});

// One main-graph node as a model of its own (its reads as inputs, its outputs), for profiling.
Model node_step_model(const Model& model, size_t node);
// What a backend is asked about each main-graph node (opset, declared input element types).
std::vector<NodeQuery> node_queries(const Model& model);
// Why `b` cannot take the node ("" when it can): a node with subgraphs needs a built-in backend.
std::string device_why_not(const Backend& b, const NodeQuery& q);

// Human-readable listing of the steps (for `sonnx partition`).
std::string plan_text(const ExecutionPlan& plan);

}  // namespace sonnx
