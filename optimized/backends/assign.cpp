#include "assign.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <map>
#include <numeric>
#include <set>

#include "device_cache.h"
#include "devices.h"
#include "optimized/exec/make_executor.h"
#include "sonnx/errors.h"
#include "reference/model/dependencies.h"
#include "step_timing.h"

namespace sonnx {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

double value_mib(const Value& v) {
  if (v.is_tensor()) return static_cast<double>(v.tensor.byte_size()) / kMiB;
  double sum = 0;
  for (const auto& e : v.sequence) sum += value_mib(e);
  return sum;
}

// The time to copy a MiB in this process (what a boundary copy costs on host-memory devices).
double measure_copy_ms_per_mib() {
  std::vector<char> a(8 << 20, 1), b(a.size());
  std::vector<double> ms;
  for (int r = 0; r < 5; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    std::memcpy(b.data(), a.data(), a.size());
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / 8);
    a[static_cast<size_t>(r)] = b[static_cast<size_t>(r) + 1];  // keep the copies observable
  }
  std::sort(ms.begin(), ms.end());
  return ms[2];
}

void hash_graph(std::string& h, const Graph& g);

void hash_tensor(std::string& h, const Tensor& t) {
  h += std::to_string(static_cast<int>(t.dtype())) + shape_str(t.shape());
  if (t.dtype() != DType::String) h.append(reinterpret_cast<const char*>(t.raw()), t.byte_size());
}

void hash_graph(std::string& h, const Graph& g) {
  for (const auto& vi : g.inputs) h += "i" + vi.name + vi.type.str() + ";";
  for (const auto& [name, t] : g.initializers) {
    h += "w" + name;
    hash_tensor(h, t);
  }
  for (const auto& n : g.nodes) {
    h += "n" + n.domain + "." + n.op_type + "(";
    for (const auto& s : n.inputs) h += s + ",";
    h += ")->";
    for (const auto& s : n.outputs) h += s + ",";
    for (const auto& a : n.attributes) {
      h += a.name + "=" + std::to_string(a.i) + "/" + std::to_string(a.f) + "/" + a.s + "/";
      for (auto v : a.ints) h += std::to_string(v) + ",";
      for (auto v : a.floats) h += std::to_string(v) + ",";
      if (a.type == Attribute::Type::Tensor) hash_tensor(h, a.t);
      if (a.g) hash_graph(h, *a.g);
      for (const auto& sg : a.graphs) hash_graph(h, *sg);
    }
  }
  for (const auto& vi : g.outputs) h += "o" + vi.name + ";";
}

// The cache key: the model, the input signature, the devices (name and version), the machine.
std::string profile_key(const Model& model, const NamedValues& inputs, const std::vector<std::shared_ptr<Backend>>& devices) {
  std::string h;
  for (const auto& [d, v] : model.opset_imports) h += d + ":" + std::to_string(v) + ";";
  hash_graph(h, model.graph);
  for (const auto& [name, v] : inputs)
    h += "in" + name + (v.is_tensor() ? std::string(dtype_name(v.tensor.dtype())) + shape_str(v.tensor.shape()) : "other");
  for (const auto& b : devices) h += "dev" + b->name() + " " + b->version();
  return digest(h + machine_id());
}

// Every value the main graph computes on these inputs, by the reference interpreter.
NamedValues all_values(const Model& model, const NamedValues& inputs) {
  Model m = model;
  std::set<std::string> listed;
  for (const auto& vi : m.graph.outputs) listed.insert(vi.name);
  for (const auto& n : m.graph.nodes)
    for (const auto& s : n.outputs)
      if (!s.empty() && listed.insert(s).second) m.graph.outputs.push_back(ValueInfo{s, {}});
  NamedValues values = make_executor(m, "reference")->run(inputs);
  for (const auto& [name, t] : model.graph.initializers) values.emplace(name, t);
  for (const auto& [name, v] : inputs) values[name] = v;
  return values;
}

}  // namespace

