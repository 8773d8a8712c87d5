// Where(condition, X, Y) without the reference's per-element index maps: the three inputs broadcast
// multidirectionally; axes along which every operand is contiguous (or repeated) are merged, and
// each row of the last merged axis is one loop (or one memcpy or fill where the condition is
// repeated along it). X and Y of any element type but string, copied by byte width: exact, as
// reference/ops/Where.cpp (versions 9 and 16); every input it rejects traps here with the node's
// label. Declines string data (the executor gives it none of types unknown till
// run time). Large outputs split their elements over the kernel's threads.
#include <algorithm>
#include <cstring>

#include "fast_kernel.h"
#include "onednn_common.h"

namespace sonnx::fast {

namespace {

struct Bytes16 {
  uint64_t lo, hi;
};

// The row-major strides of `s` seen from an output of rank `rank` that `s` broadcasts to: 0 along
// axes that `s` lacks or has as 1.
std::vector<int64_t> broadcast_strides(const Shape& s, size_t rank) {
  std::vector<int64_t> st(rank, 0);
  int64_t k = 1;
  for (size_t d = s.size(); d-- > 0;) {
    if (s[d] != 1) st[d + rank - s.size()] = k;
    k *= s[d];
  }
  return st;
}

class WhereKernel final : public FastKernel {
 public:
  std::string label;
  int64_t version = 0;

  std::string name() const override { return "fast:where"; }

  [[noreturn]] void bad(const std::string& m) const { fail(label, version, m); }

  // The output shape; traps as the reference does on missing inputs, types and shapes.
  Shape out_shape(const std::vector<const Tensor*>& in) const {
    for (size_t i = 0; i < 3; ++i)
      if (!arg(in, i)) bad("input " + std::to_string(i) + " is required but missing");
    const Tensor &c = *in[0], &x = *in[1], &y = *in[2];
    if (c.dtype() != DType::Bool) bad("condition must be bool, got " + std::string(dtype_name(c.dtype())));
    if (x.dtype() != y.dtype())
      bad("inputs have different element types (" + std::string(dtype_name(x.dtype())) + " and " +
          std::string(dtype_name(y.dtype())) + ")");
    if (x.dtype() == DType::String) bad("string data is not supported here");
    Shape out;
    for (const Shape* s : {&c.shape(), &x.shape(), &y.shape()}) {  // as the reference folds them, pair by pair
      const Shape& a = out;
      const Shape& b = *s;
      size_t rank = std::max(a.size(), b.size());
      Shape r(rank);
      for (size_t i = 0; i < rank; ++i) {
        int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
        int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
        if (da != db && da != 1 && db != 1) bad("shapes " + shape_str(a) + " and " + shape_str(b) + " cannot be broadcast");
        r[i] = da == 1 ? db : da;
      }
      out = std::move(r);
    }
    return out;
  }

  std::vector<Shape> output_shapes(const std::vector<const Tensor*>& in) const override { return {out_shape(in)}; }

  bool any_element_type() const override { return true; }
  DType output_dtype(const std::vector<const Tensor*>& in, size_t) const override { return in[1]->dtype(); }
  int64_t output_bytes(const std::vector<const Tensor*>& in, const std::vector<Layout>&, size_t) const override {
    return shape_size(out_shape(in)) * static_cast<int64_t>(dtype_size(in[1]->dtype()));
  }

  void run(const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) const override {
    Shape os = out_shape(in);
    Tensor& o = *out[0];
    if (o.dtype() != in[1]->dtype()) throw InternalError("fast:where: the output has another element type");
    if (o.size() == 0) return;
    switch (dtype_size(o.dtype())) {
      case 1: return select<uint8_t>(in, os, o);
      case 2: return select<uint16_t>(in, os, o);
      case 4: return select<uint32_t>(in, os, o);
      case 8: return select<uint64_t>(in, os, o);
      case 16: return select<Bytes16>(in, os, o);
      default: throw InternalError("fast:where: no element storage for " + std::string(dtype_name(o.dtype())));
    }
  }

