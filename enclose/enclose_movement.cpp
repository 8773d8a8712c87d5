// Enclosures of the data movement operators that enclose_lift.cpp does not list (GatherElements,
// ScatterElements, Scatter, GatherND, DepthToSpace, SpaceToDepth, Compress, ReverseSequence,
// OneHot, MaxUnpool, TensorScatter, Dropout in inference), of Round and Sign, of Upsample (through
// Resize-10's enclosure) and of Col2Im (a sum).
//
// Most compute no new real number: each output element is an input element or a constant, chosen by
// exact inputs (indices, a condition, a shape), or (Round, Sign, ScatterElements' max and min) a
// nondecreasing function of its inputs that float64 computes exactly. So the reference kernel run
// once on every lower bound and once on every upper bound encloses the result (lift_bounds). A float
// input that chooses (OneHot's indices and depth, converted to integers as Cast does) must choose the
// same way for every value in its enclosure. ScatterElements' add and mul and Col2Im compute sums and
// products: they bound their roundings themselves, as ScatterND does (enclose_lift.cpp).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "enclose_sums.h"
#include "reference/ops/params/dropout.h"
#include "reference/ops/params/scatter.h"
#include "reference/ops/support/indexing.h"
#include "sonnx/errors.h"

namespace sonnx::enclose::movement {

// For an operator nondecreasing in each float input and exact on float64 (see the top of the file):
// its float outputs (float64 in the runs) as bounds of `type`, undefined where a run makes NaN (an
// undefined input moved there); an integer or boolean output (indices, a mask) kept where both runs
// agree, else Undetermined. An output the node leaves unnamed is not looked at. Also used by
// enclose_select.cpp (TopK's values, Unique), after checking that the bounds decide the order.
std::vector<Bounds> lift_bounds(const OpCall& c, DType type) {
  std::vector<Value> lo = run_on_bounds(c, false), hi = run_on_bounds(c, true);
  bool float_type = is_float(type) || is_small_float(type);
  std::vector<Bounds> out;
  for (size_t k = 0; k < lo.size(); ++k) {
    if (k >= c.node.outputs.size() || c.node.outputs[k].empty()) {
      out.emplace_back();
      continue;
    }
    if (!lo[k].is_tensor() || !hi[k].is_tensor()) throw Unsupported("no enclosure for " + op_name(c) + " making a sequence");
    Tensor &l = lo[k].tensor, &h = hi[k].tensor;
    if (float_type && l.dtype() == DType::Double) {
      Bounds b{type, std::move(l), std::move(h)};
      for (int64_t i = 0; i < b.lo.size(); ++i)
        if (at(b, i).has_nan()) set(b, i, Interval::undefined());
      out.push_back(std::move(b));
      continue;
    }
    if (!(l == h))
      throw Undetermined(c.node.label() + ": output " + std::to_string(k) + " (" + std::string(dtype_name(l.dtype())) +
                         ") is not determined at this input: its float inputs' enclosures leave it open");
    out.push_back(Bounds{l.dtype(), l, l});
  }
  return out;
}

namespace {

// Moves the elements of input 0, whose type the float outputs have.
std::vector<Bounds> moved(const OpCall& c) { return lift_bounds(c, c.input(0).type); }

// Input k read as integers, as Cast reads a float (truncated toward zero): a float input's every
// element must truncate to one integer over its enclosure (or be a point), so that both runs read
// the same integers.
void require_integers(const OpCall& c, size_t k, const char* what) {
  const Bounds& b = c.input(k);
  if (b.exact()) return;
  for (int64_t i = 0; i < b.lo.size(); ++i) {
    Interval v = at(b, i);
    bool one = v.lo == v.hi || (std::isfinite(v.lo) && std::isfinite(v.hi) && std::trunc(v.lo) == std::trunc(v.hi));
    if (v.has_nan() || !one)
      throw Undetermined(c.node.label() + ": element " + std::to_string(i) + " of its " + what +
                         " is not determined at this input: its enclosure truncates to more than one integer");
  }
}

// ---- ScatterElements ----

// Replacing (Scatter's only mode), and from version 18 keeping the max or the min, are
// nondecreasing in data and updates: lifted. Add and mul: scatter_combine (enclose_sums.h).
std::vector<Bounds> scatter_elements(const OpCall& c) {
  ScatterParams p = ScatterParams::read(c.ctx, c.version);
  bool arith = p.reduction == Reduction::Add || p.reduction == Reduction::Mul;
  if (!arith || (c.input(0).exact() && c.input(2).exact())) return moved(c);
  run_on_bounds(c, false);  // the reference's checks and traps (shapes, types, indices)
  const Bounds &data = float_input(c, 0), &updates = float_input(c, 2);
  int64_t axis = support::normalize_axis(c.ctx, p.axis, data.lo.rank());
  std::vector<int64_t> target = support::axis_index_map(c.ctx, data.lo.shape(), c.input(1).lo, axis);
  std::vector<std::vector<int64_t>> hits(static_cast<size_t>(data.lo.size()));  // in the order they apply
  for (size_t u = 0; u < target.size(); ++u) hits[static_cast<size_t>(target[u])].push_back(static_cast<int64_t>(u));
  return {scatter_combine(c, data, updates, hits, p.reduction == Reduction::Add)};
}

// ---- OneHot, Dropout ----

// The on and off values (input 2) moved to where the indices say; the indices and depth may be
// floats, which choose only where their enclosures truncate to one integer.
std::vector<Bounds> one_hot(const OpCall& c) {
  require_integers(c, 0, "indices");
  require_integers(c, 1, "depth");
  return lift_bounds(c, c.input(2).type);
}

// In inference Dropout is the identity and its mask all true (all 1 before version 10). In training
// (versions 1 and 6 unless is_test; from 12 when the input training_mode is true) with a ratio other
// than 0, it drops elements at random: no enclosure.
std::vector<Bounds> dropout(const OpCall& c) {
  DropoutParams p = DropoutParams::read(c.ctx, c.version);
  bool training = p.training;
  bool random = training && p.ratio != 0;
  if (c.version >= 12) {
    const Bounds* mode = c.in.size() > 2 ? c.in[2] : nullptr;
    training = mode && mode->type == DType::Bool && mode->lo.size() == 1 && mode->lo.data<bool>()[0];
    const Bounds* ratio = c.in.size() > 1 ? c.in[1] : nullptr;
    bool zero_ratio = ratio && !ratio->exact() && ratio->lo.size() == 1 && at(*ratio, 0).lo == 0 && at(*ratio, 0).hi == 0;
    random = training && !zero_ratio;  // the ratio defaults to 0.5
  }
  if (random) throw Unsupported("no enclosure for " + op_name(c) + " in training mode (its result is random)");
  return moved(c);
}

// ---- Upsample: Resize-10 under another name ----

// Upsample (versions 1, 7, 9 and the deprecated 10) is Resize-10: output length floor(in·scale),
// asymmetric coordinates, the same nearest rule and linear interpolation (version 1's "bilinear").
// Before 9 the scales are attributes: given to Resize-10's enclosure as an exact float input.
std::vector<Bounds> upsample(const OpCall& c) {
  run_on_bounds(c, false);  // the reference's checks and traps (X's rank, the mode, the scales)
  const EnclosureSlot* resize = find_enclosure("Resize", 10);
  if (!resize) throw Unsupported("no enclosure for " + op_name(c) + ": Resize-10 has none");
  Node node = c.node;  // Upsample by name in messages; Resize-10 reads only `mode`
  std::string mode = c.ctx.attr_string("mode", "nearest");
  Attribute a;
  a.name = "mode";
  a.type = Attribute::Type::String;
  a.s = mode == "bilinear" ? "linear" : mode;
  node.attributes = {a};
  std::vector<const Bounds*> in = {&c.input(0)};
  Bounds given;
  if (c.version < 9) {
    std::vector<float> s = c.version < 7 ? std::vector<float>{1.0f, 1.0f, c.ctx.attr_float("height_scale", 1.0f),
                                                              c.ctx.attr_float("width_scale", 1.0f)}
                                         : c.ctx.attr_floats("scales");
    given = Bounds::of(Tensor::from_vector<float>({static_cast<int64_t>(s.size())}, s));
    in.push_back(&given);
  } else {
    in.push_back(&c.input(1));
  }
  return resize->fn(OpCall(node, 10, in, c.reference, c.opset, c.semantics));
}

// ---- Col2Im ----

// Col2Im-18 adds each element of the input [N, C·prod(block), L] into the image position its block
// (one of the L window positions over the padded image, row-major) and its offset in the block give,
// dropping those in the padding: each output element is a sum of input elements (DotBound).
std::vector<Bounds> col2im(const OpCall& c) {
  run_on_bounds(c, false);  // the reference's checks and traps (the shapes and attributes fit)
  const Bounds& x = float_input(c, 0);
  std::vector<int64_t> image = c.input(1).lo.to_int64_vector(), block = c.input(2).lo.to_int64_vector();
  const size_t d = image.size();
  auto attr = [&](const char* name, int64_t fill, size_t n) {
    return c.ctx.has_attr(name) ? c.ctx.attr_ints(name) : std::vector<int64_t>(n, fill);
  };
  std::vector<int64_t> dil = attr("dilations", 1, d), str = attr("strides", 1, d), pads = attr("pads", 0, 2 * d);
  std::vector<int64_t> counts(d);  // window positions along each axis
  for (size_t i = 0; i < d; ++i) counts[i] = (image[i] + pads[i] + pads[i + d] - dil[i] * (block[i] - 1) - 1) / str[i] + 1;
  // Row-major strides of an offset in the block and of a block position over the window positions.
  std::vector<int64_t> k_stride(d + 1, 1), l_stride(d + 1, 1);
  for (size_t i = d; i-- > 0;) k_stride[i] = k_stride[i + 1] * block[i], l_stride[i] = l_stride[i + 1] * counts[i];
  const int64_t block_size = k_stride[0], blocks = l_stride[0];
  const int64_t N = x.lo.dim(0), C = x.lo.dim(1) / block_size;
  Shape shape{N, C};
  shape.insert(shape.end(), image.begin(), image.end());
  const int64_t image_size = shape_size(Shape(image.begin(), image.end()));
  std::vector<DotBound> sums(static_cast<size_t>(N * C * image_size));
  for (int64_t kk = 0; kk < block_size; ++kk)
    for (int64_t l = 0; l < blocks; ++l) {
      int64_t flat = 0;  // the image position of offset kk in block l, or −1 in the padding
      for (size_t i = 0; i < d && flat >= 0; ++i) {
        int64_t p = l / l_stride[i + 1] % counts[i] * str[i] + kk / k_stride[i + 1] % block[i] * dil[i] - pads[i];
        flat = p < 0 || p >= image[i] ? -1 : flat * image[i] + p;
      }
      if (flat < 0) continue;
      for (int64_t nc = 0; nc < N * C; ++nc)
        sums[static_cast<size_t>(nc * image_size + flat)].add(MidRad::of(at(x, (nc * block_size + kk) * blocks + l)), kOne);
    }
  TypeSum ts = type_sum(c, x.type);
  Bounds y = float_bounds(x.type, shape);
  for (size_t e = 0; e < sums.size(); ++e) set(y, static_cast<int64_t>(e), sums[e].result(1, ts));
  return {y};
}

}  // namespace
}  // namespace sonnx::enclose::movement

