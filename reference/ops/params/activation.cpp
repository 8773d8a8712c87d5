#include "activation.h"

#include <string>

namespace sonnx {

ActivationParams ActivationParams::read(const AttrReader& r, int64_t version) {
  const std::string& op = r.node().op_type;
  ActivationParams p;
  if (op == "LeakyRelu") p.alpha = r.attr_float("alpha", 0.01f);
  else if (op == "Elu" || op == "Celu" || op == "ThresholdedRelu") p.alpha = r.attr_float("alpha", 1.0f);
  else if (op == "HardSigmoid") {
    p.alpha = r.attr_float("alpha", 0.2f);
    p.beta = r.attr_float("beta", 0.5f);
  } else if (op == "Selu") {
    p.alpha = r.attr_float("alpha", version < 6 ? 1.6732f : 1.67326319217681884765625f);
    p.gamma = r.attr_float("gamma", version < 6 ? 1.0507f : 1.05070102214813232421875f);
  } else {
    r.fail("ActivationParams do not describe " + op);
  }
  return p;
}

GeluParams GeluParams::read(const AttrReader& r, int64_t /*version*/) {
  std::string approximate = r.attr_string("approximate", "none");
  if (approximate != "none" && approximate != "tanh")
    r.fail("attribute approximate must be \"none\" or \"tanh\", got \"" + approximate + "\"");
  return {approximate == "tanh"};
}

ClipParams ClipParams::read(const AttrReader& r, int64_t version) {
  ClipParams p;
  p.bounds_from_inputs = version >= 11;
  if (!p.bounds_from_inputs) {
    p.min = r.attr_float("min", p.min);
    p.max = r.attr_float("max", p.max);
  }
  return p;
}

}  // namespace sonnx
