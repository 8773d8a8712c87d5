// CastMap (ai.onnx.ml 1): the values of the map X (int64 keys; float or string values), in
// increasing key order, converted to cast_to's type (TO_FLOAT float, TO_INT64 int64, TO_STRING
// string) as Cast converts them (support/cast.h), in a 1-D tensor Y. map_form DENSE: Y holds one
// element per entry of X. SPARSE: Y has max_map elements, Y[k] is the converted value at key k and
// the zero of the type ("" for strings) where X has no key k. Decisions (spec/ops/CastMap.md): Y
// is 1-D, as the text says; a SPARSE key outside [0, max_map) traps.
#include "op_params.h"
#include "support/cast.h"
#include "support/kernel.h"
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {

struct CastMapParams {
  DType to = DType::Float;  // cast_to
  bool sparse = false;      // map_form SPARSE
  int64_t max_map = 1;      // Y's length under SPARSE

  static CastMapParams read(const AttrReader& r, int64_t /*version*/) {
    CastMapParams p;
    const std::string cast_to = r.attr_string("cast_to", "TO_FLOAT");
    if (cast_to == "TO_FLOAT") p.to = DType::Float;
    else if (cast_to == "TO_INT64") p.to = DType::Int64;
    else if (cast_to == "TO_STRING") p.to = DType::String;
    else r.fail("cast_to must be TO_FLOAT, TO_INT64 or TO_STRING, got '" + cast_to + "'");
    const std::string form = r.attr_string("map_form", "DENSE");
    if (form != "DENSE" && form != "SPARSE") r.fail("map_form must be DENSE or SPARSE, got '" + form + "'");
    p.sparse = form == "SPARSE";
    p.max_map = r.attr_int("max_map", 1);
    if (p.sparse && p.max_map < 0) r.fail("max_map must not be negative, got " + std::to_string(p.max_map));
    return p;
  }
};

// X's type must be map(int64, float) or map(int64, string).
template <class Ctx>
void cast_map_check_types(const Ctx& ctx, DType key, DType value) {
  if (key != DType::Int64 || (value != DType::Float && value != DType::String))
    ctx.fail("X must be map(int64, float) or map(int64, string), got map(" + std::string(dtype_name(key)) + ", " +
             std::string(dtype_name(value)) + ")");
}

std::vector<Value> cast_map(OpContext& ctx) {
  const CastMapParams p = CastMapParams::read(ctx, ctx.version());
  const Value& x = ctx.value(0);
  if (!x.is_map()) ctx.fail("X must be a map");
  cast_map_check_types(ctx, x.map_keys().dtype(), x.map_values().dtype());
  Tensor converted = cast_tensor(ctx, x.map_values(), p.to);  // in increasing key order, the map's order
  if (!p.sparse) return one(std::move(converted));
  Tensor y(p.to, {p.max_map});  // zero-filled: 0, or "" for strings
  const std::span<const int64_t> keys = x.map_keys().values<int64_t>();
  visit_dtype(p.to, [&]<class T>() {
    for (size_t i = 0; i < keys.size(); ++i) {
      if (keys[i] < 0 || keys[i] >= p.max_map)
        ctx.fail("key " + std::to_string(keys[i]) + " lies outside [0, max_map) = [0, " + std::to_string(p.max_map) +
                 ") under map_form SPARSE");
      y.data<T>()[keys[i]] = converted.data<T>()[i];
    }
  });
  return one(std::move(y));
}

// tensor(cast_to's type): [max_map] under SPARSE, [the map's size] (unknown here) under DENSE.
void cast_map_shape(InferContext& ctx) {
  const CastMapParams p = CastMapParams::read(ctx, ctx.version());
  if (const TypeInfo* x = ctx.input_type(0); x && x->kind != TypeInfo::Kind::Unknown) {
    if (x->kind != TypeInfo::Kind::Map) ctx.fail("X must be a map, got " + x->str());
    if (x->inner && x->inner->kind == TypeInfo::Kind::Tensor && x->inner->elem != DType::Undefined &&
        x->map_key != DType::Undefined)
      cast_map_check_types(ctx, x->map_key, x->inner->elem);
  }
  ctx.set_output(0, p.to, p.sparse ? Dims{known_dim(p.max_map)} : Dims(1));
}

}  // namespace
SONNX_KERNEL("ai.onnx.ml", "CastMap", 1, cast_map, Accuracy::Exact);
SONNX_SHAPE_RULE("ai.onnx.ml", "CastMap", (1), cast_map_shape);
SONNX_PARAMS("ai.onnx.ml", "CastMap", (1), CastMapParams);
}  // namespace sonnx
