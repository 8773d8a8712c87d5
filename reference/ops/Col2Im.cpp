// Col2Im-18: the inverse of im2col (PyTorch's fold) for batched N-d images. input is
// [N, C * prod(block_shape), L]; the L blocks are the positions of a window of block_shape (with
// dilations) sliding over image_shape padded by pads with strides, in row-major order, so L must be
// the product of the window counts. Every element adds into the image position its block and its
// offset in the block give; positions in the padding are dropped. Floating sums are accumulated
// in double and rounded once; integer sums wrap as the element type's arithmetic does.
#include <optional>

#include "op_params.h"
#include "support/kernel.h"
#include "support/numeric.h"
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {

struct Col2ImParams {
  // As given; absent: 1 (dilations, strides) and 0 (pads) along every spatial axis. Checked here:
  // dilations and strides positive, pads non-negative; their lengths against image_shape's by `spatial`.
  std::optional<std::vector<int64_t>> dilations, strides, pads;
  static Col2ImParams read(const AttrReader& r, int64_t /*version*/) {
    Col2ImParams p;
    auto list = [&](const char* name, int64_t least) {
      std::optional<std::vector<int64_t>> v;
      if (!r.has_attr(name)) return v;
      v = r.attr_ints(name);
      for (int64_t e : *v)
        if (e < least)
          r.fail(std::string(name) + (least > 0 ? " must be positive" : " must not be negative") + ", got " + std::to_string(e));
      return v;
    };
    p.dilations = list("dilations", 1);
    p.strides = list("strides", 1);
    p.pads = list("pads", 0);
    return p;
  }
  // The three for `d` spatial axes, defaults filled in, into dil, str and pad: "" when their lengths
  // fit (d, d and 2d), else why not.
  std::string spatial(size_t d, std::vector<int64_t>& dil, std::vector<int64_t>& str, std::vector<int64_t>& pad) const {
    dil = dilations.value_or(std::vector<int64_t>(d, 1));
    str = strides.value_or(std::vector<int64_t>(d, 1));
    pad = pads.value_or(std::vector<int64_t>(2 * d, 0));
    if (dil.size() != d || str.size() != d || pad.size() != 2 * d)
      return "dilations, strides and pads must match image_shape's length";
    return "";
  }
};

std::vector<Value> col2im(OpContext& ctx) {
  const Col2ImParams p = Col2ImParams::read(ctx, ctx.version());
  const Tensor& x = ctx.input(0);
  if (x.rank() != 3) ctx.fail("input must be 3-D [N, C * prod(block_shape), L], got " + shape_str(x.shape()));
  const std::vector<int64_t> image = ctx.input(1).to_int64_vector();
  const std::vector<int64_t> block = ctx.input(2).to_int64_vector();
  const size_t d = image.size();
  if (d < 1 || block.size() != d) ctx.fail("image_shape and block_shape must have the same (non-zero) length");
  std::vector<int64_t> dil, str, pads;
  if (std::string why = p.spatial(d, dil, str, pads); !why.empty()) ctx.fail(why);
  int64_t block_size = 1, blocks = 1;
  std::vector<int64_t> counts(d);
  for (size_t i = 0; i < d; ++i) {
    if (image[i] < 1 || block[i] < 1)  // the attributes' values are checked by Col2ImParams::read
      ctx.fail("image_shape, block_shape, dilations and strides must be positive and pads non-negative");
    int64_t span = dil[i] * (block[i] - 1) + 1, padded = image[i] + pads[i] + pads[i + d];
    if (span > padded) ctx.fail("the dilated block is larger than the padded image along axis " + std::to_string(i));
    counts[i] = (padded - span) / str[i] + 1;
    block_size *= block[i];
    blocks *= counts[i];
    if (block_size > x.size() + 1 || blocks > x.size() + 1) ctx.fail("block_shape or image_shape is larger than the input");
  }
  const int64_t N = x.dim(0), L = x.dim(2);
  if (x.dim(1) % block_size != 0)
    ctx.fail("input dim 1 (" + std::to_string(x.dim(1)) + ") is not a multiple of prod(block_shape)");
  if (L != blocks) ctx.fail("input has " + std::to_string(L) + " blocks; the geometry gives " + std::to_string(blocks));
  const int64_t C = x.dim(1) / block_size;
  Shape out_shape{N, C};
  out_shape.insert(out_shape.end(), image.begin(), image.end());
  const int64_t image_size = shape_size(Shape(image.begin(), image.end()));
  // For each (offset in the block k, block position l): the flat image position, or -1 in padding.
  std::vector<int64_t> target(static_cast<size_t>(block_size * L));
  std::vector<int64_t> k(d, 0), l(d, 0);
  for (int64_t kk = 0; kk < block_size; ++kk) {
    for (int64_t i = static_cast<int64_t>(d) - 1, r = kk; i >= 0; --i) {
      k[i] = r % block[i];
      r /= block[i];
    }
    for (int64_t ll = 0; ll < L; ++ll) {
      for (int64_t i = static_cast<int64_t>(d) - 1, r = ll; i >= 0; --i) {
        l[i] = r % counts[i];
        r /= counts[i];
      }
      int64_t flat = 0;
      for (size_t i = 0; i < d && flat >= 0; ++i) {
        int64_t p = l[i] * str[i] + k[i] * dil[i] - pads[i];
        flat = p < 0 || p >= image[i] ? -1 : flat * image[i] + p;
      }
      target[static_cast<size_t>(kk * L + ll)] = flat;
    }
  }
  return one(visit_real(ctx, x.dtype(), [&]<class T>() {
    using Acc = std::conditional_t<is_floating_v<T>, double, T>;
    std::vector<Acc> acc(static_cast<size_t>(N * C * image_size), Acc{});
    const T* px = x.data<T>();
    for (int64_t n = 0; n < N; ++n)
      for (int64_t c = 0; c < C; ++c)
        for (int64_t kk = 0; kk < block_size; ++kk)
          for (int64_t ll = 0; ll < L; ++ll) {
            int64_t t = target[static_cast<size_t>(kk * L + ll)];
            if (t < 0) continue;
            Acc v = static_cast<Acc>(px[((n * C + c) * block_size + kk) * L + ll]);
            Acc& a = acc[static_cast<size_t>((n * C + c) * image_size + t)];
            if constexpr (is_floating_v<T>) a += v;
            else a = wrap_add(a, v);
          }
    Tensor y(x.dtype(), out_shape);
    T* py = y.data<T>();
    for (size_t i = 0; i < acc.size(); ++i) py[i] = to_storage<T>(acc[i]);
    return y;
  }));
}
}  // namespace
SONNX_PARAMS("", "Col2Im", (18), Col2ImParams);
SONNX_KERNEL("", "Col2Im", 18, col2im, Accuracy::Rounding);
namespace {
// [N, C, image_shape...] with C = input dim 1 / prod(block_shape).
void col2im_shape(InferContext& ctx) {
  const Col2ImParams p = Col2ImParams::read(ctx, ctx.version());
  DType t = ctx.input_elem(0);
  require_rank(ctx, 0, 3, "input");
  const Dims* x = ctx.input_shape(0);
  auto image = ctx.input_partial(1);
  auto block = ctx.input_ints(2);
  Dim c;
  if (x && (*x)[1].value && block) {
    int64_t p = 1;
    for (int64_t b : *block) {
      if (b < 1 || b > (int64_t{1} << 20)) ctx.fail("block_shape values must be positive");
      p *= b;
      if (p > kMaxDimValue) ctx.fail("block_shape is too large");
    }
    if (*(*x)[1].value % p != 0) ctx.fail("the input's dim 1 is not a multiple of the block size");
    c = known_dim(*(*x)[1].value / p);
  }
  if (!image) return ctx.set_output(0, t, std::nullopt);
  std::vector<int64_t> dil, str, pads;
  if (std::string why = p.spatial(image->elems.size(), dil, str, pads); !why.empty()) ctx.fail(why);
  Dims o{x ? (*x)[0] : Dim{}, c};
  o.insert(o.end(), image->elems.begin(), image->elems.end());
  ctx.set_output(0, t, o);
}
}  // namespace
SONNX_SHAPE_RULE("", "Col2Im", (18), col2im_shape);
}  // namespace sonnx
