// unroll_loops and control_flow_refusal (rewrites.h). A Loop whose trip count M is a constant and
// whose condition stays true runs its body exactly M times, in order, each iteration reading the
// previous one's loop-carried values (spec/control_flow.md §3: unrolled, a loop is a chain of
// copies of its body); its scan outputs stack the iterations' values along a new axis 0. M copies
// of the body, an Unsqueeze per scan value and a Concat per scan output compute the same values.
#include <algorithm>
#include <iterator>
#include <map>
#include <set>

#include "attributes.h"
#include "constant.h"
#include "inline_graph.h"
#include "reference/model/names.h"
#include "rewrites.h"
#include "unique_name.h"

namespace sonnx::admit {
namespace {

// The most nodes an unrolling may add (spec/admission.md §4.2); a larger loop stays and is listed.
constexpr int64_t kMaxUnrolledNodes = 10000;
const char* const kExcluded = ": SONNX excludes control flow";

bool is_op(const Node& n, const char* op_type) { return canonical_domain(n.domain).empty() && n.op_type == op_type; }

std::string quoted(const std::string& name) { return "`" + name + "`"; }
// "1 scan output", "2 scan outputs".
std::string count_of(size_t n, const std::string& what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); }

bool is_one_bool(const Tensor& t) { return t.dtype() == DType::Bool && t.size() == 1; }
bool is_true(const Tensor& t) { return is_one_bool(t) && t.data<bool>()[0]; }

std::map<std::string, const Node*> producers(const Graph& g) {
  std::map<std::string, const Node*> p;
  for (const Node& n : g.nodes)
    for (const std::string& o : n.outputs)
      if (!o.empty()) p[o] = &n;
  return p;
}

// The graph inputs `value` is computed from, walking its producers back through g's nodes (the
// values their subgraphs capture included). A fixed input is an initializer, no longer an input.
std::set<std::string> inputs_behind(const Graph& g, const std::string& value) {
  std::set<std::string> inputs;
  for (const ValueInfo& v : g.inputs) inputs.insert(v.name);
  const std::map<std::string, const Node*> producer = producers(g);
  std::set<std::string> seen, found;
  std::vector<std::string> todo{value};
  while (!todo.empty()) {
    std::string v = std::move(todo.back());
    todo.pop_back();
    if (v.empty() || !seen.insert(v).second) continue;
    if (inputs.count(v)) {
      found.insert(v);
      continue;
    }
    auto it = producer.find(v);
    if (it == producer.end()) continue;  // an initializer
    const Node& p = *it->second;
    todo.insert(todo.end(), p.inputs.begin(), p.inputs.end());
    if (p.has_subgraph())
      for (const std::string& captured : implicit_inputs(p)) todo.push_back(captured);
  }
  return found;
}

// Where a value that is not constant comes from, as the refusals say it: "input `x` that is not
// fixed" or "`c`, computed from inputs `a` and `b` that are not fixed", and the --fix options that
// make it constant. Both empty when it depends on no graph input.
struct Origin {
  std::string text;
  std::string fix;
};

Origin origin_of(const Graph& g, const std::string& value) {
  const std::set<std::string> inputs = inputs_behind(g, value);
  if (inputs.empty()) return {};
  std::string listed, options;
  size_t k = 0;
  for (const std::string& in : inputs) {
    listed += (k == 0 ? "" : k + 1 == inputs.size() ? " and " : ", ") + quoted(in);
    options += (k == 0 ? "--fix " : " --fix ") + in + "=…";
    ++k;
  }
  const bool one = inputs.size() == 1;
  std::string text = one ? "input " + listed + " that is not fixed" : "inputs " + listed + " that are not fixed";
  if (!one || *inputs.begin() != value) text = quoted(value) + ", computed from " + text;
  return {text, (one ? "fix it with " : "fix them with ") + options};
}

// "<subject> is <origin>: SONNX excludes control flow; fix it with --fix x=…", or, when the value
// depends on no graph input, "<subject> `v` is not a constant after folding: ...".
std::string not_constant(const Graph& g, const std::string& subject, const std::string& value) {
  Origin o = origin_of(g, value);
  if (o.text.empty()) return subject + " " + quoted(value) + " is not a constant after folding" + kExcluded;
  return subject + " is " + o.text + kExcluded + "; " + o.fix;
}

// What unrolling a Loop takes, or why it is not unrolled.
struct LoopPlan {
  std::string refusal;  // "" when the loop is unrolled
  const Graph* body = nullptr;
  int64_t trips = 0;
  bool starts_false = false;  // the initial condition is a constant false: no iteration runs
  bool conditioned = false;   // an initial condition is given, so the body's condition output is read
  size_t carried = 0;         // N loop-carried values
  size_t scans = 0;           // K scan outputs
};

LoopPlan refused(std::string why) {
  LoopPlan p;
  p.refusal = std::move(why);
  return p;
}

// Whether the body's condition output is true at every iteration that runs: its condition input
// passed through (Identity copies included: it is true while the loop runs), or a constant true
// (an initializer of the body or of g, or a Constant node of the body).
bool condition_stays_true(const Graph& g, const Graph& body) {
  const std::map<std::string, const Node*> producer = producers(body);
  std::string v = body.outputs[0].name;
  for (size_t hops = 0; hops <= body.nodes.size(); ++hops) {
    if (v == body.inputs[1].name) return true;
    const Tensor* t = constant(body, v);
    if (!t) t = constant(g, v);
    if (t) return is_true(*t);
    auto it = producer.find(v);
    if (it == producer.end()) return false;
    const Node& p = *it->second;
    if (is_op(p, "Constant")) {
      const Attribute* value = p.attr("value");
      return value && value->type == Attribute::Type::Tensor && is_true(value->t);
    }
    if (!is_op(p, "Identity") || p.inputs.size() != 1) return false;
    v = p.inputs[0];
  }
  return false;
}

// The trip count into plan.trips, or why it is not a usable constant.
std::string read_trip_count(const Graph& g, const Node& n, LoopPlan& plan) {
  if (n.inputs.empty() || n.inputs[0].empty())
    return std::string("Loop without a trip count: it runs until a condition computed per iteration is false") + kExcluded;
  const Tensor* m = constant(g, n.inputs[0]);
  if (!m) return not_constant(g, "Loop whose trip count", n.inputs[0]);
  if (m->dtype() != DType::Int64 || m->size() != 1)
    return "Loop whose trip count is not one int64 value" + std::string(kExcluded);
  plan.trips = m->data<int64_t>()[0];
  if (plan.trips < 0) return "Loop whose trip count is negative (M = " + std::to_string(plan.trips) + ")" + kExcluded;
  return "";
}

// A constant false initial condition into plan.starts_false, or why the condition is not usable.
std::string read_initial_condition(const Graph& g, const Node& n, LoopPlan& plan) {
  // Absent: every iteration up to M runs, the body's condition output ignored (reference/ops/Loop.cpp).
  if (n.inputs.size() < 2 || n.inputs[1].empty()) return "";
  plan.conditioned = true;
  const Tensor* c = constant(g, n.inputs[1]);
  if (!c) return not_constant(g, "Loop whose initial condition", n.inputs[1]);
  if (!is_one_bool(*c)) return "Loop whose initial condition is not one bool value" + std::string(kExcluded);
  plan.starts_false = !c->data<bool>()[0];
  return "";
}

// The body's signature against the node's: (iteration number, condition, N carried) ->
// (condition, N carried, K scans), the node giving N initial values and N + K outputs.
std::string read_signature(const Node& n, LoopPlan& plan) {
  const Attribute* a = n.attr("body");
  if (!a || !a->g) return "Loop without a body graph" + std::string(kExcluded);
  plan.body = a->g.get();
  plan.carried = n.inputs.size() > 2 ? n.inputs.size() - 2 : 0;
  const Graph& body = *plan.body;
  if (body.inputs.size() != plan.carried + 2 || n.outputs.size() < plan.carried || body.outputs.size() != n.outputs.size() + 1)
    return "Loop whose body does not match its inputs and outputs" + std::string(kExcluded);
  plan.scans = n.outputs.size() - plan.carried;
  for (size_t k = 0; k < plan.carried; ++k)
    if (n.inputs[2 + k].empty()) return "Loop with an omitted initial loop-carried value" + std::string(kExcluded);
  return "";
}

LoopPlan plan_unrolling(const Graph& g, const Node& n) {
  LoopPlan plan;
  if (std::string why = read_signature(n, plan); !why.empty()) return refused(why);
  if (std::string why = read_trip_count(g, n, plan); !why.empty()) return refused(why);
  if (std::string why = read_initial_condition(g, n, plan); !why.empty()) return refused(why);
  if (plan.starts_false) plan.trips = 0;
  const Graph& body = *plan.body;
  if (plan.trips > 0 && plan.conditioned && !condition_stays_true(g, body))
    return refused("Loop whose body computes its condition " + quoted(body.outputs[0].name) +
                   " at each iteration (it is neither the condition input passed through nor a constant true)" + kExcluded);
  // Each iteration copies the body's nodes and adds an Unsqueeze per scan output; counting at least
  // one node per iteration bounds M even for a body without nodes.
  const int64_t per_iteration = std::max<int64_t>(1, static_cast<int64_t>(body.nodes.size() + plan.scans));
  if (plan.trips > kMaxUnrolledNodes / per_iteration)
    return refused("Loop of M = " + std::to_string(plan.trips) + " iterations over a body of " +
                   std::to_string(body.nodes.size()) + " nodes" +
                   (plan.scans ? " and " + count_of(plan.scans, "scan output") : "") + ": unrolling it makes more than " +
                   std::to_string(kMaxUnrolledNodes) + " nodes" + kExcluded);
  if (plan.trips == 0 && plan.scans > 0)
    return refused("Loop with " + count_of(plan.scans, "scan output") +
                   " and no iteration: the shape of an empty scan output comes from no iteration" + kExcluded);
  return plan;
}

// The nodes that replace a Loop the plan unrolls: M copies of its body, each copy's values under
// fresh names (captured values keep theirs), then the stacking of each scan output and Identity
// copies of the loop-carried outputs no copied node writes.
class Unroller {
 public:
  Unroller(Graph& g, const Node& loop, const LoopPlan& plan, int64_t opset)
      : g_(g), loop_(loop), plan_(plan), opset_(opset), base_(loop.name.empty() ? "Loop" : loop.name) {
    collect_all_names(g, taken_);
    for (const Node& n : g.nodes)
      if (!n.name.empty()) taken_.insert(n.name);
  }

