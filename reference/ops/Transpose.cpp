// Transpose: permutes the axes like numpy.transpose; without perm the axes are reversed.
// Relies on ops/shape_ops.mlw Transpose.transpose_inverse: Transpose by perm then by its inverse is the identity.
#include "support/shape.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> transpose(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  int64_t rank = x.rank();
  std::vector<int64_t> perm;
  if (ctx.has_attr("perm")) {
    perm = ctx.attr_ints("perm");
    if (static_cast<int64_t>(perm.size()) != rank)
      ctx.fail("perm has " + std::to_string(perm.size()) + " entries for an input of rank " + std::to_string(rank));
    std::vector<bool> seen(static_cast<size_t>(rank), false);
    for (int64_t p : perm) {
      if (p < 0 || p >= rank || seen[static_cast<size_t>(p)]) ctx.fail("perm is not a permutation of the axes");
      seen[static_cast<size_t>(p)] = true;
    }
  } else {
    for (int64_t i = rank - 1; i >= 0; --i) perm.push_back(i);
  }
  return one(transpose_tensor(x, perm));
}
}  // namespace
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
  const Dims* x = ctx.input_shape(0);
  if (!x) {
    if (ctx.has_attr("perm")) ctx.set_output(0, t, Dims(ctx.attr_ints("perm").size()));
    else ctx.set_output(0, t, std::nullopt);
    return;
  }
  int64_t r = static_cast<int64_t>(x->size());
  std::vector<int64_t> perm = ctx.attr_ints("perm");
  if (!ctx.has_attr("perm"))
    for (int64_t i = r - 1; i >= 0; --i) perm.push_back(i);
  if (static_cast<int64_t>(perm.size()) != r)
    ctx.fail("perm has " + std::to_string(perm.size()) + " entries for an input of rank " + std::to_string(r));
  Dims out;
  std::vector<bool> seen(static_cast<size_t>(r), false);
  for (int64_t p : perm) {
    int64_t a = infer_axis(ctx, p, r, "perm entry");
    if (seen[static_cast<size_t>(a)]) ctx.fail("perm repeats axis " + std::to_string(a));
    seen[static_cast<size_t>(a)] = true;
    out.push_back((*x)[static_cast<size_t>(a)]);
  }
  ctx.set_output(0, t, out);
}
}  // namespace
SONNX_SHAPE_RULE("", "Transpose", (1, 13, 21, 23, 24, 25), transpose_shape);
}  // namespace sonnx
