// Float32 data movement without the reference's per-element index maps: Transpose, Slice, Expand,
// Concat, Gather as strided copies, and Reshape, Flatten, Squeeze, Unsqueeze and Identity as one
// memcpy (same bytes, new shape). Output shapes follow the reference kernels (reference/ops/*.cpp)
// and every input they reject traps here with the node's label. Exact: elements are copied.
// Large strided copies split their rows over the kernel's threads.
#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>

#include "fast_kernel.h"
#include "onednn_common.h"
#include "reference/ops/params/movement.h"

namespace sonnx::fast {

namespace {

std::vector<int64_t> row_major_strides(const Shape& s) {
  std::vector<int64_t> st(s.size());
  int64_t k = 1;
  for (size_t d = s.size(); d-- > 0;) {
    st[d] = k;
    k *= s[d];
  }
  return st;
}

// y[i] = x[base + Σ idx_d·strides_d] over the row-major positions i of `out`. Dimensions that are
// contiguous in x are merged first, so a slice of rows is a few memcpy calls.
void strided_copy(const float* x, int64_t base, Shape out, std::vector<int64_t> strides, float* y) {
  if (shape_size(out) == 0) return;
  Shape dims;
  std::vector<int64_t> st;
  for (size_t d = 0; d < out.size(); ++d) {
    if (out[d] == 1) continue;
    if (!dims.empty() && st.back() == strides[d] * out[d]) {
      dims.back() *= out[d];
      st.back() = strides[d];
    } else {
      dims.push_back(out[d]);
      st.push_back(strides[d]);
    }
  }
  if (dims.empty()) {
    y[0] = x[base];
    return;
  }
  size_t k = dims.size();
  int64_t n = dims[k - 1], s = st[k - 1], outer = shape_size(dims) / n;
  // Rows [first, last) of the outer dimensions; each thread starts its odometer at its first row.
  auto rows = [&](int64_t first, int64_t last) {
    std::vector<int64_t> idx(k, 0);
    int64_t off = base;
    for (size_t d = k - 1, rest = static_cast<size_t>(first); d-- > 0;) {
      idx[d] = static_cast<int64_t>(rest % static_cast<size_t>(dims[d]));
      rest /= static_cast<size_t>(dims[d]);
      off += idx[d] * st[d];
    }
    float* out = y + first * n;
    for (int64_t o = first; o < last; ++o, out += n) {
      if (s == 1) std::memcpy(out, x + off, static_cast<size_t>(n) * sizeof(float));
      else
        for (int64_t i = 0; i < n; ++i) out[i] = x[off + i * s];
      for (size_t d = k - 1; d-- > 0;) {  // odometer over the outer dimensions
        off += st[d];
        if (++idx[d] < dims[d]) break;
        off -= st[d] * dims[d];
        idx[d] = 0;
      }
    }
  };
  split_over_threads(outer, outer * n, rows);
}

enum class Op { Transpose, Slice, Expand, Concat, Gather, Reshape, Flatten, Squeeze, Unsqueeze, Identity };

class MovementKernel final : public FastKernel {
 public:
  Op op;
  std::string label;
  int64_t version = 0;
  // The parameters of the forms that have them (reference/ops/params/movement.h).
  TransposeParams transpose_params;
  SliceParams slice_params;
  FlattenParams flatten_params;
  SqueezeParams squeeze_params;
  bool allow_zero = false;
  int64_t axis = 0;  // Concat's, Gather's

  std::string name() const override { return "fast:movement"; }
  bool output_is_input_view() const override {
    return op == Op::Reshape || op == Op::Flatten || op == Op::Squeeze || op == Op::Unsqueeze || op == Op::Identity;
  }

  // Concat along the channels of tensors in oneDNN's channels-last layout, or in nChw16c / nChw8c
  // with a whole number of blocks each, is a concatenation of pixels or blocks: a chain of
  // convolutions keeps its layout through it (squeezenet's fire modules, googlenet's inceptions).
  bool out_blocked = false;
  mutable std::mutex mu;
  mutable std::map<std::pair<Shape, int64_t>, dnnl::memory::desc> out_descs;  // layouts handed out, by shape and format
  bool can_produce_blocked_output() const override { return op == Op::Concat; }
  bool accepts_layout(size_t) const override { return op == Op::Concat && out_blocked; }
  void produce_blocked_output() override { out_blocked = true; }

