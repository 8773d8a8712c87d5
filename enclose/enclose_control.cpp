// Control flow (If, Loop, SequenceMap; Scan is refused): a subgraph is enclosed by the same walk as a graph,
// reading the outer values' bounds by name. The enclosures decide a branch or an iteration only
// where a condition or a count is exact: a boolean or an integer (an undecided float comparison
// throws Undetermined before it gets here), so the subgraph walked is the one the model runs, and
// its outputs' bounds are the node's. Under the admissible semantics each node of a subgraph is
// widened by its own allowance; If and Loop add no rounding of their own.
#include <functional>

#include "enclose_ops.h"
#include "reference/ops/support/control_flow.h"
#include "reference/ops/support/indexing.h"

namespace sonnx::enclose::control_flow {

using SubgraphWalk = std::function<std::vector<Bounds>(const Graph&, std::map<std::string, Bounds>)>;
std::vector<Bounds> enclose_control_flow(const OpCall& c, const SubgraphWalk& walk);

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

// Scan outputs of a Loop: the bounds of each iteration stacked on a new axis 0 (lo with the lo,
// hi with the hi; exact values are their own lo and hi).
Bounds stack_bounds(const OpCall& c, const std::vector<Bounds>& parts) {
  std::vector<Tensor> lo, hi;
  for (const Bounds& b : parts) {
    if (!b.is_tensor()) throw Trap(c.node.label() + ": a scan output must be a tensor");
    if (b.type != parts[0].type) throw Trap(c.node.label() + ": a scan output changed element type across iterations");
    lo.push_back(b.lo);
    hi.push_back(b.hi);
  }
  Bounds s{parts[0].type, support::stack_axis(c.ctx, lo, 0), Tensor()};
  s.hi = parts[0].exact() ? s.lo : support::stack_axis(c.ctx, hi, 0);
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

}  // namespace

std::vector<Bounds> enclose_control_flow(const OpCall& c, const SubgraphWalk& walk) {
  if (c.node.op_type == "If") return enclose_if(c, walk);
  if (c.node.op_type == "Loop") return enclose_loop(c, walk);
  if (c.node.op_type == "SequenceMap") return enclose_sequence_map(c, walk);
  // Scan (its axes, directions and version 8's batch axis) and any other operator with a graph.
  throw Unsupported("no enclosure for " + op_name(c) + " (its subgraph is not enclosed)");
}

}  // namespace sonnx::enclose::control_flow
