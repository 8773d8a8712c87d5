#include "movement.h"

namespace sonnx {

TransposeParams TransposeParams::read(const AttrReader& r, int64_t /*version*/) {
  TransposeParams p;
  if (r.has_attr("perm")) p.perm = r.attr_ints("perm");
  return p;
}

std::string TransposeParams::permutation(int64_t rank, std::vector<int64_t>& out) const {
  out.clear();
  if (!perm) {
    for (int64_t i = rank - 1; i >= 0; --i) out.push_back(i);
    return "";
  }
  if (static_cast<int64_t>(perm->size()) != rank)
    return "perm has " + std::to_string(perm->size()) + " entries for an input of rank " + std::to_string(rank);
  std::vector<bool> seen(static_cast<size_t>(rank), false);
  for (int64_t a : *perm) {
    if (a < 0 || a >= rank || seen[static_cast<size_t>(a)]) return "perm is not a permutation of the axes";
    seen[static_cast<size_t>(a)] = true;
  }
  out = *perm;
  return "";
}

SliceParams SliceParams::read(const AttrReader& r, int64_t version) {
  SliceParams p;
  p.from_inputs = version >= 10;
  if (p.from_inputs) return p;
  if (!r.has_attr("starts") || !r.has_attr("ends")) r.fail("attributes 'starts' and 'ends' are required");
  p.starts = r.attr_ints("starts");
  p.ends = r.attr_ints("ends");
  if (r.has_attr("axes")) p.axes = r.attr_ints("axes");
  return p;
}

ConcatParams ConcatParams::read(const AttrReader& r, int64_t version) {
  if (version >= 4 && !r.has_attr("axis")) r.fail("attribute 'axis' is required");
  return {r.attr_int("axis", 1)};
}

SplitParams SplitParams::read(const AttrReader& r, int64_t version) {
  SplitParams p;
  p.axis = r.attr_int("axis", 0);
  if (version < 13 && r.has_attr("split")) p.split = r.attr_ints("split");
  p.smaller_last = version >= 18;
  if (p.smaller_last && r.has_attr("num_outputs")) p.num_outputs = r.attr_int("num_outputs", 0);
  return p;
}

std::string SplitParams::lengths(int64_t dim, size_t parts, const std::vector<int64_t>* split_input,
                                 std::vector<int64_t>& out) const {
  if (parts == 0) return "at least one output is required";
  if (split_input && num_outputs) return "the split input and the num_outputs attribute cannot both be given";
  auto n = static_cast<int64_t>(parts);
  if (split_input || split) {
    out = split_input ? *split_input : *split;
  } else if (smaller_last) {
    // Without either, the node's output count plays num_outputs (as in onnx's reference).
    int64_t k = num_outputs.value_or(n);
    if (k < 1) return "num_outputs must be at least 1, got " + std::to_string(k);
    if (k != n) return "num_outputs is " + std::to_string(k) + " but the node has " + std::to_string(n) + " outputs";
    int64_t chunk = dim / n + (dim % n != 0 ? 1 : 0);
    out.assign(parts, chunk);
    out.back() = dim - chunk * (n - 1);
    if (out.back() < 0)
      return "an axis of size " + std::to_string(dim) + " cannot be split into " + std::to_string(n) + " parts of " +
             std::to_string(chunk) + " with a smaller last part";
  } else {
    if (dim % n != 0)
      return "axis of size " + std::to_string(dim) + " cannot be split into " + std::to_string(n) + " equal parts";
    out.assign(parts, dim / n);
  }
  if (out.size() != parts) return "split has " + std::to_string(out.size()) + " lengths for " + std::to_string(n) + " outputs";
  int64_t total = 0;
  for (int64_t len : out) {
    if (len < 0) return "split lengths must be non-negative";
    if (len > dim) return "split length larger than the axis";
    total += len;  // each ≤ dim, so no overflow for any real number of outputs
  }
  if (total != dim) return "split lengths sum to " + std::to_string(total) + " but the axis has size " + std::to_string(dim);
  return "";
}

GatherParams GatherParams::read(const AttrReader& r, int64_t /*version*/) { return {r.attr_int("axis", 0)}; }

FlattenParams FlattenParams::read(const AttrReader& r, int64_t version) {
  FlattenParams p{r.attr_int("axis", 1)};
  if (version < 11 && p.axis < 0) r.fail("axis " + std::to_string(p.axis) + " is negative, which version 11 first allows");
  return p;
}

std::optional<int64_t> FlattenParams::axis_for(int64_t rank) const {
  if (axis < -rank || axis > rank) return std::nullopt;
  return axis < 0 ? axis + rank : axis;
}

SqueezeParams SqueezeParams::read(const AttrReader& r, int64_t version) {
  SqueezeParams p;
  p.axes_from_input = version >= 13;
  if (p.axes_from_input) return p;
  if (r.has_attr("axes")) p.axes = r.attr_ints("axes");
  else if (r.node().op_type == "Unsqueeze") r.fail("attribute 'axes' is required");
  return p;
}

ReshapeParams ReshapeParams::read(const AttrReader& r, int64_t version) {
  ReshapeParams p;
  p.shape_from_input = version >= 5;
  if (!p.shape_from_input) {
    if (!r.has_attr("shape")) r.fail("attribute 'shape' is required");
    p.shape = r.attr_ints("shape");
  }
  p.allow_zero = version >= 14 && r.attr_int("allowzero", 0) != 0;
  return p;
}

}  // namespace sonnx