  void run_with_layouts(const std::vector<const Tensor*>& in, const std::vector<Layout>& layouts,
                        const std::vector<Tensor*>& out, std::vector<Layout>& out_layouts) const override {
    out_layouts.assign(out.size(), nullptr);
    if (out_blocked)
      if (const dnnl::memory::desc* d = blocked_concat(in, layouts, *out[0])) {
        out_layouts[0] = d;
        return;
      }
    std::vector<Tensor> plain;
    plain.reserve(in.size());
    std::vector<const Tensor*> args = in;
    for (size_t k = 0; k < in.size(); ++k)
      if (k < layouts.size() && layouts[k]) args[k] = &plain.emplace_back(layout_to_plain(*in[k], layouts[k]));
    run(args, out);
  }

  const dnnl::memory::desc* blocked_concat(const std::vector<const Tensor*>& in, const std::vector<Layout>& layouts,
                                           Tensor& y) const {
    using tag = dnnl::memory::format_tag;
    if (y.rank() != 4 || norm_axis(label, version, axis, 4) != 1 || layouts.size() != in.size()) return nullptr;
    auto desc = [](const Shape& s, tag t) { return dnnl::memory::desc(to_dims(s), dnnl::memory::data_type::f32, t); };
    // Channels last (what oneDNN's AVX-512 convolutions pick): per pixel, each input's channels in turn.
    // Blocked: per image, each input's whole blocks in turn.
    for (auto [t, block] :
         {std::pair{tag::nhwc, int64_t{1}}, std::pair{tag::nChw16c, int64_t{16}}, std::pair{tag::nChw8c, int64_t{8}}}) {
      bool all = true;
      for (size_t k = 0; all && k < in.size(); ++k)
        all = layouts[k] && in[k]->dim(1) % block == 0 &&
              *static_cast<const dnnl::memory::desc*>(layouts[k]) == desc(in[k]->shape(), t);
      if (!all) continue;
      int64_t units = t == tag::nhwc ? y.dim(0) * y.dim(2) * y.dim(3) : y.dim(0);  // pixels, or images
      int64_t per = t == tag::nhwc ? 1 : y.dim(2) * y.dim(3);                      // floats per channel in a unit
      float* py = y.data<float>();
      int64_t at = 0, row = y.dim(1) * per;
      for (const Tensor* x : in) {
        int64_t chunk = x->dim(1) * per;
        if (chunk == 0) continue;
        const float* px = x->data<float>();
        for (int64_t u = 0; u < units; ++u)
          std::memcpy(py + u * row + at, px + u * chunk, static_cast<size_t>(chunk) * sizeof(float));
        at += chunk;
      }
      std::lock_guard lock(mu);
      return &out_descs.try_emplace({y.shape(), static_cast<int64_t>(t)}, desc(y.shape(), t)).first->second;
    }
    return nullptr;
  }

  [[noreturn]] void bad(const std::string& m) const { fail(label, version, m); }

  std::vector<int64_t> ints(const std::vector<const Tensor*>& in, size_t i, const char* what) const {
    const Tensor* t = arg(in, i);
    if (!t) return {};
    if (t->dtype() != DType::Int64 && t->dtype() != DType::Int32) bad(std::string(what) + " must be int32 or int64");
    if (t->rank() > 1) bad(std::string(what) + " must be a 1-D tensor");
    return t->to_int64_vector();
  }

  // Where the output's elements come from: base offset and per-output-dim strides into input 0.
  struct Source {
    Shape out;
    int64_t base = 0;
    std::vector<int64_t> strides;
  };

  Source transpose(const Shape& x) const {
    std::vector<int64_t> p;
    if (std::string why = transpose_params.permutation(static_cast<int64_t>(x.size()), p); !why.empty()) bad(why);
    auto in_st = row_major_strides(x);
    Source s;
    for (int64_t a : p) {
      s.out.push_back(x[static_cast<size_t>(a)]);
      s.strides.push_back(in_st[static_cast<size_t>(a)]);
    }
    return s;
  }

