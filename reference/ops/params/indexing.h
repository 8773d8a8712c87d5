// The parameters of indexing and rearranging operators (reference/ops/op_params.h): TopK,
// DepthToSpace and SpaceToDepth, OneHot, GatherND, Compress, Shape, CumSum and CumProd, read by their
// reference kernels and shape rules. (GatherElements reads GatherParams, params/movement.h.)
#pragma once
#include <cstdint>
#include <optional>

#include "reference/model/attr_reader.h"

namespace sonnx {

struct TopKParams {
  int64_t axis = -1;         // not yet checked against the rank
  std::optional<int64_t> k;  // version 1: the attribute (required, checked); from 10 the input K
  bool largest = true;       // from version 11
  static TopKParams read(const AttrReader& reader, int64_t version);
};

// DepthToSpace and SpaceToDepth.
struct BlockParams {
  int64_t blocksize = 0;  // required, in [1, 2^20] (checked): blocksize² channels move
  bool crd = false;       // DepthToSpace from version 11: mode CRD (column-row-depth) rather than DCR (checked)
  static BlockParams read(const AttrReader& reader, int64_t version);
};

struct OneHotParams {
  int64_t axis = -1;  // of the output, rank(indices) + 1; not yet checked against it
  static OneHotParams read(const AttrReader& reader, int64_t version);
};

struct GatherNDParams {
  int64_t batch_dims = 0;  // from version 12
  static GatherNDParams read(const AttrReader& reader, int64_t version);
};

struct CompressParams {
  std::optional<int64_t> axis;  // absent: the input flattened
  static CompressParams read(const AttrReader& reader, int64_t version);
};

// Shape from version 15 takes dimensions [start, end), negative counting from the back, clamped.
struct ShapeParams {
  int64_t start = 0;
  std::optional<int64_t> end;
  static ShapeParams read(const AttrReader& reader, int64_t version);
  // The dimensions [begin, end) of a tensor of this rank that the output lists.
  void range(int64_t rank, int64_t& begin, int64_t& stop) const;
};

struct CumSumParams {
  bool exclusive = false, reverse = false;
  static CumSumParams read(const AttrReader& reader, int64_t version);
};

}  // namespace sonnx
