// One generated graph on a target, judged by its admissible enclosure (target_fuzz.h), and the
// search for the node that fails alone.
#pragma once
#include <filesystem>
#include <optional>
#include <string>

#include "conformance/certify/target_stage.h"
#include "enclose/encloser.h"
#include "reference/model/ir.h"

namespace sonnx::fuzz {

struct TargetVerdict {
  enum class Kind { Passed, Skipped, Failed } kind = Kind::Passed;
  std::string deviation;  // Failed: the kind of deviation (target_fuzz.h's DefectGroup)
  std::string message;    // Skipped: why; Failed: what
};

// The model (prepared: checked, types inferred) on the target, judged by its admissible enclosure.
TargetVerdict check_on_target(TargetStage& stage, const Model& model, const NamedValues& inputs);

// The first node (in schedule order; in the If branch taken and each Loop iteration too) whose
// one-node model fails on the target, fed the reference's values for its inputs: that model, its
// inputs, and the verdict. Nullopt when every node passes alone or cannot be judged alone.
struct FailingNode {
  Node node;
  Model model;
  NamedValues inputs;
  TargetVerdict verdict;
};
std::optional<FailingNode> first_failing_node(TargetStage& stage, const Model& model, const NamedValues& inputs);

// The discrete traits a defect is grouped by: the inputs' element types, "broadcast" when inputs'
// shapes differ ("unequal shapes": broadcasting), and the int and string attributes.
std::string attribute_pattern(const Node& n, const NamedValues& inputs);

}  // namespace sonnx::fuzz
