// Trilu: keeps the upper (upper=1: column - row >= k) or lower (column - row <= k) triangle of
// each matrix in the last two axes and zeroes the rest. k is an optional scalar input (default 0).
#include "op_params.h"
#include "support/shape.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
struct TriluParams {
  bool upper = true;  // keep column - row >= k; otherwise column - row <= k (any nonzero is true)
  static TriluParams read(const AttrReader& r, int64_t /*version*/) { return {r.attr_int("upper", 1) != 0}; }
};

std::vector<Value> trilu(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.rank() < 2) ctx.fail("input must have rank >= 2");
  int64_t k = ctx.has_input(1) ? int_scalar(ctx, ctx.input(1), "k") : 0;
  bool upper = TriluParams::read(ctx, ctx.version()).upper;
  int64_t rows = x.dim(x.rank() - 2), cols = x.dim(x.rank() - 1);
  std::vector<int64_t> map(static_cast<size_t>(x.size()));
  for (int64_t lin = 0; lin < x.size(); ++lin) {
    int64_t col = lin % cols, row = (lin / cols) % rows;  // x.size() > 0 here, so rows, cols > 0
    int64_t diag = col - row;
    bool keep = upper ? diag >= k : diag <= k;
    map[static_cast<size_t>(lin)] = keep ? lin : -1;
  }
  return one(take(x, x.shape(), map));
}
}  // namespace
SONNX_PARAMS("", "Trilu", (14), TriluParams);
SONNX_KERNEL("", "Trilu", 14, trilu, Accuracy::Exact);
SONNX_SHAPE_RULE("", "Trilu", (14), same_as_input_rule);
}  // namespace sonnx
