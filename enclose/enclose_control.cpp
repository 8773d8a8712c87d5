// Control flow (If, Loop, Scan, SequenceMap): a subgraph is enclosed by the same walk as a graph,
// reading the outer values' bounds by name. The enclosures decide a branch or an iteration only
// where a condition or a count is exact: a boolean or an integer (an undecided float comparison
// throws Undetermined before it gets here), so the subgraph walked is the one the model runs, and
// its outputs' bounds are the node's. A Scan's iterations are as many as its scan inputs are long
// (a shape: exact), each scan input sliced, each scan output stacked, lo with lo and hi with hi.
// Under the admissible semantics each node of a subgraph is widened by its own allowance; If, Loop
// and Scan add no rounding of their own.
#include <algorithm>
#include <functional>

#include "enclose_ops.h"
#include "reference/ops/params/scan.h"
#include "reference/ops/support/control_flow.h"
#include "reference/ops/support/indexing.h"

namespace sonnx::enclose::control_flow {

// A Loop runs at most this many iterations in the encloser: each is a walk of its body, with the
// bounds of every value it computes.
constexpr int64_t kMaxEnclosedLoopIterations = 10000;

namespace {

const Graph& required_subgraph(const OpCall& c, const char* attr) {
  const Attribute* a = c.node.attr(attr);
  if (!a || !a->g) throw Trap(c.node.label() + ": attribute '" + std::string(attr) + "' (a graph) is required");
  return *a->g;
}

// The subgraph's walk, a refusal or an open value inside naming where it is: "..., in the
// then_branch of If-16".
std::vector<Bounds> walk_labelled(const OpCall& c, const SubgraphWalk& walk, const char* attr, const Graph& g,
                                  std::map<std::string, Bounds> given) {
  std::string where = std::string(", in the ") + attr + " of " + op_name(c);
  try {
    return walk(g, std::move(given));
  } catch (const Unsupported& e) {
    throw Unsupported(std::string(e.what()) + where);
  } catch (const Undetermined& e) {
    throw Undetermined(std::string(e.what()) + where);
  }
}

// A one-element bool input, as the enclosures give it: exact (bool values always are).
bool exact_condition(const OpCall& c, const Bounds& b, const char* what) {
  if (!b.exact()) throw Unsupported("no enclosure for " + op_name(c) + ": " + what + " is not known exactly");
  return support::scalar_bool(c.ctx, b.lo, what);
}

// If: the branch the exact condition selects, its outputs by position.
std::vector<Bounds> enclose_if(const OpCall& c, const SubgraphWalk& walk) {
  bool cond = exact_condition(c, c.input(0), "cond");
  const char* attr = cond ? "then_branch" : "else_branch";
  std::vector<Bounds> out = walk_labelled(c, walk, attr, required_subgraph(c, attr), {});
  if (out.size() != c.node.outputs.size())
    throw Trap(c.node.label() + ": " + attr + " has " + std::to_string(out.size()) + " outputs but the node has " +
               std::to_string(c.node.outputs.size()));
  return out;
}

// Scan outputs of a Loop or a Scan: the bounds of each iteration stacked on a new axis (lo with the
// lo, hi with the hi; exact values are their own lo and hi).
Bounds stack_bounds(const OpCall& c, const std::vector<Bounds>& parts, int64_t axis = 0) {
  std::vector<Tensor> lo, hi;
  for (const Bounds& b : parts) {
    if (!b.is_tensor()) throw Trap(c.node.label() + ": a scan output must be a tensor");
    if (b.type != parts[0].type) throw Trap(c.node.label() + ": a scan output changed element type across iterations");
    lo.push_back(b.lo);
    hi.push_back(b.hi);
  }
  Bounds s{parts[0].type, support::stack_axis(c.ctx, lo, axis), Tensor()};
  s.hi = parts[0].exact() ? s.lo : support::stack_axis(c.ctx, hi, axis);
  return s;
}

// Element `index` of b along `axis`, the axis removed: a Scan's slice of a scan input or a batch entry.
Bounds take_bounds(const Bounds& b, int64_t axis, int64_t index) {
  Bounds s{b.type, support::take_axis(b.lo, axis, index), Tensor()};
  s.hi = b.exact() ? s.lo : support::take_axis(b.hi, axis, index);
  return s;
}

// Loop (reference/ops/Loop.cpp): the body walked once per iteration on the carried values' bounds,
// while the exact trip count M is not reached and the exact condition holds.
std::vector<Bounds> enclose_loop(const OpCall& c, const SubgraphWalk& walk) {
  const Graph& body = required_subgraph(c, "body");
  bool has_m = c.in.size() > 0 && c.in[0];
  bool has_cond = c.in.size() > 1 && c.in[1];
  if (!has_m && !has_cond) throw Trap(c.node.label() + ": neither a trip count M nor a condition is given");
  int64_t trips = 0;
  if (has_m) {
    const Bounds& m = *c.in[0];
    if (!m.exact())
      throw Unsupported("no enclosure for " + op_name(c) + ": its trip count M is a float value, not known exactly");
    if (!is_integer(m.type) || m.lo.size() != 1) throw Trap(c.node.label() + ": M must be a one-element integer tensor");
    trips = m.lo.as_int64(0);
    if (trips > kMaxEnclosedLoopIterations)
      throw Unsupported("no enclosure for " + op_name(c) + ": its trip count M = " + std::to_string(trips) + " exceeds the " +
                        std::to_string(kMaxEnclosedLoopIterations) + " iterations the encloser runs");
  }
  bool cond = has_cond ? exact_condition(c, *c.in[1], "cond") : true;

  size_t n_carried = c.in.size() >= 2 ? c.in.size() - 2 : 0;
  if (body.inputs.size() != n_carried + 2)
    throw Trap(c.node.label() + ": body has " + std::to_string(body.inputs.size()) + " inputs, expected " +
               std::to_string(n_carried + 2));
  if (body.outputs.size() < n_carried + 1)
    throw Trap(c.node.label() + ": body has " + std::to_string(body.outputs.size()) + " outputs, expected at least " +
               std::to_string(n_carried + 1));
  size_t n_scan = body.outputs.size() - 1 - n_carried;
  std::vector<Bounds> carried;
  for (size_t i = 0; i < n_carried; ++i) {
    if (!c.in[2 + i])
      throw Unsupported("no enclosure for " + op_name(c) + ": loop-carried value " + std::to_string(i) +
                        " is omitted (an optional value)");
    carried.push_back(*c.in[2 + i]);
  }
  std::vector<std::vector<Bounds>> scans(n_scan);

  for (int64_t it = 0; (!has_m || it < trips) && cond; ++it) {
    if (it >= kMaxEnclosedLoopIterations)
      throw Unsupported("no enclosure for " + op_name(c) + ": its condition still holds after the " +
                        std::to_string(kMaxEnclosedLoopIterations) + " iterations the encloser runs");
    std::map<std::string, Bounds> given;
    given[body.inputs[0].name] = Bounds::of(Tensor::scalar<int64_t>(it));
    given[body.inputs[1].name] = Bounds::of(Tensor::scalar<bool>(cond));
    for (size_t i = 0; i < n_carried; ++i) given[body.inputs[2 + i].name] = std::move(carried[i]);
    std::vector<Bounds> out = walk_labelled(c, walk, "body", body, std::move(given));
    if (has_cond) cond = exact_condition(c, out[0], "the body's condition output");
    for (size_t i = 0; i < n_carried; ++i) carried[i] = std::move(out[1 + i]);
    for (size_t k = 0; k < n_scan; ++k) scans[k].push_back(std::move(out[1 + n_carried + k]));
  }

  std::vector<Bounds> result = std::move(carried);
  for (size_t k = 0; k < n_scan; ++k)
    result.push_back(scans[k].empty() ? Bounds::of(support::empty_scan_output(c.ctx, body.outputs[1 + n_carried + k], 0))
                                      : stack_bounds(c, scans[k]));
  return result;
}

// ---- Scan (reference/ops/Scan.cpp) ----

// What one Scan sequence runs: the body walked once per step on the carried state and each scan
// input's slice, the state carried from step to step.
struct ScanRun {
  std::vector<Bounds> state;                  // N values, the final state once run
  std::vector<std::vector<Bounds>> elements;  // per scan output, its element of each step
};

// Steps 0..len-1 of the body from `state` over `scans`, each sliced along axes[j] (reversed where
// ScanParams says so).
ScanRun scan_steps(const OpCall& c, const SubgraphWalk& walk, const ScanParams& p, std::vector<Bounds> state,
                   const std::vector<Bounds>& scans, const std::vector<int64_t>& axes, int64_t len) {
  const Graph& body = *p.body;
  const size_t n = p.num_state;
  ScanRun run{std::move(state), std::vector<std::vector<Bounds>>(p.num_scan_outputs)};
  for (int64_t t = 0; t < len; ++t) {
    std::map<std::string, Bounds> given;
    for (size_t i = 0; i < n; ++i) given[body.inputs[i].name] = std::move(run.state[i]);
    for (size_t j = 0; j < scans.size(); ++j)
      given[body.inputs[n + j].name] = take_bounds(scans[j], axes[j], p.input_reverse[j] ? len - 1 - t : t);
    std::vector<Bounds> out = walk_labelled(c, walk, "body", body, std::move(given));
    for (size_t i = 0; i < n; ++i) run.state[i] = std::move(out[i]);
    for (size_t k = 0; k < p.num_scan_outputs; ++k) {
      std::vector<Bounds>& e = run.elements[k];
      if (!e.empty() && e[0].lo.shape() != out[n + k].lo.shape())
        throw Trap(c.node.label() + ": scan output " + std::to_string(k) + " changed shape across iterations");
      e.push_back(std::move(out[n + k]));
    }
  }
  return run;
}

// The node's inputs from `first` on: N initial states, then M scan inputs (none may be omitted).
std::vector<Bounds> scan_operands(const OpCall& c, const ScanParams& p, size_t first, std::vector<Bounds>& scans) {
  if (c.in.size() < first + p.num_scan_inputs) throw Trap(c.node.label() + ": fewer inputs than num_scan_inputs");
  size_t n = c.in.size() - first - p.num_scan_inputs;
  if (n != p.num_state)
    throw Trap(c.node.label() + ": body has " + std::to_string(p.body->inputs.size()) + " inputs, expected " +
               std::to_string(n + p.num_scan_inputs));
  std::vector<Bounds> state;
  for (size_t i = 0; i < n; ++i) state.push_back(c.input(first + i));
  for (size_t j = 0; j < p.num_scan_inputs; ++j) scans.push_back(c.input(first + n + j));
  return state;
}

// Scan-9 and later: each scan input sliced along its axis, each scan output's elements stacked on
// its axis (prepended where its direction is 1).
std::vector<Bounds> enclose_scan_9(const OpCall& c, const SubgraphWalk& walk, const ScanParams& p) {
  std::vector<Bounds> scans;
  std::vector<Bounds> state = scan_operands(c, p, 0, scans);
  std::vector<int64_t> axes = p.input_axes;
  for (size_t j = 0; j < scans.size(); ++j) axes[j] = support::normalize_axis(c.ctx, axes[j], scans[j].lo.rank());
  const int64_t len = scans[0].lo.dim(axes[0]);
  for (size_t j = 0; j < scans.size(); ++j)
    if (scans[j].lo.dim(axes[j]) != len) throw Trap(c.node.label() + ": scan inputs have different sequence lengths");
  ScanRun run = scan_steps(c, walk, p, std::move(state), scans, axes, len);
  std::vector<Bounds> result = std::move(run.state);
  for (size_t k = 0; k < p.num_scan_outputs; ++k) {
    std::vector<Bounds>& e = run.elements[k];
    const ValueInfo& declared = p.body->outputs[p.num_state + k];
    if (e.empty()) {  // no step: the rank only from the body's declared type, as the reference
      int64_t rank = declared.type.shape ? static_cast<int64_t>(declared.type.shape->size()) + 1 : 1;
      int64_t axis = support::normalize_axis(c.ctx, p.output_axes[k], rank);
      result.push_back(Bounds::of(support::empty_scan_output(c.ctx, declared, axis)));
      continue;
    }
    if (p.output_reverse[k]) std::reverse(e.begin(), e.end());  // prepending: the last step first
    result.push_back(stack_bounds(c, e, support::normalize_axis(c.ctx, p.output_axes[k], e[0].lo.rank() + 1)));
  }
  return result;
}

// Scan-8: axis 0 of every input is a batch axis, axis 1 the sequence; batch entry b is scanned for
// sequence_lens[b] steps (exact: an integer input), its scan outputs padded with zeros to the
// longest sequence, as the reference does.
std::vector<Bounds> enclose_scan_8(const OpCall& c, const SubgraphWalk& walk, const ScanParams& p) {
  std::vector<Bounds> scans;
  std::vector<Bounds> inits = scan_operands(c, p, 1, scans);
  if (scans[0].lo.rank() < 2) throw Trap(c.node.label() + ": scan inputs need a batch axis and a sequence axis");
  const int64_t batch = scans[0].lo.dim(0), max_len = scans[0].lo.dim(1);
  for (const Bounds& s : scans)
    if (s.lo.rank() < 2 || s.lo.dim(0) != batch || s.lo.dim(1) != max_len)
      throw Trap(c.node.label() + ": scan inputs disagree on batch size or sequence length");
  for (const Bounds& s : inits)
    if (s.lo.rank() < 1 || s.lo.dim(0) != batch) throw Trap(c.node.label() + ": an initial state lacks the batch axis");
  std::vector<int64_t> lens(static_cast<size_t>(batch), max_len);
  if (!c.in.empty() && c.in[0]) {
    const Bounds& sl = *c.in[0];
    if (sl.type != DType::Int64 || sl.lo.rank() != 1 || sl.lo.dim(0) != batch)
      throw Trap(c.node.label() + ": sequence_lens must be an int64 tensor of shape [batch]");
    for (int64_t b = 0; b < batch; ++b) {
      lens[static_cast<size_t>(b)] = sl.lo.data<int64_t>()[b];
      if (lens[static_cast<size_t>(b)] < 0 || lens[static_cast<size_t>(b)] > max_len)
        throw Trap(c.node.label() + ": sequence_lens[" + std::to_string(b) + "] is outside [0, " + std::to_string(max_len) +
                   "]");
    }
  }
  const size_t n = p.num_state, k_out = p.num_scan_outputs;
  std::vector<std::vector<Bounds>> finals(n);                     // [state][batch]
  std::vector<std::vector<std::vector<Bounds>>> elements(k_out);  // [output][batch][step]
  const std::vector<int64_t> seq_axes(scans.size(), 0);           // within a batch entry
  for (int64_t b = 0; b < batch; ++b) {
    std::vector<Bounds> state, seqs;
    for (const Bounds& s : inits) state.push_back(take_bounds(s, 0, b));
    for (const Bounds& s : scans) seqs.push_back(take_bounds(s, 0, b));
    ScanRun run = scan_steps(c, walk, p, std::move(state), seqs, seq_axes, lens[static_cast<size_t>(b)]);
    for (size_t i = 0; i < n; ++i) finals[i].push_back(std::move(run.state[i]));
    for (size_t k = 0; k < k_out; ++k) elements[k].push_back(std::move(run.elements[k]));
  }
  std::vector<Bounds> result;
  for (size_t i = 0; i < n; ++i) result.push_back(batch == 0 ? inits[i] : stack_bounds(c, finals[i]));
  for (size_t k = 0; k < k_out; ++k) {
    const Bounds* sample = nullptr;  // the element of any step that ran: its type and shape
    for (const auto& steps : elements[k])
      if (!steps.empty()) sample = &steps[0];
    if (!sample) {  // no step anywhere: zeros of the body's declared shape, as the reference
      const ValueInfo& declared = p.body->outputs[n + k];
      Tensor empty = support::empty_scan_output(c.ctx, declared, 0);
      Shape shape = empty.shape();
      shape[0] = max_len;
      shape.insert(shape.begin(), batch);
      bool known = declared.type.shape.has_value();
      if (known)
        for (const Dim& d : *declared.type.shape) known = known && d.value.has_value();
      if (!known && shape_size(shape) != 0)
        throw Trap(c.node.label() + ": no step ran and scan output " + std::to_string(k) + " has no fully declared shape");
      result.push_back(Bounds::of(Tensor(empty.dtype(), shape)));
      continue;
    }
    const Bounds zero = Bounds::of(Tensor(sample->type, sample->lo.shape()));  // a padding step
    std::vector<Bounds> per_batch;
    for (auto& steps : elements[k]) {
      while (static_cast<int64_t>(steps.size()) < max_len) steps.push_back(zero);
      per_batch.push_back(stack_bounds(c, steps));
    }
    result.push_back(stack_bounds(c, per_batch));
  }
  return result;
}

// SequenceMap (reference/ops/SequenceMap.cpp): the body walked once per element of the first input
// sequence, given element e of each sequence input and each tensor input as it is; body output j of
// walk e is element e of output sequence j. The walks are data movement around the body's own nodes:
// SequenceMap adds no rounding.
std::vector<Bounds> enclose_sequence_map(const OpCall& c, const SubgraphWalk& walk) {
  const Graph& body = required_subgraph(c, "body");
  const Bounds& first = c.input(0);
  if (first.kind != Bounds::Kind::Sequence) throw Trap(c.node.label() + ": input 0 must be a sequence");
  size_t n = first.elements.size();
  if (body.inputs.size() != c.in.size())
    throw Trap(c.node.label() + ": body has " + std::to_string(body.inputs.size()) + " inputs but the node has " +
               std::to_string(c.in.size()));
  for (size_t i = 1; i < c.in.size(); ++i) {
    const Bounds& b = c.input(i);
    if (b.kind == Bounds::Kind::Sequence && b.elements.size() != n)
      throw Trap(c.node.label() + ": input " + std::to_string(i) + " has " + std::to_string(b.elements.size()) +
                 " elements but the first sequence has " + std::to_string(n));
    if (b.kind == Bounds::Kind::Optional)
      throw Trap(c.node.label() + ": input " + std::to_string(i) + " must be a sequence or a tensor");
  }
  std::vector<std::vector<Bounds>> outs(body.outputs.size());
  for (size_t e = 0; e < n; ++e) {
    std::map<std::string, Bounds> given;
    for (size_t i = 0; i < c.in.size(); ++i) {
      const Bounds& b = c.input(i);
      given[body.inputs[i].name] = b.kind == Bounds::Kind::Sequence ? b.elements[e] : b;
    }
    std::vector<Bounds> out = walk_labelled(c, walk, "body", body, std::move(given));
    for (size_t j = 0; j < out.size() && j < outs.size(); ++j) {
      if (!out[j].is_tensor()) throw Trap(c.node.label() + ": body output " + std::to_string(j) + " must be a tensor");
      outs[j].push_back(std::move(out[j]));
    }
  }
  std::vector<Bounds> result;
  for (size_t j = 0; j < outs.size(); ++j) {
    const TypeInfo& declared = body.outputs[j].type;  // the element type of an empty output
    DType elem = !outs[j].empty() ? outs[j][0].type : declared.kind == TypeInfo::Kind::Tensor ? declared.elem : DType::Undefined;
    result.push_back(Bounds::sequence(elem, std::move(outs[j])));
  }
  return result;
}

std::vector<Bounds> enclose_scan(const OpCall& c, const SubgraphWalk& walk) {
  const ScanParams p = ScanParams::read(c.ctx, c.version);
  return c.version < 9 ? enclose_scan_8(c, walk, p) : enclose_scan_9(c, walk, p);
}

// The walk the encloser gives a node with graph attributes.
const SubgraphWalk& subgraph_walk(const OpCall& c) {
  if (!c.subgraphs) throw Unsupported("no enclosure for " + op_name(c) + " outside a graph's walk");
  return *c.subgraphs;
}

}  // namespace

SONNX_ENCLOSURE("If", (1, 11, 13, 16, 19, 21, 23, 24, 25), Allowance::own(),
                [](const OpCall& c) { return enclose_if(c, subgraph_walk(c)); });
SONNX_ENCLOSURE("Loop", (1, 11, 13, 16, 19, 21, 23, 24, 25), Allowance::own(),
                [](const OpCall& c) { return enclose_loop(c, subgraph_walk(c)); });
SONNX_ENCLOSURE("Scan", (8, 9, 11, 16, 19, 21, 23, 24, 25), Allowance::own(),
                [](const OpCall& c) { return enclose_scan(c, subgraph_walk(c)); });
SONNX_ENCLOSURE("SequenceMap", (17), Allowance::own(),
                [](const OpCall& c) { return enclose_sequence_map(c, subgraph_walk(c)); });

}  // namespace sonnx::enclose::control_flow
