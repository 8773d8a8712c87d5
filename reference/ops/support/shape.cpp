#include "shape.h"

#include "reference/ops/params/broadcast.h"
#include "reference/ops/params/conv.h"
#include "reference/ops/params/recurrent.h"
#include "reference/ops/params/reduce.h"
#include "window.h"

namespace sonnx::support {

std::string dims_str(const Dims& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i)
    s += (i ? "," : "") + (d[i].value ? std::to_string(*d[i].value) : d[i].param.empty() ? "?" : d[i].param);
  return s + "]";
}

std::optional<int64_t> dims_product(const Dims& d) {
  int64_t p = 1;
  for (const auto& x : d) {
    if (!x.value) return std::nullopt;
    if (__builtin_mul_overflow(p, *x.value, &p)) return std::nullopt;
  }
  return p;
}

int64_t infer_axis(const InferContext& ctx, int64_t axis, int64_t rank, const std::string& what) {
  if (axis < -rank || axis >= rank)
    ctx.fail(what + " " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  return axis < 0 ? axis + rank : axis;
}

std::vector<int64_t> infer_axes(const InferContext& ctx, const std::vector<int64_t>& axes, int64_t rank) {
  std::vector<int64_t> out;
  for (int64_t a : axes) {
    int64_t n = infer_axis(ctx, a, rank);
    for (int64_t seen : out)
      if (seen == n) ctx.fail("axis " + std::to_string(a) + " is repeated");
    out.push_back(n);
  }
  return out;
}

Dim unify_dim(const InferContext& ctx, const Dim& a, const Dim& b, const std::string& what) {
  if (a.value && b.value && *a.value != *b.value)
    ctx.fail(what + ": dimensions " + std::to_string(*a.value) + " and " + std::to_string(*b.value) + " differ");
  if (a.value) return a;
  if (b.value) return b;
  return a.param.empty() ? b : a;
}

void require_rank(const InferContext& ctx, size_t input, int64_t rank, const std::string& what) {
  auto r = ctx.input_rank(input);
  if (r && *r != rank) ctx.fail(what + " must have rank " + std::to_string(rank) + ", got " + std::to_string(*r));
}

std::optional<Dims> broadcast_shapes(const InferContext& ctx, const std::vector<const Dims*>& shapes) {
  size_t rank = 0;
  for (const Dims* s : shapes) {
    if (!s) return std::nullopt;
    rank = std::max(rank, s->size());
  }
  Dims out(rank);
  for (size_t k = 0; k < rank; ++k) {  // k counts from the last axis
    std::optional<int64_t> known;      // the one known size other than 1
    std::string symbol;
    bool unknown = false, symbols_differ = false;
    for (const Dim* d : [&] {
           std::vector<const Dim*> v;
           for (const Dims* s : shapes)
             if (k < s->size()) v.push_back(&(*s)[s->size() - 1 - k]);
           return v;
         }()) {
      if (d->value) {
        if (*d->value == 1) continue;
        if (known && *known != *d->value)
          ctx.fail("cannot broadcast dimensions " + std::to_string(*known) + " and " + std::to_string(*d->value) + " (shapes " +
                   [&] {
                     std::string s;
                     for (const Dims* x : shapes) s += (s.empty() ? "" : ", ") + dims_str(*x);
                     return s;
                   }() +
                   ")");
        known = *d->value;
      } else if (!d->param.empty()) {
        if (!symbol.empty() && symbol != d->param) symbols_differ = true;
        symbol = d->param;
      } else {
        unknown = true;
      }
    }
    Dim& o = out[rank - 1 - k];
    // A known size other than 1 decides (any other size must be 1 or that size to be valid); with
    // only 1s the result is 1; otherwise only one shared symbol and 1s give that symbol.
    if (known) o.value = known;
    else if (!unknown && symbol.empty()) o.value = 1;
    else if (!unknown && !symbols_differ) o.param = symbol;
  }
  return out;
}

DType common_elem(const InferContext& ctx, const std::vector<size_t>& inputs) {
  DType t = DType::Undefined;
  size_t first = 0;
  for (size_t i : inputs) {
    if (!ctx.has_input(i)) continue;
    DType e = ctx.input_elem(i);
    if (e == DType::Undefined) continue;
    if (t != DType::Undefined && e != t)
      ctx.fail("input " + std::to_string(i) + " has element type " + std::string(dtype_name(e)) + " but input " +
               std::to_string(first) + " has " + std::string(dtype_name(t)));
    if (t == DType::Undefined) {
      t = e;
      first = i;
    }
  }
  return t;
}

void same_as_input_rule(InferContext& ctx) {
  if (const TypeInfo* t = ctx.input_type(0)) ctx.set_output(0, *t);
}

void identity_rule(InferContext& ctx) {
  if (const TypeInfo* t = ctx.input_type(0)) ctx.set_output(0, *t);
  if (const Tensor* v = ctx.input_value(0)) ctx.set_output_value(0, *v);
  else if (auto p = ctx.input_partial(0)) ctx.set_output_partial(0, *p);
}

namespace {
std::optional<Dims> broadcast_all(const InferContext& ctx) {
  std::vector<const Dims*> shapes;
  for (size_t i = 0; i < ctx.num_inputs(); ++i)
    if (ctx.has_input(i)) shapes.push_back(ctx.input_shape(i));
  return broadcast_shapes(ctx, shapes);
}
std::vector<size_t> all_inputs(const InferContext& ctx) {
  std::vector<size_t> v;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) v.push_back(i);
  return v;
}
}  // namespace

