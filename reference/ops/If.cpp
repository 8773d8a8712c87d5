// If: runs then_branch when the single-element bool `cond` is true, else else_branch; the node's
// outputs are the branch's outputs by position. Branches take no inputs and see the enclosing
// scope. Versions 11, 13 and 16 only widened the output types (sequences, optionals, bfloat16).
// Relies on control_flow.mlw ControlFlow.if_ignores_other_branch: If ignores the branch not taken.
#include "support/shape.h"
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
    ctx.fail(std::string(cond ? "then" : "else") + "_branch has " + std::to_string(out.size()) + " outputs but the node has " +
             std::to_string(ctx.num_outputs()));
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
namespace {
// Each output is the union of the two branches' outputs (their shapes may differ from version 11).
void if_shape(InferContext& ctx) {
  DType c = ctx.input_elem(0);
  if (c != DType::Undefined && c != DType::Bool) ctx.fail("the condition must be bool, got " + std::string(dtype_name(c)));
  const Graph* then_g = ctx.attr_graph("then_branch");
  const Graph* else_g = ctx.attr_graph("else_branch");
  if (!then_g || !else_g) ctx.fail("attributes then_branch and else_branch are required");
  // A condition known at inference time selects one branch; the other never runs (and may not
  // even be valid for these inputs).
  if (const Tensor* cv = ctx.input_value(0); cv && cv->size() == 1 && cv->dtype() == DType::Bool) {
    std::vector<TypeInfo> taken = ctx.infer_subgraph(cv->as_int64(0) != 0 ? *then_g : *else_g, {});
    if (taken.size() != ctx.num_outputs())
      ctx.fail("the branch has " + std::to_string(taken.size()) + " outputs, the node " + std::to_string(ctx.num_outputs()));
    for (size_t i = 0; i < taken.size(); ++i) ctx.set_output(i, taken[i]);
    return;
  }
  std::vector<TypeInfo> a = ctx.infer_subgraph(*then_g, {});
  std::vector<TypeInfo> b = ctx.infer_subgraph(*else_g, {});
  if (a.size() != b.size() || a.size() != ctx.num_outputs())
    ctx.fail("the branches have " + std::to_string(a.size()) + " and " + std::to_string(b.size()) + " outputs, the node " +
             std::to_string(ctx.num_outputs()));
  for (size_t i = 0; i < a.size(); ++i) ctx.set_output(i, union_type(ctx, a[i], b[i], "output " + std::to_string(i)));
}
}  // namespace
SONNX_SHAPE_RULE("", "If", (1, 11, 13, 16, 19, 21, 23, 24, 25), if_shape);
}  // namespace sonnx