namespace sonnx::enclose {

SONNX_ENCLOSURE("GatherElements", (11, 13), Allowance::exact(), movement::moved);
SONNX_ENCLOSURE("GatherND", (11, 12, 13), Allowance::exact(), movement::moved);
SONNX_ENCLOSURE("DepthToSpace", (1, 11, 13), Allowance::exact(), movement::moved);
SONNX_ENCLOSURE("SpaceToDepth", (1, 13), Allowance::exact(), movement::moved);
SONNX_ENCLOSURE("Compress", (9, 11), Allowance::exact(), movement::moved);
SONNX_ENCLOSURE("ReverseSequence", (10), Allowance::exact(), movement::moved);
SONNX_ENCLOSURE("MaxUnpool", (9, 11, 22), Allowance::exact(), movement::moved);
SONNX_ENCLOSURE("TensorScatter", (24), Allowance::exact(), movement::moved);
SONNX_ENCLOSURE("OneHot", (9, 11), Allowance::exact(), movement::one_hot);
SONNX_ENCLOSURE("Dropout", (1, 6, 7, 10, 12, 13, 22), Allowance::exact(), movement::dropout);
// Nondecreasing and exact: Round halves to even, Sign is −1, 0 or 1.
SONNX_ENCLOSURE("Round", (11, 22), Allowance::exact(), movement::moved);
SONNX_ENCLOSURE("Sign", (9, 13), Allowance::exact(), movement::moved);
// Own: add and mul bound their roundings themselves; the other reductions are exact.
SONNX_ENCLOSURE("ScatterElements", (11, 13, 16, 18), Allowance::own(), movement::scatter_elements);
SONNX_ENCLOSURE("Scatter", (9, 11), Allowance::exact(), movement::moved);
// Own: Resize-10's enclosure bounds what an implementation's coordinates and weights may do.
SONNX_ENCLOSURE("Upsample", (1, 7, 9, 10), Allowance::own(), movement::upsample);
SONNX_ENCLOSURE("Col2Im", (18), Allowance::own(), movement::col2im);

}  // namespace sonnx::enclose