void broadcast_rule(InferContext& ctx) {
  DType t = common_elem(ctx, all_inputs(ctx));
  ctx.set_output(0, t, broadcast_all(ctx));
}

void broadcast_bool_rule(InferContext& ctx) {
  // The comparisons and logical operators that take this rule broadcast the legacy way before 7.
  if (ctx.version() < 7) return legacy_broadcast_rule(ctx, DType::Bool);
  common_elem(ctx, all_inputs(ctx));
  ctx.set_output(0, DType::Bool, broadcast_all(ctx));
}

void legacy_broadcast_rule(InferContext& ctx, DType out) {
  DType t = common_elem(ctx, {0, 1});
  const Dims* a = ctx.input_shape(0);
  const Dims* b = ctx.input_shape(1);
  LegacyBroadcastParams p = LegacyBroadcastParams::read(ctx, ctx.version());
  if (a && b && dims_product(*a) && dims_product(*b)) {  // both known: B must fit A as the kernel checks
    Shape as, bs, b_full;
    for (const Dim& d : *a) as.push_back(*d.value);
    for (const Dim& d : *b) bs.push_back(*d.value);
    if (std::string why = p.b_shape(as, bs, b_full); !why.empty()) ctx.fail(why);
  }
  ctx.set_output(0, out == DType::Undefined ? t : out, a ? std::optional<Dims>(*a) : std::nullopt);
}

std::optional<PartialValue> partial_arith(const PartialValue& a, const PartialValue& b, char op) {
  size_t n = std::max(a.elems.size(), b.elems.size());
  if ((a.elems.size() != n && a.elems.size() != 1) || (b.elems.size() != n && b.elems.size() != 1)) return std::nullopt;
  PartialValue out;
  out.scalar = a.scalar && b.scalar;
  for (size_t i = 0; i < n; ++i) {
    const Dim& x = a.elems[a.elems.size() == 1 ? 0 : i];
    const Dim& y = b.elems[b.elems.size() == 1 ? 0 : i];
    Dim r;
    if (x.value && y.value) {
      int64_t v = 0;
      bool ok = true;
      switch (op) {
        case '+': ok = !__builtin_add_overflow(*x.value, *y.value, &v); break;
        case '-': ok = !__builtin_sub_overflow(*x.value, *y.value, &v); break;
        case '*': ok = !__builtin_mul_overflow(*x.value, *y.value, &v); break;
        default:
          // Only the unambiguous case: non-negative operands (truncation and floor agree).
          ok = *y.value > 0 && *x.value >= 0;
          if (ok) v = *x.value / *y.value;
      }
      if (ok) r.value = v;
    } else if (!x.value && y.value) {
      bool identity = ((op == '+' || op == '-') && *y.value == 0) || ((op == '*' || op == '/') && *y.value == 1);
      if (identity) r = x;
    } else if (x.value && !y.value) {
      bool identity = (op == '+' && *x.value == 0) || (op == '*' && *x.value == 1);
      if (identity) r = y;
    }
    out.elems.push_back(r);
  }
  return out;
}