double heft_schedule(const std::vector<std::vector<double>>& cost,
                     const std::vector<std::vector<std::pair<size_t, double>>>& succ, double copy_ms_per_mib,
                     std::vector<size_t>& placement, std::vector<size_t>& order, std::vector<NodeCost>& timeline) {
  const size_t n = cost.size();
  const size_t devices = n ? cost[0].size() : 0;
  std::vector<std::vector<std::pair<size_t, double>>> pred(n);
  std::vector<int> waiting(n, 0);
  for (size_t i = 0; i < n; ++i)
    for (const auto& [s, mib] : succ[i]) {
      pred[s].push_back({i, mib});
      ++waiting[s];
    }
  // Upward rank, in reverse topological order (Kahn's order on the successor lists).
  std::vector<size_t> topo;
  {
    std::vector<int> w = waiting;
    for (size_t i = 0; i < n; ++i)
      if (w[i] == 0) topo.push_back(i);
    for (size_t k = 0; k < topo.size(); ++k)
      for (const auto& [s, mib] : succ[topo[k]])
        if (--w[s] == 0) topo.push_back(s);
    if (topo.size() != n) throw LoadError("the graph has a cycle; it cannot be scheduled");
  }
  std::vector<double> rank(n, 0);
  for (size_t k = n; k-- > 0;) {
    size_t i = topo[k];
    double sum = 0;
    int capable = 0;
    for (double c : cost[i])
      if (c >= 0) sum += c, ++capable;
    double longest = 0;
    for (const auto& [s, mib] : succ[i]) longest = std::max(longest, mib * copy_ms_per_mib + rank[s]);
    rank[i] = (capable ? sum / capable : 0) + longest;
  }
  // List scheduling: the ready node of highest rank goes where it finishes first.
  placement.assign(n, 0);
  order.clear();
  timeline.assign(n, NodeCost{});
  std::vector<double> free_at(devices, 0.0);
  auto before = [&](size_t a, size_t b) { return rank[a] != rank[b] ? rank[a] < rank[b] : a > b; };
  std::vector<size_t> ready;
  for (size_t i = 0; i < n; ++i)
    if (waiting[i] == 0) ready.push_back(i);
  double makespan = 0;
  while (!ready.empty()) {
    auto best = std::max_element(ready.begin(), ready.end(), before);
    size_t i = *best;
    ready.erase(best);
    double best_finish = std::numeric_limits<double>::infinity(), best_start = 0;
    size_t best_device = 0;
    for (size_t d = 0; d < devices; ++d) {
      if (cost[i][d] < 0) continue;
      double start = free_at[d];
      for (const auto& [p, mib] : pred[i])
        start = std::max(start, timeline[p].finish + (placement[p] != d ? mib * copy_ms_per_mib : 0));
      if (start + cost[i][d] < best_finish) best_finish = start + cost[i][d], best_start = start, best_device = d;
    }
    if (!std::isfinite(best_finish)) throw InternalError("heft: a node has no capable device");
    placement[i] = best_device;
    timeline[i].start = best_start;
    timeline[i].finish = best_finish;
    timeline[i].ms = cost[i];
    free_at[best_device] = best_finish;
    makespan = std::max(makespan, best_finish);
    order.push_back(i);
    for (const auto& [s, mib] : succ[i])
      if (--waiting[s] == 0) ready.push_back(s);
  }
  return makespan;
}

