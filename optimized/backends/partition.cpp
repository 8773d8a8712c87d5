#include "partition.h"

#include <algorithm>
#include <iomanip>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "sonnx/errors.h"
#include "reference/model/dependencies.h"

namespace sonnx {

namespace {

std::string qualified_op(const Node& n) {
  std::string d = canonical_domain(n.domain);
  return d.empty() ? n.op_type : d + "." + n.op_type;
}

bool has_subgraphs(const Node& n) {
  for (const auto& a : n.attributes)
    if (a.g || !a.graphs.empty()) return true;
  return false;
}

std::map<std::string, const TypeInfo*> declared_types(const Graph& g) {
  std::map<std::string, const TypeInfo*> t;
  for (const auto* list : {&g.inputs, &g.value_info, &g.outputs})
    for (const auto& vi : *list) t.emplace(vi.name, &vi.type);
  return t;
}

ValueInfo value_info(const std::string& name, const std::map<std::string, const TypeInfo*>& types) {
  ValueInfo vi;
  vi.name = name;
  if (auto it = types.find(name); it != types.end()) vi.type = *it->second;
  return vi;
}

// A model of some main-graph nodes: the given inputs (an initializer stays one unless it is also
// a graph input), the nodes, the outputs, and the value_info of what it mentions.
Model build_step_model(const Model& model, const std::vector<size_t>& nodes, const std::vector<std::string>& inputs,
                       const std::vector<std::string>& outputs, const std::string& name) {
  const Graph& g = model.graph;
  auto types = declared_types(g);
  std::set<std::string> graph_inputs;
  for (const auto& vi : g.inputs) graph_inputs.insert(vi.name);
  std::map<std::string, const Tensor*> inits;
  for (const auto& [n, t] : g.initializers) inits[n] = &t;
  Model sub;
  sub.ir_version = model.ir_version;
  sub.producer = model.producer;
  sub.opset_imports = model.opset_imports;
  sub.functions = model.functions;
  sub.path = model.path;
  sub.graph.name = name;
  sub.graph.path = "main";
  for (const auto& s : inputs) {
    auto it = inits.find(s);
    if (it != inits.end() && !graph_inputs.count(s)) sub.graph.initializers.emplace_back(s, *it->second);
    else sub.graph.inputs.push_back(value_info(s, types));
  }
  for (const auto& s : outputs) sub.graph.outputs.push_back(value_info(s, types));
  std::set<std::string> mentioned;
  for (size_t i : nodes) {
    Node n = g.nodes[i];
    n.index = sub.graph.nodes.size();
    for (const auto& s : n.inputs) mentioned.insert(s);
    for (const auto& s : n.outputs) mentioned.insert(s);
    sub.graph.nodes.push_back(std::move(n));
  }
  for (const auto& vi : g.value_info)
    if (mentioned.count(vi.name) && std::find(outputs.begin(), outputs.end(), vi.name) == outputs.end())
      sub.graph.value_info.push_back(vi);
  return sub;
}

}  // namespace

Model node_step_model(const Model& model, size_t node) {
  const Node& n = model.graph.nodes.at(node);
  std::vector<std::string> outputs;
  for (const auto& s : n.outputs)
    if (!s.empty()) outputs.push_back(s);
  return build_step_model(model, {node}, node_reads(n), outputs, "node_" + std::to_string(node));
}

std::vector<NodeQuery> node_queries(const Model& model) {
  const Graph& g = model.graph;
  std::map<std::string, DType> elem;
  for (const auto* list : {&g.inputs, &g.value_info, &g.outputs})
    for (const auto& vi : *list)
      if (vi.type.kind == TypeInfo::Kind::Tensor) elem[vi.name] = vi.type.elem;
  for (const auto& [name, t] : g.initializers) elem[name] = t.dtype();
  std::vector<NodeQuery> queries;
  for (const Node& n : g.nodes) {
    NodeQuery q{model, n, n.opset_version ? n.opset_version : model.opset(n.domain), {}};
    for (const auto& s : n.inputs) {
      auto it = elem.find(s);
      q.input_types.push_back(it == elem.end() ? DType::Undefined : it->second);
    }
    queries.push_back(std::move(q));
  }
  return queries;
}

std::string device_why_not(const Backend& b, const NodeQuery& q) {
  if (has_subgraphs(q.node) && !b.runs_everything())
    return "a node with subgraphs runs on a built-in device (cpu or reference) only";
  return b.why_not(q);
}

ExecutionPlan partition(const Model& model, std::vector<std::shared_ptr<Backend>> preference, const PartitionOptions& options) {
  ExecutionPlan plan;
  plan.model = model;  // function calls stay nodes: a backend takes a call or leaves it whole
  const Graph& g = plan.model.graph;
  plan.backends = std::move(preference);
  const size_t preferred = plan.backends.size();
  for (size_t b = 0; b < preferred && options.allow_fallback; ++b)
    if (plan.backends[b]->name() == "cpu") plan.fallback = static_cast<int>(b);
  if (options.allow_fallback && plan.fallback < 0) {
    plan.backends.push_back(make_cpu_backend());
    plan.fallback = static_cast<int>(plan.backends.size() - 1);
  }

  // Dependencies between main-graph nodes, and a topological order.
  std::vector<std::vector<std::string>> reads;
  const DependencyGraph deps = node_dependencies(g, &reads);
  std::optional<std::vector<size_t>> order = options.order;
  if (!order) order = deps.topological_order();
  if (!order) throw LoadError("the graph has a cycle; it cannot be partitioned");

  // Placement: the given one, else the first backend in preference order that runs the node.
  std::vector<size_t> placed(g.nodes.size());
  std::vector<bool> control(g.nodes.size(), false);
  std::vector<std::string> homeless;  // nodes no backend runs (fallback disallowed)
  const std::vector<NodeQuery> queries = node_queries(plan.model);
  for (size_t i : *order) {
    const Node& n = g.nodes[i];
    control[i] = has_subgraphs(n);
    if (!options.placement.empty()) {
      placed[i] = options.placement.at(i);
      if (placed[i] >= plan.backends.size()) throw InternalError("partition: a placement names no backend");
      if (placed[i] >= preferred) plan.unsupported_ops.push_back(qualified_op(n));
      continue;
    }
    const NodeQuery& q = queries[i];
    int chosen = -1;
    for (size_t b = 0; b < preferred && chosen < 0; ++b)
      if (device_why_not(*plan.backends[b], q).empty()) chosen = static_cast<int>(b);
    if (chosen < 0) {
      if (plan.fallback < 0) {
        std::string why;
        for (size_t b = 0; b < preferred; ++b)
          why += (b ? "; " : "") + plan.backends[b]->name() + ": " + device_why_not(*plan.backends[b], q);
        homeless.push_back(n.label() + " (" + why + ")");
        continue;
      }
      chosen = plan.fallback;
      plan.unsupported_ops.push_back(qualified_op(n));
    }
    placed[i] = static_cast<size_t>(chosen);
  }
  if (!homeless.empty()) {
    std::string names, list;
    for (size_t b = 0; b < preferred; ++b) names += (b ? ", " : "") + plan.backends[b]->name();
    for (const auto& h : homeless) list += "\n  " + h;
    throw Unsupported("no device in the set {" + names + "} runs " + std::to_string(homeless.size()) + " node" +
                      (homeless.size() == 1 ? "" : "s") + ", and without cpu in the set there is no fallback:" + list);
  }

  // Steps: runs of consecutive (in the order) nodes on one backend; a control node stands alone.
  std::vector<int> step_of(g.nodes.size(), -1);
  for (size_t i : *order) {
    bool extend = !plan.steps.empty() && !control[i] && !plan.steps.back().control && plan.steps.back().backend == placed[i];
    if (!extend) {
      plan.steps.emplace_back();
      plan.steps.back().backend = placed[i];
      plan.steps.back().control = control[i];
    }
    plan.steps.back().nodes.push_back(i);
    step_of[i] = static_cast<int>(plan.steps.size() - 1);
  }

  std::set<std::string> graph_outputs;
  for (const auto& vi : g.outputs) graph_outputs.insert(vi.name);
  plan.assignment = options.assignment;

  for (size_t k = 0; k < plan.steps.size(); ++k) {
    PlanStep& st = plan.steps[k];
    std::set<std::string> made;
    for (size_t i : st.nodes)
      for (const auto& s : g.nodes[i].outputs)
        if (!s.empty()) made.insert(s);
    for (size_t i : st.nodes)
      for (size_t r = 0; r < reads[i].size(); ++r) {
        const std::string& s = reads[i][r];
        if (made.count(s) || std::find(st.inputs.begin(), st.inputs.end(), s) != st.inputs.end()) continue;
        st.inputs.push_back(s);
        int p = deps.writer(i, r);  // made on another device: copied at the boundary
        if (p >= 0 && plan.steps[static_cast<size_t>(step_of[static_cast<size_t>(p)])].backend != st.backend)
          st.copies.push_back(s);
      }
    for (size_t i : st.nodes)
      for (const auto& s : g.nodes[i].outputs) {
        if (s.empty()) continue;
        bool needed = graph_outputs.count(s) > 0;
        for (int j : deps.successors()[i]) {
          auto uj = static_cast<size_t>(j);
          needed = needed ||
                   (step_of[uj] != static_cast<int>(k) && std::find(reads[uj].begin(), reads[uj].end(), s) != reads[uj].end());
        }
        if (needed && std::find(st.outputs.begin(), st.outputs.end(), s) == st.outputs.end()) st.outputs.push_back(s);
      }

    st.subgraph = build_step_model(plan.model, st.nodes, st.inputs, st.outputs, "step_" + std::to_string(k));
  }
  return plan;
}

namespace {
std::string ms_text(double ms) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(ms < 10 ? 3 : 1) << ms;
  return os.str();
}
}  // namespace

