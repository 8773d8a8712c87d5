// A LoadedModel of a model made in memory (parsed from the text syntax, or rewritten): its proto
// holds what the validator reads beside the IR, the IR version and the opset imports.
#pragma once
#include <string>

#include "reference/model/loader.h"
#include "reference/model/text_syntax.h"

namespace sonnx::testing {

inline LoadedModel loaded_model(const Model& m) {
  LoadedModel lm;
  lm.ir = m;
  lm.proto.set_ir_version(m.ir_version);
  for (const auto& [domain, version] : m.opset_imports) {
    auto* o = lm.proto.add_opset_import();
    o->set_domain(domain);
    o->set_version(version);
  }
  return lm;
}

inline LoadedModel loaded_model(const std::string& text) { return loaded_model(text::parse_model(text)); }

}  // namespace sonnx::testing