  // T: an unsigned integer (or struct) of the element's width; the bits are copied, never read as numbers.
  template <class T>
  static void select(const std::vector<const Tensor*>& in, const Shape& os, Tensor& o) {
    const bool* pc = in[0]->data<bool>();
    const T* px = reinterpret_cast<const T*>(in[1]->raw());
    const T* py = reinterpret_cast<const T*>(in[2]->raw());
    T* po = reinterpret_cast<T*>(o.raw());
    size_t rank = os.size();
    std::vector<int64_t> sc = broadcast_strides(in[0]->shape(), rank), sx = broadcast_strides(in[1]->shape(), rank),
                         sy = broadcast_strides(in[2]->shape(), rank);
    // Merge axes along which each operand's stride runs on (dims of size 1 are dropped).
    Shape dims;
    std::vector<int64_t> mc, mx, my;
    for (size_t d = 0; d < rank; ++d) {
      if (os[d] == 1) continue;
      if (!dims.empty() && mc.back() == sc[d] * os[d] && mx.back() == sx[d] * os[d] && my.back() == sy[d] * os[d]) {
        dims.back() *= os[d];
        mc.back() = sc[d];
        mx.back() = sx[d];
        my.back() = sy[d];
      } else {
        dims.push_back(os[d]);
        mc.push_back(sc[d]);
        mx.push_back(sx[d]);
        my.push_back(sy[d]);
      }
    }
    if (dims.empty()) {  // one element
      po[0] = pc[0] ? px[0] : py[0];
      return;
    }
    size_t k = dims.size();
    int64_t n = dims[k - 1], c1 = mc[k - 1], x1 = mx[k - 1], y1 = my[k - 1], total = o.size();
    // Output elements [first, last): row by row of the last merged axis, each thread starting its
    // odometer over the outer axes at its first row.
    auto part = [&](int64_t first, int64_t last) {
      std::vector<int64_t> idx(k, 0);
      int64_t row = first / n, j = first % n, oc = 0, ox = 0, oy = 0;
      for (size_t d = k - 1, rest = static_cast<size_t>(row); d-- > 0;) {
        idx[d] = static_cast<int64_t>(rest % static_cast<size_t>(dims[d]));
        rest /= static_cast<size_t>(dims[d]);
        oc += idx[d] * mc[d];
        ox += idx[d] * mx[d];
        oy += idx[d] * my[d];
      }
      T* dst = po + first;
      for (int64_t left = last - first; left > 0;) {
        int64_t m = std::min(n - j, left);
        const bool* c = pc + oc + j * c1;
        const T* a = px + ox + j * x1;
        const T* b = py + oy + j * y1;
        if (c1 == 0) {  // one condition for the whole row: a copy or a fill
          const T* s = c[0] ? a : b;
          int64_t step = c[0] ? x1 : y1;
          if (step == 1) std::memcpy(dst, s, static_cast<size_t>(m) * sizeof(T));
          else if (step == 0) std::fill(dst, dst + m, s[0]);
          else
            for (int64_t i = 0; i < m; ++i) dst[i] = s[i * step];
        } else if (c1 == 1 && x1 == 1 && y1 == 1) {
          for (int64_t i = 0; i < m; ++i) {  // both read, then selected: the loop vectorizes
            T va = a[i], vb = b[i];
            dst[i] = c[i] ? va : vb;
          }
        } else {
          for (int64_t i = 0; i < m; ++i) {
            T va = a[i * x1], vb = b[i * y1];
            dst[i] = c[i * c1] ? va : vb;
          }
        }
        dst += m;
        left -= m;
        j = 0;
        for (size_t d = k - 1; d-- > 0;) {  // odometer over the outer axes
          oc += mc[d];
          ox += mx[d];
          oy += my[d];
          if (++idx[d] < dims[d]) break;
          oc -= mc[d] * dims[d];
          ox -= mx[d] * dims[d];
          oy -= my[d] * dims[d];
          idx[d] = 0;
        }
      }
    };
    split_over_threads(total, total, part);
  }
};

}  // namespace

std::unique_ptr<FastKernel> make_where_kernel(const FastKernelRequest& r) {
  const Node& n = *r.node;
  if (n.outputs.size() != 1 || n.inputs.size() != 3) return nullptr;
  if (!copyable_element_type(r, 1)) return nullptr;
  auto k = std::make_unique<WhereKernel>();
  k->label = n.label();
  k->version = r.version;
  return k;
}

SONNX_FAST_KERNEL("", "Where", (9, 16), make_where_kernel);

}  // namespace sonnx::fast
