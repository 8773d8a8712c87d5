// Scan: iterates `body` over slices of the scan inputs, carrying state variables and stacking the
// per-iteration scan-output elements.
//   body (st_1..st_N, si_1..si_M) -> (st_1..st_N, so_1..so_K)
// Version 8: inputs (sequence_lens?, init_1..init_N, scan_1..scan_M); axis 0 of every input is a
//   batch axis and axis 1 the sequence axis; each batch entry is scanned independently for
//   sequence_lens[b] steps (default: the full length); scan outputs are [batch, max_len, ...], the
//   steps beyond sequence_lens[b] filled with zeros; `directions` reverses a scan input (within its
//   valid length).
// Version 9: inputs (init_1..init_N, scan_1..scan_M), no batch axis; scan_input_axes /
//   scan_input_directions choose the scanned axis and direction of each scan input,
//   scan_output_axes / scan_output_directions where each scan output stacks its elements and
//   whether each new element is appended (0) or prepended (1).
// Version 11 allows negative axes; version 16 only added bfloat16.
// Relies on control_flow.mlw ControlFlow.scan_steps: Scan runs L steps and produces L outputs per scan output.
#include <algorithm>

#include "op_params.h"
#include "params/scan.h"
#include "support/shape.h"
#include "support/control_flow.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
// The node's state variables (its inputs before the scan inputs) against the body's: "" or why not.
std::string scan_state_mismatch(const ScanParams& p, size_t n_state) {
  if (n_state == p.num_state) return "";
  return "body has " + std::to_string(p.body->inputs.size()) + " inputs, expected " +
         std::to_string(n_state + p.num_scan_inputs);
}

const Tensor& body_tensor(const OpContext& ctx, const Value& v, size_t k) {
  if (!v.is_tensor()) ctx.fail("body output " + std::to_string(k) + " must be a tensor");
  return v.tensor;
}

std::vector<Value> scan_v8(OpContext& ctx) {
  const ScanParams p = ScanParams::read(ctx, ctx.version());
  const Graph& body = *p.body;
  size_t m = p.num_scan_inputs;
  if (ctx.num_inputs() < 1 + m) ctx.fail("fewer inputs than num_scan_inputs");
  size_t n = ctx.num_inputs() - 1 - m;
  if (std::string why = scan_state_mismatch(p, n); !why.empty()) ctx.fail(why);
  size_t k_out = p.num_scan_outputs;
  const std::vector<bool>& dirs = p.input_reverse;

  std::vector<const Tensor*> inits, scans;
  for (size_t i = 0; i < n; ++i) inits.push_back(&ctx.input(1 + i));
  for (size_t j = 0; j < m; ++j) scans.push_back(&ctx.input(1 + n + j));
  if (scans[0]->rank() < 2) ctx.fail("scan inputs need a batch axis and a sequence axis");
  int64_t batch = scans[0]->dim(0), max_len = scans[0]->dim(1);
  for (const Tensor* s : scans)
    if (s->rank() < 2 || s->dim(0) != batch || s->dim(1) != max_len)
      ctx.fail("scan inputs disagree on batch size or sequence length");
  for (const Tensor* t : inits)
    if (t->rank() < 1 || t->dim(0) != batch) ctx.fail("initial state " + shape_str(t->shape()) + " lacks the batch axis");

  std::vector<int64_t> lens(static_cast<size_t>(batch), max_len);
  if (ctx.has_input(0)) {
    const Tensor& sl = ctx.input(0);
    if (sl.dtype() != DType::Int64 || sl.rank() != 1 || sl.dim(0) != batch)
      ctx.fail("sequence_lens must be an int64 tensor of shape [batch]");
    for (int64_t b = 0; b < batch; ++b) {
      lens[static_cast<size_t>(b)] = sl.data<int64_t>()[b];
      if (lens[static_cast<size_t>(b)] < 0 || lens[static_cast<size_t>(b)] > max_len)
        ctx.fail("sequence_lens[" + std::to_string(b) + "] = " + std::to_string(lens[static_cast<size_t>(b)]) +
                 " is outside [0, " + std::to_string(max_len) + "]");
    }
  }

  std::vector<std::vector<Tensor>> final_states(n);           // [state][batch]
  std::vector<std::vector<std::vector<Tensor>>> outs(k_out);  // [output][batch][step]
  for (int64_t b = 0; b < batch; ++b) {
    std::vector<Value> state;
    for (const Tensor* t : inits) state.emplace_back(take_axis(*t, 0, b));
    std::vector<Tensor> seqs;  // scan input j for this batch entry: [max_len, ...]
    for (const Tensor* s : scans) seqs.push_back(take_axis(*s, 0, b));
    for (auto& o : outs) o.emplace_back();
    int64_t len = lens[static_cast<size_t>(b)];
    for (int64_t t = 0; t < len; ++t) {
      std::vector<Value> in = state;
      for (size_t j = 0; j < m; ++j) in.emplace_back(take_axis(seqs[j], 0, dirs[j] ? len - 1 - t : t));
      std::vector<Value> out = ctx.run_subgraph(body, in);
      for (size_t i = 0; i < n; ++i) state[i] = std::move(out[i]);
      for (size_t k = 0; k < k_out; ++k) outs[k].back().push_back(body_tensor(ctx, out[n + k], n + k));
    }
    for (size_t i = 0; i < n; ++i) final_states[i].push_back(body_tensor(ctx, state[i], i));
  }

  std::vector<Value> result;
  for (size_t i = 0; i < n; ++i) result.emplace_back(batch == 0 ? *inits[i] : stack_axis(ctx, final_states[i], 0));
  for (size_t k = 0; k < k_out; ++k) {
    // The element shape comes from any step that ran; padding steps are zeros of that shape.
    const Tensor* sample = nullptr;
    for (const auto& per_batch : outs[k])
      if (!per_batch.empty()) sample = &per_batch[0];
    if (!sample) {
      // No step ran anywhere: the element shape must come from the body's declared output type.
      Tensor e = empty_scan_output(ctx, body.outputs[n + k], 0);  // [0, elem dims (unknown as 0)...]
      Shape s = e.shape();
      s[0] = max_len;
      s.insert(s.begin(), batch);
      const auto& declared = body.outputs[n + k].type.shape;
      bool dims_known = declared.has_value();
      if (declared)
        for (const Dim& d : *declared) dims_known = dims_known && d.value.has_value();
      if (!dims_known && shape_size(s) != 0)
        ctx.fail("no step ran and scan output " + std::to_string(k) + " has no fully declared shape");
      result.emplace_back(Tensor(e.dtype(), s));  // zero-filled padding
      continue;
    }
    Tensor zero(sample->dtype(), sample->shape());
    std::vector<Tensor> per_batch;
    for (auto& steps : outs[k]) {
      while (static_cast<int64_t>(steps.size()) < max_len) steps.push_back(zero);
      per_batch.push_back(stack_axis(ctx, steps, 0));
    }
    result.emplace_back(stack_axis(ctx, per_batch, 0));
  }
  return result;
}