  Source slice(const Shape& x, const std::vector<const Tensor*>& in) const {
    std::vector<int64_t> st = slice_params.starts, en = slice_params.ends,
                         ax = slice_params.axes.value_or(std::vector<int64_t>{}), steps;
    if (slice_params.from_inputs) {
      if (!arg(in, 1) || !arg(in, 2)) bad("inputs 'starts' and 'ends' are required");
      st = ints(in, 1, "starts");
      en = ints(in, 2, "ends");
      ax = ints(in, 3, "axes");
      steps = ints(in, 4, "steps");
      if (arg(in, 3) && ax.size() != st.size()) bad("axes and starts have different lengths");
      if (arg(in, 4) && steps.size() != st.size()) bad("steps and starts have different lengths");
    }
    int64_t rank = static_cast<int64_t>(x.size());
    size_t n = st.size();
    if (en.size() != n) bad("starts and ends have different lengths");
    if (ax.empty() && n > 0) {
      if (static_cast<int64_t>(n) > rank) bad("more starts than input dimensions");
      for (size_t i = 0; i < n; ++i) ax.push_back(static_cast<int64_t>(i));
    }
    if (steps.empty()) steps.assign(n, 1);
    if (ax.size() != n) bad("axes and starts have different lengths");
    Source s{x, 0, row_major_strides(x)};
    std::vector<bool> seen(x.size(), false);
    for (size_t i = 0; i < n; ++i) {
      auto a = static_cast<size_t>(norm_axis(label, version, ax[i], rank));
      if (seen[a]) bad("axis " + std::to_string(ax[i]) + " appears twice");
      seen[a] = true;
      int64_t step = steps[i], dim = x[a], b = st[i], e = en[i], len = 0;
      if (step == 0) bad("slice step cannot be 0");
      if (b < 0) b += dim;
      if (e < 0) e += dim;
      if (step > 0) {
        b = std::clamp<int64_t>(b, 0, dim);
        e = std::clamp<int64_t>(e, 0, dim);
        if (e > b) len = static_cast<int64_t>((static_cast<uint64_t>(e - b) - 1) / static_cast<uint64_t>(step) + 1);
      } else if (dim > 0) {
        b = std::clamp<int64_t>(b, 0, dim - 1);
        e = std::clamp<int64_t>(e, -1, dim - 1);
        uint64_t abs_step = 0 - static_cast<uint64_t>(step);
        if (b > e) len = static_cast<int64_t>((static_cast<uint64_t>(b - e) - 1) / abs_step + 1);
      }
      s.out[a] = len;
      if (len > 0) {
        s.base += b * s.strides[a];
        s.strides[a] *= step;
      }
    }
    return s;
  }

  Source expand(const Shape& x, const std::vector<const Tensor*>& in) const {
    if (!arg(in, 1)) bad("input 'shape' is required");
    std::vector<int64_t> shape = ints(in, 1, "shape");
    size_t r = std::max(x.size(), shape.size());
    auto in_st = row_major_strides(x);
    Source s;
    for (size_t d = 0; d < r; ++d) {
      bool in_x = d + x.size() >= r;
      int64_t a = in_x ? x[d + x.size() - r] : 1;
      int64_t b = d + shape.size() >= r ? shape[d + shape.size() - r] : 1;
      if (a != b && a != 1 && b != 1) bad("cannot broadcast " + shape_str(x) + " to " + shape_str(shape));
      s.out.push_back(a == 1 ? b : a);
      s.strides.push_back(in_x && a != 1 ? in_st[d + x.size() - r] : 0);
    }
    return s;
  }

