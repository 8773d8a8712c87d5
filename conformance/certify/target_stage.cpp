#include "target_stage.h"

#include <stdlib.h>

#include <cerrno>
#include <cstring>

#include "reference/model/tensor_proto.h"
#include "reference/model/writer.h"
#include "sonnx/errors.h"

namespace sonnx {

namespace fs = std::filesystem;

TargetStage::TargetStage(CertTarget& target) : target_(target) {
  if (target.runs_in_process()) return;
  std::string tmpl = (fs::temp_directory_path() / "sonnx-stage-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw LoadError(std::string("cannot make a scratch directory: ") + std::strerror(errno));
  dir_ = tmpl;
}

TargetStage::~TargetStage() {
  std::error_code ec;
  if (!dir_.empty()) fs::remove_all(dir_, ec);
}

TargetResult TargetStage::run(const Model& model, const NamedValues& inputs) {
  TestCase test{"staged", dir_, dir_ / "model.onnx", {dir_ / "test_data_set_0"}};
  if (!dir_.empty()) {
    std::error_code ec;
    fs::remove_all(test.data_sets[0], ec);
    fs::create_directories(test.data_sets[0]);
    save_model(model, test.model);
    const auto& graph_inputs = model.graph.inputs;
    for (size_t k = 0; k < graph_inputs.size(); ++k) {
      auto it = inputs.find(graph_inputs[k].name);
      if (it != inputs.end()) write_value_pb(test.data_sets[0] / ("input_" + std::to_string(k) + ".pb"), it->second, it->first);
    }
  }
  return target_.run(model, test, test.data_sets[0], inputs);
}

}  // namespace sonnx