// Versions 9 and later (negative axes from 11: ScanParams refuses them before).
std::vector<Value> scan_v9(OpContext& ctx) {
  const ScanParams p = ScanParams::read(ctx, ctx.version());
  const Graph& body = *p.body;
  size_t m = p.num_scan_inputs;
  if (ctx.num_inputs() < m) ctx.fail("fewer inputs than num_scan_inputs");
  size_t n = ctx.num_inputs() - m;
  if (std::string why = scan_state_mismatch(p, n); !why.empty()) ctx.fail(why);
  size_t k_out = p.num_scan_outputs;
  std::vector<int64_t> in_axes = p.input_axes;
  const std::vector<bool>& in_dirs = p.input_reverse;
  const std::vector<bool>& out_dirs = p.output_reverse;

  std::vector<const Tensor*> scans;
  for (size_t j = 0; j < m; ++j) {
    scans.push_back(&ctx.input(n + j));
    in_axes[j] = normalize_axis(ctx, in_axes[j], scans[j]->rank());
  }
  int64_t len = scans[0]->dim(in_axes[0]);
  for (size_t j = 0; j < m; ++j)
    if (scans[j]->dim(in_axes[j]) != len) ctx.fail("scan inputs have different sequence lengths");

  std::vector<Value> state;
  for (size_t i = 0; i < n; ++i) state.push_back(ctx.value(i));
  std::vector<std::vector<Tensor>> outs(k_out);
  for (int64_t t = 0; t < len; ++t) {
    std::vector<Value> in = state;
    for (size_t j = 0; j < m; ++j) in.emplace_back(take_axis(*scans[j], in_axes[j], in_dirs[j] ? len - 1 - t : t));
    std::vector<Value> out = ctx.run_subgraph(body, in);
    for (size_t i = 0; i < n; ++i) state[i] = std::move(out[i]);
    for (size_t k = 0; k < k_out; ++k) {
      const Tensor& so = body_tensor(ctx, out[n + k], n + k);
      if (!outs[k].empty() && outs[k][0].shape() != so.shape())
        ctx.fail("scan output " + std::to_string(k) + " changed shape across iterations");
      outs[k].push_back(so);
    }
  }

  std::vector<Value> result = std::move(state);
  for (size_t k = 0; k < k_out; ++k) {
    int64_t axis = p.output_axes[k];
    if (outs[k].empty()) {
      // Zero iterations: the rank of the output is known only from the body's declared type.
      const TypeInfo& ti = body.outputs[n + k].type;
      int64_t rank = ti.shape ? static_cast<int64_t>(ti.shape->size()) + 1 : 1;
      result.emplace_back(empty_scan_output(ctx, body.outputs[n + k], normalize_axis(ctx, axis, rank)));
      continue;
    }
    axis = normalize_axis(ctx, axis, outs[k][0].rank() + 1);
    if (out_dirs[k]) std::reverse(outs[k].begin(), outs[k].end());  // prepending = reversed order
    result.emplace_back(stack_axis(ctx, outs[k], axis));
  }
  return result;
}
}  // namespace
SONNX_KERNEL("", "Scan", 8, scan_v8, Accuracy::Exact);
SONNX_KERNEL("", "Scan", 9, scan_v9, Accuracy::Exact);
SONNX_KERNEL("", "Scan", 11, scan_v9, Accuracy::Exact);

