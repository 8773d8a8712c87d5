// Whether sonnx runs an operator version of the catalogue: a kernel or a function body resolved
// for a one-node model importing that version (what OP-IMPLEMENTED checks); `why` says why not.
#pragma once
#include <string>

#include "reference/catalogue/catalogue.h"
#include "reference/ops/op_table.h"

namespace sonnx::testing {

inline bool schema_runnable(const catalogue::Schema& s, std::string& why) {
  Model model;
  model.opset_imports[s.domain] = s.version;
  Node node;
  node.op_type = s.name;
  node.domain = s.domain;
  return runnable(resolve_op(model, node, s.version), node, s.version, why);
}

}  // namespace sonnx::testing
