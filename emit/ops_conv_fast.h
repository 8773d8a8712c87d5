// The fast-mode C template of Conv-22 (emit/ops_conv_fast.cpp): the convolution as a register-tiled
// matrix product, for gcc and clang to vectorise at -O3. emit/ops_conv.cpp calls it where it chooses
// the fast form of a Conv node; a case it does not handle is left to ops_conv.cpp's general fast form.
#pragma once
#include <cstdint>

#include "emit_op.h"
#include "reference/ops/support/window.h"

namespace sonnx::emit {

// The body of a Conv node in fast mode: X [N, C, in...], W [M, C/group, kernel...], optional B [M],
// Y [N, M, out...] over the window `geo` (support::window_attrs(...).over(...), the reference's
// geometry). X, W and B have been checked to share one element type. Returns false, having written
// nothing, when the case is not one it handles (an element type other than float and double, a
// kernel too large for its scratch, a group of fewer than 4 output channels that is not pointwise).
bool emit_conv_fast_gemm(NodeEmitter& e, int64_t N, int64_t C, int64_t M, int64_t group, const support::WindowGeometry& geo);

}  // namespace sonnx::emit
