// Softmax, LogSoftmax and Hardmax 11 → 13. Version 11 coerces the input to 2-D at `axis` (default
// 1) and normalizes each row of d[axis] * ... * d[r-1] elements; version 13 normalizes along the one
// axis `axis` (default -1). With r the input's rank and k the axis made non-negative, version 11's
// row is version 13's line along axis j, element for element in the same order, when every
// dimension in k..r-1 but j is 1 (j = r-1 when k = r-1; any of them when the input is empty): the
// rewrite then writes axis = j (one kernel, reference/ops/support/softmax.h, computes both
// versions the same way on the same elements, so the results are bitwise equal). It needs the
// input's rank, and its dimensions after the axis when the axis is not the last. A row that spans
// several axes of more than one element is version 11's row in a 2-D tensor: the input is
// flattened at k (Flatten keeps the elements' order; row i is the same elements in the same order),
// normalized along axis 1, and reshaped back to the input's shape, which must then be static.
#include <string>
#include <vector>

#include "adapters_support.h"
#include "upgrade.h"

namespace sonnx {
namespace {

void normalize_flattened_rows(Node& n, admit::UpgradeContext& ctx, int64_t k, const std::vector<Dim>& dims) {
  using namespace admit::adapt;
  Tensor shape(DType::Int64, {static_cast<int64_t>(dims.size())});
  for (size_t d = 0; d < dims.size(); ++d) {
    if (!dims[d].value)
      throw admit::UpgradeRefused("its rows span several axes: flattening them and reshaping back needs input " + n.inputs[0] +
                                  "'s static shape");
    shape.data<int64_t>()[d] = *dims[d].value;
  }
  std::string rows = ctx.new_name(hint(n, "rows")), normalized = ctx.new_name(hint(n, "normalized"));
  Node flatten = new_node(ctx, n, "Flatten", "flatten", {n.inputs[0]}, {rows});
  set_int_attr(flatten, "axis", k);
  Node reshape = new_node(ctx, n, "Reshape", "reshape", {normalized, ctx.add_initializer(hint(n, "shape"), shape)},
                          {n.outputs[0]});
  n.inputs[0] = rows;
  n.outputs[0] = normalized;
  set_int_attr(n, "axis", 1);
  ctx.add_node_before(std::move(flatten));
  ctx.add_node_after(std::move(reshape));
}

void normalize_along_one_axis(Node& n, admit::UpgradeContext& ctx) {
  using namespace admit::adapt;
  if (n.inputs.empty() || n.inputs[0].empty()) throw admit::UpgradeRefused("input 0 is missing");
  const Attribute* a = find_attr(n, "axis");
  if (a && a->type != Attribute::Type::Int) throw admit::UpgradeRefused("attribute axis is not an int");
  int64_t axis = a ? a->i : 1;  // version 11's default; version 13's is -1
  const std::string& x = n.inputs[0];
  std::optional<std::vector<Dim>> dims = dims_of(ctx, x);
  if (!dims) throw admit::UpgradeRefused("needs the rank of input " + x);
  auto r = static_cast<int64_t>(dims->size());
  if (axis < -r || axis >= r)
    throw admit::UpgradeRefused("axis " + std::to_string(axis) + " is not an axis of the rank-" + std::to_string(r) + " input");
  int64_t k = axis < 0 ? axis + r : axis;
  auto known = [&](int64_t d, int64_t v) {
    const Dim& dim = (*dims)[static_cast<size_t>(d)];
    return dim.value && *dim.value == v;
  };
  bool empty = false;
  for (int64_t d = 0; d < r; ++d) empty = empty || known(d, 0);
  int64_t along = k;  // version 13's axis
  if (!empty) {
    int wide = 0;  // dimensions in k..r-1 not known to be 1
    for (int64_t d = k; d < r; ++d)
      if (!known(d, 1)) {
        ++wide;
        along = d;
      }
    if (wide > 1) return normalize_flattened_rows(n, ctx, k, *dims);
  }
  if (a && along == k) return;  // the same axis, as written
  set_int_attr(n, "axis", along);
}

}  // namespace

SONNX_UPGRADE("", "Softmax", 11, 13, normalize_along_one_axis);
SONNX_UPGRADE("", "LogSoftmax", 11, 13, normalize_along_one_axis);
SONNX_UPGRADE("", "Hardmax", 11, 13, normalize_along_one_axis);

}  // namespace sonnx
