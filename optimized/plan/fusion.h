// Which nodes of a graph run as one step: a Conv followed by an Add of a same-shaped tensor
// and/or a Relu or Clip (constant bounds) becomes one fused step when the Conv's result has no
// other reader and is not a graph output. The fast kernel may still decline the fused form; then
// the nodes run one by one.
#pragma once
#include <string>
#include <vector>

#include "optimized/kernels/fast_kernel.h"
#include "reference/model/ir.h"

namespace sonnx {

struct FusedGroup {
  std::vector<const Node*> nodes;  // first the node that runs, then the ones folded into it
  FastKernelRequest request;       // fused_activation / clip bounds / fused_sum filled in
  std::string sum_input;           // the Add's other operand when fused_sum
};

// Every node of g in exactly one group, groups in node-list order.
std::vector<FusedGroup> group_nodes(const Graph& g, bool fuse);

}  // namespace sonnx