  Shape same_bytes_shape(const Shape& x, const std::vector<const Tensor*>& in) const {
    int64_t rank = static_cast<int64_t>(x.size());
    switch (op) {
      case Op::Identity: return x;
      case Op::Flatten: {
        std::optional<int64_t> at = flatten_params.axis_for(rank);
        if (!at) bad("axis " + std::to_string(flatten_params.axis) + " is out of range for rank " + std::to_string(rank));
        int64_t a = *at;
        int64_t outer = 1, inner = 1;
        for (int64_t d = 0; d < rank; ++d) (d < a ? outer : inner) *= x[static_cast<size_t>(d)];
        return {outer, inner};
      }
      case Op::Reshape: {
        if (!arg(in, 1)) bad("input 'shape' is required");
        if (arg(in, 1)->rank() != 1) bad("the shape input must be 1-D");
        std::vector<int64_t> req = ints(in, 1, "shape");
        Shape out = req;
        int64_t infer_at = -1;
        bool has_zero = false;
        for (size_t i = 0; i < out.size(); ++i) {
          if (out[i] == -1) {
            if (infer_at >= 0) bad("the shape may contain -1 at most once");
            infer_at = static_cast<int64_t>(i);
          } else if (out[i] == 0) {
            has_zero = true;
            if (!allow_zero) {
              if (static_cast<int64_t>(i) >= rank)
                bad("shape entry " + std::to_string(i) + " is 0 but the input has no dimension there");
              out[i] = x[i];
            }
          } else if (out[i] < -1) {
            bad("invalid shape entry " + std::to_string(out[i]));
          }
        }
        if (allow_zero && has_zero && infer_at >= 0) bad("with allowzero=1 the shape may not contain both 0 and -1");
        int64_t size = shape_size(x);
        if (infer_at >= 0) {
          Shape others = out;
          others.erase(others.begin() + infer_at);
          int64_t known = shape_size(others);
          if (known == 0) bad("cannot infer the -1 dimension when the other dimensions multiply to 0");
          if (size % known != 0) bad("cannot reshape " + shape_str(x) + " to " + shape_str(req));
          out[static_cast<size_t>(infer_at)] = size / known;
        }
        if (shape_size(out) != size) bad("cannot reshape " + shape_str(x) + " to " + shape_str(req));
        return out;
      }
      case Op::Squeeze: {
        const SqueezeParams& p = squeeze_params;
        std::vector<int64_t> ax = p.axes_from_input ? ints(in, 1, "axes") : p.axes.value_or(std::vector<int64_t>{});
        bool all = p.axes_from_input ? !arg(in, 1) : !p.axes;
        std::vector<bool> drop(x.size(), false);
        if (all) {
          for (size_t d = 0; d < x.size(); ++d) drop[d] = x[d] == 1;
        } else {
          for (int64_t a : ax) {
            auto d = static_cast<size_t>(norm_axis(label, version, a, rank));
            if (drop[d]) bad("axis " + std::to_string(a) + " appears twice");
            if (x[d] != 1) bad("cannot squeeze axis " + std::to_string(a) + " of size " + std::to_string(x[d]));
            drop[d] = true;
          }
        }
        Shape out;
        for (size_t d = 0; d < x.size(); ++d)
          if (!drop[d]) out.push_back(x[d]);
        return out;
      }
      case Op::Unsqueeze: {
        const SqueezeParams& p = squeeze_params;
        if (p.axes_from_input && !arg(in, 1)) bad("input 'axes' is required");
        std::vector<int64_t> ax = p.axes_from_input ? ints(in, 1, "axes") : p.axes.value_or(std::vector<int64_t>{});
        int64_t r = rank + static_cast<int64_t>(ax.size());
        std::vector<bool> added(static_cast<size_t>(r), false);
        for (int64_t a : ax) {
          auto d = static_cast<size_t>(norm_axis(label, version, a, r));
          if (added[d]) bad("axis " + std::to_string(a) + " appears twice");
          added[d] = true;
        }
        Shape out;
        size_t k = 0;
        for (size_t d = 0; d < added.size(); ++d) out.push_back(added[d] ? 1 : x[k++]);
        return out;
      }
      default: return x;
    }
  }

