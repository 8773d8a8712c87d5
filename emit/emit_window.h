// Windows over spatial axes for the C templates of Conv, ConvTranspose, MaxPool and AveragePool
// (emit/ops_conv.cpp, emit/ops_pool.cpp): the taps of every output position, computed at
// generation time exactly as support::TapTable (reference/ops/support/window.h) lists them, and
// grouped into position classes so that the generated loops have literal bounds only.
//
// Along one spatial axis, a class is an arithmetic run of output positions o = o0 + j·ostep
// (j < count) whose tap lists are the same up to a shift: tap t (t < taps, in the reference's
// order, kernel index ascending) meets kernel index k0 + t·kstep and input index
// i0 + j·ijstep + t·itstep. Every position of an axis is in exactly one class. An N-D window's
// position classes are the Cartesian products of its axes' classes; the taps of a position are
// the Cartesian product of its axes' taps with the last axis varying fastest (TapTable::taps).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "emit_util.h"
#include "reference/ops/support/window.h"

namespace sonnx::emit {

struct EmitWindowAxisClass {
  int64_t o0 = 0, count = 0, ostep = 1;  // the positions
  int64_t i0 = 0, ijstep = 0;            // the first tap's input index, and its step from one position to the next
  int64_t k0 = 0, kstep = 1, taps = 0;   // the kernel indices
  int64_t itstep = 0;                    // the input index's step from one tap to the next
  int64_t extra = 0;                     // a number the caller attached to every position (equal within a class)
};

// Per position of one axis: its (input index, kernel index) pairs in the reference's order.
using EmitWindowPairs = std::vector<std::vector<std::pair<int64_t, int64_t>>>;

// The classes of one axis from the pairs of every position: positions are walked by residue
// modulo `ostep`, and a run grows while the next position (o + ostep) has the same kernel indices,
// input indices shifted by `ijstep`, and the same `extra`. Empty when a tap list is not an
// arithmetic progression (never for Conv, ConvTranspose or the pools; the caller refuses).
inline bool emit_window_axis_classes(const EmitWindowPairs& pairs, const std::vector<int64_t>& extra, int64_t ostep,
                                     int64_t ijstep, std::vector<EmitWindowAxisClass>& out) {
  out.clear();
  const auto n = static_cast<int64_t>(pairs.size());
  auto same_shifted = [&](int64_t a, int64_t b, int64_t shift) {
    const auto& pa = pairs[static_cast<size_t>(a)];
    const auto& pb = pairs[static_cast<size_t>(b)];
    if (pa.size() != pb.size() || extra[static_cast<size_t>(a)] != extra[static_cast<size_t>(b)]) return false;
    for (size_t t = 0; t < pa.size(); ++t)
      if (pb[t].second != pa[t].second || pb[t].first != pa[t].first + shift) return false;
    return true;
  };
  for (int64_t r = 0; r < ostep && r < n; ++r) {
    int64_t o = r;
    while (o < n) {
      EmitWindowAxisClass c;
      c.o0 = o;
      c.ostep = ostep;
      c.ijstep = ijstep;
      c.count = 1;
      while (o + c.count * ostep < n && same_shifted(o, o + c.count * ostep, c.count * ijstep)) ++c.count;
      const auto& p = pairs[static_cast<size_t>(o)];
      c.taps = static_cast<int64_t>(p.size());
      c.extra = extra[static_cast<size_t>(o)];
      if (!p.empty()) {
        c.i0 = p[0].first;
        c.k0 = p[0].second;
      }
      if (p.size() >= 2) {
        c.kstep = p[1].second - p[0].second;
        c.itstep = p[1].first - p[0].first;
      }
      for (size_t t = 0; t < p.size(); ++t)
        if (p[t].second != c.k0 + static_cast<int64_t>(t) * c.kstep || p[t].first != c.i0 + static_cast<int64_t>(t) * c.itstep) {
          out.clear();
          return false;
        }
      out.push_back(c);
      o += c.count * ostep;
    }
  }
  return true;
}

// The classes of every axis of a direct window (Conv, the pools): the pairs of TapTable::forward,
// input index o·s − pad_begin + k·d for each kernel index k that lands inside the input. `extra`
// per axis and position, or empty for none.
inline bool emit_window_forward_classes(const support::WindowGeometry& g, const std::vector<std::vector<int64_t>>& extra,
                                        std::vector<std::vector<EmitWindowAxisClass>>& out) {
  out.assign(g.rank(), {});
  for (size_t d = 0; d < g.rank(); ++d) {
    EmitWindowPairs pairs(static_cast<size_t>(g.out[d]));
    for (int64_t o = 0; o < g.out[d]; ++o)
      for (int64_t k = 0; k < g.kernel[d]; ++k) {
        const int64_t i = o * g.strides[d] - g.pad_begin[d] + k * g.dilations[d];
        if (i >= 0 && i < g.in[d]) pairs[static_cast<size_t>(o)].push_back({i, k});
      }
    std::vector<int64_t> ex = extra.empty() ? std::vector<int64_t>(static_cast<size_t>(g.out[d]), 0) : extra[d];
    if (!emit_window_axis_classes(pairs, ex, 1, g.strides[d], out[d])) return false;
  }
  return true;
}

// The classes of every axis of a transposed window (ConvTranspose): the pairs of
// TapTable::transposed, input index i meeting kernel index k at output position o when
// o + pad_begin = i·s + k·d. Positions o and o + s see the same kernel indices, the input one further.
inline bool emit_window_transposed_classes(const std::vector<int64_t>& in, const std::vector<int64_t>& kernel,
                                           const std::vector<int64_t>& outlen, const std::vector<int64_t>& strides,
                                           const std::vector<int64_t>& dilations, const std::vector<int64_t>& pad_begin,
                                           std::vector<std::vector<EmitWindowAxisClass>>& out) {
  out.assign(in.size(), {});
  for (size_t d = 0; d < in.size(); ++d) {
    EmitWindowPairs pairs(static_cast<size_t>(outlen[d]));
    for (int64_t o = 0; o < outlen[d]; ++o)
      for (int64_t k = 0; k < kernel[d]; ++k) {
        const int64_t pos = o + pad_begin[d] - k * dilations[d];
        if (pos < 0 || pos % strides[d] != 0) continue;
        const int64_t i = pos / strides[d];
        if (i < in[d]) pairs[static_cast<size_t>(o)].push_back({i, k});
      }
    if (!emit_window_axis_classes(pairs, std::vector<int64_t>(static_cast<size_t>(outlen[d]), 0), strides[d], 1, out[d]))
      return false;
  }
  return true;
}

// The number of N-D position classes (the product of the axes' class counts), saturating at `cap`.
inline int64_t emit_window_combo_count(const std::vector<std::vector<EmitWindowAxisClass>>& axes, int64_t cap) {
  int64_t n = 1;
  for (const auto& a : axes) {
    n *= static_cast<int64_t>(a.size());
    if (n > cap) return cap + 1;
  }
  return n;
}

// Every N-D position class, axis 0's class varying slowest.
inline std::vector<std::vector<EmitWindowAxisClass>> emit_window_combos(
    const std::vector<std::vector<EmitWindowAxisClass>>& axes) {
  std::vector<std::vector<EmitWindowAxisClass>> combos(1);
  for (const auto& a : axes) {
    std::vector<std::vector<EmitWindowAxisClass>> next;
    for (const auto& prefix : combos)
      for (const auto& c : a) {
        next.push_back(prefix);
        next.back().push_back(c);
      }
    combos = std::move(next);
  }
  return combos;
}

// The most N-D position classes a node may have before its template refuses (code size).
inline constexpr int64_t kEmitWindowMaxCombos = 1024;

// An affine index expression c + Σ coef·var over loop variables, as C text.
struct EmitAffine {
  int64_t constant = 0;
  std::map<std::string, int64_t> terms;  // by variable; "0" (an index that has no loop) never appears
  EmitAffine& add(const std::string& var, int64_t coef) {
    if (var == "0" || coef == 0) return *this;
    terms[var] += coef;
    return *this;
  }
  EmitAffine& add(int64_t c) {
    constant += c;
    return *this;
  }
  EmitAffine& add(const EmitAffine& other) {
    constant += other.constant;
    for (const auto& [v, c] : other.terms) add(v, c);
    return *this;
  }
  EmitAffine scaled(int64_t f) const {
    EmitAffine r;
    r.constant = constant * f;
    for (const auto& [v, c] : terms) r.add(v, c * f);
    return r;
  }
  std::string str() const {
    std::string s;
    for (const auto& [v, c] : terms) {
      if (c == 0) continue;
      if (!s.empty()) s += c < 0 ? " - " : " + ";
      else if (c < 0) s += "-";
      const int64_t m = c < 0 ? -c : c;
      s += m == 1 ? v : v + " * " + std::to_string(m);
    }
    if (constant != 0 || s.empty()) {
      if (s.empty()) s = constant < 0 ? "(" + std::to_string(constant) + ")" : std::to_string(constant);
      else s += (constant < 0 ? " - " : " + ") + std::to_string(constant < 0 ? -constant : constant);
    }
    return s;
  }
};

// Opens a loop "for (int64_t VAR = 0; VAR < n; ++VAR) {" when n > 1 and returns VAR, else "0".
inline std::string emit_window_loop(NodeEmitter& e, const std::string& var, int64_t n, int& opened) {
  if (n == 1) return "0";
  e.line(for_loop(var, n));
  ++opened;
  return var;
}

inline void emit_window_close(NodeEmitter& e, int& opened) {
  for (; opened > 0; --opened) e.line("}");
}

// The loops over the positions of one N-D class: variables "wj<d>". Adds to `out_off` the
// position's offset in its output plane (strides out_strides) and to `in_off` the offset of its
// first tap in the input plane (strides in_strides).
inline void emit_window_open_positions(NodeEmitter& e, const std::vector<EmitWindowAxisClass>& combo,
                                       const std::vector<int64_t>& out_strides, const std::vector<int64_t>& in_strides,
                                       EmitAffine& out_off, EmitAffine& in_off, int& opened) {
  for (size_t d = 0; d < combo.size(); ++d) {
    const EmitWindowAxisClass& c = combo[d];
    const std::string j = emit_window_loop(e, "wj" + std::to_string(d), c.count, opened);
    out_off.add(c.o0 * out_strides[d]).add(j, c.ostep * out_strides[d]);
    in_off.add(c.i0 * in_strides[d]).add(j, c.ijstep * in_strides[d]);
  }
}

// The loops over the taps of one N-D class: variables "wt<d>", the last axis innermost. Adds to
// `in_off` the tap's input offset beyond the first tap's and to `k_off` its kernel offset
// (strides k_strides). The class must have taps on every axis.
inline void emit_window_open_taps(NodeEmitter& e, const std::vector<EmitWindowAxisClass>& combo,
                                  const std::vector<int64_t>& in_strides, const std::vector<int64_t>& k_strides,
                                  EmitAffine& in_off, EmitAffine& k_off, int& opened) {
  for (size_t d = 0; d < combo.size(); ++d) {
    const EmitWindowAxisClass& c = combo[d];
    const std::string t = emit_window_loop(e, "wt" + std::to_string(d), c.taps, opened);
    in_off.add(t, c.itstep * in_strides[d]);
    k_off.add(c.k0 * k_strides[d]).add(t, c.kstep * k_strides[d]);
  }
}

// Whether every axis of the class has at least one tap.
inline bool emit_window_has_taps(const std::vector<EmitWindowAxisClass>& combo) {
  for (const EmitWindowAxisClass& c : combo)
    if (c.taps == 0) return false;
  return true;
}

// The number of taps of a position of the class.
inline int64_t emit_window_tap_count(const std::vector<EmitWindowAxisClass>& combo) {
  int64_t n = 1;
  for (const EmitWindowAxisClass& c : combo) n *= c.taps;
  return n;
}

}  // namespace sonnx::emit
