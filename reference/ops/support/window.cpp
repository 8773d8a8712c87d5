#include "window.h"

#include <limits>

namespace sonnx::support {

std::optional<AutoPad> parse_auto_pad(const std::string& s) {
  if (s == "NOTSET" || s.empty()) return AutoPad::NotSet;
  if (s == "SAME_UPPER") return AutoPad::SameUpper;
  if (s == "SAME_LOWER") return AutoPad::SameLower;
  if (s == "VALID") return AutoPad::Valid;
  return std::nullopt;
}

std::string window_output(WindowGeometry& g, AutoPad ap, bool ceil_mode) {
  size_t r = g.in.size();
  g.out.assign(r, 0);
  if (ap != AutoPad::NotSet) {
    g.pad_begin.assign(r, 0);
    g.pad_end.assign(r, 0);
  }
  for (size_t i = 0; i < r; ++i) {
    if (g.kernel[i] < 1) return "kernel size " + std::to_string(g.kernel[i]) + " must be positive";
    if (g.kernel[i] > kMaxWindowValue) return "kernel size " + std::to_string(g.kernel[i]) + " is unreasonably large";
    int64_t extent = (g.kernel[i] - 1) * g.dilations[i] + 1;  // the dilated kernel's span
    int64_t in = g.in[i];
    int64_t s = g.strides[i];
    switch (ap) {
      case AutoPad::NotSet: {
        int64_t span = in + g.pad_begin[i] + g.pad_end[i] - extent;
        if (span < 0)
          return "the window (extent " + std::to_string(extent) + ") does not fit the padded input of size " +
                 std::to_string(in + g.pad_begin[i] + g.pad_end[i]) + " on spatial axis " + std::to_string(i);
        int64_t out = (ceil_mode ? ceil_div(span, s) : floor_div(span, s)) + 1;
        if (ceil_mode && (out - 1) * s >= in + g.pad_begin[i]) --out;
        g.out[i] = out;
        break;
      }
      case AutoPad::Valid: {
        int64_t span = in - extent;
        if (span < 0)
          return "the window (extent " + std::to_string(extent) + ") does not fit the input of size " + std::to_string(in) +
                 " on spatial axis " + std::to_string(i);
        g.out[i] = span / s + 1;  // = ceil((in - extent + 1) / s)
        break;
      }
      case AutoPad::SameUpper:
      case AutoPad::SameLower: {
        int64_t out = ceil_div(in, s);
        int64_t total = std::max<int64_t>(0, (out - 1) * s + extent - in);
        int64_t small = total / 2;
        g.pad_begin[i] = ap == AutoPad::SameUpper ? small : total - small;
        g.pad_end[i] = total - g.pad_begin[i];
        g.out[i] = out;
        break;
      }
    }
  }
  return {};
}

std::string window_without_input(const WindowGeometry& g, size_t axis) {
  int64_t s = g.strides[axis], d = g.dilations[axis], pb = g.pad_begin[axis], in = g.in[axis];
  for (int64_t o = 0; o < g.out[axis]; ++o) {
    bool meets = false;
    for (int64_t u = 0; u < g.kernel[axis] && !meets; ++u) {
      int64_t i = o * s - pb + u * d;
      meets = i >= 0 && i < in;
    }
    if (!meets)
      return "the window of output position " + std::to_string(o) + " (input positions " + std::to_string(o * s - pb) + " to " +
             std::to_string(o * s - pb + (g.kernel[axis] - 1) * d) + " in steps of " + std::to_string(d) +
             ") has no element of the input of size " + std::to_string(in) + ": it lies in the padding";
  }
  return {};
}

std::string any_window_without_input(const WindowGeometry& g) {
  for (size_t d = 0; d < g.rank(); ++d)
    if (std::string why = window_without_input(g, d); !why.empty()) return "spatial axis " + std::to_string(d) + ": " + why;
  return {};
}

AutoPad auto_pad_of(const AttrReader& ctx) {
  std::string s = ctx.attr_string("auto_pad", "NOTSET");
  std::optional<AutoPad> ap = parse_auto_pad(s);
  if (!ap) ctx.fail("auto_pad '" + s + "' is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID");
  return *ap;
}

std::vector<int64_t> per_axis_attr(const AttrReader& ctx, const std::string& name, size_t rank, int64_t def, int64_t min_value) {
  std::vector<int64_t> v = ctx.attr_ints(name);
  if (v.empty()) v.assign(rank, def);  // an empty list means "absent"
  if (v.size() != rank)
    ctx.fail("attribute '" + name + "' has " + std::to_string(v.size()) + " values, expected " + std::to_string(rank));
  for (auto x : v) {
    if (x < min_value)
      ctx.fail("attribute '" + name + "' has value " + std::to_string(x) + " below " + std::to_string(min_value));
    if (x > kMaxWindowValue) ctx.fail("attribute '" + name + "' has an unreasonably large value " + std::to_string(x));
  }
  return v;
}

void pads_attr(const AttrReader& ctx, size_t rank, std::vector<int64_t>& begin, std::vector<int64_t>& end) {
  std::vector<int64_t> p = ctx.attr_ints("pads");
  if (p.empty()) p.assign(2 * rank, 0);
  if (p.size() != 2 * rank)
    ctx.fail("attribute 'pads' has " + std::to_string(p.size()) + " values, expected " + std::to_string(2 * rank));
  for (auto x : p) {
    if (x < 0) ctx.fail("attribute 'pads' has a negative value " + std::to_string(x));
    if (x > kMaxWindowValue) ctx.fail("attribute 'pads' has an unreasonably large value " + std::to_string(x));
  }
  begin.assign(p.begin(), p.begin() + static_cast<std::ptrdiff_t>(rank));
  end.assign(p.begin() + static_cast<std::ptrdiff_t>(rank), p.end());
}

WindowAttrs window_attrs(const AttrReader& ctx, size_t rank) {
  WindowAttrs a;
  a.strides = per_axis_attr(ctx, "strides", rank, 1, 1);
  a.dilations = per_axis_attr(ctx, "dilations", rank, 1, 1);
  a.auto_pad = auto_pad_of(ctx);
  if (a.auto_pad == AutoPad::NotSet) pads_attr(ctx, rank, a.pad_begin, a.pad_end);
  return a;
}

WindowGeometry WindowAttrs::over(const std::vector<int64_t>& in, const std::vector<int64_t>& kernel, std::string& why) const {
  WindowGeometry g;
  g.in = in;
  g.kernel = kernel;
  g.strides = strides;
  g.dilations = dilations;
  g.pad_begin = pad_begin;
  g.pad_end = pad_end;
  why = window_output(g, auto_pad, ceil_mode);
  return g;
}

WindowGeometry window_geometry(const OpContext& ctx, const Shape& in_spatial, const std::vector<int64_t>& kernel,
                               const WindowAttrs& attrs) {
  std::string why;
  WindowGeometry g = attrs.over(in_spatial, kernel, why);
  if (!why.empty()) ctx.fail(why);
  return g;
}

TransposedAttrs transposed_attrs(const AttrReader& ctx, size_t rank) {
  TransposedAttrs a;
  a.strides = per_axis_attr(ctx, "strides", rank, 1, 1);
  a.dilations = per_axis_attr(ctx, "dilations", rank, 1, 1);
  a.output_padding = per_axis_attr(ctx, "output_padding", rank, 0, 0);
  a.auto_pad = auto_pad_of(ctx);
  a.output_shape = ctx.attr_ints("output_shape");
  if (a.output_shape.size() == rank + 2) a.output_shape.erase(a.output_shape.begin(), a.output_shape.begin() + 2);
  if (!a.output_shape.empty() && a.output_shape.size() != rank)
    ctx.fail("output_shape has " + std::to_string(a.output_shape.size()) + " values, expected " + std::to_string(rank));
  for (int64_t t : a.output_shape)
    if (t < 0) ctx.fail("output_shape has a negative length");
  if (a.output_shape.empty() && a.auto_pad == AutoPad::NotSet) pads_attr(ctx, rank, a.pad_begin, a.pad_end);
  return a;
}

std::string TransposedAttrs::axis(size_t i, int64_t in, int64_t k, int64_t version, int64_t& out, int64_t& pad) const {
  // In 128 bits, then bounded so that every length and pad below (and their sums) fits in int64:
  // a shape rule may ask about lengths up to 2^40 with strides up to 2^24.
  constexpr __int128 kMax = std::numeric_limits<int64_t>::max() / 4;
  __int128 full = static_cast<__int128>(strides[i]) * (in - 1) + output_padding[i] +
                  static_cast<__int128>(k - 1) * dilations[i] + 1;
  bool fixed = !output_shape.empty() || auto_pad == AutoPad::SameUpper || auto_pad == AutoPad::SameLower;
  __int128 want = !output_shape.empty() ? output_shape[i] : static_cast<__int128>(in) * strides[i];
  if (full > kMax || (fixed && want > kMax)) return "the output of spatial axis " + std::to_string(i) + " is absurdly long";
  int64_t f = static_cast<int64_t>(full);
  if (fixed) {
    int64_t w = static_cast<int64_t>(want);
    int64_t total = std::max<int64_t>(0, f - w);
    bool extra_at_begin = version >= 11 ? auto_pad != AutoPad::SameUpper : auto_pad == AutoPad::SameLower;
    pad = extra_at_begin ? total - total / 2 : total / 2;
    out = w;
  } else if (auto_pad == AutoPad::Valid) {
    pad = 0;
    out = f;
  } else {
    pad = pad_begin[i];
    out = f - pad_begin[i] - pad_end[i];
    if (out < 0) return "pads are larger than the output on spatial axis " + std::to_string(i);
  }
  return "";
}

TransposedGeometry transposed_geometry(const OpContext& ctx, const TransposedAttrs& a, const std::vector<int64_t>& in,
                                       const std::vector<int64_t>& kernel) {
  size_t r = in.size();
  TransposedGeometry t{std::vector<int64_t>(r), std::vector<int64_t>(r, 0)};
  for (size_t i = 0; i < r; ++i)
    if (std::string why = a.axis(i, in[i], kernel[i], ctx.version(), t.out[i], t.pad_begin[i]); !why.empty()) ctx.fail(why);
  return t;
}

}  // namespace sonnx::support