  std::vector<Shape> output_shapes(const std::vector<const Tensor*>& in) const override {
    const Tensor* x = arg(in, 0);
    // A view's shape does not depend on the element type (the executor makes views of any type).
    if (!x || (x->dtype() != DType::Float && !output_is_input_view())) bad("input 0 must be a float tensor");
    const Shape& xs = x->shape();
    switch (op) {
      case Op::Transpose: return {transpose(xs).out};
      case Op::Slice: return {slice(xs, in).out};
      case Op::Expand: return {expand(xs, in).out};
      case Op::Concat: return {concat_shape(in)};
      case Op::Gather: return {gather_shape(in)};
      default: return {same_bytes_shape(xs, in)};
    }
  }

  Shape concat_shape(const std::vector<const Tensor*>& in) const {
    const Shape& first = in[0]->shape();
    int64_t a = norm_axis(label, version, axis, static_cast<int64_t>(first.size()));
    Shape out = first;
    out[static_cast<size_t>(a)] = 0;
    for (const Tensor* t : in) {
      if (!t || t->dtype() != DType::Float) bad("every input must be a float tensor");
      if (t->rank() != static_cast<int64_t>(first.size())) bad("inputs have different ranks");
      for (size_t d = 0; d < first.size(); ++d)
        if (static_cast<int64_t>(d) != a && t->shape()[d] != first[d])
          bad("inputs differ on axis " + std::to_string(d) + ": " + shape_str(first) + " and " + shape_str(t->shape()));
      out[static_cast<size_t>(a)] += t->shape()[static_cast<size_t>(a)];
    }
    return out;
  }

  Shape gather_shape(const std::vector<const Tensor*>& in) const {
    const Shape& x = in[0]->shape();
    const Tensor* idx = arg(in, 1);
    if (!idx || (idx->dtype() != DType::Int64 && idx->dtype() != DType::Int32)) bad("indices must be int32 or int64");
    if (x.empty()) bad("data must have rank >= 1");
    auto a = static_cast<size_t>(norm_axis(label, version, axis, static_cast<int64_t>(x.size())));
    Shape out(x.begin(), x.begin() + static_cast<int64_t>(a));
    out.insert(out.end(), idx->shape().begin(), idx->shape().end());
    out.insert(out.end(), x.begin() + static_cast<int64_t>(a) + 1, x.end());
    return out;
  }

  void run(const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) const override {
    const Tensor& x = *in[0];
    Tensor& y = *out[0];
    const float* px = x.data<float>();
    float* py = y.data<float>();
    switch (op) {
      case Op::Transpose: {
        Source s = transpose(x.shape());
        return strided_copy(px, s.base, s.out, s.strides, py);
      }
      case Op::Slice: {
        Source s = slice(x.shape(), in);
        return strided_copy(px, s.base, s.out, s.strides, py);
      }
      case Op::Expand: {
        Source s = expand(x.shape(), in);
        return strided_copy(px, s.base, s.out, s.strides, py);
      }
      case Op::Concat: return concat(in, y);
      case Op::Gather: return gather(in, y);
      default:
        if (y.size()) std::memcpy(py, px, static_cast<size_t>(y.size()) * sizeof(float));
    }
  }

  void concat(const std::vector<const Tensor*>& in, Tensor& y) const {
    auto a = static_cast<size_t>(norm_axis(label, version, axis, y.rank()));
    int64_t outer = 1, inner = 1;
    for (size_t d = 0; d < a; ++d) outer *= y.shape()[d];
    for (size_t d = a + 1; d < y.shape().size(); ++d) inner *= y.shape()[d];
    int64_t row = y.shape()[a] * inner, at = 0;
    float* py = y.data<float>();
    for (const Tensor* t : in) {
      int64_t block = t->shape()[a] * inner;
      if (block == 0) continue;  // an empty input (its data pointer may be null)
      const float* pt = t->data<float>();
      for (int64_t o = 0; o < outer; ++o)
        std::memcpy(py + o * row + at, pt + o * block, static_cast<size_t>(block) * sizeof(float));
      at += block;
    }
  }

