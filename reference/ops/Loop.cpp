// Loop: runs `body` while the trip count M is not reached and the condition holds.
//   inputs  M (optional int64 scalar), cond (optional bool scalar), v_initial_1..N
//   body    (iteration_num, cond_in, v_1..v_N) -> (cond_out, v_1..v_N, scan_1..scan_K)
//   outputs v_final_1..N, scan_outputs_1..K (each the per-iteration values stacked on a new axis 0)
// With M omitted the loop runs until the condition is false; with cond omitted the body's cond_out
// is ignored (the spec's table: "cond = ... // ignored"); with both omitted the loop would never end,
// which the reference reports as a trap instead of hanging. Versions 11, 13 and 16 only widened the
// types of loop-carried values (sequences, optionals); the iteration semantics is unchanged.
// Relies on control_flow.mlw ControlFlow.zero_trip: a loop whose condition is false at entry runs zero times.
// Relies on control_flow.mlw ControlFlow.early_termination: a loop stops when its body's condition becomes false.
#include "op_params.h"
#include "support/shape.h"
#include "support/control_flow.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
// Loop's parameters: its body (the node owns it). The body's signature is checked against the
// node's inputs and outputs by the kernel and the shape rule.
struct LoopParams {
  const Graph* body = nullptr;
  static LoopParams read(const AttrReader& r, int64_t /*version*/) { return {&r.required_graph("body")}; }
};

std::vector<Value> loop(OpContext& ctx) {
  const Graph& body = *LoopParams::read(ctx, ctx.version()).body;
  bool has_m = ctx.has_input(0);
  bool has_cond = ctx.has_input(1);
  int64_t max_trips = has_m ? scalar_int_input(ctx, 0, "M") : 0;
  bool cond = has_cond ? scalar_bool(ctx, ctx.input(1), "cond") : true;
  if (!has_m && !has_cond) ctx.fail("neither a trip count M nor a condition is given: the loop never terminates");

  size_t n_carried = ctx.num_inputs() >= 2 ? ctx.num_inputs() - 2 : 0;
  if (body.inputs.size() != n_carried + 2)
    ctx.fail("body has " + std::to_string(body.inputs.size()) + " inputs, expected " + std::to_string(n_carried + 2) +
             " (iteration number, condition and " + std::to_string(n_carried) + " loop-carried values)");
  if (body.outputs.size() < n_carried + 1)
    ctx.fail("body has " + std::to_string(body.outputs.size()) + " outputs, expected at least " + std::to_string(n_carried + 1));
  size_t n_scan = body.outputs.size() - 1 - n_carried;

  std::vector<Value> carried;
  for (size_t i = 0; i < n_carried; ++i) carried.push_back(ctx.has_input(2 + i) ? ctx.value(2 + i) : Value());
  std::vector<std::vector<Tensor>> scans(n_scan);

  for (int64_t it = 0; (!has_m || it < max_trips) && cond; ++it) {
    std::vector<Value> in;
    in.emplace_back(Tensor::scalar<int64_t>(it));
    in.emplace_back(Tensor::scalar<bool>(cond));
    for (const Value& v : carried) in.push_back(v);
    std::vector<Value> out = ctx.run_subgraph(body, in);
    if (has_cond) {
      if (!out[0].is_tensor()) ctx.fail("body's condition output must be a tensor");
      cond = scalar_bool(ctx, out[0].tensor, "body's condition output");
    }
    for (size_t i = 0; i < n_carried; ++i) carried[i] = std::move(out[1 + i]);
    for (size_t k = 0; k < n_scan; ++k) {
      Value& v = out[1 + n_carried + k];
      if (!v.is_tensor()) ctx.fail("scan output " + std::to_string(k) + " of the body must be a tensor");
      if (!scans[k].empty() && scans[k][0].shape() != v.tensor.shape())
        ctx.fail("scan output " + std::to_string(k) + " changed shape across iterations: " + shape_str(scans[k][0].shape()) +
                 " then " + shape_str(v.tensor.shape()));
      scans[k].push_back(std::move(v.tensor));
    }
  }

  std::vector<Value> result = std::move(carried);
  for (size_t k = 0; k < n_scan; ++k) {
    if (scans[k].empty()) result.emplace_back(empty_scan_output(ctx, body.outputs[1 + n_carried + k], 0));
    else result.emplace_back(stack_axis(ctx, scans[k], 0));
  }
  return result;
}
}  // namespace
SONNX_KERNEL("", "Loop", 1, loop, Accuracy::Exact);

