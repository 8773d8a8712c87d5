// BatchNormalization's version steps that change its signature (spec/upgrade-steps.md): both keep a
// node that normalizes with its running statistics (inference) and refuse one that trains.
#include "upgrade.h"

#include <algorithm>
#include <string>

namespace sonnx {
namespace {

// 7 → 9: spatial left the operator; version 9 is version 7's spatial = 1 (statistics per channel).
void drop_spatial(Node& n, admit::UpgradeContext&) {
  auto it = std::find_if(n.attributes.begin(), n.attributes.end(), [](const Attribute& a) { return a.name == "spatial"; });
  if (it == n.attributes.end()) return;
  if (it->type != Attribute::Type::Int || it->i != 1)
    throw admit::UpgradeRefused("spatial = 0 (statistics per activation) has no form in version 9");
  n.attributes.erase(it);
}

// 9 → 14: training_mode = 0 is inference; version 9 trains exactly when an output after Y is asked
// for, and those outputs changed (five, then three).
void inference_only(Node& n, admit::UpgradeContext&) {
  for (size_t k = 1; k < n.outputs.size(); ++k)
    if (!n.outputs[k].empty()) throw admit::UpgradeRefused("the node trains (it asks for output " + std::to_string(k) + ")");
  n.outputs.resize(1);
}

}  // namespace

SONNX_UPGRADE("", "BatchNormalization", 7, 9, drop_spatial);
SONNX_UPGRADE("", "BatchNormalization", 9, 14, inference_only);

}  // namespace sonnx