void arithmetic_rule(InferContext& ctx, char op) {
  DType t = common_elem(ctx, {0, 1});
  if (ctx.version() < 7) {
    legacy_broadcast_rule(ctx);
  } else {
    ctx.set_output(0, t, broadcast_shapes(ctx, {ctx.input_shape(0), ctx.input_shape(1)}));
  }
  if (!is_integer(t)) return;
  auto a = ctx.input_partial(0), b = ctx.input_partial(1);
  if (a && b)
    if (auto r = partial_arith(*a, *b, op)) ctx.set_output_partial(0, std::move(*r));
}

Dims reduce_dims(const Dims& in, const std::vector<int64_t>& axes, bool keepdims, bool noop_with_empty_axes) {
  if (axes.empty() && noop_with_empty_axes) return in;
  Dims out;
  for (size_t i = 0; i < in.size(); ++i) {
    bool reduced = axes.empty();
    for (int64_t a : axes)
      if (a == static_cast<int64_t>(i)) reduced = true;
    if (!reduced) out.push_back(in[i]);
    else if (keepdims) out.push_back(known_dim(1));
  }
  return out;
}

void reduce_rule(InferContext& ctx, DType elem) {
  ReduceParams p = ReduceParams::read(ctx, ctx.version());
  bool keepdims = p.keepdims, noop = p.noop_with_empty_axes;
  std::optional<std::vector<int64_t>> axes = p.axes;
  if (p.axes_from_input && ctx.has_input(1)) axes = ctx.input_ints(1);
  const Dims* x = ctx.input_shape(0);
  if (!x) {
    ctx.set_output(0, elem, std::nullopt);
    return;
  }
  if (!axes) {  // which axes go is unknown: with keepdims the rank stays
    ctx.set_output(0, elem, keepdims ? std::optional<Dims>(Dims(x->size())) : std::nullopt);
    return;
  }
  std::vector<int64_t> ax = infer_axes(ctx, *axes, static_cast<int64_t>(x->size()));
  ctx.set_output(0, elem, reduce_dims(*x, ax, keepdims, noop));
}

std::optional<Dims> matmul_dims(const InferContext& ctx, const Dims* a, const Dims* b) {
  if (!a || !b) return std::nullopt;
  if (a->empty() || b->empty()) ctx.fail("MatMul operands must have rank at least 1");
  Dims A = *a, B = *b;
  bool a_vec = A.size() == 1, b_vec = B.size() == 1;
  if (a_vec) A.insert(A.begin(), known_dim(1));
  if (b_vec) B.push_back(known_dim(1));
  unify_dim(ctx, A[A.size() - 1], B[B.size() - 2], "the contracted dimensions");
  Dims ba(A.begin(), A.end() - 2), bb(B.begin(), B.end() - 2);
  auto batch = broadcast_shapes(ctx, {&ba, &bb});
  Dims out = *batch;
  if (!a_vec) out.push_back(A[A.size() - 2]);
  if (!b_vec) out.push_back(B[B.size() - 1]);
  return out;
}

Dim size_dim(const InferContext& ctx, int64_t v, const std::string& what) {
  if (v < 0 || v > kMaxDimValue) ctx.fail(what + " gives an invalid dimension " + std::to_string(v));
  return known_dim(v);
}

