#include "random.h"

#include "reference/ops/params/random.h"
#include "shape.h"

namespace sonnx::support {

void random_shape_rule(InferContext& ctx) {
  RandomParams p = RandomParams::read(ctx, ctx.version());
  DType t = p.output_type(p.like ? ctx.input_elem(0) : DType::Float);
  if (t != DType::Undefined)
    if (std::string why = RandomParams::output_type_error(t, ctx.version()); !why.empty()) ctx.fail(why);
  if (p.like) {
    const Dims* x = ctx.input_shape(0);
    ctx.set_output(0, t, x ? std::optional<Dims>(*x) : std::nullopt);
    return;
  }
  Dims out;
  for (int64_t d : p.shape) out.push_back(size_dim(ctx, d, "shape"));
  ctx.set_output(0, t, out);
}

}  // namespace sonnx::support
