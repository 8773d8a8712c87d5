// The execution plan across backends (DESIGN.md §1 "steps per backend"; NNAPI's ExecutionPlan):
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
#include <string>
#include <vector>

#include "backend.h"
#include "reference/model/ir.h"

namespace sonnx {

struct PlanStep {
  size_t backend = 0;          // index into ExecutionPlan::backends
  bool control = false;        // an If/Loop/Scan node run by a built-in backend
  std::vector<size_t> nodes;   // indices into the flat model's main-graph nodes, in run order
  std::vector<std::string> inputs;   // values it reads from outside the step (incl. outer captures)
  std::vector<std::string> outputs;  // values it makes that later steps or the graph outputs read
  std::vector<std::string> copies;   // inputs produced on another backend (or given by the caller)
  Model subgraph;              // the step as a model: inputs, initializers it uses, nodes, outputs
};

struct ExecutionPlan {
  Model model;  // the model as given (a function call is one node; cpu and reference run bodies)
  std::vector<std::shared_ptr<Backend>> backends;  // preference order, then the fallback if added
  int fallback = -1;  // index of the fallback backend (cpu), -1 when fallback is disallowed
  std::vector<PlanStep> steps;
  // Nodes placed on the fallback because no preferred backend supports them: "Op" or
  // "domain.Op" per node.
  std::vector<std::string> unsupported_ops;
};

struct PartitionOptions {
  bool allow_fallback = true;
};

// Throws Unsupported when a node has no backend (fallback disallowed) and LoadError on a cycle.
ExecutionPlan partition(const Model& model, std::vector<std::shared_ptr<Backend>> preference,
                        const PartitionOptions& options = {});

// Human-readable listing of the steps (for `sonnx partition`).
std::string plan_text(const ExecutionPlan& plan);

}  // namespace sonnx
