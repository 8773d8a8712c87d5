// Which activation layout a convolution runs in: plain NCHW source/destination wrapped directly,
// or oneDNN's preferred (blocked) layout with a reorder of the source in and the destination out
// on every call. The rule was measured with bench/conv_layouts.cpp (see conv_layout.cpp).
#pragma once
#include <cstdint>

namespace sonnx::fast {

struct ConvShape {
  int64_t C = 0, M = 0, group = 1;  // input channels, output channels, groups
  int64_t in_h = 1, out_h = 1;      // first spatial extent of input and output
  int64_t kh = 1, stride = 1;       // first kernel extent and stride
};

bool conv_prefers_blocked(const ConvShape& s);

}  // namespace sonnx::fast
