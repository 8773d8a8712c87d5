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
#include "reference/ops/op_record.h"
#include "sonnx/tensor.h"

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
  // Kernels that copy elements of any type say so, and give each output's element type; the
  // executor runs every other kernel on float32 data only (float16 too where takes_float16()).
  virtual bool any_element_type() const { return false; }
  virtual DType output_dtype(const std::vector<const Tensor*>& /*inputs*/, size_t /*k*/) const { return DType::Float; }
  // Kernels whose one output has exactly its first input's bytes under another shape (Reshape,
  // Flatten, Squeeze, Unsqueeze, Identity) say so: the executor may then make the output a view of
  // the input instead of calling run (memory_plan.md §8), whatever the element type but string.
  virtual bool output_is_input_view() const { return false; }
  // Kernels that also compute on float16 data say so; output_dtype then gives each output's type.
  virtual bool takes_float16() const { return false; }
  // A kernel that keeps every value of constant input k in a layout of its own (oneDNN's packed
  // weights) may hold that input in place of the plain tensor, so the weights are not in memory
  // twice. The compiler asks, before the kernel is shared, for a constant this step alone reads;
  // true means: from now on run() and output_shapes() get a Tensor::held of that input's type and
  // shape there, and plain_input(k) rebuilds the plain values, bit for bit, for anything else that
  // must read them (the reference kernel when this step falls back to it).
  virtual bool hold_input(size_t /*k*/) { return false; }
  virtual Tensor plain_input(size_t k) const;

  // Blocked layouts between kernels that agree on them (oneDNN's nChw16c and the like), so a chain
  // of convolutions does not reorder its activations at every step. A Layout is an opaque token
  // describing how a tensor's bytes are arranged; null means plain row-major. The compiler calls
  // produce_blocked_output() on a producer whose every reader accepts_layout() at the positions
  // it reads the value, and expect_blocked_input() on those readers, before the kernel is shared.
  using Layout = const void*;
  virtual bool can_produce_blocked_output() const { return false; }
  virtual bool accepts_layout(size_t /*input*/) const { return false; }
  virtual void produce_blocked_output() {}
  virtual void expect_blocked_input() {}
  // Bytes output k needs for these inputs (more than the plain size when blocks pad channels).
  virtual int64_t output_bytes(const std::vector<const Tensor*>& inputs, const std::vector<Layout>& layouts, size_t k) const;
  // run() with the inputs' layouts (non-null only where accepts_layout) and the outputs' layouts
  // returned in `out_layouts`. The default handles plain tensors only.
  virtual void run_with_layouts(const std::vector<const Tensor*>& inputs, const std::vector<Layout>& layouts,
                                const std::vector<Tensor*>& outputs, std::vector<Layout>& out_layouts) const;
};

// A plain row-major copy of a tensor whose bytes are in `layout` (which must not be null).
Tensor layout_to_plain(const Tensor& t, FastKernel::Layout layout);

// What the compiler knows when it prepares a node.
struct FastKernelRequest {
  const Node* node = nullptr;
  int64_t version = 0;                             // the operator version selected (schema since_version)
  std::map<std::string, const Tensor*> constants;  // inputs that are initializers, by name
  std::vector<TypeInfo> input_types;               // declared/inferred types of the inputs, when known
  // Elementwise activation folded into this node by the compiler (e.g. Conv followed by Relu):
  // "" none, "Relu", "Clip" with clip_min/clip_max, "LeakyRelu" / "Elu" with alpha, "HardSigmoid"
  // with alpha and beta, "Sigmoid", "Tanh", "HardSwish", "Swish" (x * Sigmoid(x), the
  // decomposed Sigmoid → Mul), "DecomposedHardSwish" (Add 3 → Clip 0..6 → Mul x → Div 6) or
  // "XHardSigmoid" (x * HardSigmoid(x) with alpha and beta) or "GeluErf" (Div by alpha = √2 → Erf →
  // Add 1 → Mul x → Mul 0.5).
  std::string fused_activation;
  float clip_min = 0, clip_max = 0;
  float alpha = 0, beta = 0;
  bool fused_sum = false;  // the node has one extra last input added to its result before the activation
  // A group of nodes computed as one (optimized/plan/fusion*.cpp): "" none, "LayerNorm" (the
  // decomposed layer normalization exporters write), "MatMulBias" (MatMul → Add of a constant
  // bias, then fused_activation, if any) or "Attention" (MatMul → Softmax over the last axis →
  // MatMul, with a scalar scale on the first MatMul's A or on its result). `fused_nodes` are the nodes after `node`,
  // in order; node->inputs then lists node's inputs followed by every other value the group reads.
  std::string fused_pattern;
  std::vector<const Node*> fused_nodes;
  std::vector<int64_t> fused_versions;  // the operator version of each of fused_nodes
};

// A fast kernel for the request, or null when none applies (then the reference kernel runs): the
// one of the group's pattern, else the one in the node's operator version record.
std::unique_ptr<FastKernel> make_fast_kernel(const FastKernelRequest& request);

// Prepares a fast kernel for a node, or returns null when it does not handle the node exactly as
// the reference does.
using FastKernelFactory = std::unique_ptr<FastKernel> (*)(const FastKernelRequest&);

// The fast-kernel slot of an operator version's record (reference/ops/op_record.h).
struct FastKernelSlot {
  FastKernelFactory make = nullptr;
  bool takes_fused = false;  // also prepares a node with a fused activation or sum (Conv)
};

struct FastKernelRegistrar {
  FastKernelSlot slot;
  FastKernelRegistrar(const char* domain, const char* op, std::initializer_list<int64_t> versions, FastKernelSlot s) : slot(s) {
    OpRecords::instance().fill(domain, op, versions, &OpRecord::fast_kernel, &slot, "fast kernel");
  }
};

// SONNX_FAST_KERNEL("", "Relu", (1, 6, 13, 14), make_unary_kernel): the factory for exactly those
// versions. SONNX_FAST_KERNEL_FUSED: one that also takes fused activations and sums.
#define SONNX_FAST_KERNEL(domain, op, versions, factory)                                                                       \
  static const ::sonnx::FastKernelRegistrar SONNX_CONCAT(sonnx_fast_kernel_, __COUNTER__)(domain, op, {SONNX_EXPAND versions}, \
                                                                                          {factory, false})
#define SONNX_FAST_KERNEL_FUSED(domain, op, versions, factory)                                                                 \
  static const ::sonnx::FastKernelRegistrar SONNX_CONCAT(sonnx_fast_kernel_, __COUNTER__)(domain, op, {SONNX_EXPAND versions}, \
                                                                                          {factory, true})

}  // namespace sonnx