void global_pool_shape_rule(InferContext& ctx) {
  const Dims* x = ctx.input_shape(0);
  std::optional<Dims> out;
  if (x) {
    if (x->size() < 2) ctx.fail("the input must have rank at least 2");
    out = Dims{(*x)[0], (*x)[1]};
    out->resize(x->size(), known_dim(1));
  }
  ctx.set_output(0, ctx.input_elem(0), out);
}

void optimizer_shape_rule(InferContext& ctx, size_t per) {
  if (ctx.num_inputs() < 2) ctx.fail("inputs R and T are required");
  size_t groups = per + 1;  // X, G and the states in the inputs
  size_t n = (ctx.num_inputs() - 2) / groups;
  if (n * groups + 2 != ctx.num_inputs()) ctx.fail("the inputs do not split into X, G and state groups");
  if (n == 0) return;
  for (size_t o = 0; o < ctx.num_outputs(); ++o) {
    size_t g = o / n, k = o % n;
    size_t in = 2 + (g == 0 ? 0 : g + 1) * n + k;  // X for group 0, states after G
    if (const TypeInfo* t = ctx.input_type(in)) ctx.set_output(o, *t);
  }
}

Dims window_dims(const InferContext& ctx, const Dims& in_spatial, const std::vector<int64_t>& kernel, bool ceil_mode,
                 bool use_dilations, bool windows_meet_input) {
  size_t r = in_spatial.size();
  if (kernel.size() != r)
    ctx.fail("the kernel has " + std::to_string(kernel.size()) + " spatial axes, the input " + std::to_string(r));
  // The window attributes as the kernel reads them (support::window_attrs); dilations only where
  // the version has them.
  WindowAttrs a = window_attrs(ctx, r);
  a.ceil_mode = ceil_mode;
  if (!use_dilations) a.dilations.assign(r, 1);
  Dims out(r);
  for (size_t i = 0; i < r; ++i) {
    if (!in_spatial[i].value) continue;
    if (*in_spatial[i].value > kMaxDimValue)
      ctx.fail("input dimension " + std::to_string(*in_spatial[i].value) + " is too large");
    WindowAttrs axis{{a.strides[i]}, {a.dilations[i]}, {}, {}, a.auto_pad, a.ceil_mode};
    if (a.auto_pad == AutoPad::NotSet) axis.pad_begin = {a.pad_begin[i]}, axis.pad_end = {a.pad_end[i]};
    std::string why;
    WindowGeometry g = axis.over({*in_spatial[i].value}, {kernel[i]}, why);
    if (!why.empty()) ctx.fail(why);
    if (windows_meet_input && !(why = window_without_input(g, 0)).empty())
      ctx.fail("spatial axis " + std::to_string(i) + ": " + why);
    out[i] = known_dim(g.out[0]);
  }
  return out;
}

std::optional<Dims> conv_like_dims(const InferContext& ctx, const Dim& channels, const std::vector<int64_t>* kernel,
                                   bool ceil_mode, bool use_dilations, bool windows_meet_input) {
  const Dims* x = ctx.input_shape(0);
  if (!x) return std::nullopt;
  if (x->size() < 2) ctx.fail("the input must have rank at least 2 (N, C, ...), got " + std::to_string(x->size()));
  Dims spatial(x->begin() + 2, x->end());
  Dims out{(*x)[0], channels};
  if (!kernel) {
    out.resize(x->size());
    return out;
  }
  Dims w = window_dims(ctx, spatial, *kernel, ceil_mode, use_dilations, windows_meet_input);
  out.insert(out.end(), w.begin(), w.end());
  return out;
}