  void gather(const std::vector<const Tensor*>& in, Tensor& y) const {
    const Tensor& x = *in[0];
    auto a = static_cast<size_t>(norm_axis(label, version, axis, x.rank()));
    std::vector<int64_t> idx = in[1]->to_int64_vector();
    int64_t dim = x.shape()[a], outer = 1, inner = 1;
    for (size_t d = 0; d < a; ++d) outer *= x.shape()[d];
    for (size_t d = a + 1; d < x.shape().size(); ++d) inner *= x.shape()[d];
    for (int64_t& i : idx) {
      if (i < -dim || i >= dim)
        bad("index " + std::to_string(i) + " is out of range [" + std::to_string(-dim) + ", " + std::to_string(dim - 1) + "]");
      if (i < 0) i += dim;
    }
    if (y.size() == 0) return;
    const float* px = x.data<float>();
    float* py = y.data<float>();
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t k : idx) {
        std::memcpy(py, px + (o * dim + k) * inner, static_cast<size_t>(inner) * sizeof(float));
        py += inner;
      }
  }
};

}  // namespace

namespace {
// The kernel of data-movement operator `op`, which the node's record names (the registrations below).
std::unique_ptr<FastKernel> make_movement_kernel(const FastKernelRequest& r, Op op) {
  const Node& n = *r.node;
  if (n.outputs.size() != 1 || n.inputs.empty() || !input_is_float(r, 0)) return nullptr;
  auto k = std::make_unique<MovementKernel>();
  k->op = op;
  k->label = n.label();
  k->version = r.version;
  // The operator's parameters, or a decline where the reference fails on them.
  auto read = [&](auto& into) {
    auto p = try_params<std::decay_t<decltype(into)>>(n, r.version);
    if (p) into = *p;
    return p.has_value();
  };
  switch (k->op) {
    case Op::Transpose:
      if (!read(k->transpose_params)) return nullptr;
      break;
    case Op::Slice:
      if (!read(k->slice_params)) return nullptr;
      break;
    case Op::Expand: break;
    case Op::Concat: {
      ConcatParams p;
      if (!read(p)) return nullptr;
      k->axis = p.axis;
      for (size_t i = 0; i < n.inputs.size(); ++i)
        if (!input_is_float(r, i)) return nullptr;
      break;
    }
    case Op::Gather: {
      GatherParams p;
      if (!read(p)) return nullptr;
      k->axis = p.axis;
      break;
    }
    case Op::Reshape: {
      ReshapeParams p;
      if (!read(p) || !p.shape_from_input) return nullptr;
      k->allow_zero = p.allow_zero;
      break;
    }
    case Op::Flatten:
      if (!read(k->flatten_params)) return nullptr;
      break;
    case Op::Squeeze:
    case Op::Unsqueeze:
      if (!read(k->squeeze_params)) return nullptr;
      break;
    case Op::Identity: break;
  }
  return k;
}

template <Op op>
std::unique_ptr<FastKernel> make_movement(const FastKernelRequest& r) {
  return make_movement_kernel(r, op);
}
}  // namespace

SONNX_FAST_KERNEL("", "Transpose", (1, 13, 21, 23, 24, 25), make_movement<Op::Transpose>);
SONNX_FAST_KERNEL("", "Slice", (1, 10, 11, 13), make_movement<Op::Slice>);
SONNX_FAST_KERNEL("", "Expand", (8, 13), make_movement<Op::Expand>);
SONNX_FAST_KERNEL("", "Concat", (1, 4, 11, 13), make_movement<Op::Concat>);
SONNX_FAST_KERNEL("", "Gather", (1, 11, 13), make_movement<Op::Gather>);
SONNX_FAST_KERNEL("", "Reshape", (1, 5, 13, 14, 19, 21, 23, 24, 25), make_movement<Op::Reshape>);
SONNX_FAST_KERNEL("", "Flatten", (1, 9, 11, 13, 21, 23, 24, 25), make_movement<Op::Flatten>);
SONNX_FAST_KERNEL("", "Squeeze", (1, 11, 13, 21, 23, 24, 25), make_movement<Op::Squeeze>);
SONNX_FAST_KERNEL("", "Unsqueeze", (1, 11, 13, 21, 23, 24, 25), make_movement<Op::Unsqueeze>);
SONNX_FAST_KERNEL("", "Identity", (1, 13, 14, 16, 19, 21, 23, 24, 25), make_movement<Op::Identity>);

}  // namespace sonnx::fast
