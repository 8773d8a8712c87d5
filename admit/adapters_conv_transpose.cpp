// ConvTranspose 1 → 11 (reference/ops/ConvTranspose.cpp; the output lengths and pads are
// support::TransposedAttrs::axis). When output_shape fixes the output, the total padding
// s·(in − 1) + output_padding + (k − 1)·d + 1 − output_shape is split between the two ends; with an
// odd total version 1 (its formula, for auto_pad NOTSET or VALID) puts the extra element at the
// end, version 11 at the end only for SAME_UPPER and at the beginning otherwise. SAME_UPPER and
// SAME_LOWER split alike in both versions, and pads are ignored whenever output_shape is given.
// So a node with output_shape and auto_pad NOTSET or VALID becomes SAME_UPPER (its pads dropped):
// version 11 then splits its total as version 1 did. Version 11 also says output_shape holds the
// spatial lengths only (a version-1 node may give N and C too: they are dropped, which needs the
// spatial rank) and that each output_padding is less than its stride or its dilation (a node
// without that has no version-11 form and is refused).
#include <string>

#include "adapters_support.h"
#include "upgrade.h"

namespace sonnx {
namespace {

void conv_transpose_output_shape_padding(Node& n, admit::UpgradeContext& ctx) {
  using namespace admit::adapt;
  std::vector<int64_t> strides = ints_attr(n, "strides"), dilations = ints_attr(n, "dilations");
  std::vector<int64_t> output_padding = ints_attr(n, "output_padding");
  for (size_t i = 0; i < output_padding.size(); ++i) {
    int64_t s = i < strides.size() ? strides[i] : 1, d = i < dilations.size() ? dilations[i] : 1;
    if (output_padding[i] >= s && output_padding[i] >= d)
      throw admit::UpgradeRefused("output_padding " + std::to_string(output_padding[i]) + " on spatial axis " +
                                  std::to_string(i) + " is not less than its stride or its dilation, as version 11 requires");
  }
  std::vector<int64_t> output_shape = ints_attr(n, "output_shape");
  if (output_shape.empty()) return;
  // The spatial rank: kernel_shape's length, or W's or X's rank less 2.
  int64_t r = -1;
  if (const Attribute* k = find_attr(n, "kernel_shape"); k && k->type == Attribute::Type::Ints)
    r = static_cast<int64_t>(k->ints.size());
  for (size_t input : {size_t{1}, size_t{0}})  // W, then X
    if (r < 0 && input < n.inputs.size())
      if (std::optional<std::vector<Dim>> dims = dims_of(ctx, n.inputs[input]); dims && dims->size() >= 2)
        r = static_cast<int64_t>(dims->size()) - 2;
  if (r < 0) throw admit::UpgradeRefused("needs the spatial rank (kernel_shape, or the rank of W or X) to read output_shape");
  if (static_cast<int64_t>(output_shape.size()) == r + 2)
    set_ints_attr(n, "output_shape", {output_shape.begin() + 2, output_shape.end()});
  std::string auto_pad = string_attr(n, "auto_pad", "NOTSET");
  if (auto_pad == "NOTSET" || auto_pad.empty() || auto_pad == "VALID") {
    set_string_attr(n, "auto_pad", "SAME_UPPER");
    erase_attr(n, "pads");
  }
}

}  // namespace

SONNX_UPGRADE("", "ConvTranspose", 1, 11, conv_transpose_output_shape_padding);

}  // namespace sonnx