// Output [N, M, spatial...] with M = W[0]; kernel sizes from kernel_shape or W; C = W[1] * group.
void conv_rule(InferContext& ctx, size_t w_input, DType t) {
  const Dims* x = ctx.input_shape(0);
  const Dims* w = ctx.input_shape(w_input);
  if (x && w && x->size() != w->size())
    ctx.fail("X has rank " + std::to_string(x->size()) + ", W has " + std::to_string(w->size()));
  ConvParams params = ConvParams::read(ctx, ctx.version());
  int64_t group = params.group;
  if (x && w && x->size() >= 2 && (*x)[1].value && (*w)[1].value && *(*x)[1].value != *(*w)[1].value * group)
    ctx.fail("X has " + std::to_string(*(*x)[1].value) + " channels, W expects " + std::to_string(*(*w)[1].value) + " x group " +
             std::to_string(group));
  std::optional<std::vector<int64_t>> kernel = params.kernel_shape;
  if (w && w->size() >= 2) {
    std::vector<int64_t> k;
    for (size_t i = 2; i < w->size(); ++i)
      if ((*w)[i].value) k.push_back(*(*w)[i].value);
    if (k.size() + 2 == w->size()) {
      Shape ws{0, 0};
      ws.insert(ws.end(), k.begin(), k.end());
      if (std::string why = params.check_kernel(ws); !why.empty()) ctx.fail(why);
      kernel = k;
    }
  }
  Dim m = w && !w->empty() ? (*w)[0] : Dim{};
  ctx.set_output(0, t, conv_like_dims(ctx, m, kernel ? &*kernel : nullptr, false, true));
  if (!ctx.output(0).shape && w) ctx.set_output(0, t, Dims(w->size()));
}

TypeInfo union_type(const InferContext& ctx, const TypeInfo& a, const TypeInfo& b, const std::string& what) {
  if (a.kind == TypeInfo::Kind::Unknown || b.kind == TypeInfo::Kind::Unknown) return TypeInfo{};
  if (a.kind != b.kind) ctx.fail(what + ": " + a.str() + " and " + b.str() + " are different kinds of value");
  TypeInfo out = a;
  if (a.kind == TypeInfo::Kind::Tensor || a.kind == TypeInfo::Kind::SparseTensor) {
    if (a.elem != DType::Undefined && b.elem != DType::Undefined && a.elem != b.elem)
      ctx.fail(what + ": element types " + std::string(dtype_name(a.elem)) + " and " + std::string(dtype_name(b.elem)) +
               " differ");
    if (out.elem == DType::Undefined) out.elem = b.elem;
    if (!a.shape || !b.shape || a.shape->size() != b.shape->size()) {
      out.shape.reset();
      return out;
    }
    for (size_t i = 0; i < out.shape->size(); ++i)
      if (!same_dim((*a.shape)[i], (*b.shape)[i])) (*out.shape)[i] = Dim{};
    return out;
  }
  if (a.kind == TypeInfo::Kind::Map) {
    if (a.map_key != DType::Undefined && b.map_key != DType::Undefined && a.map_key != b.map_key)
      ctx.fail(what + ": map key types " + std::string(dtype_name(a.map_key)) + " and " + std::string(dtype_name(b.map_key)) +
               " differ");
    if (out.map_key == DType::Undefined) out.map_key = b.map_key;
  }
  if ((a.kind == TypeInfo::Kind::Sequence || a.kind == TypeInfo::Kind::Optional || a.kind == TypeInfo::Kind::Map) && a.inner &&
      b.inner)
    out.inner = std::make_shared<TypeInfo>(union_type(ctx, *a.inner, *b.inner, what));
  else out.inner.reset();
  return out;
}

TypeInfo sequence_of(TypeInfo elem) {
  TypeInfo t;
  t.kind = TypeInfo::Kind::Sequence;
  if (elem.kind != TypeInfo::Kind::Unknown) t.inner = std::make_shared<TypeInfo>(std::move(elem));
  return t;
}

TypeInfo map_of(DType key, DType value) {
  TypeInfo t;
  t.kind = TypeInfo::Kind::Map;
  t.map_key = key;
  t.inner = std::make_shared<TypeInfo>(tensor_type(value));
  return t;
}

