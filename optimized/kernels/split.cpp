// Split without the reference's per-element index maps: each output is `outer` rows of len·inner
// contiguous elements cut from the input, copied with memcpy (any element type but string, by its
// byte width; exact). Part lengths as reference/ops/Split.cpp finds them: the `split` attribute
// (1, 2, 11) or input (1, 13, 18; constant or not), equal parts, or num_outputs (18) with a
// smaller last part; every input it rejects traps here with the node's label. Declines string
// data (the executor gives it none of types unknown till run time), a node without outputs and
// attributes of an unexpected type. Large outputs split their elements over the kernel's threads.
#include <algorithm>
#include <cstring>

#include "fast_kernel.h"
#include "onednn_common.h"
#include "reference/ops/params/movement.h"

namespace sonnx::fast {

namespace {

// dst[e] = row e / row_elems of src (rows src_stride elements apart), element e % row_elems, for
// the `rows` rows of dst; `esz` bytes per element.
void copy_rows(const std::byte* src, int64_t src_stride, std::byte* dst, int64_t rows, int64_t row_elems, size_t esz) {
  int64_t total = rows * row_elems;
  if (total == 0) return;
  auto part = [&](int64_t first, int64_t last) {
    while (first < last) {
      int64_t o = first / row_elems, at = first % row_elems, n = std::min(last - first, row_elems - at);
      std::memcpy(dst + static_cast<size_t>(first) * esz, src + static_cast<size_t>(o * src_stride + at) * esz,
                  static_cast<size_t>(n) * esz);
      first += n;
    }
  };
  split_over_threads(total, total, part);
}

class SplitKernel final : public FastKernel {
 public:
  std::string label;
  int64_t version = 0;
  size_t parts = 0;  // the node's output count
  SplitParams params;

  std::string name() const override { return "fast:split"; }

  [[noreturn]] void bad(const std::string& m) const { fail(label, version, m); }

  const Tensor& data(const std::vector<const Tensor*>& in) const { return copyable_input(in, 0, label, version); }

  // The split input's values: integers (and, in version 1, floats truncated and saturated as Cast).
  std::vector<int64_t> split_input(const Tensor& s) const {
    bool ok = is_integer(s.dtype()) || (version < 2 && is_float(s.dtype()));
    if (!ok) bad("split must be an integer tensor, got " + std::string(dtype_name(s.dtype())));
    return s.to_int64_vector();
  }

  // The part lengths along the (normalized) axis, checked as the reference checks them.
  std::vector<int64_t> lengths(const std::vector<const Tensor*>& in, int64_t& ax) const {
    const Tensor& x = data(in);
    const Tensor* s = arg(in, 1);
    std::optional<std::vector<int64_t>> given;  // the split input's values (version 1, and from 13)
    if (s && version < 2) given = split_input(*s);
    if (s && version >= 13) {
      if (s->rank() != 1) bad("the split input must be 1-D");
      given = split_input(*s);
    }
    if (x.rank() == 0) bad("cannot split a scalar");
    ax = norm_axis(label, version, params.axis, x.rank());
    std::vector<int64_t> len;
    if (std::string why = params.lengths(x.dim(ax), parts, given ? &*given : nullptr, len); !why.empty()) bad(why);
    return len;
  }

  std::vector<Shape> output_shapes(const std::vector<const Tensor*>& in) const override {
    int64_t ax = 0;
    std::vector<int64_t> len = lengths(in, ax);
    std::vector<Shape> out(parts, in[0]->shape());
    for (size_t k = 0; k < parts; ++k) out[k][static_cast<size_t>(ax)] = len[k];
    return out;
  }

  bool any_element_type() const override { return true; }
  DType output_dtype(const std::vector<const Tensor*>& in, size_t) const override { return data(in).dtype(); }
  int64_t output_bytes(const std::vector<const Tensor*>& in, const std::vector<Layout>&, size_t k) const override {
    return shape_size(output_shapes(in).at(k)) * static_cast<int64_t>(dtype_size(data(in).dtype()));
  }

  void run(const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) const override {
    int64_t ax = 0;
    std::vector<int64_t> len = lengths(in, ax);
    const Tensor& x = *in[0];
    size_t esz = dtype_size(x.dtype());
    const Shape& s = x.shape();
    int64_t outer = 1, inner = 1, dim = s[static_cast<size_t>(ax)];
    for (size_t d = 0; d < static_cast<size_t>(ax); ++d) outer *= s[d];
    for (size_t d = static_cast<size_t>(ax) + 1; d < s.size(); ++d) inner *= s[d];
    int64_t start = 0;
    for (size_t k = 0; k < parts; ++k) {
      Tensor& y = *out[k];
      if (y.dtype() != x.dtype()) throw InternalError("fast:split: output " + std::to_string(k) + " has another element type");
      if (y.size() > 0)
        copy_rows(x.raw() + static_cast<size_t>(start * inner) * esz, dim * inner, y.raw(), outer, len[k] * inner, esz);
      start += len[k];
    }
  }
};

}  // namespace

std::unique_ptr<FastKernel> make_split_kernel(const FastKernelRequest& r) {
  const Node& n = *r.node;
  if (n.outputs.empty() || n.inputs.empty() || !has_node_input(n, 0)) return nullptr;
  if (!copyable_element_type(r, 0)) return nullptr;
  auto k = std::make_unique<SplitKernel>();
  k->label = n.label();
  k->version = r.version;
  k->parts = n.outputs.size();
  std::optional<SplitParams> p = try_params<SplitParams>(n, r.version);
  if (!p) return nullptr;
  k->params = *p;
  return k;
}

SONNX_FAST_KERNEL("", "Split", (1, 2, 11, 13, 18), make_split_kernel);

}  // namespace sonnx::fast
