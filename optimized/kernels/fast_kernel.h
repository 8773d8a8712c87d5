// Fast kernels behind the out-variant interface: a kernel is prepared once for one node (weights
// reordered, attributes parsed) and then writes its results into buffers the executor planned.
// Anything without a fast kernel runs the reference kernel (reference/ops) instead, so a fast
// kernel may decline any node it does not handle exactly as the reference does.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "reference/model/ir.h"
#include "reference/model/tensor.h"

namespace sonnx {

class FastKernel {
 public:
  virtual ~FastKernel() = default;
  // Output shapes for these input tensors (the executor allocates them before run). Traps like the
  // reference kernel on inputs the operator rejects.
  virtual std::vector<Shape> output_shapes(const std::vector<const Tensor*>& inputs) const = 0;
  // Computes every output into `outputs`, which already have the element type and the shapes
  // output_shapes gave. Must be safe to call from several threads at once on different outputs.
  virtual void run(const std::vector<const Tensor*>& inputs, const std::vector<Tensor*>& outputs) const = 0;
  // A short name for plans and reports ("onednn:conv", ...).
  virtual std::string name() const = 0;
};

// What the compiler knows when it prepares a node.
struct FastKernelRequest {
  const Node* node = nullptr;
  int64_t version = 0;                          // the operator version selected (schema since_version)
  std::map<std::string, const Tensor*> constants;  // inputs that are initializers, by name
  std::vector<TypeInfo> input_types;            // declared/inferred types of the inputs, when known
  // Elementwise activation folded into this node by the compiler (e.g. Conv followed by Relu):
  // "" none, "Relu", or "Clip" with clip_min/clip_max.
  std::string fused_activation;
  float clip_min = 0, clip_max = 0;
  bool fused_sum = false;  // the node has one extra last input added to its result before the activation
};

// A fast kernel for the request, or null when none applies (then the reference kernel runs).
std::unique_ptr<FastKernel> make_fast_kernel(const FastKernelRequest& request);

}  // namespace sonnx
