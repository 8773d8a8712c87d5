#include "repro.h"

#include <fstream>

#include <nlohmann/json.hpp>

#include "sonnx/errors.h"
#include "reference/model/tensor_proto.h"

namespace sonnx::fuzz {

void write_repro(const std::filesystem::path& dir, const GeneratedCase& g, const NamedValues& reference,
                 const DiffResult& failure, const std::string& inject_fault) {
  std::filesystem::create_directories(dir / "test_data_set_0");
  {
    std::ofstream out(dir / "model.onnx", std::ios::binary);
    if (!g.proto.SerializeToOstream(&out)) throw LoadError("cannot write " + (dir / "model.onnx").string());
  }
  const auto& graph = g.proto.graph();
  for (int k = 0; k < graph.input_size(); ++k) {
    const std::string& name = graph.input(k).name();
    write_value_pb(dir / "test_data_set_0" / ("input_" + std::to_string(k) + ".pb"), g.inputs.at(name), name);
  }
  for (int k = 0; k < graph.output_size(); ++k) {
    const std::string& name = graph.output(k).name();
    write_value_pb(dir / "test_data_set_0" / ("output_" + std::to_string(k) + ".pb"), reference.at(name), name);
  }
  nlohmann::json inputs = nlohmann::json::array();
  for (const auto& in : g.input_draws)
    inputs.push_back({{"name", in.name}, {"kind", in.kind}, {"lo", in.range.lo}, {"hi", in.range.hi}});
  nlohmann::json j{{"recipe", recipe_str(g.recipe)},
                   {"nodes", g.nodes()},
                   {"op_types", g.op_types},
                   {"inputs", inputs},
                   {"failure", {{"kind", failure.kind}, {"executor", failure.executor}, {"message", failure.message}}},
                   {"inject_fault", inject_fault}};
  std::ofstream(dir / "fuzz_case.json") << j.dump(2) << "\n";
}

}  // namespace sonnx::fuzz
