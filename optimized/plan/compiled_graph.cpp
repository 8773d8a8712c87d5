// Relies on execution.mlw Dataflow.topological_order_is_schedule: every topological order is a valid complete schedule.
// Relies on execution.mlw Kahn.kahn: Kahn's algorithm returns a topological order of every node, or reports a cycle exactly when there is one.
// Relies on composition.mlw Validated.validated_schedule: on a graph satisfying STRUCT-SSA and STRUCT-DEFINED, Kahn's algorithm on the successor lists succeeds iff STRUCT-ACYCLIC holds, and its order is then a complete execution.
// Relies on execution.mlw Schedule.kahn_order_topological: on the successor lists of a graph, an order in which every edge goes forward (Kahn's success) is a Dataflow.topological order.
// Relies on execution.mlw Schedule.schedule: Kahn's algorithm on the successor lists of a graph returns a Dataflow.topological order (a complete execution, kahn_order_runs), or fails only when the graph has no topological order.
#include "compiled_graph.h"

#include <algorithm>
#include <ranges>
#include <set>

#include "fusion.h"
#include "sonnx/errors.h"
#include "reference/model/names.h"
#include "reference/ops/op_table.h"

namespace sonnx {

std::string Step::label() const {
  std::string s = node->label();
  if (folded) s += " + " + folded->op_type + " (folded)";
  for (const Node* f : fused) s += " + " + f->op_type;
  return s;
}

CompiledGraph::CompiledGraph(const Model& model, const Graph& g, const CompileOptions& options, Graph* weights_owner,
                             const CompiledGraph* plain_source)
    : model_(&model), options_(options), graph_(&g) {
  if (weights_owner && weights_owner != &g) throw InternalError("CompiledGraph: the weights' owner is another graph");
  for (const auto& in : g.inputs) input_slots_.push_back(add_slot(in.name));
  // Initializers are read in place (views): the graph owns them and outlives this plan.
  for (const auto& [name, t] : g.initializers)
    constants_.emplace_back(add_slot(name), t.dtype() == DType::String || t.dtype() == DType::Undefined
                                                ? Value(t)
                                                : Value(Tensor::view(t.dtype(), t.shape(), const_cast<std::byte*>(t.raw()))));
  // Names read here but defined by an enclosing scope.
  for (const auto& name : free_names(g)) outer_slots_.push_back(add_slot(name));
  build_steps(model, options, options.hold_weights ? weights_owner : nullptr, plain_source);
  for (const auto& o : g.outputs) {
    int s = slot_of(o.name);
    if (s < 0) throw Trap("graph " + g.path + ": output '" + o.name + "' is never defined");
    output_slots_.push_back(s);
  }
  is_output_.assign(num_slots(), 0);
  for (int s : output_slots_) is_output_[static_cast<size_t>(s)] = 1;
  build_dependencies();
  decide_kinds();
  choose_layouts();
  mark_foldable();
  // In every build: the model's well-formedness as the schedule sees it (a Trap: a model run
  // without the check may break it), then the tables the executors use against the steps (an
  // InternalError: a bug here).
  if (std::string why = check_well_formed(*this); !why.empty()) throw Trap("graph " + g.path + " is not well formed: " + why);
  if (std::string why = check_step_tables(*this); !why.empty()) throw InternalError("graph " + g.path + ": " + why);
  for (const auto& n : g.nodes)
    for (const auto& a : n.attributes) {
      if (a.g) subgraphs_[a.g.get()] = std::make_unique<CompiledGraph>(model, *a.g, options);
      for (const auto& sg : a.graphs) subgraphs_[sg.get()] = std::make_unique<CompiledGraph>(model, *sg, options);
    }
}

int CompiledGraph::add_slot(const std::string& name) {
  auto [it, inserted] = slot_index_.emplace(name, static_cast<int>(slot_names_.size()));
  if (inserted) slot_names_.push_back(name);
  return it->second;
}

int CompiledGraph::slot_of(const std::string& name) const {
  auto it = slot_index_.find(name);
  return it == slot_index_.end() ? -1 : it->second;
}

const CompiledGraph* CompiledGraph::subgraph(const Graph* g) const {
  auto it = subgraphs_.find(g);
  return it == subgraphs_.end() ? nullptr : it->second.get();
}

std::unique_ptr<CompiledGraph> CompiledGraph::compile_other(const Graph& g) const {
  return std::make_unique<CompiledGraph>(*model_, g, options_);
}

namespace {
// Initializers of g that one node reads, once, and that are not graph outputs or inputs: the
// weights a kernel may hold (a subgraph's capture counts as a read).
std::set<std::string> read_once(const Graph& g) {
  std::map<std::string, int> reads;
  for (const auto& [name, t] : g.initializers) reads[name] = 0;
  for (const auto& n : g.nodes) {
    for (const auto& i : n.inputs)
      if (auto it = reads.find(i); it != reads.end()) ++it->second;
    for (const auto& c : implicit_inputs(n))
      if (auto it = reads.find(c); it != reads.end()) it->second += 2;
  }
  for (const auto& o : g.outputs) reads.erase(o.name);
  for (const auto& in : g.inputs) reads.erase(in.name);  // a default a run may replace
  std::set<std::string> once;
  for (const auto& [name, count] : reads)
    if (count == 1) once.insert(name);
  return once;
}
}  // namespace

void CompiledGraph::release(Tensor& t, const std::string& name) {
  t = Tensor::held(t.dtype(), t.shape());  // the last owner of the plain bytes lets go
  int slot = slot_of(name);
  for (auto& [s, v] : constants_)
    if (s == slot) v = Value(t);
}

void CompiledGraph::hold_weights(const Step& step, const std::vector<std::string>& input_names,
                                 std::map<std::string, Tensor*>& holdable) {
  for (size_t k = 0; k < input_names.size(); ++k) {
    auto it = holdable.find(input_names[k]);
    if (it == holdable.end() || !step.fast->hold_input(k)) continue;
    release(*it->second, it->first);
    holdable.erase(it);
  }
}

Tensor CompiledGraph::plain_value(const std::string& name) const {
  int slot = slot_of(name);
  for (const auto& [s, v] : constants_)
    if (s == slot && v.is_tensor()) return v.tensor.is_held() ? plain_constant(slot) : Tensor(v.tensor);
  throw InternalError("'" + name + "' is no constant of graph " + graph_->path);
}

Tensor CompiledGraph::plain_constant(int slot) const {
  for (int i : readers(slot)) {
    const Step& step = steps_[static_cast<size_t>(i)];
    for (size_t k = 0; k < step.inputs.size(); ++k)
      if (step.inputs[k] == slot && step.fast) return step.fast->plain_input(k);
  }
  throw InternalError("no kernel holds '" + slot_name(slot) + "'");
}

void CompiledGraph::build_steps(const Model& model, const CompileOptions& options, Graph* weights_owner,
                                const CompiledGraph* plain_source) {
  const Graph& g = *graph_;
  // The weights a kernel may hold, and that a folded Conv's originals release (by name).
  std::map<std::string, Tensor*> holdable;
  if (weights_owner) {
    std::set<std::string> once = read_once(g);
    for (auto& [name, t] : weights_owner->initializers)
      if (once.count(name) && !t.is_held()) holdable[name] = &t;
  }
  // An initializer that is also a graph input is only that input's default (a run may give
  // another tensor): no kernel may prepare with it as a constant. A weight that plain_source's
  // kernels hold, kernels here prepare with its plain values.
  std::map<std::string, const Tensor*> constants;
  for (const auto& [name, t] : g.initializers) {
    bool rebuilt = t.is_held() && plain_source && !plain_source->readers(plain_source->slot_of(name)).empty();
    constants[name] = rebuilt ? &own_.emplace_back(plain_source->plain_value(name)) : &t;
  }
  // A Conv's weights and bias with what follows folded in, under these names; plain_source's when it
  // folded them (its original weights may be held).
  const VersionOf version_of = [&model](const Node& n) { return resolve_op(model, n).version; };
  auto folded_name = [](const Node& conv, int k) { return conv.outputs[0] + (k == 1 ? "::folded_W" : "::folded_B"); };
  auto fold = [&](const Node& conv, const std::vector<const Node*>& folded, Tensor& w, Tensor& b) {
    if (!plain_source || plain_source->slot_of(folded_name(conv, 1)) < 0)
      return fold_into_conv(g, conv, folded, version_of, w, b);
    w = plain_source->plain_value(folded_name(conv, 1));
    b = plain_source->plain_value(folded_name(conv, 2));
    return true;
  };
  for (const auto& in : g.inputs) constants.erase(in.name);
  std::map<std::string, const TypeInfo*> declared;  // what the graph says of its values' types
  for (const auto* list : {&g.inputs, &g.value_info, &g.outputs})
    for (const auto& v : *list) declared.emplace(v.name, &v.type);
  // A step for node n (with `fused` folded in when the request says so); no slots yet.
  // `extra_inputs`: what a fused pattern's later nodes read (FusedGroup::extra_inputs).
  auto make_step = [&](const Node& n, std::vector<const Node*> fused, FastKernelRequest req, const std::string& sum_input,
                       const std::vector<std::string>& extra_inputs) {
    Step step;
    step.node = &n;
    step.fused = std::move(fused);
    step.opset = node_opset(model, n);
    OpResolution r = resolve_op(model, n, step.opset);
    step.version = r.version;
    step.kernel = r.kernel;
    for (const Node* m : step.fused) {
      OpResolution rm = resolve_op(model, *m);
      step.fused_versions.push_back(rm.version);
      step.fused_kernels.push_back(rm.kernel);
    }
    if (options.fast_kernels && step.kernel) {
      req.node = &n;
      if (req.fused_sum || !extra_inputs.empty()) {  // the kernel sees the Add's other operand as one more input
        fused_nodes_.push_back(std::make_unique<Node>(n));
        if (req.fused_sum) fused_nodes_.back()->inputs.push_back(sum_input);
        for (const auto& i : extra_inputs) fused_nodes_.back()->inputs.push_back(i);
        req.node = fused_nodes_.back().get();
      }
      if (!req.fused_pattern.empty()) {
        req.fused_nodes = step.fused;
        req.fused_versions = step.fused_versions;
      }
      req.version = r.version;
      req.constants = constants;
      for (const auto& i : req.node->inputs) {
        auto it = declared.find(i);
        req.input_types.push_back(it == declared.end() ? TypeInfo{} : *it->second);
      }
      step.fast = make_fast_kernel(req);
    }
    return step;
  };
  auto add_step = [&](Step step, const std::string& sum_input, const std::vector<std::string>& extra_inputs) {
    const Node& first = *step.node;
    const Node& last = step.fused.empty() ? first : *step.fused.back();
    for (const auto& i : first.inputs) step.inputs.push_back(i.empty() ? -1 : add_slot(i));
    if (!sum_input.empty()) step.inputs.push_back(add_slot(sum_input));
    for (const auto& i : extra_inputs) step.inputs.push_back(add_slot(i));
    for (const auto& o : last.outputs) step.outputs.push_back(o.empty() ? -1 : add_slot(o));
    for (const auto& c : implicit_inputs(first)) step.captures.push_back(add_slot(c));
    if (!holdable.empty() && step.fast) {
      std::vector<std::string> names = first.inputs;
      if (!sum_input.empty()) names.push_back(sum_input);
      names.insert(names.end(), extra_inputs.begin(), extra_inputs.end());
      hold_weights(step, names, holdable);
    }
    steps_.push_back(std::move(step));
  };
  // A Constant node with a tensor `value`, or an Identity of a constant (as exporters write to
  // share a weight), is a constant of the compiled graph, not a step: its value is known now, fast
  // kernels may prepare with it (weights from Constant nodes), and no run rebuilds it.
  std::set<const Node*> constant_nodes;
  if (options.fast_kernels)
    for (const auto& n : g.nodes) {
      if (!n.domain.empty() || n.outputs.size() != 1 || n.outputs[0].empty()) continue;
      const Tensor* value = nullptr;
      if (n.op_type == "Constant" && n.attributes.size() == 1) {
        const Attribute* v = n.attr("value");
        if (v && v->type == Attribute::Type::Tensor && v->t.defined()) value = &v->t;
      } else if (n.op_type == "Identity" && n.inputs.size() == 1 && n.attributes.empty()) {
        auto it = constants.find(n.inputs[0]);
        if (it != constants.end()) value = it->second;
      }
      if (!value) continue;
      constant_nodes.insert(&n);
      constants[n.outputs[0]] = value;
      const Tensor& t = *value;
      constants_.emplace_back(add_slot(n.outputs[0]),
                              t.dtype() == DType::String
                                  ? Value(t)
                                  : Value(Tensor::view(t.dtype(), t.shape(), const_cast<std::byte*>(t.raw()))));
    }
  for (auto& group : group_nodes(g, options.fuse && options.fast_kernels, version_of, fold)) {
    const Node* first = group.nodes.front();
    if (constant_nodes.count(first)) continue;
    auto fused_begin = group.nodes.begin() + 1;
    if (!group.folded.empty()) {
      // The Conv with the BatchNormalization (or scale and shift) folded in: new weights and bias,
      // the last folded node's output.
      auto conv = std::make_unique<Node>(*first);
      conv->inputs.resize(3);
      conv->outputs = group.folded.back()->outputs;
      for (int k : {1, 2}) {
        std::string name = folded_name(*first, k);
        Tensor& t = own_.emplace_back(std::move(k == 1 ? group.folded_w : group.folded_b));
        constants[name] = &t;
        constants_.emplace_back(add_slot(name), Value(Tensor::view(DType::Float, t.shape(), t.raw())));
        if (weights_owner) holdable[name] = &t;
        // No step reads the original any more: it goes (a compilation with this one as its
        // plain_source takes the folded values). The folded nodes' parameters are small, and
        // group_nodes reads a scale and shift's values: they stay.
        const std::string& original = k < static_cast<int>(first->inputs.size()) ? first->inputs[static_cast<size_t>(k)] : "";
        if (auto it = holdable.find(original); it != holdable.end()) {
          release(*it->second, original);
          holdable.erase(it);
        }
        conv->inputs[static_cast<size_t>(k)] = std::move(name);
      }
      first = fused_nodes_.emplace_back(std::move(conv)).get();
      fused_begin += static_cast<std::ptrdiff_t>(group.folded.size());
    }
    std::vector<const Node*> fused(fused_begin, group.nodes.end());
    Step step = make_step(*first, fused, group.request, group.sum_input, group.extra_inputs);
    if (!group.folded.empty()) step.folded = group.folded.front();
    if (fused.empty() || step.fast) {
      add_step(std::move(step), group.sum_input, group.extra_inputs);
      continue;
    }
    if (!group.folded.empty()) {  // declined fused: the folded Conv, then the rest one by one
      add_step(make_step(*first, {}, {}, "", {}), "", {});
      for (const Node* m : fused) add_step(make_step(*m, {}, {}, "", {}), "", {});
      continue;
    }
    // The fast kernel declined the fused form: run the nodes one by one.
    for (const Node* m : group.nodes) add_step(make_step(*m, {}, {}, "", {}), "", {});
  }
}

void CompiledGraph::decide_kinds() {
  for (Step& step : steps_) {
    const std::string& op = step.node->op_type;
    step.shape_only = op == "Shape" || op == "Size";
    step.view = step.fast && step.fast->output_is_input_view() && step.fused.empty() && !step.inputs.empty() &&
                step.outputs.size() == 1;
    step.unfused_when_refused = !step.fused.empty() && (step.fused.front()->op_type == "Add" || op != "Conv");
  }
}

void CompiledGraph::mark_foldable() {
  std::vector<char> known(num_slots(), 0);  // constants and outputs of foldable steps
  for (const auto& [s, v] : constants_) known[static_cast<size_t>(s)] = 1;
  for (int s : input_slots_) known[static_cast<size_t>(s)] = 0;  // an input given at run time overrides its default
  for (Step& step : steps_) {
    const Node& n = *step.node;
    bool deterministic = step.fused.empty() && !step.folded && step.captures.empty() && step.kernel &&
                         step.kernel->accuracy != Accuracy::Random && n.domain.empty() && !n.has_subgraph();
    bool shape_of = step.reads_only_shape() && step.inputs.size() == 1;
    bool from_known = !step.inputs.empty();
    for (int s : step.inputs) from_known = from_known && (s < 0 || known[static_cast<size_t>(s)]);
    step.foldable = deterministic && (shape_of || from_known);
    if (step.foldable)
      for (int s : step.outputs)
        if (s >= 0) known[static_cast<size_t>(s)] = 1;
  }
}

void CompiledGraph::build_dependencies() {
  size_t n = steps_.size();
  producer_.assign(num_slots(), -1);
  readers_.assign(num_slots(), {});
  for (size_t i = 0; i < n; ++i)
    for (int s : steps_[i].outputs)
      if (s >= 0) {
        if (producer_[static_cast<size_t>(s)] >= 0)
          throw Trap("value '" + slot_names_[static_cast<size_t>(s)] + "' is assigned twice");
        producer_[static_cast<size_t>(s)] = static_cast<int>(i);
      }
  // Dependencies in node-list order; then renumber the steps in Kahn's order.
  auto step_graph = [&] {
    std::vector<std::vector<int>> writes(n), reads(n);
    for (size_t i = 0; i < n; ++i) {
      writes[i] = steps_[i].outputs;
      reads[i] = steps_[i].inputs;
      reads[i].insert(reads[i].end(), steps_[i].captures.begin(), steps_[i].captures.end());
    }
    return DependencyGraph(writes, reads);
  };
  auto order = step_graph().topological_order();
  if (!order) throw Trap("graph " + graph_->path + " has a cycle (STRUCT-ACYCLIC)");
  std::vector<size_t> position(n);
  for (size_t k = 0; k < n; ++k) position[(*order)[k]] = k;
  std::vector<Step> sorted(n);
  for (size_t i = 0; i < n; ++i) sorted[position[i]] = std::move(steps_[i]);
  steps_ = std::move(sorted);
  for (auto& p : producer_)
    if (p >= 0) p = static_cast<int>(position[static_cast<size_t>(p)]);
  deps_ = step_graph();
  for (size_t i = 0; i < n; ++i) {
    for (int s : steps_[i].inputs)
      if (s >= 0) readers_[static_cast<size_t>(s)].push_back(static_cast<int>(i));
    for (int s : steps_[i].captures) readers_[static_cast<size_t>(s)].push_back(static_cast<int>(i));
  }
  for (auto& r : readers_) r.erase(std::unique(r.begin(), r.end()), r.end());
  // Reachability, in reverse schedule order: a reaches what its successors reach.
  if (n > kMaxReachSteps) return;
  size_t words = (n + 63) / 64;
  reach_.assign(n, std::vector<uint64_t>(words, 0));
  for (size_t a = n; a-- > 0;)
    for (int b : deps_.successors()[a]) {
      auto ub = static_cast<size_t>(b);
      reach_[a][ub / 64] |= uint64_t{1} << (ub % 64);
      for (size_t w = 0; w < words; ++w) reach_[a][w] |= reach_[ub][w];
    }
  // A step is alone when its descendants and ancestors are all the other steps.
  std::vector<size_t> related(n, 0);
  for (size_t a = 0; a < n; ++a)
    for (size_t w = 0; w < words; ++w)
      for (uint64_t bits = reach_[a][w]; bits; bits &= bits - 1) {
        ++related[a];                                                    // a descendant of a
        ++related[w * 64 + static_cast<size_t>(__builtin_ctzll(bits))];  // an ancestor of it
      }
  alone_.assign(n, 0);
  for (size_t i = 0; i < n; ++i) alone_[i] = related[i] + 1 == n;
}

void CompiledGraph::choose_layouts() {
  // A value stays in its producer's blocked layout when every step that reads it can take that
  // layout where it reads it (a chain of convolutions); graph outputs are always plain. Readers
  // decide before their producers (last step first), so a step that passes layouts through
  // (Concat, elementwise) accepts blocked inputs only once it knows it may write a blocked output:
  // otherwise its producer writes plain rather than it converting each input.
  for (auto& step : std::views::reverse(steps_)) {
    if (!step.fast || !step.fast->can_produce_blocked_output() || step.outputs.size() != 1 || step.outputs[0] < 0) continue;
    int s = step.outputs[0];
    if (is_output(s) || readers(s).empty()) continue;
    bool ok = true;
    for (int r : readers(s)) {
      const Step& reader = steps_[static_cast<size_t>(r)];
      ok = ok && reader.fast && std::find(reader.captures.begin(), reader.captures.end(), s) == reader.captures.end();
      for (size_t k = 0; ok && k < reader.inputs.size(); ++k) ok = reader.inputs[k] != s || reader.fast->accepts_layout(k);
    }
    if (!ok) continue;
    step.fast->produce_blocked_output();
    step.blocked_output = true;
    for (int r : readers(s)) steps_[static_cast<size_t>(r)].fast->expect_blocked_input();
  }
}

bool CompiledGraph::precedes(int a, int b) const {
  if (reach_.empty()) throw InternalError("reachability not computed for a graph this large");
  auto ub = static_cast<size_t>(b);
  return (reach_[static_cast<size_t>(a)][ub / 64] >> (ub % 64)) & 1;
}

std::string check_well_formed(const CompiledGraph& g) {
  // What is defined before the first step: graph inputs, constants and outer values.
  std::vector<char> given(g.num_slots(), 0), available(g.num_slots(), 0);
  for (int s : g.input_slots()) given[static_cast<size_t>(s)] = 1;
  for (const auto& [s, v] : g.constants()) given[static_cast<size_t>(s)] = 1;
  for (int s : g.outer_slots()) given[static_cast<size_t>(s)] = 1;
  available = given;
  std::vector<int> produced_by(g.num_slots(), -1);
  for (size_t i = 0; i < g.steps().size(); ++i) {
    const Step& step = g.steps()[i];
    auto check_read = [&](int s) -> std::string {
      if (s >= 0 && !available[static_cast<size_t>(s)])
        return "step " + std::to_string(i) + " (" + step.label() + ") reads '" + g.slot_name(s) +
               "', which no earlier step produces (STRUCT-DEFINED, STRUCT-TOPO-ORDER)";
      return "";
    };
    for (int s : step.inputs)
      if (std::string why = check_read(s); !why.empty()) return why;
    for (int s : step.captures)
      if (std::string why = check_read(s); !why.empty()) return why;
    for (int s : step.outputs) {
      if (s < 0) continue;
      auto us = static_cast<size_t>(s);
      if (given[us])
        return "step " + std::to_string(i) + " (" + step.label() + ") assigns '" + g.slot_name(s) +
               "', a graph input, constant or outer value (STRUCT-SSA)";
      if (produced_by[us] >= 0) return "'" + g.slot_name(s) + "' is produced twice (STRUCT-SSA)";
      produced_by[us] = static_cast<int>(i);
      available[us] = 1;
    }
  }
  return "";
}

std::string check_step_tables(const CompiledGraph& g) {
  size_t m = g.num_slots(), n = g.steps().size();
  std::vector<int> producer(m, -1);
  std::vector<std::vector<int>> readers(m);
  std::vector<std::vector<int>> preds(n);
  for (size_t i = 0; i < n; ++i) {
    const Step& step = g.steps()[i];
    for (int s : step.outputs)
      if (s >= 0 && producer[static_cast<size_t>(s)] < 0) producer[static_cast<size_t>(s)] = static_cast<int>(i);
  }
  for (size_t i = 0; i < n; ++i) {
    const Step& step = g.steps()[i];
    auto read = [&](int s) {
      if (s < 0) return;
      auto& r = readers[static_cast<size_t>(s)];
      if (r.empty() || r.back() != static_cast<int>(i)) r.push_back(static_cast<int>(i));
      if (producer[static_cast<size_t>(s)] >= 0) preds[i].push_back(producer[static_cast<size_t>(s)]);
    };
    for (int s : step.inputs) read(s);
    for (int s : step.captures) read(s);
    std::sort(preds[i].begin(), preds[i].end());
    preds[i].erase(std::unique(preds[i].begin(), preds[i].end()), preds[i].end());
  }
  for (size_t s = 0; s < m; ++s) {
    int slot = static_cast<int>(s);
    if (g.producer(slot) != producer[s]) return "the producer table disagrees with the steps for '" + g.slot_name(slot) + "'";
    if (g.readers(slot) != readers[s]) return "the reader table disagrees with the steps for '" + g.slot_name(slot) + "'";
  }
  std::vector<char> output(m, 0);
  for (int s : g.output_slots()) output[static_cast<size_t>(s)] = 1;
  for (size_t s = 0; s < m; ++s)
    if (g.is_output(static_cast<int>(s)) != static_cast<bool>(output[s]))
      return "the output table disagrees with the graph outputs for '" + g.slot_name(static_cast<int>(s)) + "'";
  std::vector<std::vector<int>> succ(n);
  for (size_t i = 0; i < n; ++i) {
    if (g.num_predecessors()[i] != static_cast<int>(preds[i].size()))
      return "step " + std::to_string(i) + " waits for " + std::to_string(g.num_predecessors()[i]) + " steps, its reads name " +
             std::to_string(preds[i].size());
    for (int p : preds[i]) succ[static_cast<size_t>(p)].push_back(static_cast<int>(i));
  }
  for (size_t i = 0; i < n; ++i) {
    std::vector<int> have = g.successors()[i];
    std::sort(have.begin(), have.end());
    if (have != succ[i]) return "the successors of step " + std::to_string(i) + " disagree with the steps' reads";
  }
  return "";
}

}  // namespace sonnx
