// The parameters of the data-movement operators that have attributes (reference/ops/op_params.h):
// Transpose, Slice, Concat, Split, Gather, Flatten, Squeeze, Unsqueeze and Reshape, read by their reference
// kernels, shape rules and fast kernels.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reference/model/attr_reader.h"

namespace sonnx {

struct TransposeParams {
  std::optional<std::vector<int64_t>> perm;  // absent: the axes reversed
  static TransposeParams read(const AttrReader& reader, int64_t version);
  // The permutation for an input of this rank into `out`: "" when it is one (perm has one entry
  // per axis, each in [0, rank), none twice), else why not.
  std::string permutation(int64_t rank, std::vector<int64_t>& out) const;
};

// Slice: starts, ends and the optional axes are attributes in version 1 (starts and ends
// required, checked), inputs (with steps) from 10.
struct SliceParams {
  bool from_inputs = true;
  std::vector<int64_t> starts, ends;
  std::optional<std::vector<int64_t>> axes;  // absent: the first len(starts) axes
  static SliceParams read(const AttrReader& reader, int64_t version);
};

struct ConcatParams {
  int64_t axis = 1;  // version 1: default 1; from 4: required (checked). Not yet checked against the rank.
  static ConcatParams read(const AttrReader& reader, int64_t version);
};

// Split: the part lengths come from the `split` attribute (versions 1, 2, 11) or input 1 (version 1
// optionally, from 13); without them the axis is cut into equal parts, from version 18 into
// num_outputs parts of ceil(dim / num_outputs) with a smaller last one.
struct SplitParams {
  int64_t axis = 0;                           // not yet checked against the rank
  std::optional<std::vector<int64_t>> split;  // the attribute's
  bool smaller_last = false;                  // version 18
  std::optional<int64_t> num_outputs;         // version 18: must be the node's output count
  static SplitParams read(const AttrReader& reader, int64_t version);
  // The lengths of `parts` parts of an axis of length `dim`, given the split input's values when
  // present, into `out`: "" when they cut the axis, else why not.
  std::string lengths(int64_t dim, size_t parts, const std::vector<int64_t>* split_input, std::vector<int64_t>& out) const;
};

// Gather and GatherElements.
struct GatherParams {
  int64_t axis = 0;  // not yet checked against the rank
  static GatherParams read(const AttrReader& reader, int64_t version);
};

struct FlattenParams {
  int64_t axis = 1;  // in [-rank, rank], negative only from version 11 (checked)
  static FlattenParams read(const AttrReader& reader, int64_t version);
  // The axis for an input of this rank, in [0, rank]: nullopt when out of range.
  std::optional<int64_t> axis_for(int64_t rank) const;
};

// Squeeze and Unsqueeze: the axes are an attribute before version 13 (required by Unsqueeze,
// checked) and the optional (Squeeze) or required (Unsqueeze) input 1 from 13.
struct SqueezeParams {
  bool axes_from_input = false;
  std::optional<std::vector<int64_t>> axes;  // the attribute's; absent for Squeeze: every axis of size 1
  static SqueezeParams read(const AttrReader& reader, int64_t version);
};

struct ReshapeParams {
  bool shape_from_input = true;  // from version 5; version 1 has the attribute `shape` (required, checked)
  std::vector<int64_t> shape;    // the attribute's
  bool allow_zero = false;       // from version 14: a 0 is a dimension of size 0, not "copy the input's"
  static ReshapeParams read(const AttrReader& reader, int64_t version);
};

}  // namespace sonnx