  std::vector<Node> nodes() {
    std::vector<std::string> carried;
    for (size_t k = 0; k < plan_.carried; ++k) carried.push_back(loop_.inputs[2 + k]);
    std::vector<std::vector<std::string>> scans(plan_.scans);
    if (plan_.trips > 0) add_shared_constants();
    for (int64_t i = 0; i < plan_.trips; ++i) {
      const std::vector<std::string> outputs = iteration(i, carried, i + 1 == plan_.trips);
      for (size_t k = 0; k < plan_.carried; ++k) carried[k] = outputs[1 + k];
      for (size_t k = 0; k < plan_.scans; ++k) scans[k].push_back(outputs[1 + plan_.carried + k]);
    }
    for (size_t k = 0; k < plan_.carried; ++k) write_carried_output(loop_.outputs[k], carried[k]);
    for (size_t k = 0; k < plan_.scans; ++k) stack(loop_.outputs[plan_.carried + k], scans[k]);
    return std::move(nodes_);
  }

 private:
  std::string fresh(const std::string& base) { return unique_name(taken_, base); }

  std::string add_initializer(const std::string& base, Tensor value) {
    std::string name = fresh(base);
    g_.initializers.emplace_back(name, std::move(value));
    return name;
  }

  Node node(const std::string& op_type, std::vector<std::string> inputs, std::vector<std::string> outputs) {
    Node n;
    n.op_type = op_type;
    n.name = fresh(base_ + "_" + op_type);
    n.inputs = std::move(inputs);
    n.outputs = std::move(outputs);
    return n;
  }

