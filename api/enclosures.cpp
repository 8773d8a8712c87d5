// The C++ API's guaranteed enclosures (include/sonnx/sonnx.hpp) over reference/enclose.
#include "optimized/plan/infer_types.h"
#include "reference/model/loader.h"
#include "refuse_invalid.h"
#include "reference/enclose/encloser.h"
#include "sonnx/sonnx.hpp"

namespace sonnx {

std::map<std::string, OutputEnclosure> enclosures(const ModelHandle& model, const NamedValues& inputs, const std::string& semantics,
                                                  bool check) {
  if (semantics != "real" && semantics != "admissible") throw LoadError("unknown semantics '" + semantics + "' (real or admissible)");
  if (check) refuse_invalid(model, "onnx");
  Model ir = model.impl().ir;
  add_inferred_types(ir);
  std::map<std::string, enclose::Bounds> bounds;
  try {
    bounds = enclose::enclose_model(ir, inputs, semantics == "real" ? enclose::Semantics::Real : enclose::Semantics::Admissible);
  } catch (const enclose::Undetermined& e) {
    throw Undetermined(e.what());
  }
  std::map<std::string, OutputEnclosure> out;
  for (auto& [name, b] : bounds) out[name] = {b.type, std::move(b.lo), std::move(b.hi)};
  return out;
}

}  // namespace sonnx
