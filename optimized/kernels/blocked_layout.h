// Channel-blocked layouts (oneDNN's nCw8c, nChw16c, nCdhw8c, ..., and channels-last) as the fast kernels other than
// Conv read and write them: the Layout token is a dnnl::memory::desc (onednn_conv.cpp), and these
// loops handle only the plain channel blockings below; any other layout makes the kernel fall
// back to a plain copy.
#pragma once
#include <optional>

#include "fast_kernel.h"

namespace sonnx::fast {

// Element (n, c, s) of a tensor [N, C, spatial...] with channel block B is at
// ((n * blocks + c / B) * spatial + s) * B + c % B, s the row-major index over the spatial axes.
// Lanes c >= C of the last block are padding and stay zero (Conv scans whole buffers for NaN).
// Channels-last (nhwc and the like) is the case B = C, one block.
struct ChannelBlocks {
  int64_t n = 0, c = 0, block = 0, blocks = 0, spatial = 0;
  int64_t floats() const { return n * blocks * spatial * block; }
};

// The blocking of `layout` for a tensor of `shape`, or nothing when `layout` is null, another kind
// of layout, or the tensor is empty.
std::optional<ChannelBlocks> channel_blocks(const Shape& shape, FastKernel::Layout layout);

// Sets the padding lanes (channels C..blocks*B-1) of a blocked buffer to zero.
void zero_padding(const ChannelBlocks& b, float* data);

// Whether two layout tokens describe the same arrangement.
bool same_layout(FastKernel::Layout a, FastKernel::Layout b);

}  // namespace sonnx::fast