  // What every copy reads alike: the body's initializers (copied once: they are constants) and the
  // condition, true at every iteration that runs.
  void add_shared_constants() {
    const Graph& body = *plan_.body;
    for (const auto& [name, value] : body.initializers)
      if (constant(body, name)) shared_[name] = add_initializer(name, value);
    shared_[body.inputs[1].name] = add_initializer(base_ + "_cond", Tensor::scalar<bool>(true));
  }

  // Copy i of the body, reading `carried` (the previous copy's loop-carried values, or the Loop's
  // initial ones); returns the names of its outputs. Body value_info is not carried over:
  // declare_types declares every value of the result.
  std::vector<std::string> iteration(int64_t i, const std::vector<std::string>& carried, bool last) {
    Graph copy = *plan_.body;
    own_subgraphs(copy);  // the reads of its nested graphs are renamed for this copy only
    const std::string suffix = "_" + std::to_string(i);
    Renames r = shared_;
    r[copy.inputs[0].name] = add_initializer(base_ + "_iter" + suffix, Tensor::scalar<int64_t>(i));
    for (size_t k = 0; k < carried.size(); ++k) r[copy.inputs[2 + k].name] = carried[k];
    const Renames direct = last ? written_directly(copy) : Renames{};
    for (const Node& b : copy.nodes)
      for (const std::string& o : b.outputs)
        if (!o.empty()) r[o] = direct.count(o) ? direct.at(o) : fresh(o + suffix);
    for (Node& b : copy.nodes) {
      for (std::string& o : b.outputs) o = renamed(r, o);
      if (!b.name.empty()) b.name = fresh(b.name + suffix);
    }
    rename_captures(copy, r);
    std::vector<std::string> outputs;
    for (const ValueInfo& o : copy.outputs) outputs.push_back(o.name);
    std::move(copy.nodes.begin(), copy.nodes.end(), std::back_inserter(nodes_));
    return outputs;
  }