// Versions 19, 21, 23, 24, 25 only widen the type lists (the documents' text and
// structure are unchanged): the same kernel.
SONNX_KERNEL("", "Scan", 19, scan_v9, Accuracy::Exact);
SONNX_KERNEL("", "Scan", 21, scan_v9, Accuracy::Exact);
SONNX_KERNEL("", "Scan", 23, scan_v9, Accuracy::Exact);
SONNX_KERNEL("", "Scan", 24, scan_v9, Accuracy::Exact);
SONNX_KERNEL("", "Scan", 25, scan_v9, Accuracy::Exact);
namespace {
TypeInfo without_axis(const TypeInfo* t, int64_t axis, Dim* removed, const InferContext& ctx) {
  if (!t || t->kind != TypeInfo::Kind::Tensor) return t ? *t : TypeInfo{};
  TypeInfo out = *t;
  if (out.shape) {
    int64_t a = infer_axis(ctx, axis, static_cast<int64_t>(out.shape->size()), "scan axis");
    if (removed) *removed = (*out.shape)[static_cast<size_t>(a)];
    out.shape->erase(out.shape->begin() + a);
  }
  return out;
}

// State values keep their type; each scan input is sliced along its scan axis (version 8: axis 1
// after the batch axis, which the body does not see); each scan output stacks the body's per-
// iteration output along its scan output axis, of the scan inputs' length.
void scan_shape(InferContext& ctx) {
  const ScanParams p = ScanParams::read(ctx, ctx.version());
  const Graph* body = p.body;
  bool v8 = ctx.version() == 8;
  size_t first = v8 ? 1 : 0;
  size_t m = p.num_scan_inputs;
  if (m + first > ctx.num_inputs()) ctx.fail("num_scan_inputs is out of range");
  size_t n_state = ctx.num_inputs() - first - m;
  if (std::string why = scan_state_mismatch(p, n_state); !why.empty()) ctx.fail(why);
  const std::vector<int64_t>& in_axes = p.input_axes;  // version 8: zeros
  std::vector<TypeInfo> in;
  Dim batch;
  for (size_t i = 0; i < n_state; ++i) {
    const TypeInfo* t = ctx.input_type(first + i);
    in.push_back(v8 ? without_axis(t, 0, &batch, ctx) : (t ? *t : TypeInfo{}));
  }
  Dim length;
  for (size_t j = 0; j < m; ++j) {
    const TypeInfo* t = ctx.input_type(first + n_state + j);
    Dim d;
    TypeInfo slice;
    if (v8) {
      TypeInfo unbatched = without_axis(t, 0, &batch, ctx);
      slice = without_axis(&unbatched, 0, &d, ctx);
    } else {
      slice = without_axis(t, in_axes[j], &d, ctx);
    }
    if (j == 0) length = d;
    else if (!same_dim(length, d)) length = length.value ? length : d;
    in.push_back(slice);
  }
  std::vector<TypeInfo> out = ctx.infer_subgraph(*body, in);
  if (out.size() != ctx.num_outputs())
    ctx.fail("the body has " + std::to_string(out.size()) + " outputs, the node " + std::to_string(ctx.num_outputs()));
  for (size_t i = 0; i < out.size(); ++i) {
    const TypeInfo& t = out[i];
    if (t.kind != TypeInfo::Kind::Tensor) {
      ctx.set_output(i, t);
      continue;
    }
    std::optional<Dims> s = t.shape;
    if (s) {
      if (i >= n_state) {
        size_t k = i - n_state;
        // Version 8: 0, the step axis after the batch axis. (out has the body's N + K outputs.)
        int64_t axis = k < p.output_axes.size() ? p.output_axes[k] : 0;
        axis = infer_axis(ctx, axis, static_cast<int64_t>(s->size()) + 1, "scan output axis");
        s->insert(s->begin() + axis, length);
      }
      if (v8) s->insert(s->begin(), batch);
    }
    ctx.set_output(i, t.elem, s);
  }
}
}  // namespace
SONNX_SHAPE_RULE("", "Scan", (8, 9, 11, 16, 19, 21, 23, 24, 25), scan_shape);
SONNX_PARAMS("", "Scan", (8, 9, 11, 16, 19, 21, 23, 24, 25), ScanParams);
}  // namespace sonnx
