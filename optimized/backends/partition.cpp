#include "partition.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "sonnx/errors.h"
#include "reference/model/schedule.h"

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

// Names a subgraph reads from enclosing scopes (used but not defined inside it).
void free_names(const Graph& g, std::set<std::string> defined, std::vector<std::string>& out) {
  for (const auto& vi : g.inputs) defined.insert(vi.name);
  for (const auto& [name, t] : g.initializers) defined.insert(name);
  auto use = [&](const std::string& s) {
    if (!s.empty() && !defined.count(s) && std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  };
  for (const auto& n : g.nodes) {
    for (const auto& s : n.inputs) use(s);
    for (const auto& a : n.attributes) {
      if (a.g) free_names(*a.g, defined, out);
      for (const auto& sg : a.graphs) free_names(*sg, defined, out);
    }
    for (const auto& s : n.outputs) defined.insert(s);
  }
  for (const auto& vi : g.outputs) use(vi.name);
}

// Every value a node reads: its inputs, then what its subgraphs capture from outside.
std::vector<std::string> node_reads(const Node& n) {
  std::vector<std::string> r;
  for (const auto& s : n.inputs)
    if (!s.empty() && std::find(r.begin(), r.end(), s) == r.end()) r.push_back(s);
  for (const auto& a : n.attributes) {
    if (a.g) free_names(*a.g, {}, r);
    for (const auto& sg : a.graphs) free_names(*sg, {}, r);
  }
  return r;
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

}  // namespace

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
  std::map<std::string, size_t> producer;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    for (const auto& s : g.nodes[i].outputs)
      if (!s.empty()) producer[s] = i;
  std::vector<std::vector<std::string>> reads(g.nodes.size());
  std::vector<std::vector<size_t>> succ(g.nodes.size());
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    reads[i] = node_reads(g.nodes[i]);
    for (const auto& s : reads[i])
      if (auto it = producer.find(s); it != producer.end()) succ[it->second].push_back(i);
  }
  auto order = kahn_order(g.nodes.size(), succ);
  if (!order) throw LoadError("the graph has a cycle; it cannot be partitioned");

  // Placement.
  auto types = declared_types(g);
  std::map<std::string, DType> elem;
  for (const auto& [name, t] : types)
    if (t->kind == TypeInfo::Kind::Tensor) elem[name] = t->elem;
  for (const auto& [name, t] : g.initializers) elem[name] = t.dtype();
  std::vector<size_t> placed(g.nodes.size());
  std::vector<bool> control(g.nodes.size(), false);
  for (size_t i : *order) {
    const Node& n = g.nodes[i];
    NodeQuery q{plan.model, n, n.opset_version ? n.opset_version : plan.model.opset(n.domain), {}};
    for (const auto& s : n.inputs) q.input_types.push_back(elem.count(s) ? elem[s] : DType::Undefined);
    int chosen = -1;
    control[i] = has_subgraphs(n);
    for (size_t b = 0; b < preferred && chosen < 0; ++b) {
      const Backend& be = *plan.backends[b];
      if (control[i] ? be.runs_everything() && be.supports(q) : be.supports(q)) chosen = static_cast<int>(b);
    }
    if (chosen < 0) {
      if (plan.fallback < 0)
        throw Unsupported("no backend in the list runs " + n.label() + " and fallback is disallowed");
      chosen = plan.fallback;
      plan.unsupported_ops.push_back(qualified_op(n));
    }
    placed[i] = static_cast<size_t>(chosen);
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
  std::set<std::string> graph_inputs;
  for (const auto& vi : g.inputs) graph_inputs.insert(vi.name);
  std::map<std::string, const Tensor*> inits;
  for (const auto& [name, t] : g.initializers) inits[name] = &t;

  for (size_t k = 0; k < plan.steps.size(); ++k) {
    PlanStep& st = plan.steps[k];
    std::set<std::string> made;
    for (size_t i : st.nodes)
      for (const auto& s : g.nodes[i].outputs)
        if (!s.empty()) made.insert(s);
    for (size_t i : st.nodes)
      for (const auto& s : reads[i])
        if (!made.count(s) && std::find(st.inputs.begin(), st.inputs.end(), s) == st.inputs.end()) st.inputs.push_back(s);
    for (size_t i : st.nodes)
      for (const auto& s : g.nodes[i].outputs) {
        if (s.empty()) continue;
        bool needed = graph_outputs.count(s) > 0;
        for (size_t j : succ[i]) needed = needed || (step_of[j] != static_cast<int>(k) &&
                                                     std::find(reads[j].begin(), reads[j].end(), s) != reads[j].end());
        if (needed && std::find(st.outputs.begin(), st.outputs.end(), s) == st.outputs.end()) st.outputs.push_back(s);
      }
    for (const auto& s : st.inputs)
      if (auto it = producer.find(s); it != producer.end() && plan.steps[static_cast<size_t>(step_of[it->second])].backend != st.backend)
        st.copies.push_back(s);

    Model& sub = st.subgraph;
    sub.ir_version = plan.model.ir_version;
    sub.producer = plan.model.producer;
    sub.opset_imports = plan.model.opset_imports;
    sub.functions = plan.model.functions;
    sub.path = plan.model.path;
    sub.graph.name = "step_" + std::to_string(k);
    sub.graph.path = "main";
    for (const auto& s : st.inputs) {
      auto it = inits.find(s);
      if (it != inits.end() && !graph_inputs.count(s)) sub.graph.initializers.emplace_back(s, *it->second);
      else sub.graph.inputs.push_back(value_info(s, types));
    }
    for (const auto& s : st.outputs) sub.graph.outputs.push_back(value_info(s, types));
    std::set<std::string> mentioned(made.begin(), made.end());
    for (size_t i : st.nodes) {
      Node n = g.nodes[i];
      n.index = sub.graph.nodes.size();
      for (const auto& s : n.inputs) mentioned.insert(s);
      sub.graph.nodes.push_back(std::move(n));
    }
    for (const auto& vi : g.value_info)
      if (mentioned.count(vi.name) && std::find(st.outputs.begin(), st.outputs.end(), vi.name) == st.outputs.end())
        sub.graph.value_info.push_back(vi);
  }
  return plan;
}

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
  }
  if (!plan.unsupported_ops.empty()) {
    os << "on the fallback (not supported by the preferred backends):";
    for (const auto& op : plan.unsupported_ops) os << " " << op;
    os << "\n";
  }
  return os.str();
}

}  // namespace sonnx