  // In the last copy, the node computing a loop-carried value writes the Loop's output name (once
  // per value: a value returned twice is copied for the second output).
  Renames written_directly(const Graph& copy) const {
    std::set<std::string> computed;
    for (const Node& b : copy.nodes) computed.insert(b.outputs.begin(), b.outputs.end());
    Renames direct;
    for (size_t k = 0; k < plan_.carried; ++k) {
      const std::string& value = copy.outputs[1 + k].name;
      if (!loop_.outputs[k].empty() && computed.count(value) && !direct.count(value)) direct[value] = loop_.outputs[k];
    }
    return direct;
  }

  void write_carried_output(const std::string& output, const std::string& value) {
    if (!output.empty() && output != value) nodes_.push_back(node("Identity", {value}, {output}));
  }

  // A scan output: the iterations' values, each given a new axis 0, concatenated along it.
  void stack(const std::string& output, const std::vector<std::string>& values) {
    if (output.empty()) return;
    std::vector<std::string> unsqueezed;
    for (size_t i = 0; i < values.size(); ++i) {
      unsqueezed.push_back(fresh(output + "_" + std::to_string(i)));
      Node u = node("Unsqueeze", {values[i]}, {unsqueezed.back()});
      // Unsqueeze reads its axes from an attribute before opset 13, from an input since.
      if (opset_ < 13) set_attribute(u, ints_attribute("axes", {0}));
      else u.inputs.push_back(axis_zero());
      nodes_.push_back(std::move(u));
    }
    Node concat = node("Concat", unsqueezed, {output});
    set_attribute(concat, int_attribute("axis", 0));
    nodes_.push_back(std::move(concat));
  }

  const std::string& axis_zero() {
    if (axis_zero_.empty()) axis_zero_ = add_initializer(base_ + "_axis0", Tensor::from_vector<int64_t>({1}, {0}));
    return axis_zero_;
  }

  Graph& g_;
  const Node& loop_;
  const LoopPlan& plan_;
  int64_t opset_;
  std::string base_;
  std::set<std::string> taken_;
  Renames shared_;
  std::string axis_zero_;
  std::vector<Node> nodes_;
};

std::string unrolled_detail(const LoopPlan& plan) {
  if (plan.starts_false) return "the initial condition is constant false: no iteration runs, the initial values in its place";
  const std::string m = std::to_string(plan.trips);
  return "the trip count is constant " + m + " and the condition stays true: " + m + " copies of the body's " +
         std::to_string(plan.body->nodes.size()) + " nodes in its place";
}

// Why an If was not specialised (specialise.cpp takes every If whose condition is one constant
// bool and whose branch gives the If's outputs).
std::string if_refusal(const Graph& g, const Node& n) {
  if (n.inputs.empty() || n.inputs[0].empty()) return "If without a condition" + std::string(kExcluded);
  const std::string& cond = n.inputs[0];
  const Tensor* c = constant(g, cond);
  if (!c) {
    Origin o = origin_of(g, cond);
    if (o.text.empty()) return "If whose condition " + quoted(cond) + " is not a constant after folding" + kExcluded;
    return "If on " + o.text + kExcluded + "; " + o.fix;
  }
  if (!is_one_bool(*c)) return "If on the constant " + quoted(cond) + ", which is not one bool value" + kExcluded;
  return "If whose " + std::string(c->data<bool>()[0] ? "then" : "else") + " branch does not give its " +
         std::to_string(n.outputs.size()) + " outputs" + kExcluded;
}

}  // namespace

bool unroll_loops(Model& m, ChangeLog& log) {
  Graph& g = m.graph;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    if (!is_op(g.nodes[i], "Loop")) continue;
    const Node loop = g.nodes[i];  // a copy (holding the body) that outlives its place in the list
    const LoopPlan plan = plan_unrolling(g, loop);
    if (!plan.refusal.empty()) continue;
    std::vector<Node> replacement = Unroller(g, loop, plan, m.opset("")).nodes();
    const auto at = g.nodes.begin() + static_cast<std::ptrdiff_t>(i);
    g.nodes.insert(g.nodes.erase(at), std::make_move_iterator(replacement.begin()), std::make_move_iterator(replacement.end()));
    log.add("specialise", loop.label(), "SONNX-NO-CONTROL-FLOW", unrolled_detail(plan));
    return true;
  }
  return false;
}

std::string control_flow_refusal(const Graph& g, const Node& n) {
  if (is_op(n, "If")) return if_refusal(g, n);
  if (is_op(n, "Scan")) return "Scan is not unrolled by admit" + std::string(kExcluded);
  if (!is_op(n, "Loop")) return "";
  std::string why = plan_unrolling(g, n).refusal;
  return why.empty() ? "Loop left in place (unroll_loops would unroll it)" + std::string(kExcluded) : why;
}

}  // namespace sonnx::admit
