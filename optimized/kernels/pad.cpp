// Pad without the reference's per-element index maps: the output is walked as rows of the last
// padded axis (the unpadded axes after it form one contiguous unit), the part of a row inside the
// input is one memcpy and the rest is the fill value (constant) or units read where
// reference/ops/Pad.cpp reads them (reflect, edge, wrap). Any element type but string, copied by
// its byte width: exact. Pads and constant_value come from the attributes (1: `paddings`, 2:
// `pads` and the float `value`) or the inputs (11 on, constant or not; 18 on with `axes`); every
// input the reference rejects traps here with the node's label. Declines string data and
// attributes of an unexpected type (the executor gives it no strings of types unknown till run time). Large outputs
// split their units over the kernel's threads.
#include <algorithm>
#include <cstring>

#include "fast_kernel.h"
#include "onednn_common.h"
#include "reference/ops/params/pad.h"
#include "reference/ops/support/indexing.h"

namespace sonnx::fast {

namespace {

// `count` elements of `esz` bytes at dst, each a copy of `value`.
void fill_elements(std::byte* dst, int64_t count, const std::byte* value, size_t esz) {
  if (count <= 0) return;
  size_t bytes = static_cast<size_t>(count) * esz;
  if (std::all_of(value, value + esz, [&](std::byte b) { return b == value[0]; })) {
    std::memset(dst, std::to_integer<int>(value[0]), bytes);
    return;
  }
  std::memcpy(dst, value, esz);
  for (size_t done = esz; done < bytes; done *= 2) std::memcpy(dst + done, dst, std::min(done, bytes - done));
}

class PadKernel final : public FastKernel {
 public:
  std::string label;
  int64_t version = 0;
  PadParams params;

  std::string name() const override { return "fast:pad"; }

  [[noreturn]] void bad(const std::string& m) const { fail(label, version, m); }

  const Tensor& data(const std::vector<const Tensor*>& in) const { return copyable_input(in, 0, label, version); }

  std::vector<int64_t> ints(const Tensor& t, const std::string& what) const {
    if (!is_integer(t.dtype())) bad(what + " must be an integer tensor, got " + std::string(dtype_name(t.dtype())));
    return t.to_int64_vector();
  }

  // The fill element's bytes (the type's zero when there is no value) for data of type `type`.
  std::vector<std::byte> fill(DType type, const std::vector<const Tensor*>& in) const {
    std::vector<std::byte> f(dtype_size(type), std::byte{0});
    auto put = [&](auto v) { std::memcpy(f.data(), &v, sizeof v); };
    if (version < 11) {  // the float attribute `value` in the data's (floating) type
      switch (type) {
        case DType::Float: put(params.value); break;
        case DType::Double: put(static_cast<double>(params.value)); break;
        case DType::Float16: put(float16_t(params.value)); break;
        case DType::BFloat16: put(bfloat16_t(params.value)); break;
        default: bad("element type " + std::string(dtype_name(type)) + " is not a floating type");
      }
    } else if (const Tensor* c = arg(in, 2)) {
      if (c->dtype() != type) bad("constant_value has a different element type than data");
      if (c->size() != 1) bad("constant_value must hold exactly one value");
      std::memcpy(f.data(), c->raw(), f.size());
    }
    return f;
  }

  // The pads over every axis, [begin..., end...], checked as the reference checks them.
  std::vector<int64_t> full_pads(const Tensor& x, const std::vector<const Tensor*>& in) const {
    if (version < 11) return params.pads;
    const Tensor* p = arg(in, 1);
    if (!p) bad("input 1 is required but missing");
    if (p->rank() != 1) bad("pads must be a 1-D tensor");
    fill(x.dtype(), in);  // the reference checks constant_value before the pads' values
    std::vector<int64_t> pads = ints(*p, "pads");
    const Tensor* a = version >= 18 ? arg(in, 3) : nullptr;
    if (!a) return pads;
    int64_t rank = x.rank();
    std::vector<int64_t> axes = ints(*a, "axes");
    for (int64_t& ax : axes) ax = norm_axis(label, version, ax, rank);
    size_t n = axes.size();
    if (pads.size() != 2 * n)
      bad("pads has " + std::to_string(pads.size()) + " entries for " + std::to_string(n) + " axes, expected " +
          std::to_string(2 * n));
    std::vector<int64_t> full(static_cast<size_t>(2 * rank), 0);
    std::vector<bool> seen(static_cast<size_t>(rank), false);
    for (size_t k = 0; k < n; ++k) {
      auto d = static_cast<size_t>(axes[k]);
      if (seen[d]) bad("axis " + std::to_string(d) + " is given more than once");
      seen[d] = true;
      full[d] = pads[k];
      full[d + static_cast<size_t>(rank)] = pads[k + n];
    }
    return full;
  }

  // Output shape for x and its full pads; traps as the reference does.
  Shape padded_shape(const Tensor& x, const std::vector<int64_t>& pads) const {
    Shape out;
    if (std::string why = params.padded_shape(x.shape(), pads, out); !why.empty()) bad(why);
    return out;
  }

  std::vector<Shape> output_shapes(const std::vector<const Tensor*>& in) const override {
    const Tensor& x = data(in);
    if (version < 11) fill(x.dtype(), in);  // versions 1, 2: the value must fit a floating type
    return {padded_shape(x, full_pads(x, in))};
  }

  bool any_element_type() const override { return true; }
  DType output_dtype(const std::vector<const Tensor*>& in, size_t) const override { return data(in).dtype(); }
  int64_t output_bytes(const std::vector<const Tensor*>& in, const std::vector<Layout>&, size_t k) const override {
    return shape_size(output_shapes(in).at(k)) * static_cast<int64_t>(dtype_size(data(in).dtype()));
  }