TypeInfo optional_of(TypeInfo elem) {
  TypeInfo t;
  t.kind = TypeInfo::Kind::Optional;
  if (elem.kind != TypeInfo::Kind::Unknown) t.inner = std::make_shared<TypeInfo>(std::move(elem));
  return t;
}

// [N, C, window outputs...] (PoolParams: ceil_mode and dilations where the version has them).
void pool_shape_rule(InferContext& ctx) {
  DType t = ctx.input_elem(0);
  const std::string op = ctx.node().op_type;
  PoolParams params = PoolParams::read(ctx, ctx.version());
  const std::vector<int64_t>& kernel = params.kernel_shape;
  const Dims* x = ctx.input_shape(0);
  std::optional<Dims> out;
  if (x) {
    if (x->size() != kernel.size() + 2)
      ctx.fail("kernel_shape has " + std::to_string(kernel.size()) + " axes for an input of rank " + std::to_string(x->size()));
    // No maximum (MaxPool) or mean without the padding (AveragePool) over a window with no input.
    bool meet = op == "MaxPool" || (op == "AveragePool" && !params.count_include_pad);
    out = conv_like_dims(ctx, (*x)[1], &kernel, params.ceil_mode, true, meet);
  }
  ctx.set_output(0, t, out);
  if (ctx.has_output(1)) ctx.set_output(1, DType::Int64, out);
}

// Y [seq, num_directions, batch, hidden] (layout 0) or [batch, seq, num_directions, hidden]
// (layout 1, from version 14); Y_h (and LSTM's Y_c) [num_directions, batch, hidden] or
// [batch, num_directions, hidden].
void recurrent_shape_rule(InferContext& ctx) {
  DType t = common_elem(ctx, {0, 1, 2});
  RecurrentParams p = RecurrentParams::read(ctx, ctx.version());
  Dim nd = known_dim(p.num_directions);
  bool layout = p.layout == 1;
  require_rank(ctx, 0, 3, "X");
  const Dims* x = ctx.input_shape(0);
  Dim seq = x ? (*x)[layout ? 1 : 0] : Dim{}, batch = x ? (*x)[layout ? 0 : 1] : Dim{};
  Dim hidden;
  if (p.hidden_size) hidden = size_dim(ctx, *p.hidden_size, "hidden_size");
  else if (const Dims* r = ctx.input_shape(2); r && r->size() == 3) hidden = (*r)[2];
  Dims y = layout ? Dims{batch, seq, nd, hidden} : Dims{seq, nd, batch, hidden};
  Dims yh = layout ? Dims{batch, nd, hidden} : Dims{nd, batch, hidden};
  if (ctx.has_output(0)) ctx.set_output(0, t, y);
  for (size_t i = 1; i < ctx.num_outputs(); ++i)
    if (ctx.has_output(i)) ctx.set_output(i, t, yh);
}

// floor(dim * scale) for each axis with a known dim and scale (Resize, Upsample).
void scale_dims(const InferContext& ctx, Dims& o, const std::vector<int64_t>& axes, const std::vector<double>& scales) {
  if (scales.size() != axes.size())
    ctx.fail("there are " + std::to_string(scales.size()) + " scales for " + std::to_string(axes.size()) + " axes");
  for (size_t i = 0; i < axes.size(); ++i) {
    Dim& d = o[static_cast<size_t>(axes[i])];
    if (!(scales[i] > 0) || scales[i] > 1e6) ctx.fail("scales must be positive");
    if (!d.value) continue;
    double v = std::floor(static_cast<double>(*d.value) * scales[i]);
    if (v > static_cast<double>(kMaxDimValue)) ctx.fail("the scaled dimension is too large");
    d = known_dim(static_cast<int64_t>(v));
  }
}
std::optional<std::vector<double>> float_input(const InferContext& ctx, size_t i) {
  const Tensor* t = ctx.input_value(i);
  if (!t) return std::nullopt;
  std::vector<double> v;
  for (int64_t k = 0; k < t->size(); ++k) v.push_back(t->as_double(k));
  return v;
}

}  // namespace sonnx::support
