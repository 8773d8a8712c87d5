// If: runs then_branch when the single-element bool `cond` is true, else else_branch; the node's
// outputs are the branch's outputs by position. Branches take no inputs and see the enclosing
// scope. Versions 11, 13 and 16 only widened the output types (sequences, optionals, bfloat16).
#include "support/control_flow.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> if_op(OpContext& ctx) {
  bool cond = scalar_bool(ctx, ctx.input(0), "cond");
  const Graph& branch = ctx.attr_graph(cond ? "then_branch" : "else_branch");
  std::vector<Value> out = ctx.run_subgraph(branch, {});
  if (out.size() != ctx.num_outputs())
    ctx.fail(std::string(cond ? "then" : "else") + "_branch has " + std::to_string(out.size()) +
             " outputs but the node has " + std::to_string(ctx.num_outputs()));
  return out;
}
}  // namespace
SONNX_KERNEL("", "If", 1, if_op, Accuracy::Exact);

// Versions 19, 21, 23, 24, 25 only widen the type lists (the documents' text and
// structure are unchanged): the same kernel.
SONNX_KERNEL("", "If", 19, if_op, Accuracy::Exact);
SONNX_KERNEL("", "If", 21, if_op, Accuracy::Exact);
SONNX_KERNEL("", "If", 23, if_op, Accuracy::Exact);
SONNX_KERNEL("", "If", 24, if_op, Accuracy::Exact);
SONNX_KERNEL("", "If", 25, if_op, Accuracy::Exact);
}  // namespace sonnx
