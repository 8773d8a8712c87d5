// Type and shape inference of a model written in ONNX's text syntax, for the shape-rule tests of
// the operator files (tests/unit/ops/).
#pragma once
#include <string>

#include <gtest/gtest.h>

#include "reference/infer/infer.h"
#include "reference/model/text_syntax.h"

namespace sonnx::testing {

// The text syntax spells an output of unknown shape "float Y", which parses as a scalar; here such
// a declaration means "shape not declared", so rank-0 output declarations are dropped (in
// subgraphs too).
inline void forget_scalar_outputs(Graph& g) {
  for (auto& o : g.outputs)
    if (o.type.shape && o.type.shape->empty()) o.type.shape.reset();
  for (auto& n : g.nodes)
    for (auto& a : n.attributes)
      if (a.g) forget_scalar_outputs(*a.g);
}

// A model in the text syntax, with its rank-0 output declarations dropped.
inline Model parse_text_model(const char* text) {
  Model m = text::parse_model(text);
  forget_scalar_outputs(m.graph);
  return m;
}

inline InferenceResult infer_text(const char* text) { return infer_model(parse_text_model(text)); }

inline std::string inferred(const InferenceResult& r, const std::string& name) {
  auto it = r.types.find(name);
  return it == r.types.end() ? "absent" : it->second.str();
}

// The type inferred for `name` in a model in the text syntax ("absent" when there is none).
inline std::string inferred(const char* text, const std::string& name) { return inferred(infer_text(text), name); }

}  // namespace sonnx::testing
