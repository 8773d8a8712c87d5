// Benchmark: load and validate a generated graph of N nodes (default 100,000) under the onnx and
// sonnx profiles, and print the time of each phase (median of R runs). Every rule is meant to be
// linear or n·log n in the graph size; this shows it.
// Usage: bench_check_large_graph [NODES] [RUNS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

#include "reference/check/validator.h"

namespace {

// A chain with skip connections: node i = Add(v[i-1], v[i/2]) or Relu(v[i-1]) alternately, all
// values declared with static shapes, so the sonnx profile has the whole graph to look at.
onnx::ModelProto make_model(int nodes) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  auto* op = m.add_opset_import();
  op->set_domain("");
  op->set_version(17);
  auto* g = m.mutable_graph();
  g->set_name("large");
  auto declare = [](onnx::ValueInfoProto* v, const std::string& name) {
    v->set_name(name);
    auto* t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(onnx::TensorProto::FLOAT);
    t->mutable_shape()->add_dim()->set_dim_value(4);
  };
  declare(g->add_input(), "v0");
  for (int i = 1; i <= nodes; ++i) {
    auto* n = g->add_node();
    n->set_name("n" + std::to_string(i));
    std::string out = "v" + std::to_string(i);
    if (i % 2 == 0) {
      n->set_op_type("Add");
      n->add_input("v" + std::to_string(i - 1));
      n->add_input("v" + std::to_string(i / 2));
    } else {
      n->set_op_type("Relu");
      n->add_input("v" + std::to_string(i - 1));
    }
    n->add_output(out);
    if (i < nodes) declare(g->add_value_info(), out);
  }
  declare(g->add_output(), "v" + std::to_string(nodes));
  return m;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int nodes = argc > 1 ? std::stoi(argv[1]) : 100000;
  int runs = argc > 2 ? std::stoi(argv[2]) : 5;
  auto file = std::filesystem::temp_directory_path() / "sonnx-bench-large.onnx";
  {
    std::ofstream out(file, std::ios::binary);
    out << make_model(nodes).SerializeAsString();
  }
  std::vector<double> load_ms, onnx_ms, sonnx_ms;
  auto onnx_profile = sonnx::load_profile("onnx");
  auto sonnx_profile = sonnx::load_profile("sonnx");
  size_t findings = 0;
  for (int r = 0; r < runs; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    auto lm = sonnx::load_model(file);
    auto t1 = std::chrono::steady_clock::now();
    auto d1 = sonnx::validate(*lm, onnx_profile);
    auto t2 = std::chrono::steady_clock::now();
    auto d2 = sonnx::validate(*lm, sonnx_profile);
    auto t3 = std::chrono::steady_clock::now();
    findings = d1.size() + d2.size();
    load_ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    onnx_ms.push_back(std::chrono::duration<double, std::milli>(t2 - t1).count());
    sonnx_ms.push_back(std::chrono::duration<double, std::milli>(t3 - t2).count());
  }
  std::filesystem::remove(file);
  std::printf("nodes %d, runs %d (median ms): load %.1f, check onnx %.1f, check sonnx %.1f, findings %zu\n", nodes, runs,
              median(load_ms), median(onnx_ms), median(sonnx_ms), findings);
  return findings == 0 ? 0 : 1;
}
