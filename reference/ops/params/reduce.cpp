#include "reduce.h"

namespace sonnx {

ReduceParams ReduceParams::read(const AttrReader& r, int64_t version) {
  ReduceParams p;
  p.axes_from_input = version >= (r.node().op_type == "ReduceSum" ? 13 : 18);
  if (p.axes_from_input) p.noop_with_empty_axes = r.attr_int("noop_with_empty_axes", 0) != 0;
  else p.axes = r.attr_ints("axes", {});
  p.keepdims = r.attr_int("keepdims", 1) != 0;
  return p;
}

ArgReduceParams ArgReduceParams::read(const AttrReader& r, int64_t version) {
  ArgReduceParams p;
  p.axis = r.attr_int("axis", 0);
  p.keepdims = r.attr_int("keepdims", 1) != 0;
  p.select_last_index = version >= 12 && r.attr_int("select_last_index", 0) != 0;
  return p;
}

}  // namespace sonnx