// Versions 19, 21, 23, 24, 25 only widen the type lists (the documents' text and
// structure are unchanged): the same kernel.
SONNX_KERNEL("", "Loop", 19, loop, Accuracy::Exact);
SONNX_KERNEL("", "Loop", 21, loop, Accuracy::Exact);
SONNX_KERNEL("", "Loop", 23, loop, Accuracy::Exact);
SONNX_KERNEL("", "Loop", 24, loop, Accuracy::Exact);
SONNX_KERNEL("", "Loop", 25, loop, Accuracy::Exact);
namespace {
// The body runs with (iteration number, condition, loop-carried values...) and returns (condition,
// loop-carried values..., scan outputs...). A loop-carried output is the union of its initial and
// its per-iteration type; a scan output stacks the per-iteration values on a new leading axis of
// unknown length.
void loop_shape(InferContext& ctx) {
  const Graph* body = LoopParams::read(ctx, ctx.version()).body;
  size_t n_carried = ctx.num_inputs() >= 2 ? ctx.num_inputs() - 2 : 0;
  if (body->inputs.size() != n_carried + 2)
    ctx.fail("the body has " + std::to_string(body->inputs.size()) + " inputs, expected " + std::to_string(n_carried + 2));
  std::vector<TypeInfo> in{tensor_type(DType::Int64, Dims{}), tensor_type(DType::Bool, Dims{})};
  for (size_t i = 0; i < n_carried; ++i) {
    const TypeInfo* t = ctx.input_type(i + 2);
    in.push_back(t ? *t : TypeInfo{});
  }
  // The body's view of a loop-carried value: what the first iteration sees, generalised by what
  // the body declares; its shape may change from iteration to iteration.
  std::vector<TypeInfo> out = ctx.infer_subgraph(*body, in);
  if (out.size() < n_carried + 1) ctx.fail("the body has fewer outputs than loop-carried values");
  if (out.size() - 1 != ctx.num_outputs())
    ctx.fail("the body has " + std::to_string(out.size() - 1) + " outputs after the condition, the node " +
             std::to_string(ctx.num_outputs()));
  for (size_t i = 0; i < n_carried; ++i)
    // A value whose kind changes (an empty optional initial value, a sequence after) is what the
    // body makes of it.
    ctx.set_output(i, in[i + 2].kind != out[i + 1].kind
                          ? out[i + 1]
                          : union_type(ctx, in[i + 2], out[i + 1], "loop-carried value " + std::to_string(i)));
  for (size_t i = n_carried; i + 1 < out.size(); ++i) {
    const TypeInfo& t = out[i + 1];
    if (t.kind != TypeInfo::Kind::Tensor) {
      ctx.set_output(i, TypeInfo{});
      continue;
    }
    std::optional<Dims> s;
    if (t.shape) {
      s = Dims{Dim{}};
      s->insert(s->end(), t.shape->begin(), t.shape->end());
    }
    ctx.set_output(i, t.elem, s);
  }
}
}  // namespace
SONNX_SHAPE_RULE("", "Loop", (1, 11, 13, 16, 19, 21, 23, 24, 25), loop_shape);
SONNX_PARAMS("", "Loop", (1, 11, 13, 16, 19, 21, 23, 24, 25), LoopParams);
}  // namespace sonnx
