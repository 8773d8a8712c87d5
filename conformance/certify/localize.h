// Where does an error come from (spec/accuracy.md, "Localizing an error"): a model whose output
// leaves its admissible enclosure on a backend is run again node by node on the same backend, each
// node fed the backend's own values for its inputs, and each node's output is judged against the
// admissible enclosure of that node alone on those inputs. The first node outside introduced an
// error; the nodes before it only propagated what they were given.
#pragma once
#include <filesystem>
#include <optional>
#include <string>

#include "conformance/enclosure_judge.h"
#include "conformance/suite.h"
#include "target_stage.h"

namespace sonnx {

// What a named node was judged on (the failure explanation and its repro directory show it).
struct LocalizedNode {
  std::string label;        // the node's label in the model (functions inlined): "name (Op)", or "#index (Op)" unnamed
  Model model;              // the node alone: its inputs graph inputs, its outputs graph outputs, the model's opset imports
  NamedValues inputs;       // its inputs: the backend's own values (initializers as they are)
  NamedValues reference;    // the reference's outputs of the node on those inputs
  NamedValues backend;      // the backend's outputs of the node alone on them
  OutputEnclosures bounds;  // the node's admissible (and real) enclosure on those inputs
};

struct Localization {
  // A sentence naming the first node whose output leaves its enclosure (or that the backend cannot
  // give an output of), or "not localized: …" saying why none could be named (no node left its
  // enclosure, the backend could not run a node alone, an operator without an enclosure: each node
  // up to it passed).
  std::string sentence;
  std::string op_type;  // that node's operator type, domain-qualified as in CertTest::op_types; empty when none is named
  std::optional<LocalizedNode> node;  // the evidence, when a node is named
};

// `stage` runs each one-node model on the target (written to files first for a runtime command).
Localization localize_error(const Model& model, TargetStage& stage, const NamedValues& inputs);

}  // namespace sonnx