PartitionOptions assign_by_profile(const Model& model, const std::vector<std::shared_ptr<Backend>>& devices,
                                   const NamedValues& inputs, bool allow_fallback, bool use_cache) {
  // First-fit partitioning checks that every node has a device and fixes the backend list
  // (the set, then cpu as the fallback when it is allowed and not in the set).
  PartitionOptions first;
  first.allow_fallback = allow_fallback;
  ExecutionPlan base = partition(model, devices, first);
  const std::vector<std::shared_ptr<Backend>>& all = base.backends;
  const Graph& g = model.graph;
  const size_t n = g.nodes.size(), preferred = devices.size();

  // Which backends may take each node: the devices of the set that run it, else the fallback.
  std::vector<std::vector<bool>> capable(n, std::vector<bool>(all.size(), false));
  const std::vector<NodeQuery> queries = node_queries(model);
  for (size_t i = 0; i < n; ++i) {
    const NodeQuery& q = queries[i];
    bool any = false;
    for (size_t d = 0; d < preferred; ++d) any |= (capable[i][d] = device_why_not(*all[d], q).empty());
    if (!any && base.fallback >= 0) capable[i][static_cast<size_t>(base.fallback)] = true;
  }

  std::vector<std::vector<double>> cost(n, std::vector<double>(all.size(), -1.0));
  double copy_rate = 0;
  std::map<std::string, double> made_mib;  // the size of every value a node makes
  bool from_cache = false;
  const std::string key = "profiles/" + profile_key(model, inputs, all) + ".json";
  nlohmann::json cached = use_cache ? read_cache(key) : nlohmann::json(nullptr);
  if (cached.is_object() && cached.value("nodes", 0) == static_cast<int>(n) && cached["ms"].is_array() &&
      cached["ms"].size() == n && cached["made_mib"].is_object()) {
    for (size_t i = 0; i < n; ++i)
      for (size_t d = 0; d < all.size() && d < cached["ms"][i].size(); ++d) cost[i][d] = cached["ms"][i][d].get<double>();
    copy_rate = cached.value("copy_ms_per_mib", 0.0);
    made_mib = cached["made_mib"].get<std::map<std::string, double>>();
    from_cache = true;
  } else {
    // The profiling run: every value on these inputs, then every node timed on them.
    NamedValues values = all_values(model, inputs);
    for (const auto& node : g.nodes)
      for (const auto& s : node.outputs)
        if (auto v = values.find(s); !s.empty() && v != values.end()) made_mib[s] = value_mib(v->second);
    copy_rate = measure_copy_ms_per_mib();
    for (size_t i = 0; i < n; ++i) {
      Model step = node_step_model(model, i);
      NamedValues in;
      for (const auto& vi : step.graph.inputs)
        if (auto it = values.find(vi.name); it != values.end()) in[vi.name] = it->second;
      for (size_t d = 0; d < all.size(); ++d) {
        if (!capable[i][d]) continue;
        StepTiming t = time_step(*all[d], step, in);
        cost[i][d] = t.error.empty() ? t.ms : -1.0;  // a device that fails it is not given it
      }
      // Every capable device failed: keep the first-fit device, at an unknown (zero) cost; the run
      // reports the failure.
      if (std::all_of(cost[i].begin(), cost[i].end(), [](double c) { return c < 0; })) {
        for (const auto& st : base.steps)
          if (std::find(st.nodes.begin(), st.nodes.end(), i) != st.nodes.end()) cost[i][st.backend] = 0;
      }
    }
    nlohmann::json ms = nlohmann::json::array();
    for (const auto& row : cost) ms.push_back(row);
    nlohmann::json names = nlohmann::json::array();
    for (const auto& b : all) names.push_back(b->name());
    if (use_cache)
      write_cache(key, {{"devices", names}, {"nodes", n}, {"ms", ms}, {"copy_ms_per_mib", copy_rate}, {"made_mib", made_mib}});
  }

  // The data each dependency carries.
  std::vector<std::vector<std::string>> reads;
  const DependencyGraph deps = node_dependencies(g, &reads);
  std::vector<std::vector<std::pair<size_t, double>>> succ(n);
  for (size_t i = 0; i < n; ++i) {
    std::map<size_t, double> from;
    for (size_t r = 0; r < reads[i].size(); ++r)
      if (int p = deps.writer(i, r); p >= 0 && static_cast<size_t>(p) != i) {
        auto v = made_mib.find(reads[i][r]);
        from[static_cast<size_t>(p)] += v == made_mib.end() ? 0 : v->second;
      }
    for (const auto& [p, mib] : from) succ[p].push_back({i, mib});
  }

  PartitionOptions out;
  out.allow_fallback = allow_fallback;
  Assignment a;
  a.copy_ms_per_mib = copy_rate;
  a.from_cache = from_cache;
  std::vector<size_t> order;
  a.makespan_ms = heft_schedule(cost, succ, copy_rate, out.placement, order, a.nodes);
  out.order = order;
  for (size_t d = 0; d < all.size(); ++d) {
    bool runs_all = true;
    double sum = 0;
    for (size_t i = 0; i < n && runs_all; ++i) runs_all = cost[i][d] >= 0, sum += cost[i][d];
    if (runs_all) a.alone_ms.push_back({all[d]->name(), sum});
  }
  out.assignment = std::move(a);
  return out;
}

ExecutionPlan plan_for_device_set(const Model& model, const std::vector<std::shared_ptr<Backend>>& set, bool by_profile,
                                  const NamedValues& inputs, bool use_cache) {
  PartitionOptions po;
  po.allow_fallback = contains_cpu(set);
  if (by_profile) po = assign_by_profile(model, set, inputs, po.allow_fallback, use_cache);
  return partition(model, set, po);
}

}  // namespace sonnx
