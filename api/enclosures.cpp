// The C++ API's guaranteed enclosures (include/sonnx/sonnx.hpp) over enclose/.
#include "reference/check/prepare.h"
#include "enclose/encloser.h"
#include "sonnx/sonnx.hpp"

namespace sonnx {

std::map<std::string, OutputEnclosure> enclosures(const ModelHandle& model, const NamedValues& inputs,
                                                  const std::string& semantics, bool check) {
  if (semantics != "real" && semantics != "admissible")
    throw LoadError("unknown semantics '" + semantics + "' (real or admissible)");
  Model ir = prepared_ir(model.impl(), {check, nullptr}, model.name());
  std::map<std::string, enclose::Bounds> bounds =
      enclose::enclose_model(ir, inputs, semantics == "real" ? enclose::Semantics::Real : enclose::Semantics::Admissible);
  std::map<std::string, OutputEnclosure> out;
  for (auto& [name, b] : bounds) {
    if (!b.is_tensor())
      throw Unsupported("output '" + name + "' is a sequence or an optional: enclosures() encloses tensors only");
    out[name] = {b.type, std::move(b.lo), std::move(b.hi)};
  }
  return out;
}

double width_in_ulps(DType type, double lower, double upper) { return enclose::width_in_ulps(lower, upper, type); }

}  // namespace sonnx
