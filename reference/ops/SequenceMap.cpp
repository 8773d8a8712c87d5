// SequenceMap: runs `body` once per element of the first input sequence. Further inputs are
// sequences (of the same length; element i is passed) or tensors (passed unchanged every time).
// Body output j of run i becomes element i of output sequence j.
#include "op_params.h"
#include "support/sequence.h"

namespace sonnx {
using namespace support;
namespace {
// Element type of an output sequence when there is no element to look at: the body output's
// declared tensor type.
DType declared_elem(const ValueInfo& vi) { return vi.type.kind == TypeInfo::Kind::Tensor ? vi.type.elem : DType::Undefined; }

// SequenceMap's parameters: its body (the node owns it).
struct SequenceMapParams {
  const Graph* body = nullptr;
  static SequenceMapParams read(const AttrReader& r, int64_t /*version*/) { return {&r.required_graph("body")}; }
};

std::vector<Value> sequence_map(OpContext& ctx) {
  const Graph& body = *SequenceMapParams::read(ctx, ctx.version()).body;
  const Value& first = sequence_input(ctx, 0);
  size_t n = first.sequence.size();
  if (body.inputs.size() != ctx.num_inputs())
    ctx.fail("body has " + std::to_string(body.inputs.size()) + " inputs but the node has " + std::to_string(ctx.num_inputs()));
  for (size_t i = 1; i < ctx.num_inputs(); ++i) {
    const Value& v = ctx.value(i);
    if (v.is_sequence() && v.sequence.size() != n)
      ctx.fail("input " + std::to_string(i) + " has " + std::to_string(v.sequence.size()) +
               " elements but the first sequence has " + std::to_string(n));
    if (!v.is_sequence() && !v.is_tensor()) ctx.fail("input " + std::to_string(i) + " must be a sequence or a tensor");
  }
  std::vector<std::vector<Value>> outs(body.outputs.size());
  for (size_t e = 0; e < n; ++e) {
    std::vector<Value> in;
    for (size_t i = 0; i < ctx.num_inputs(); ++i) {
      const Value& v = ctx.value(i);
      in.push_back(v.is_sequence() ? v.sequence[e] : v);
    }
    std::vector<Value> out = ctx.run_subgraph(body, in);
    for (size_t j = 0; j < out.size(); ++j) {
      if (!out[j].is_tensor()) ctx.fail("body output " + std::to_string(j) + " must be a tensor");
      outs[j].push_back(std::move(out[j]));
    }
  }
  std::vector<Value> result;
  for (size_t j = 0; j < outs.size(); ++j) {
    DType elem = outs[j].empty() ? declared_elem(body.outputs[j]) : outs[j][0].tensor.dtype();
    result.push_back(Value::make_sequence(std::move(outs[j]), elem));
  }
  return result;
}
}  // namespace
SONNX_KERNEL("", "SequenceMap", 17, sequence_map, Accuracy::Exact);
SONNX_PARAMS("", "SequenceMap", (17), SequenceMapParams);
}  // namespace sonnx
