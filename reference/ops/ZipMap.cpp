// ZipMap (ai.onnx.ml 1): each row of X (float, [N, C], or [C] as one row) becomes the map from
// the class labels (classlabels_int64s or classlabels_strings, one per column) to that row's
// values; Z is the sequence of the N maps, map(int64, float) or map(string, float) as the labels
// are. Decisions (spec/ops/ZipMap.md): exactly one label list, not empty; a label listed twice is
// refused (a map has each key once); X of another rank, or with a column count other than the
// label count, traps.
#include <set>

#include "op_params.h"
#include "params/class_labels.h"
#include "support/kernel.h"
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {

struct ZipMapParams {
  Tensor labels;  // 1-D, int64 or string: the key of each column of X

  static ZipMapParams read(const AttrReader& r, int64_t /*version*/) {
    const ClassLabels labels = ClassLabels::read(r, "classlabels_int64s");
    const bool repeated = labels.use_strings()
                              ? std::set<std::string>(labels.strings.begin(), labels.strings.end()).size() !=
                                    labels.strings.size()
                              : std::set<int64_t>(labels.ints.begin(), labels.ints.end()).size() != labels.ints.size();
    if (repeated) r.fail("a class label is listed twice: the columns must correspond one-by-one to the keys");
    ZipMapParams p;
    p.labels = labels.all();
    return p;
  }
};

std::vector<Value> zip_map(OpContext& ctx) {
  const ZipMapParams p = ZipMapParams::read(ctx, ctx.version());
  const Tensor& x = ctx.input(0);
  require_type(ctx, x, DType::Float, "X");
  if (x.rank() != 1 && x.rank() != 2) ctx.fail("X must be [N, C] or [C], got " + shape_str(x.shape()));
  const int64_t columns = x.dim(x.rank() - 1);
  const int64_t rows = x.rank() == 2 ? x.dim(0) : 1;
  if (columns != p.labels.size())
    ctx.fail("X has " + std::to_string(columns) + " columns but there are " + std::to_string(p.labels.size()) + " class labels");
  std::vector<Value> maps;
  const float* in = x.data<float>();
  for (int64_t r = 0; r < rows; ++r) {
    Tensor row(DType::Float, {columns});
    std::copy(in + r * columns, in + (r + 1) * columns, row.data<float>());
    maps.push_back(Value::make_map(p.labels, std::move(row)));
  }
  return {Value::make_sequence(std::move(maps))};
}

// seq(map(int64 or string, float)); X's rank and column count checked where they are known.
void zip_map_shape(InferContext& ctx) {
  const ZipMapParams p = ZipMapParams::read(ctx, ctx.version());
  DType x = ctx.input_elem(0);
  if (x != DType::Undefined && x != DType::Float) ctx.fail("X must be float, got " + std::string(dtype_name(x)));
  if (const Dims* dims = ctx.input_shape(0)) {
    if (dims->size() != 1 && dims->size() != 2) ctx.fail("X must be [N, C] or [C], got rank " + std::to_string(dims->size()));
    const Dim& columns = dims->back();
    if (columns.value && *columns.value != p.labels.size())
      ctx.fail("X has " + std::to_string(*columns.value) + " columns but there are " + std::to_string(p.labels.size()) +
               " class labels");
  }
  ctx.set_output(0, sequence_of(map_of(p.labels.dtype(), DType::Float)));
}

}  // namespace
SONNX_KERNEL("ai.onnx.ml", "ZipMap", 1, zip_map, Accuracy::Exact);
SONNX_SHAPE_RULE("ai.onnx.ml", "ZipMap", (1), zip_map_shape);
SONNX_PARAMS("ai.onnx.ml", "ZipMap", (1), ZipMapParams);
}  // namespace sonnx
