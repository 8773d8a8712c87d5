// The random graph generator: a Recipe (recipe.h) becomes a valid ONNX model (opset 7 to 17, or 27) with
// inputs drawn so every operator stays finite, and with how each output is to be compared.
#pragma once
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

#include "conformance/compare.h"
#include "gen_context.h"
#include "recipe.h"
#include "sonnx/value.h"
#include "reference/model/ir.h"

namespace sonnx::fuzz {

struct OutputCheck {
  std::string name;
  bool exact = true;  // every operator it depends on is of accuracy class `exact`: compare bitwise
  Tolerance tol;      // otherwise: rtol 1e-3, atol 1e-5 scaled by the value range's magnitude
};

struct GeneratedCase {
  Recipe recipe;
  onnx::ModelProto proto;
  Model model;
  NamedValues inputs;
  std::vector<InputDraw> input_draws;  // how each input's values were drawn (recorded with repros)
  std::vector<OutputCheck> outputs;
  std::vector<std::string> op_types;  // main-graph nodes in order
  int nodes() const { return static_cast<int>(op_types.size()); }
  std::string describe() const;  // recipe, operators, input ranges: printed on failure
};

GeneratedCase generate(const Recipe& recipe);

}  // namespace sonnx::fuzz
