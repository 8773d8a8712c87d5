// BatchNormalization in training mode (versions 14 and 15, training_mode=1; the inference
// enclosure, enclose_linear.cpp, hands such a node here): enclosed as if defined by the body its
// text describes (norm_body.h), per channel over N and the spatial axes, the reference's order:
//   mean = ReduceMean(x), d = x − mean, var = ReduceMean(d·d) (population variance),
//   y = (scale·d) / √(var + ε) + B,
//   running_mean = input_mean·momentum + mean·(1 − momentum), running_var likewise with var,
// ε and momentum the attributes' float values, exactly (the reference computes in double), 1 −
// momentum a Sub in the statistics' type. Scale and B of another float type than X (T1, version
// 15) are cast to X's type first, and the batch statistics to the running statistics' type (U),
// as an implementation computing each output in its own type does (CastLike: exact, or the
// rounding that defines the cast).
#include <string>
#include <vector>

#include "norm_body.h"
#include "reference/ops/params/batch_normalization.h"

namespace sonnx::enclose::norms_detail {

std::vector<Bounds> enclose_batch_norm_training(const OpCall& c) {
  const BatchNormParams p = BatchNormParams::read(c.ctx, c.version);
  const Bounds& x = float_input(c, 0);
  const int64_t rank = x.lo.rank();
  if (rank < 1) c.ctx.fail("X must have at least one dimension");
  const int64_t channels = rank == 1 ? 1 : x.lo.shape()[1];
  const char* names[] = {"X", "scale", "B", "input_mean", "input_var"};
  for (size_t k = 1; k <= 4; ++k)
    if (float_input(c, k).lo.size() != channels)
      c.ctx.fail(std::string("input ") + names[k] + " has " + std::to_string(float_input(c, k).lo.size()) +
                 " elements, expected " + std::to_string(channels));
  if (float_input(c, 3).type != float_input(c, 4).type) c.ctx.fail("input_mean and input_var must have the same element type");
  std::vector<int64_t> axes = {0};
  for (int64_t d = 2; d < rank; ++d) axes.push_back(d);
  const DType stats = float_input(c, 3).type;
  auto scalar = [](DType type, double v) {
    Bounds b = float_bounds(type, {});
    set(b, 0, Interval::point(v));
    return b;
  };

  NormBody b;
  b.given.emplace("x", x);
  b.given.emplace("axes", exact_axes(axes));
  b.given.emplace("epsilon", scalar(x.type, static_cast<double>(p.epsilon)));
  b.given.emplace("momentum", scalar(stats, static_cast<double>(p.momentum)));
  b.given.emplace("one", scalar(stats, 1));
  const char* given_names[] = {"", "scale_in", "B_in", "input_mean", "input_var"};
  for (size_t k = 1; k <= 4; ++k) b.given.emplace(given_names[k], per_channel(c.input(k), rank));
  // A value of another type than `like`'s, cast to it (or the value itself).
  auto in_type_of = [&](const std::string& value, DType type, DType like_type, const std::string& like) {
    if (type == like_type) return value;
    b.node("CastLike", {value, like}, value + "_cast");
    return value + "_cast";
  };
  const std::string scale = in_type_of("scale_in", c.input(1).type, x.type, "x");
  const std::string bias = in_type_of("B_in", c.input(2).type, x.type, "x");
  b.normalize(scale);
  b.node("Add", {"normed", bias}, "y");
  b.node("Sub", {"one", "momentum"}, "rest");
  for (const std::string s : {"mean", "var"}) {
    b.node("Mul", {"input_" + s, "momentum"}, "kept_" + s);
    b.node("Mul", {in_type_of(s, x.type, stats, "input_mean"), "rest"}, "new_" + s);
    b.node("Add", {"kept_" + s, "new_" + s}, "running_" + s);
  }
  std::vector<Bounds> out = b.walk(c, {"y", "running_mean", "running_var"});
  // The running statistics have the shape of the inputs they update.
  for (size_t k = 1; k <= 2; ++k) {
    const Shape& s = c.input(k + 2).lo.shape();
    out[k] = Bounds{out[k].type, out[k].lo.reshaped(s), out[k].hi.reshaped(s)};
  }
  out.resize(std::min(out.size(), c.node.outputs.size()));
  return out;
}

}  // namespace sonnx::enclose::norms_detail
