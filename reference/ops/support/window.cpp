#include "window.h"

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
          return "the window (extent " + std::to_string(extent) + ") does not fit the input of size " +
                 std::to_string(in) + " on spatial axis " + std::to_string(i);
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

TransposedGeometry transposed_geometry(const OpContext& ctx, const std::vector<int64_t>& in, const std::vector<int64_t>& kernel,
                                       const std::vector<int64_t>& strides, const std::vector<int64_t>& dilations) {
  size_t r = in.size();
  std::vector<int64_t> out_pad = per_axis_attr(ctx, "output_padding", r, 0, 0);
  AutoPad ap = auto_pad_of(ctx);
  std::vector<int64_t> full(r);
  for (size_t i = 0; i < r; ++i) full[i] = strides[i] * (in[i] - 1) + out_pad[i] + (kernel[i] - 1) * dilations[i] + 1;
  std::vector<int64_t> target;  // a requested output length per axis, if any
  if (ctx.has_attr("output_shape") && !ctx.attr_ints("output_shape").empty()) {
    target = ctx.attr_ints("output_shape");
    // The spatial lengths only, or a full shape whose trailing entries are the spatial ones.
    if (target.size() == r + 2) target.erase(target.begin(), target.begin() + 2);
    if (target.size() != r) ctx.fail("output_shape has " + std::to_string(target.size()) + " values, expected " + std::to_string(r));
  } else if (ap == AutoPad::SameUpper || ap == AutoPad::SameLower) {
    for (size_t i = 0; i < r; ++i) target.push_back(in[i] * strides[i]);
  }
  TransposedGeometry t{std::vector<int64_t>(r), std::vector<int64_t>(r, 0)};
  if (!target.empty()) {
    bool extra_at_begin = ctx.version() >= 11 ? ap != AutoPad::SameUpper : ap == AutoPad::SameLower;
    for (size_t i = 0; i < r; ++i) {
      if (target[i] < 0) ctx.fail("output_shape has a negative length");
      int64_t total = std::max<int64_t>(0, full[i] - target[i]);
      t.pad_begin[i] = extra_at_begin ? total - total / 2 : total / 2;
      t.out[i] = target[i];
    }
  } else if (ap == AutoPad::Valid) {
    t.out = full;
  } else {
    std::vector<int64_t> pad_end;
    pads_attr(ctx, r, t.pad_begin, pad_end);
    for (size_t i = 0; i < r; ++i) {
      t.out[i] = full[i] - t.pad_begin[i] - pad_end[i];
      if (t.out[i] < 0) ctx.fail("pads are larger than the output on spatial axis " + std::to_string(i));
    }
  }
  return t;
}

}  // namespace sonnx::support
