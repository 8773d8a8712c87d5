// Which nodes of a graph run as one step: a Conv, then optionally a BatchNormalization in inference
// form with constant parameters or a Mul by a scalar constant and an Add of one (folded into the
// Conv's weights and bias), an Add of a same-shaped tensor and an activation (Relu, Clip with
// constant bounds, LeakyRelu, Elu, Sigmoid, Tanh, HardSigmoid, HardSwish, the swish y * Sigmoid(y)
// written as a Sigmoid and a Mul that both read y, the hard swish written as Add(y, 3) → Clip(0, 6)
// → Mul(y, ·) → Div(·, 6), y * HardSigmoid(y) written as a HardSigmoid and a Mul, or the Erf-based
// GELU written as Div(y, √2) → Erf → Add 1 → Mul y → Mul 0.5); a MatMul, then an Add of a constant
// (a bias, request.fused_pattern "MatMulBias") and optionally one of those activations; scaled
// dot-product attention, MatMul(Q, Kt) → Softmax over the last axis → MatMul(·, V) with Q or the
// scores optionally divided or multiplied by a scalar constant ("Attention": one step that holds
// only a block of rows of the scores at a time). Such a group becomes one fused step when each
// intermediate result has no other reader and is not a graph output. The fast kernel may still
// decline the fused form; then the nodes run one by one.
#pragma once
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "optimized/kernels/fast_kernel.h"
#include "reference/model/ir.h"

namespace sonnx {

// The operator version a node runs at (its schema's since_version; 0 when the catalogue has none):
// the fusion pass reads each node's parameter struct as that version defines it.
using VersionOf = std::function<int64_t(const Node&)>;

struct FusedGroup {
  std::vector<const Node*> nodes;  // first the node that runs, then the ones folded into it
  FastKernelRequest request;       // fused_activation / clip bounds / fused_sum filled in
  std::string sum_input;           // the Add's other operand when fused_sum
  // nodes[1..] folded into the Conv's weights and bias: an inference-form BatchNormalization, or a
  // Mul by a scalar constant optionally followed by an Add of one (fold_into_conv), and the
  // weights and bias with them folded in.
  std::vector<const Node*> folded;
  Tensor folded_w, folded_b;
  // Values the nodes after the first read from outside the group (request.fused_pattern groups):
  // the step reads them after the first node's inputs.
  std::vector<std::string> extra_inputs;
};

// The Conv's weights and bias with an inference-form BatchNormalization folded in:
// W'[m] = W[m]·k[m], B'[m] = (B[m] − mean[m])·k[m] + bias[m], k[m] = scale[m] / sqrt(var[m] + ε),
// computed in double. False when the parameters are not constant float tensors of the right size.
bool fold_batch_norm(const Graph& g, const Node& conv, const Node& bn, int64_t bn_version, Tensor& w, Tensor& b);

// The Conv's weights and bias with `folded` (FusedGroup::folded) folded in: a BatchNormalization
// as fold_batch_norm does, or y·s + t (scalar s and t, both finite, s ≠ 0) as W' = W·s,
// B' = B·s + t, computed in double. False when they cannot be folded.
bool fold_into_conv(const Graph& g, const Node& conv, const std::vector<const Node*>& folded, const VersionOf& version_of,
                    Tensor& w, Tensor& b);

// The layer normalization exporters write as separate nodes, starting at `first` (a ReduceMean
// over the last axis): ReduceMean, Sub, Pow 2, ReduceMean, Add epsilon, Sqrt, Div, then optionally
// Mul by a scale and Add of a bias, each intermediate read only inside the group and not a graph
// output (`uses`: readers of each name, graph outputs counted twice). On a match fills `grp`
// (nodes, request.fused_pattern "LayerNorm", extra_inputs), marks the nodes taken and returns
// true. fusion_layernorm.cpp.
bool match_decomposed_layer_norm(const Graph& g, const Node& first, const VersionOf& version_of,
                                 const std::map<std::string, int>& uses, std::set<const Node*>& taken, FusedGroup& grp);

// Scaled dot-product attention starting at `first`: [Div or Mul of Q by a float constant of one
// element] → MatMul(·, Kt) → [Div or Mul of the scores by such a constant, when Q is not scaled]
// → Softmax → MatMul(·, V), each intermediate read only by the next node and not a graph output.
// On a match fills `grp` (nodes, request.fused_pattern "Attention", extra_inputs: what the later
// nodes read besides the intermediates), marks the nodes taken and returns true.
// fusion_attention.cpp.
bool match_attention(const Graph& g, const Node& first, const VersionOf& version_of, const std::map<std::string, int>& uses,
                     std::set<const Node*>& taken, FusedGroup& grp);

// Makes `nodes` (the node that runs first) one group with request.fused_pattern `pattern`: every
// value the later nodes read from outside the group becomes an extra input; marks them taken.
void take_pattern_group(const std::vector<const Node*>& nodes, const std::string& pattern, std::set<const Node*>& taken,
                        FusedGroup& grp);

// The one node reading `name`, when `uses` (group_nodes' read counts) counts exactly one read of
// it, so never for a graph output; fusion_layernorm.cpp.
const Node* sole_reader(const Graph& g, const std::map<std::string, int>& uses, const std::string& name);

// The value of `name` when it is an initializer of g that is not a graph input, the output of a
// Constant node with a tensor, or an Identity of one of those; null otherwise.
const Tensor* graph_constant(const Graph& g, const std::string& name);

// Folds `folded` into the Conv's weights and bias as fold_into_conv does (or gives the values a
// previous compilation folded); false when they cannot be folded.
using ConvFold = std::function<bool(const Node& conv, const std::vector<const Node*>& folded, Tensor& w, Tensor& b)>;

// Every node of g in exactly one group, groups in node-list order. `fold`: fold_into_conv on g
// when empty.
std::vector<FusedGroup> group_nodes(const Graph& g, bool fuse, const VersionOf& version_of, const ConvFold& fold = {});

}  // namespace sonnx