std::string plan_text(const ExecutionPlan& plan) {
  std::ostringstream os;
  os << "backends:";
  for (size_t b = 0; b < plan.backends.size(); ++b)
    os << " " << plan.backends[b]->name() << (static_cast<int>(b) == plan.fallback ? " (fallback)" : "");
  os << "\n" << plan.steps.size() << " steps\n";
  for (size_t k = 0; k < plan.steps.size(); ++k) {
    const PlanStep& st = plan.steps[k];
    os << "step " << k << " on " << plan.backends[st.backend]->name() << (st.control ? " (control)" : "") << ":";
    for (size_t i : st.nodes) os << " " << plan.model.graph.nodes[i].label();
    os << "\n  in:";
    for (const auto& s : st.inputs) os << " " << s;
    os << "\n  out:";
    for (const auto& s : st.outputs) os << " " << s;
    if (!st.copies.empty()) {
      os << "\n  copies:";
      for (const auto& s : st.copies) os << " " << s;
    }
    os << "\n";
    if (!plan.assignment) continue;
    for (size_t i : st.nodes) {
      const NodeCost& c = plan.assignment->nodes.at(i);
      os << "  " << plan.model.graph.nodes[i].label() << " measured:";
      for (size_t b = 0; b < c.ms.size(); ++b)
        os << (b ? ", " : " ") << plan.backends[b]->name() << " " << (c.ms[b] < 0 ? std::string("-") : ms_text(c.ms[b]) + " ms");
      os << "; predicted " << ms_text(c.start) << "-" << ms_text(c.finish) << " ms\n";
    }
  }
  if (plan.assignment) {
    const Assignment& a = *plan.assignment;
    os << "profile-guided assignment" << (a.from_cache ? " (measurements from the profile cache)" : "")
       << ": predicted critical path " << ms_text(a.makespan_ms) << " ms with copies at " << ms_text(a.copy_ms_per_mib)
       << " ms/MiB";
    for (const auto& [name, ms] : a.alone_ms) os << "; " << name << " alone " << ms_text(ms) << " ms";
    os << "\n";
  }
  if (!plan.unsupported_ops.empty()) {
    os << "on the fallback (not supported by the preferred backends):";
    for (const auto& op : plan.unsupported_ops) os << " " << op;
    os << "\n";
  }
  return os.str();
}

}  // namespace sonnx
