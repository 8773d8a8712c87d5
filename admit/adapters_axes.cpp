// Version steps where attributes became inputs (spec/upgrade-steps.md, signature changes): the
// rewrite moves the attribute's value into an int64 initializer read as that input, which the
// newer version reads as the older one read the attribute.
#include "attributes.h"
#include "upgrade.h"

#include <algorithm>
#include <string>

namespace sonnx {
namespace {

// Moves the ints attribute `name` of n, when present, to a new int64 initializer read as input
// `index` (optional inputs before it stay omitted).
void ints_to_input(Node& n, admit::UpgradeContext& ctx, const std::string& name, size_t index) {
  auto it = std::find_if(n.attributes.begin(), n.attributes.end(), [&](const Attribute& a) { return a.name == name; });
  if (it == n.attributes.end()) return;
  if (it->type != Attribute::Type::Ints) throw admit::UpgradeRefused("attribute " + name + " is not a list of ints");
  if (n.inputs.size() > index && !n.inputs[index].empty())
    throw admit::UpgradeRefused("the node has both the attribute " + name + " and input " + std::to_string(index));
  Tensor value = Tensor::from_vector<int64_t>({static_cast<int64_t>(it->ints.size())}, it->ints);
  std::string input = ctx.add_initializer((n.name.empty() ? n.op_type : n.name) + "_" + name, std::move(value));
  if (n.inputs.size() <= index) n.inputs.resize(index + 1);
  n.inputs[index] = input;
  n.attributes.erase(it);
}

// Squeeze, Unsqueeze 11 → 13, ReduceSum 11 → 13, the other reductions 13 → 18 (noop_with_empty_axes
// = 0 keeps "no axes: all axes"): axes becomes input 1.
void axes_to_input(Node& n, admit::UpgradeContext& ctx) { ints_to_input(n, ctx, "axes", 1); }

// Split 11 → 13: split becomes input 1.
void split_to_input(Node& n, admit::UpgradeContext& ctx) { ints_to_input(n, ctx, "split", 1); }

// Split 13 → 18: without the split input, version 18 needs num_outputs; the outputs' number is what
// version 13 splits into (equal parts, which version 13 requires and version 18 then computes).
void split_num_outputs(Node& n, admit::UpgradeContext&) {
  if (n.inputs.size() > 1 && !n.inputs[1].empty()) return;
  n.attributes.push_back(admit::int_attribute("num_outputs", static_cast<int64_t>(n.outputs.size())));
}

// Slice 1 → 10: starts, ends and axes become inputs 1, 2 and 3 (steps stay 1).
void slice_to_inputs(Node& n, admit::UpgradeContext& ctx) {
  for (const char* required : {"starts", "ends"})
    if (std::none_of(n.attributes.begin(), n.attributes.end(), [&](const Attribute& a) { return a.name == required; }))
      throw admit::UpgradeRefused(std::string("attribute ") + required + " is missing");
  ints_to_input(n, ctx, "starts", 1);
  ints_to_input(n, ctx, "ends", 2);
  ints_to_input(n, ctx, "axes", 3);
}

}  // namespace

SONNX_UPGRADE("", "Squeeze", 11, 13, axes_to_input);
SONNX_UPGRADE("", "Unsqueeze", 11, 13, axes_to_input);
SONNX_UPGRADE("", "ReduceSum", 11, 13, axes_to_input);
SONNX_UPGRADE("", "ReduceMean", 13, 18, axes_to_input);
SONNX_UPGRADE("", "Split", 11, 13, split_to_input);
SONNX_UPGRADE("", "Split", 13, 18, split_num_outputs);
SONNX_UPGRADE("", "Slice", 1, 10, slice_to_inputs);

}  // namespace sonnx
