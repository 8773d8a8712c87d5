// Operator versions that a later version re-states with a function body without changing what they
// compute: ONNX only widened the type constraints (Selu-6 and HardSigmoid-6 as 22, Softsign-1 as
// 22), or moved `axes` from an attribute to an optional input (ReduceL1, ReduceL2, ReduceLogSum,
// ReduceLogSumExp and ReduceSumSquare 1, 11 and 13 as 18; an absent `axes` reduces every axis in
// both). The encloser encloses such a node as the later version's body (encloser.cpp;
// spec/accuracy.md, "Operators defined by a function body").
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace sonnx::enclose {

struct RestatedVersion {
  int64_t version = 0;         // the later version, which has a function body
  bool axes_to_input = false;  // the `axes` attribute becomes input 1
};

inline std::optional<RestatedVersion> restated_version(const std::string& op, int64_t version) {
  if ((op == "Selu" || op == "HardSigmoid") && version == 6) return RestatedVersion{22, false};
  if (op == "Softsign" && version == 1) return RestatedVersion{22, false};
  bool composite_reduce = op == "ReduceL1" || op == "ReduceL2" || op == "ReduceLogSum" || op == "ReduceLogSumExp" ||
                          op == "ReduceSumSquare";
  if (composite_reduce && (version == 1 || version == 11 || version == 13)) return RestatedVersion{18, true};
  return std::nullopt;
}

}  // namespace sonnx::enclose
