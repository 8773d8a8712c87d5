// Reshape: same data, new shape. Version 1 takes the shape as an attribute (consumed_inputs is
// ignored); from version 5 on it is the second input. In the shape, -1 (at most once) is inferred
// from the element count and 0 copies the input's dimension at that position, unless (version 14)
// allowzero=1, when 0 means a zero-sized dimension.
// Relies on ops/ops.mlw Reshape.ravel_bounds: row-major offsets of a reshaped tensor stay in range.
#include "op_params.h"
#include "params/movement.h"
#include "support/shape.h"
#include "support/indexing.h"

namespace sonnx {
using namespace support;
namespace {
Tensor reshape(const OpContext& ctx, const Tensor& data, const std::vector<int64_t>& requested, bool allow_zero) {
  return data.reshaped(reshaped_shape(ctx, data.shape(), requested, allow_zero));
}

std::vector<Value> reshape_v1(OpContext& ctx) {
  return one(reshape(ctx, ctx.input(0), ReshapeParams::read(ctx, ctx.version()).shape, false));
}

std::vector<Value> reshape_v5(OpContext& ctx) {
  ReshapeParams p = ReshapeParams::read(ctx, ctx.version());
  const Tensor& shape = ctx.input(1);
  if (shape.rank() != 1) ctx.fail("the shape input must be 1-D");
  return one(reshape(ctx, ctx.input(0), int_values(ctx, shape, "shape"), p.allow_zero));
}
}  // namespace
SONNX_PARAMS("", "Reshape", (1, 5, 13, 14, 19, 21, 23, 24, 25), ReshapeParams);
SONNX_KERNEL("", "Reshape", 1, reshape_v1, Accuracy::Exact);
SONNX_KERNEL("", "Reshape", 5, reshape_v5, Accuracy::Exact);
SONNX_KERNEL("", "Reshape", 14, reshape_v5, Accuracy::Exact);

// Versions 19, 21, 23, 24, 25 only widen the type lists (the documents' text and
// structure are unchanged): the same kernel.
SONNX_KERNEL("", "Reshape", 19, reshape_v5, Accuracy::Exact);
SONNX_KERNEL("", "Reshape", 21, reshape_v5, Accuracy::Exact);
SONNX_KERNEL("", "Reshape", 23, reshape_v5, Accuracy::Exact);
SONNX_KERNEL("", "Reshape", 24, reshape_v5, Accuracy::Exact);
SONNX_KERNEL("", "Reshape", 25, reshape_v5, Accuracy::Exact);
namespace {
// The output dims from the requested shape, element by element: a known entry n > 0 is n, 0 copies
// the input's dim (unless allowzero), -1 is inferred from the element counts when they are known,
// a symbolic entry stays that symbol, an unknown one unknown.
void reshape_dims(InferContext& ctx, const PartialValue& req, bool allow_zero) {
  const Dims* in = ctx.input_shape(0);
  Dims out;
  int64_t infer_at = -1;
  bool has_zero = false;
  for (size_t i = 0; i < req.elems.size(); ++i) {
    const Dim& e = req.elems[i];
    if (!e.value) {
      out.push_back(e);
      continue;
    }
    int64_t v = *e.value;
    if (v == -1) {
      if (infer_at >= 0) ctx.fail("the shape may contain -1 at most once");
      infer_at = static_cast<int64_t>(i);
      out.push_back(Dim{});
    } else if (v == 0 && !allow_zero) {
      if (in && i >= in->size()) ctx.fail("shape entry " + std::to_string(i) + " is 0 but the input has no dimension there");
      out.push_back(in ? (*in)[i] : Dim{});
    } else if (v < -1) {
      ctx.fail("invalid shape entry " + std::to_string(v));
    } else {
      has_zero = has_zero || v == 0;
      out.push_back(size_dim(ctx, v, "the shape"));
    }
  }
  if (allow_zero && has_zero && infer_at >= 0) ctx.fail("with allowzero=1 the shape may not contain both 0 and -1");
  std::optional<int64_t> total = in ? dims_product(*in) : std::nullopt;
  if (infer_at >= 0 && in) {
    Dims rest = out;
    rest.erase(rest.begin() + infer_at);
    if (auto known = dims_product(rest); known && total) {
      if (*known == 0 || *total % *known != 0) ctx.fail("cannot reshape " + dims_str(*in) + " to " + dims_str(req.elems));
      out[static_cast<size_t>(infer_at)] = known_dim(*total / *known);
    } else {
      // Symbols common to both sides cancel: [N,3,4] to [N,-1] gives 12.
      Dims a = *in, b = rest;
      for (auto ia = a.begin(); ia != a.end();) {
        auto ib = std::find_if(b.begin(), b.end(), [&](const Dim& d) { return !ia->value && same_dim(d, *ia); });
        if (ib != b.end()) {
          b.erase(ib);
          ia = a.erase(ia);
        } else {
          ++ia;
        }
      }
      auto pa = dims_product(a), pb = dims_product(b);
      if (pa && pb && *pb != 0 && *pa % *pb == 0) out[static_cast<size_t>(infer_at)] = known_dim(*pa / *pb);
    }
  }
  if (in && infer_at < 0)
    if (auto want = dims_product(out); want && total && *want != *total)
      ctx.fail("cannot reshape " + dims_str(*in) + " (" + std::to_string(*total) + " elements) to " + dims_str(out));
  ctx.set_output(0, ctx.input_elem(0), out);
}

void reshape_shape(InferContext& ctx) {
  DType t = ctx.input_elem(0);
  ReshapeParams p = ReshapeParams::read(ctx, ctx.version());
  bool allow_zero = p.allow_zero;
  if (!p.shape_from_input) {
    PartialValue req;
    for (int64_t v : p.shape) req.elems.push_back(known_dim(v));
    reshape_dims(ctx, req, false);
  } else if (auto req = ctx.input_partial(1)) {
    if (req->scalar) ctx.fail("the shape input must be 1-D");
    reshape_dims(ctx, *req, allow_zero);
  } else {
    const Dims* s = ctx.input_shape(1);
    if (s && s->size() != 1) ctx.fail("the shape input must be 1-D");
    std::optional<Dims> out;
    if (s && (*s)[0].value) out = Dims(static_cast<size_t>(std::min<int64_t>(*(*s)[0].value, kMaxKnownElements)));
    if (s && (*s)[0].value && *(*s)[0].value > kMaxKnownElements) out.reset();
    ctx.set_output(0, t, out);
  }
  // Reshape keeps the data: a small integer value's elements go through.
  if (auto p = ctx.input_partial(0); p && ctx.output(0).shape) {
    const Dims& o = *ctx.output(0).shape;
    if (o.size() <= 1 &&
        (o.empty() ? p->elems.size() == 1 : (o[0].value && *o[0].value == static_cast<int64_t>(p->elems.size())))) {
      p->scalar = o.empty();
      ctx.set_output_partial(0, std::move(*p));
    }
  }
}
}  // namespace
SONNX_SHAPE_RULE("", "Reshape", (1, 5, 13, 14, 19, 21, 23, 24, 25), reshape_shape);
}  // namespace sonnx
