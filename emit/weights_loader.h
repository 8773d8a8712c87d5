// PREFIX_weights.c: the reader of the weights file `sonnx emit-c --weights file` writes (stdio,
// kept apart from PREFIX.c so that a caller may replace it: flash, a memory map, a packed section).
#pragma once
#include <string>

namespace sonnx::emit {

std::string weights_loader_source(const std::string& prefix);

}  // namespace sonnx::emit
