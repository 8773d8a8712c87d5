// Transpose: permutes the axes like numpy.transpose; without perm the axes are reversed.
// Relies on ops/shape_ops.mlw Transpose.transpose_inverse: Transpose by perm then by its inverse is the identity.
#include "op_params.h"
#include "params/movement.h"
#include "support/shape.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> transpose(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  int64_t rank = x.rank();
  std::vector<int64_t> perm;
  if (std::string why = TransposeParams::read(ctx, ctx.version()).permutation(rank, perm); !why.empty()) ctx.fail(why);
  return one(transpose_tensor(x, perm));
}
}  // namespace
SONNX_PARAMS("", "Transpose", (1, 13, 21, 23, 24, 25), TransposeParams);
SONNX_KERNEL("", "Transpose", 1, transpose, Accuracy::Exact);

// Versions 21, 23, 24, 25 only widen the type lists (the documents' text and
// structure are unchanged): the same kernel.
SONNX_KERNEL("", "Transpose", 21, transpose, Accuracy::Exact);
SONNX_KERNEL("", "Transpose", 23, transpose, Accuracy::Exact);
SONNX_KERNEL("", "Transpose", 24, transpose, Accuracy::Exact);
SONNX_KERNEL("", "Transpose", 25, transpose, Accuracy::Exact);
namespace {
// perm must be a permutation of the axes (default: reversed).
void transpose_shape(InferContext& ctx) {
  DType t = ctx.input_elem(0);
  TransposeParams p = TransposeParams::read(ctx, ctx.version());
  const Dims* x = ctx.input_shape(0);
  if (!x) {
    if (p.perm) ctx.set_output(0, t, Dims(p.perm->size()));
    else ctx.set_output(0, t, std::nullopt);
    return;
  }
  std::vector<int64_t> perm;
  if (std::string why = p.permutation(static_cast<int64_t>(x->size()), perm); !why.empty()) ctx.fail(why);
  Dims out;
  for (int64_t a : perm) out.push_back((*x)[static_cast<size_t>(a)]);
  ctx.set_output(0, t, out);
}
}  // namespace
SONNX_SHAPE_RULE("", "Transpose", (1, 13, 21, 23, 24, 25), transpose_shape);
}  // namespace sonnx
