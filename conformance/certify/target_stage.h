// A model run on a target as it is, whatever the target reads: an in-process backend is given the
// model itself; a runtime command (the process protocol) reads files, so the model and its inputs
// are written first as an ONNX test directory in a scratch directory this stage owns. Used to run
// models a test does not have on disk: the one-node models of localization and the fuzzer's graphs.
#pragma once
#include <filesystem>

#include "target.h"

namespace sonnx {

class TargetStage {
 public:
  explicit TargetStage(CertTarget& target);
  ~TargetStage();
  TargetStage(const TargetStage&) = delete;
  TargetStage& operator=(const TargetStage&) = delete;
  TargetResult run(const Model& model, const NamedValues& inputs);
  CertTarget& target() { return target_; }

 private:
  CertTarget& target_;
  std::filesystem::path dir_;  // scratch, for a target that reads files
};

}  // namespace sonnx