  // Input position along an axis of size `dim` for output coordinate j, or -1 for the fill.
  int64_t source(int64_t j, int64_t dim, int64_t begin, int64_t end) const {
    int64_t i = j - begin;
    if (i >= 0 && i < dim) return i;
    if (params.mode == PadMode::Constant) return -1;
    if (params.mode == PadMode::Edge) return std::clamp<int64_t>(i, 0, dim - 1);
    if (params.mode == PadMode::Wrap) return support::pad_wrap_index(i, dim, begin, end);
    return support::pad_reflect_index(i, dim);
  }

  void run(const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) const override {
    const Tensor& x = data(in);
    if (version < 11) fill(x.dtype(), in);
    std::vector<int64_t> pads = full_pads(x, in);
    Shape os = padded_shape(x, pads);
    Tensor& y = *out[0];
    if (y.dtype() != x.dtype()) throw InternalError("fast:pad: the output has another element type");
    std::vector<std::byte> f = fill(x.dtype(), in);
    if (y.size() == 0) return;
    size_t esz = f.size(), rank = os.size();
    const std::byte* px = x.raw();
    std::byte* py = y.raw();
    // The last padded axis L; the axes after it are copied whole, `inner` elements per unit.
    size_t last = rank;
    for (size_t d = 0; d < rank; ++d)
      if (pads[d] != 0 || pads[d + rank] != 0) last = d;
    if (last == rank) {  // nothing padded: the same elements
      int64_t total = y.size();
      auto part = [&](int64_t a, int64_t b) {
        std::memcpy(py + static_cast<size_t>(a) * esz, px + static_cast<size_t>(a) * esz, static_cast<size_t>(b - a) * esz);
      };
      return split_over_threads(total, total, part);
    }
    int64_t inner = 1;
    for (size_t d = last + 1; d < rank; ++d) inner *= os[d];
    size_t unit = static_cast<size_t>(inner) * esz;
    // Per axis up to L: the input position each output coordinate reads (-1: fill), and the
    // input's stride in elements.
    std::vector<std::vector<int64_t>> src(last + 1);
    std::vector<int64_t> stride(last + 1);
    for (size_t d = 0; d <= last; ++d) {
      src[d].resize(static_cast<size_t>(os[d]));
      for (int64_t j = 0; j < os[d]; ++j) src[d][static_cast<size_t>(j)] = source(j, x.shape()[d], pads[d], pads[d + rank]);
      stride[d] = inner;
      for (size_t e = d + 1; e <= last; ++e) stride[d] *= x.shape()[e];
    }
    int64_t n = os[last], begin = pads[last], dim = x.shape()[last];
    // Units [mid_b, mid_e) of a row lie inside the input: one memcpy.
    int64_t mid_b = std::clamp<int64_t>(begin, 0, n), mid_e = std::clamp<int64_t>(begin + dim, mid_b, n);
    const std::vector<int64_t>& src_last = src[last];
    // Units [first, last_unit) of the output, row by row (rows are the axes before L).
    auto part = [&](int64_t first, int64_t last_unit) {
      std::vector<int64_t> idx(last, 0);
      int64_t row = first / n, j = first % n;
      for (size_t d = last, rest = static_cast<size_t>(row); d-- > 0;) {
        idx[d] = static_cast<int64_t>(rest % static_cast<size_t>(os[d]));
        rest /= static_cast<size_t>(os[d]);
      }
      std::byte* dst = py + static_cast<size_t>(first) * unit;
      for (int64_t left = last_unit - first; left > 0;) {
        int64_t off = 0;  // the row's first element in x, or -1 when the row is fill
        for (size_t d = 0; d < last && off >= 0; ++d) {
          int64_t s = src[d][static_cast<size_t>(idx[d])];
          off = s < 0 ? -1 : off + s * stride[d];
        }
        int64_t end = std::min(n, j + left);
        left -= end - j;
        if (off < 0) {
          fill_elements(dst, (end - j) * inner, f.data(), esz);
          dst += static_cast<size_t>(end - j) * unit;
          j = end;
        }
        for (; j < end; ++j, dst += unit) {
          if (j >= mid_b && j < mid_e) {  // the run inside the input
            int64_t k = std::min(end, mid_e) - j;
            std::memcpy(dst, px + static_cast<size_t>(off + (j - begin) * inner) * esz, static_cast<size_t>(k) * unit);
            dst += static_cast<size_t>(k - 1) * unit;
            j += k - 1;
          } else if (int64_t s = src_last[static_cast<size_t>(j)]; s < 0) {
            fill_elements(dst, inner, f.data(), esz);
          } else {
            std::memcpy(dst, px + static_cast<size_t>(off + s * inner) * esz, unit);
          }
        }
        j = 0;
        for (size_t d = last; d-- > 0;) {  // odometer over the rows
          if (++idx[d] < os[d]) break;
          idx[d] = 0;
        }
      }
    };
    int64_t units = y.size() / inner;
    split_over_threads(units, y.size(), part);
  }
};

}  // namespace

std::unique_ptr<FastKernel> make_pad_kernel(const FastKernelRequest& r) {
  const Node& n = *r.node;
  if (n.outputs.size() != 1 || !has_node_input(n, 0)) return nullptr;
  if (!copyable_element_type(r, 0)) return nullptr;
  auto k = std::make_unique<PadKernel>();
  k->label = n.label();
  k->version = r.version;
  std::optional<PadParams> p = try_params<PadParams>(n, r.version);
  if (!p) return nullptr;  // the reference reports it
  k->params = *p;
  return k;
}

SONNX_FAST_KERNEL("", "Pad", (1, 2, 11, 13, 18, 19, 21, 23, 24, 25), make_pad_kernel);

}  // namespace sonnx::fast
