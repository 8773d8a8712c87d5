// If: runs then_branch when the single-element bool `cond` is true, else else_branch; the node's
// outputs are the branch's outputs by position. Branches take no inputs and see the enclosing
// scope. Versions 11, 13 and 16 only widened the output types (sequences, optionals, bfloat16).
// Relies on control_flow.mlw ControlFlow.if_ignores_other_branch: If ignores the branch not taken.
#include "op_params.h"
#include "support/shape.h"
#include "support/control_flow.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
// If's parameters: the two branches (the node owns them), both required and with one number of
// outputs (the spec: "Should have the same number of outputs as the else_branch").
struct IfParams {
  const Graph* then_branch = nullptr;
  const Graph* else_branch = nullptr;
  static IfParams read(const AttrReader& r, int64_t /*version*/) {
    IfParams p{&r.required_graph("then_branch"), &r.required_graph("else_branch")};
    if (p.then_branch->outputs.size() != p.else_branch->outputs.size())
      r.fail("then_branch has " + std::to_string(p.then_branch->outputs.size()) + " outputs but else_branch has " +
             std::to_string(p.else_branch->outputs.size()));
    return p;
  }
};

std::vector<Value> if_op(OpContext& ctx) {
  const IfParams p = IfParams::read(ctx, ctx.version());
  bool cond = scalar_bool(ctx, ctx.input(0), "cond");
  const Graph& branch = cond ? *p.then_branch : *p.else_branch;
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
  const IfParams p = IfParams::read(ctx, ctx.version());
  const Graph* then_g = p.then_branch;
  const Graph* else_g = p.else_branch;
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
SONNX_PARAMS("", "If", (1, 11, 13, 16, 19, 21, 23, 24, 25), IfParams);
}  // namespace sonnx
