// Benchmark: what the plan checks that run in every build cost (issue 14). For a model: the time to
// compile it (CompiledModel, which now runs check_well_formed and check_step_tables), those two
// checks alone, the first run (which makes the memory plan and checks it in add_plan), a later run
// (steady state: no check), and check_memory_plan alone on the sequential (linear) and concurrent
// (dataflow) plans. Medians of R repetitions.
// Usage: bench_plan_checks MODEL [RUNS] [DIM=VALUE ...]   (symbolic dimensions not given are 1)
//        bench_plan_checks --chain N [RUNS]   (a chain of N Relu nodes: the arena reuses two buffers)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "optimized/exec/make_executor.h"
#include "optimized/plan/memory_plan.h"
#include "reference/check/prepare.h"

namespace {

using Clock = std::chrono::steady_clock;

double median_ms(int runs, const std::function<void()>& f) {
  std::vector<double> t;
  for (int i = 0; i < runs; ++i) {
    auto start = Clock::now();
    f();
    t.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

sonnx::NamedValues inputs_for(const sonnx::Model& m, const std::map<std::string, int64_t>& dims) {
  sonnx::NamedValues in;
  std::mt19937 rng(1);
  for (const auto& v : m.graph.inputs) {
    bool has_default = false;
    for (const auto& [name, t] : m.graph.initializers) has_default = has_default || name == v.name;
    if (has_default) continue;
    sonnx::Shape shape;
    for (const auto& d : *v.type.shape) {
      auto it = dims.find(d.param);
      shape.push_back(d.value ? *d.value : it != dims.end() ? it->second : 1);
    }
    sonnx::Tensor t(v.type.elem, shape);
    if (v.type.elem == sonnx::DType::Float)
      for (auto& x : t.values<float>()) x = std::uniform_real_distribution<float>(-1, 1)(rng);
    in[v.name] = sonnx::Value(std::move(t));
  }
  return in;
}

// x -> Relu -> Relu -> ... (n nodes) on float[64]: every value but the last in the arena, in two
// alternating buffers, the worst case for a check that compares values sharing bytes.
sonnx::Model chain_model(int n) {
  sonnx::Model m;
  m.ir_version = 8;
  m.opset_imports[""] = 13;
  m.graph.path = "main";
  sonnx::TypeInfo t;
  t.kind = sonnx::TypeInfo::Kind::Tensor;
  t.elem = sonnx::DType::Float;
  t.shape = std::vector<sonnx::Dim>{sonnx::Dim{64, ""}};
  m.graph.inputs.push_back({"v0", t});
  for (int i = 1; i <= n; ++i) {
    sonnx::Node node;
    node.name = "n" + std::to_string(i);
    node.op_type = "Relu";
    node.inputs = {"v" + std::to_string(i - 1)};
    node.outputs = {"v" + std::to_string(i)};
    node.index = m.graph.nodes.size();
    m.graph.nodes.push_back(node);
  }
  m.graph.outputs.push_back({"v" + std::to_string(n), t});
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_plan_checks MODEL [RUNS] [DIM=VALUE ...]\n");
    return 2;
  }
  int runs = argc > 2 ? std::atoi(argv[2]) : 5;
  std::map<std::string, int64_t> dims;
  for (int i = 3; i < argc; ++i) {
    std::string a = argv[i];
    auto eq = a.find('=');
    if (eq != std::string::npos) dims[a.substr(0, eq)] = std::stoll(a.substr(eq + 1));
  }
  std::unique_ptr<sonnx::LoadedModel> lm;
  if (std::string(argv[1]) == "--chain") {
    lm = std::make_unique<sonnx::LoadedModel>();
    lm->ir = chain_model(argc > 2 ? std::atoi(argv[2]) : 1000);
    runs = argc > 3 ? std::atoi(argv[3]) : 5;
  } else {
    lm = sonnx::prepare_model(argv[1]);
  }
  const sonnx::Model& model = lm->ir;
  sonnx::NamedValues in = inputs_for(model, dims);

  double compile = median_ms(runs, [&] { sonnx::CompiledModel cm(model); });
  sonnx::CompiledModel cm(model);
  const sonnx::CompiledGraph& g = cm.root();
  double well_formed = median_ms(runs * 20, [&] {
    if (!sonnx::check_well_formed(g).empty() || !sonnx::check_step_tables(g).empty()) std::abort();
  });
  std::printf("%s: %zu steps, %zu values\n", argv[1], g.steps().size(), g.num_slots());
  std::printf("  compile                           %9.3f ms\n", compile);
  std::printf("  check_well_formed + step tables   %9.3f ms  (%.2f%% of compile)\n", well_formed, 100 * well_formed / compile);
  for (const char* name : {"linear", "dataflow"}) {
    double first = median_ms(runs, [&] { sonnx::make_optimized_executor(model, name)->run(in); });
    auto ex = sonnx::make_optimized_executor(model, name);
    ex->run(in);
    const sonnx::CompiledGraph& eg = ex->compiled()->root();
    sonnx::MemoryPlan plan = *ex->plan();
    double steady = median_ms(runs, [&] { ex->run(in); });
    double check = median_ms(runs * 20, [&] {
      if (!sonnx::check_memory_plan(eg, plan).empty()) std::abort();
    });
    int placed = 0;
    for (int64_t o : plan.offset) placed += o >= 0;
    std::printf("  %-8s (%s plan, %d values in the arena)\n", name, plan.concurrent ? "concurrent" : "sequential", placed);
    std::printf("    compile + first run (plan made)  %9.3f ms\n", first);
    std::printf("    later run                        %9.3f ms\n", steady);
    std::printf("    check_memory_plan                %9.3f ms  (%.2f%% of compile + first run, %.2f%% of one later run)\n",
                check, 100 * check / first, 100 * check / steady);
  }
  return 0;
}
