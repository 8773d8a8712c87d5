// The fast-mode C template of Conv-22, called by emit/ops_conv.cpp where it chooses the fast form
// of a Conv node. It computes the sum reference/ops/Conv.cpp computes (support::conv_loop), not
// on the reference's bits but in the admissible enclosure (spec/accuracy.md): float and double,
// any number of spatial axes, groups, strides, dilations and pads (every auto_pad, resolved by
// the caller through support::window_attrs(...).over(...), the reference's own geometry).
//
// The convolution is a matrix product per image n and group g: Y[m, o] = B[m] + Σ_k W[m, k] · P[k, o]
// with k = (c, tap) over the group's Cg·taps columns of W (W's own row-major layout) and P the
// patch matrix, P[(c, tap), o] = X[n, g·Cg + c, o·s − pad + tap·d], 0 where that lies in the padding.
//   - Output positions are taken in blocks of consecutive positions (lanes): R whole rows of the
//     last spatial axis, or segments of S lanes (a multiple of the vector) of each row, so a block's
//     outputs are contiguous in Y; R or S is the cheapest by a cost per element of W: the vector
//     tiles of the product, the loads and stores of Y each chunk adds, and one reading of W per
//     block, dear when W is too large for the cache (above 1 MiB).
//   - For each block and each chunk of cc input channels (the largest divisor of Cg whose rows fit),
//     the block's rows of P are copied into a local array `patch` of at most 4096 bytes: per tap of
//     the last axis a run of lanes read from X (strided for stride > 1) between literal bounds and
//     zeros where the tap falls in the padding; a row whose outer axes fall in the padding (a
//     run-time test per row, channel and outer tap) is all zeros. A pointwise convolution (kernel
//     1, stride 1, no pads) reads X itself: no patch, one chunk.
//   - The product is register-tiled: a tile of 8 output channels × one 64-byte vector of lanes (16
//     floats, 8 doubles) accumulates in a local `acc` array over the chunk's columns of W, the
//     innermost loop over the contiguous lanes; gcc keeps it in vector registers (the patch is read
//     through a restrict pointer so that it may, and the channels are split between two lane loops:
//     gcc unrolls and jams a loop around a single inner loop, which halves the speed here). The
//     last tile of a block whose lanes are not a multiple of the vector is shifted back to end with
//     the block and stores only its own lanes; a block of fewer lanes than a vector reads a patch
//     padded with zeros.
//   - Accumulation is in the element type, B[m] (or 0) first, then c ascending and the taps in W's
//     order: the tile starts from B when one chunk covers the group, else from Y, which the block
//     set to B before its first chunk.
//   - Depthwise (one input channel and fewer than 4 output channels per group, where the patch
//     would cost as much as the product), output rows of two vectors or more: per image, group and
//     output row the input rows the row's outer taps meet are copied into a local array `buf` (at
//     most 4096 bytes) with the last axis' padding as zeros, and each output channel accumulates a
//     vector of lanes at a time over the taps, from B[m] (or 0).
//
// Not handled (emit_conv_fast_gemm returns false having written nothing, and ops_conv.cpp writes
// its general fast form): element types other than float and double; a kernel of more taps than
// 4096 bytes hold for one vector of lanes (more than 64 taps); fewer than 4 output channels per
// group with more than one input channel, unless pointwise; depthwise output rows wider than `buf`
// holds, or shorter than two vectors (32 floats) unless the plane form below takes them (two
// spatial axes, stride 1, a padded plane of at most 4096 bytes, at most 64 taps): the general form
// is faster there.
#include "ops_conv_fast.h"

#include <algorithm>
#include <string>
#include <vector>

#include "emit_window.h"

namespace sonnx::emit {

// What one node's fast Conv is made of.
struct EmitConvFastPlan {
  std::string t;  // the C element type
  DType type = DType::Float;
  int64_t vl = 16;  // elements of a 64-byte vector register
  int64_t mr = 8;   // output channels of a register tile
  int64_t N = 1, C = 1, M = 1, group = 1, Cg = 1, Mg = 1;
  int64_t kp = 1, K = 1;      // taps of the kernel; W's row length Cg·kp
  int64_t pin = 1, pout = 1;  // elements of an input and an output plane
  bool bias = false;
  bool direct = false;                 // pointwise: the product reads X itself
  int64_t cc = 1, kc = 1, chunks = 1;  // input channels per chunk, columns of W per chunk (cc·kp), chunks per group
  std::vector<int64_t> in_strides, k_strides;
};

// The lanes [lo, hi) of a segment of the last axis at which one tap of that axis reads the input
// (the others fall in the padding); lo == hi == 0 when none does.
struct EmitConvFastClip {
  int64_t lo = 0, hi = 0;
  bool operator==(const EmitConvFastClip& o) const { return lo == o.lo && hi == o.hi; }
};

static std::vector<EmitConvFastClip> emit_convfast_clips(const support::WindowGeometry& geo, int64_t s0, int64_t len) {
  const size_t a = geo.rank() - 1;
  std::vector<EmitConvFastClip> clips(static_cast<size_t>(geo.kernel[a]));
  for (int64_t kw = 0; kw < geo.kernel[a]; ++kw) {
    EmitConvFastClip c{len, 0};
    for (int64_t j = 0; j < len; ++j) {
      const int64_t i = (s0 + j) * geo.strides[a] - geo.pad_begin[a] + kw * geo.dilations[a];
      if (i >= 0 && i < geo.in[a]) {
        c.lo = std::min(c.lo, j);
        c.hi = std::max(c.hi, j + 1);
      }
    }
    if (c.hi <= c.lo) c = EmitConvFastClip{};
    clips[static_cast<size_t>(kw)] = c;
  }
  return clips;
}

// An affine index as C text with each product parenthesised (MISRA C 2012 rule 12.1):
// "j + (k * 49) + 3".
static std::string emit_convfast_ix(const EmitAffine& a) {
  std::string s;
  for (const auto& [v, c] : a.terms) {
    if (c == 0) continue;
    const int64_t m = c < 0 ? -c : c;
    const std::string term = m == 1 ? v : "(" + v + " * " + std::to_string(m) + ")";
    s += s.empty() ? (c < 0 ? "-" + term : term) : (c < 0 ? " - " : " + ") + term;
  }
  if (s.empty()) return a.constant < 0 ? "(" + std::to_string(a.constant) + ")" : std::to_string(a.constant);
  if (a.constant != 0) s += (a.constant < 0 ? " - " : " + ") + std::to_string(a.constant < 0 ? -a.constant : a.constant);
  return s;
}

// Whether an affine index has no variable.
static bool emit_convfast_constant(const EmitAffine& a) {
  for (const auto& [v, c] : a.terms)
    if (c != 0) return false;
  return true;
}

// Which lanes of a register tile are read from Y (or B) first and which are stored: a tile of
// whole lanes reads and stores them all; the last tile of a block whose lanes are not a multiple of
// the vector is shifted back to end with the block (it overlaps the one before, whose lanes it reads
// from Y as they are, and it stores only its own); a block of fewer lanes than a vector reads a
// patch padded with zeros, and reads and stores its own lanes only.
struct EmitConvFastLanes {
  int64_t width = 0;                  // lanes computed
  int64_t read = 0;                   // lanes 0 .. read − 1 start from Y (or B), the others from 0
  int64_t store_from = 0, store = 0;  // lanes stored
};

// One register tile: output channels m0 .. m0 + mrx − 1 of the group (m0 an affine of loop
// variables) times lanes lane0 .. lane0 + width − 1 of the block, over the chunk's kc columns of W.
// `ybase`: Y's offset of the block's first lane in the group's first output channel; `wbase`: W's
// offset of the group's first row at the chunk's first column; `bbase`: B's index of the group's
// first output channel; `ks`: the distance between two rows of pp. The channels' products are
// split between two lane loops (when there are two channels or more): gcc unrolls and jams a
// reduction loop around a single inner loop, which leaves it twice as slow here.
static void emit_convfast_tile(NodeEmitter& e, const EmitConvFastPlan& p, int64_t mrx, const EmitConvFastLanes& ln,
                               const EmitAffine& m0, const EmitAffine& lane0, const EmitAffine& ybase, const EmitAffine& wbase,
                               const EmitAffine& bbase, int64_t ks, bool from_bias) {
  const std::string zero = c_literal(p.type, 0.0);
  const int64_t nrx = ln.width;
  auto acc = [&](const std::string& j, int64_t from, int64_t q) {
    return "acc[" + emit_convfast_ix(EmitAffine().add(j, 1).add(from + q * nrx)) + "]";
  };
  auto y = [&](const std::string& j, int64_t from, int64_t q) {
    return "y0[" + emit_convfast_ix(EmitAffine(ybase).add(m0.scaled(p.pout)).add(q * p.pout).add(lane0).add(from).add(j, 1)) +
           "]";
  };
  e.line("{");
  e.line(p.t + " acc[" + std::to_string(mrx * nrx) + "];");
  if (ln.read > 0) {
    int open = 0;
    const std::string j = emit_window_loop(e, "j", ln.read, open);
    for (int64_t q = 0; q < mrx; ++q) {
      std::string init = zero;
      if (!from_bias) init = y(j, 0, q);
      else if (p.bias) init = "x2[" + emit_convfast_ix(EmitAffine(bbase).add(m0).add(q)) + "]";
      e.line(acc(j, 0, q) + " = " + init + ";");
    }
    emit_window_close(e, open);
  }
  if (ln.read < nrx) {
    int open = 0;
    const std::string j = emit_window_loop(e, "j", nrx - ln.read, open);
    for (int64_t q = 0; q < mrx; ++q) e.line(acc(j, ln.read, q) + " = " + zero + ";");
    emit_window_close(e, open);
  }
  {
    int open = 0;
    const std::string k = emit_window_loop(e, "k", p.kc, open);
    for (int64_t q = 0; q < mrx; ++q)
      e.line("const " + p.t + " w" + std::to_string(q) + " = x1[" +
             emit_convfast_ix(EmitAffine(wbase).add(m0.scaled(p.K)).add(q * p.K).add(k, 1)) + "];");
    const int64_t half = mrx >= 2 ? (mrx + 1) / 2 : mrx;
    for (int64_t q0 = 0; q0 < mrx; q0 += half) {
      int jopen = 0;
      const std::string j = emit_window_loop(e, "j", nrx, jopen);
      if (jopen == 0) e.line("{");
      e.line("const " + p.t + " xv = pp[" + emit_convfast_ix(EmitAffine().add(k, ks).add(lane0).add(j, 1)) + "];");
      for (int64_t q = q0; q < std::min(mrx, q0 + half); ++q) e.line(acc(j, 0, q) + " += w" + std::to_string(q) + " * xv;");
      if (jopen == 0) e.line("}");
      emit_window_close(e, jopen);
    }
    emit_window_close(e, open);
  }
  {
    int open = 0;
    const std::string j = emit_window_loop(e, "j", ln.store, open);
    for (int64_t q = 0; q < mrx; ++q) e.line(y(j, ln.store_from, q) + " = " + acc(j, ln.store_from, q) + ";");
    emit_window_close(e, open);
  }
  e.line("}");
}

// The product of one block and chunk: every output channel of the group in tiles of mr (and a
// smaller last one), the block's lanes in tiles of one vector (see EmitConvFastLanes).
// `back`: the lanes just before the block are output positions whose values a tile shifted back
// may compute again (the product reads X itself and starts from B); `padded`: pp's rows hold a
// whole vector of lanes, zeros beyond the block's.
static void emit_convfast_product(NodeEmitter& e, const EmitConvFastPlan& p, int64_t lanes, const EmitAffine& ybase,
                                  const EmitAffine& wbase, const EmitAffine& bbase, int64_t ks, bool from_bias, bool back,
                                  bool padded) {
  const int64_t nmb = p.Mg / p.mr, mt = p.Mg % p.mr, nt = lanes / p.vl, tt = lanes % p.vl;
  auto tiles = [&](int64_t mrx, const EmitAffine& m0) {
    if (nt > 0) {
      int open = 0;
      const std::string t = emit_window_loop(e, "t", nt, open);
      emit_convfast_tile(e, p, mrx, EmitConvFastLanes{p.vl, p.vl, 0, p.vl}, m0, EmitAffine().add(t, p.vl), ybase, wbase, bbase,
                         ks, from_bias);
      emit_window_close(e, open);
    }
    if (tt == 0) return;
    if (nt > 0 || back)  // shifted back over the lanes before
      emit_convfast_tile(e, p, mrx, EmitConvFastLanes{p.vl, p.vl, p.vl - tt, tt}, m0, EmitAffine().add(lanes - p.vl), ybase,
                         wbase, bbase, ks, from_bias);
    else if (padded)
      emit_convfast_tile(e, p, mrx, EmitConvFastLanes{p.vl, tt, 0, tt}, m0, EmitAffine(), ybase, wbase, bbase, ks, from_bias);
    else  // a plane of fewer lanes than a vector, read in place
      emit_convfast_tile(e, p, mrx, EmitConvFastLanes{tt, tt, 0, tt}, m0, EmitAffine(), ybase, wbase, bbase, ks, from_bias);
  };
  if (nmb > 0) {
    int open = 0;
    const std::string mb = emit_window_loop(e, "mb", nmb, open);
    tiles(p.mr, EmitAffine().add(mb, p.mr));
    emit_window_close(e, open);
  }
  if (mt > 0) tiles(mt, EmitAffine().add(nmb * p.mr));
}

// The output index along each outer spatial axis (all but the last) of the flat outer index
// orow, as affines (a variable o<d> declared where it takes a division).
static std::vector<EmitAffine> emit_convfast_outer_out(NodeEmitter& e, const support::WindowGeometry& geo,
                                                       const EmitAffine& orow) {
  const size_t a = geo.rank() - 1;
  std::vector<EmitAffine> o(a);
  for (size_t d = 0; d < a; ++d) {
    int64_t below = 1;
    for (size_t d2 = d + 1; d2 < a; ++d2) below *= geo.out[d2];
    if (a == 1) {
      o[d] = orow;
    } else if (emit_convfast_constant(orow)) {
      o[d].add(orow.constant / below % geo.out[d]);
    } else {
      std::string ex = "(" + emit_convfast_ix(orow) + ")";
      if (below > 1) ex = "(" + ex + " / " + std::to_string(below) + ")";
      if (d > 0) ex += " % " + std::to_string(geo.out[d]);
      e.line("const int64_t o" + std::to_string(d) + " = " + ex + ";");
      o[d].add("o" + std::to_string(d), 1);
    }
  }
  return o;
}

// The input index along each outer axis for output indices o and kernel indices kt (variables or
// "0"), into iv (a variable i<d> declared where it needs a test), and the tests that it lies in
// the input, into conds. Returns true, declaring nothing, when a constant index lies in the padding.
static bool emit_convfast_outer_in(NodeEmitter& e, const support::WindowGeometry& geo, const std::vector<EmitAffine>& o,
                                   const std::vector<std::string>& kt, std::vector<EmitAffine>& iv,
                                   std::vector<std::string>& conds) {
  const size_t a = geo.rank() - 1;
  iv.assign(a, EmitAffine());
  std::vector<EmitAffine> is(a);
  for (size_t d = 0; d < a; ++d) {
    is[d] = EmitAffine(o[d].scaled(geo.strides[d])).add(kt[d], geo.dilations[d]).add(-geo.pad_begin[d]);
    if (emit_convfast_constant(is[d]) && (is[d].constant < 0 || is[d].constant >= geo.in[d])) return true;
  }
  for (size_t d = 0; d < a; ++d) {
    const EmitAffine& i = is[d];
    const int64_t least = -geo.pad_begin[d];
    const int64_t most = (geo.out[d] - 1) * geo.strides[d] + (geo.kernel[d] - 1) * geo.dilations[d] - geo.pad_begin[d];
    const bool below = least < 0, above = most >= geo.in[d];
    if ((!below && !above) || emit_convfast_constant(i)) {
      iv[d] = i;
    } else {
      const std::string name = "i" + std::to_string(d);
      e.line("const int64_t " + name + " = " + emit_convfast_ix(i) + ";");
      iv[d].add(name, 1);
      if (below) conds.push_back("(" + name + " >= 0)");
      if (above) conds.push_back("(" + name + " < " + std::to_string(geo.in[d]) + ")");
    }
  }
  return false;
}

// "if (a && b) {" for the tests, or "" when there are none.
static std::string emit_convfast_if(const std::vector<std::string>& conds) {
  std::string all;
  for (const std::string& t : conds) all += (all.empty() ? "" : " && ") + t;
  return all.empty() ? "" : "if (" + all + ") {";
}

// The patch of one block and chunk: `rows` rows of the last axis from flat outer index orow0 (all
// of each row: len == out.back()), or one row's segment of len lanes from s0; row rr, channel c of
// the chunk, tap (outer taps, kw) is patch[((c·taps + tap) · ks) + rr·len + j], ks ≥ rows·len the
// distance between two rows of the patch (the lanes beyond rows·len are zeros).
static void emit_convfast_build(NodeEmitter& e, const EmitConvFastPlan& p, const support::WindowGeometry& geo,
                                const std::string& n, const std::string& g, const std::string& cb, const EmitAffine& orow0,
                                int64_t rows, const EmitAffine& s0, int64_t len, const std::vector<EmitConvFastClip>& clips,
                                int64_t ks) {
  const size_t r = geo.rank(), a = r - 1;
  const int64_t lanes = ks;  // the patch's row length
  const int64_t kwn = geo.kernel[a], sl = geo.strides[a], dl = geo.dilations[a], pl = geo.pad_begin[a];
  const std::string zero = c_literal(p.type, 0.0);
  int open = 0;
  const std::string rr = emit_window_loop(e, "rr", rows, open);
  const EmitAffine orow = EmitAffine(orow0).add(rr, 1);
  const std::vector<EmitAffine> o = emit_convfast_outer_out(e, geo, orow);
  const std::string c = emit_window_loop(e, "c", p.cc, open);
  std::vector<std::string> kt(a);
  for (size_t d = 0; d < a; ++d) kt[d] = emit_window_loop(e, "kt" + std::to_string(d), geo.kernel[d], open);
  std::vector<std::string> conds;
  std::vector<EmitAffine> iv;
  const bool outside = emit_convfast_outer_in(e, geo, o, kt, iv, conds);
  EmitAffine prow;  // the patch offset of (rr, c, outer taps, kw = 0)
  prow.add(c, p.kp * lanes).add(rr, len);
  for (size_t d = 0; d < a; ++d) prow.add(kt[d], p.k_strides[d] * lanes);
  EmitAffine xrow;  // X's offset of the row the outer indices name
  xrow.add(n, p.C * p.pin).add(g, p.Cg * p.pin).add(cb, p.cc * p.pin).add(c, p.pin);
  for (size_t d = 0; d < a; ++d) xrow.add(iv[d].scaled(p.in_strides[d]));
  auto zeros = [&]() {
    int zopen = 0;
    if (len == lanes) {  // the taps' rows one after the other
      const std::string j = emit_window_loop(e, "j", kwn * len, zopen);
      e.line("patch[" + emit_convfast_ix(EmitAffine(prow).add(j, 1)) + "] = " + zero + ";");
    } else {
      const std::string kw = emit_window_loop(e, "kw", kwn, zopen);
      const std::string j = emit_window_loop(e, "j", len, zopen);
      e.line("patch[" + emit_convfast_ix(EmitAffine(prow).add(kw, lanes).add(j, 1)) + "] = " + zero + ";");
    }
    emit_window_close(e, zopen);
  };
  auto fill = [&](const std::string& kw, int64_t k0, const std::string& j, int64_t from, const std::string& value) {
    return "patch[" + emit_convfast_ix(EmitAffine(prow).add(kw, lanes).add(k0 * lanes).add(from).add(j, 1)) + "] = " + value +
           ";";
  };
  auto copy = [&]() {
    // The taps of the last axis in runs of equal clips: one loop each.
    for (int64_t k0 = 0; k0 < kwn;) {
      int64_t k1 = k0 + 1;
      while (k1 < kwn && clips[static_cast<size_t>(k1)] == clips[static_cast<size_t>(k0)]) ++k1;
      const EmitConvFastClip cl = clips[static_cast<size_t>(k0)];
      int kopen = 0;
      const std::string kw = emit_window_loop(e, "kw", k1 - k0, kopen);
      if (cl.lo > 0) {
        int jopen = 0;
        const std::string j = emit_window_loop(e, "j", cl.lo, jopen);
        e.line(fill(kw, k0, j, 0, zero));
        emit_window_close(e, jopen);
      }
      if (cl.hi > cl.lo) {
        int jopen = 0;
        const std::string j = emit_window_loop(e, "j", cl.hi - cl.lo, jopen);
        const EmitAffine xi = EmitAffine(xrow).add(s0.scaled(sl)).add(cl.lo * sl + k0 * dl - pl).add(kw, dl).add(j, sl);
        e.line(fill(kw, k0, j, cl.lo, "x0[" + emit_convfast_ix(xi) + "]"));
        emit_window_close(e, jopen);
      }
      if (cl.hi < len) {
        int jopen = 0;
        const std::string j = emit_window_loop(e, "j", len - cl.hi, jopen);
        e.line(fill(kw, k0, j, cl.hi, zero));
        emit_window_close(e, jopen);
      }
      emit_window_close(e, kopen);
      k0 = k1;
    }
  };
  if (outside) {
    zeros();
  } else if (conds.empty()) {
    copy();
  } else {
    e.line(emit_convfast_if(conds));
    copy();
    e.line("} else {");
    zeros();
    e.line("}");
  }
  emit_window_close(e, open);
  if (ks > rows * len) {
    int zopen = 0;
    const std::string k = emit_window_loop(e, "k", p.kc, zopen);
    const std::string j = emit_window_loop(e, "j", ks - rows * len, zopen);
    e.line("patch[" + emit_convfast_ix(EmitAffine().add(k, ks).add(rows * len).add(j, 1)) + "] = " + zero + ";");
    emit_window_close(e, zopen);
  }
}

// One block of output positions (see emit_convfast_build) for image n and group g: Y set to B
// where several chunks add up, then per chunk the patch and the product.
static void emit_convfast_block(NodeEmitter& e, const EmitConvFastPlan& p, const support::WindowGeometry& geo,
                                const std::string& n, const std::string& g, const EmitAffine& orow0, int64_t rows,
                                const EmitAffine& s0, int64_t len, const std::vector<EmitConvFastClip>& clips) {
  const int64_t lanes = rows * len;
  EmitAffine ybase;
  ybase.add(n, p.M * p.pout).add(g, p.Mg * p.pout).add(orow0.scaled(geo.out.back())).add(s0);
  EmitAffine bbase;
  bbase.add(g, p.Mg);
  const bool from_bias = p.chunks == 1;
  e.line("{");
  if (!from_bias) {
    int open = 0;
    const std::string m = emit_window_loop(e, "m", p.Mg, open);
    const std::string j = emit_window_loop(e, "j", lanes, open);
    const std::string init = p.bias ? "x2[" + emit_convfast_ix(EmitAffine(bbase).add(m, 1)) + "]" : c_literal(p.type, 0.0);
    e.line("y0[" + emit_convfast_ix(EmitAffine(ybase).add(m, p.pout).add(j, 1)) + "] = " + init + ";");
    emit_window_close(e, open);
  }
  int open = 0;
  const std::string cb = emit_window_loop(e, "cb", p.chunks, open);
  EmitAffine wbase;
  wbase.add(g, p.Mg * p.K).add(cb, p.kc);
  if (p.direct) {
    EmitAffine xb;
    xb.add(n, p.C * p.pin).add(g, p.Cg * p.pin).add(cb, p.cc * p.pin).add(s0);
    e.line("const " + p.t + "* restrict pp = &x0[" + emit_convfast_ix(xb) + "];");
    emit_convfast_product(e, p, lanes, ybase, wbase, bbase, p.pin, from_bias, p.pout >= p.vl, false);
  } else {
    const int64_t ks = std::max(lanes, p.vl);
    e.line(p.t + " patch[" + std::to_string(p.kc * ks) + "];");
    emit_convfast_build(e, p, geo, n, g, cb, orow0, rows, s0, len, clips, ks);
    e.line("{");
    e.line("const " + p.t + "* restrict pp = &patch[0];");
    emit_convfast_product(e, p, lanes, ybase, wbase, bbase, ks, from_bias, false, ks > lanes);
    e.line("}");
  }
  emit_window_close(e, open);
  e.line("}");
}

// Depthwise (one input channel per group and fewer than 4 output channels per group, where a patch
// would cost as much as the product): per image, group and output row, the input rows its outer
// taps meet are copied into a local array `buf` with the padding of the last axis as zeros (a row
// in the padding of an outer axis all zeros); each output channel of the group is then a row of
// tiles of one vector of lanes accumulating over the taps, in the element type from B[m] (or 0),
// the last axis' taps reading lanes of buf (contiguous for stride 1). Returns false, having written
// nothing, for output rows shorter than two vectors (ops_conv.cpp's general form is faster there)
// or longer than `budget` elements of buf hold.
static bool emit_convfast_depthwise(NodeEmitter& e, const EmitConvFastPlan& p, const support::WindowGeometry& geo,
                                    int64_t budget) {
  const size_t a = geo.rank() - 1;
  const int64_t wout = geo.out[a], win = geo.in[a], kwn = geo.kernel[a], sl = geo.strides[a], dl = geo.dilations[a];
  const int64_t pl = geo.pad_begin[a];
  const int64_t kto = p.kp / kwn;                           // the outer taps: rows of buf
  const int64_t wb = (wout - 1) * sl + (kwn - 1) * dl + 1;  // a row of buf: input positions pl before the row's first on
  if (wout < 2 * p.vl || kto * wb > budget) return false;
  const int64_t ulo = std::clamp<int64_t>(pl, 0, wb), uhi = std::clamp<int64_t>(pl + win, ulo, wb);  // lanes read from X
  const std::string zero = c_literal(p.type, 0.0);
  e.line(p.t + " buf[" + std::to_string(kto * wb) + "];");
  if (ulo > 0 || uhi < wb) {  // the padding: zeros, once
    int open = 0;
    const std::string k = emit_window_loop(e, "k", kto, open);
    if (uhi == ulo) {
      int jopen = 0;
      const std::string j = emit_window_loop(e, "j", wb, jopen);
      e.line("buf[" + emit_convfast_ix(EmitAffine().add(k, wb).add(j, 1)) + "] = " + zero + ";");
      emit_window_close(e, jopen);
    } else {
      for (const auto& [from, count] : {std::pair<int64_t, int64_t>{0, ulo}, {uhi, wb - uhi}}) {
        if (count == 0) continue;
        int jopen = 0;
        const std::string j = emit_window_loop(e, "j", count, jopen);
        e.line("buf[" + emit_convfast_ix(EmitAffine().add(k, wb).add(from).add(j, 1)) + "] = " + zero + ";");
        emit_window_close(e, jopen);
      }
    }
    emit_window_close(e, open);
  }
  int outer = 0;
  const std::string n = emit_window_loop(e, "n", p.N, outer);
  const std::string g = emit_window_loop(e, "g", p.group, outer);
  const std::string ro = emit_window_loop(e, "ro", p.pout / wout, outer);
  if (uhi > ulo) {
    // The rows of buf: one per outer tap.
    const std::vector<EmitAffine> o = emit_convfast_outer_out(e, geo, EmitAffine().add(ro, 1));
    int open = 0;
    std::vector<std::string> kt(a);
    for (size_t d = 0; d < a; ++d) kt[d] = emit_window_loop(e, "kt" + std::to_string(d), geo.kernel[d], open);
    std::vector<std::string> conds;
    std::vector<EmitAffine> iv;
    const bool outside = emit_convfast_outer_in(e, geo, o, kt, iv, conds);
    EmitAffine brow, xrow;
    for (size_t d = 0; d < a; ++d) brow.add(kt[d], p.k_strides[d] / kwn * wb);
    brow.add(ulo);
    xrow.add(n, p.C * p.pin).add(g, p.pin).add(ulo - pl);
    for (size_t d = 0; d < a; ++d) xrow.add(iv[d].scaled(p.in_strides[d]));
    auto fill = [&](bool copy) {
      int jopen = 0;
      const std::string j = emit_window_loop(e, "j", uhi - ulo, jopen);
      e.line("buf[" + emit_convfast_ix(EmitAffine(brow).add(j, 1)) +
             "] = " + (copy ? "x0[" + emit_convfast_ix(EmitAffine(xrow).add(j, 1)) + "]" : zero) + ";");
      emit_window_close(e, jopen);
    };
    if (outside) {
      fill(false);
    } else if (conds.empty()) {
      fill(true);
    } else {
      e.line(emit_convfast_if(conds));
      fill(true);
      e.line("} else {");
      fill(false);
      e.line("}");
    }
    emit_window_close(e, open);
  }
  int mopen = 0;
  const std::string mm = emit_window_loop(e, "mm", p.Mg, mopen);
  const EmitAffine m = EmitAffine().add(g, p.Mg).add(mm, 1);
  // One tile: lanes lane0 .. lane0 + width − 1 of the row, lanes from .. to − 1 stored.
  auto tile = [&](const EmitAffine& lane0, int64_t width, int64_t from, int64_t to) {
    e.line("{");
    e.line(p.t + " acc[" + std::to_string(width) + "];");
    {
      int jopen = 0;
      const std::string j = emit_window_loop(e, "j", width, jopen);
      e.line("acc[" + emit_convfast_ix(EmitAffine().add(j, 1)) + "] = " + (p.bias ? "x2[" + emit_convfast_ix(m) + "]" : zero) +
             ";");
      emit_window_close(e, jopen);
    }
    int kopen = 0;
    const std::string k = emit_window_loop(e, "k", kto, kopen);
    for (int64_t kw = 0; kw < kwn; ++kw) {  // one lane loop per tap of the last axis
      e.line("{");
      e.line("const " + p.t + " w = x1[" + emit_convfast_ix(EmitAffine(m.scaled(p.kp)).add(k, kwn).add(kw)) + "];");
      int jopen = 0;
      const std::string j = emit_window_loop(e, "j", width, jopen);
      const EmitAffine bi = EmitAffine().add(k, wb).add(lane0.scaled(sl)).add(kw * dl).add(j, sl);
      e.line("acc[" + emit_convfast_ix(EmitAffine().add(j, 1)) + "] += w * buf[" + emit_convfast_ix(bi) + "];");
      emit_window_close(e, jopen);
      e.line("}");
    }
    emit_window_close(e, kopen);
    int jopen = 0;
    const std::string j = emit_window_loop(e, "j", to - from, jopen);
    const EmitAffine yi = EmitAffine().add(n, p.M * p.pout).add(m.scaled(p.pout)).add(ro, wout).add(lane0).add(from).add(j, 1);
    e.line("y0[" + emit_convfast_ix(yi) + "] = acc[" + emit_convfast_ix(EmitAffine().add(j, 1).add(from)) + "];");
    emit_window_close(e, jopen);
    e.line("}");
  };
  const int64_t full = wout / p.vl, rest = wout % p.vl;
  if (full > 0) {
    int topen = 0;
    const std::string t = emit_window_loop(e, "t", full, topen);
    tile(EmitAffine().add(t, p.vl), p.vl, 0, p.vl);
    emit_window_close(e, topen);
  }
  if (rest > 0) tile(EmitAffine().add(wout - p.vl), p.vl, p.vl - rest, p.vl);  // shifted back over the tile before
  emit_window_close(e, mopen);
  emit_window_close(e, outer);
  return true;
}

// Depthwise with short output rows (fewer than two vectors), two spatial axes and stride 1: per
// image and group the whole input plane is copied into a local array `buf` of Hp × Wp elements
// with its padding as zeros (written once), Hp = Hout + (kh − 1)·dh and Wp = Wout + (kw − 1)·dw,
// so that output (oy, ox) is lane i = oy·Wp + ox of one contiguous run and tap (ky, kx) reads
// buf[i + ky·dh·Wp + kx·dw]. Each output channel accumulates the taps (their weights in locals,
// B[m] or 0 first) a lane at a time over the run of (Hout − 1)·Wp + Wout lanes into a local array
// `t`, a loop the compiler vectorises with the accumulator in a register; the lanes ox < Wout of
// each row are then copied out. Returns false, having written nothing, for other shapes, more than
// 64 taps, or a plane larger than `budget` elements.
static bool emit_convfast_depthwise_plane(NodeEmitter& e, const EmitConvFastPlan& p, const support::WindowGeometry& geo,
                                          int64_t budget) {
  if (geo.rank() != 2 || geo.strides[0] != 1 || geo.strides[1] != 1 || p.kp > 64) return false;
  const int64_t hout = geo.out[0], wout = geo.out[1], h = geo.in[0], w = geo.in[1];
  const int64_t hp = hout + (geo.kernel[0] - 1) * geo.dilations[0], wp = wout + (geo.kernel[1] - 1) * geo.dilations[1];
  const int64_t pt = geo.pad_begin[0], pl = geo.pad_begin[1];
  // The input must lie within the padded plane (stride 1: hp = pt + h + pad_end).
  if (hp * wp > budget || pt + h > hp || pl + w > wp || hout <= 0 || wout <= 0) return false;
  const int64_t run = (hout - 1) * wp + wout;
  const std::string zero = c_literal(p.type, 0.0);
  e.line(p.t + " buf[" + std::to_string(hp * wp) + "];");
  e.line(p.t + " t[" + std::to_string(run) + "];");
  {  // the padding: zeros, once (the copies below write only the input's place)
    int open = 0;
    const std::string j = emit_window_loop(e, "j", hp * wp, open);
    e.line("buf[" + emit_convfast_ix(EmitAffine().add(j, 1)) + "] = " + zero + ";");
    emit_window_close(e, open);
  }
  int outer = 0;
  const std::string n = emit_window_loop(e, "n", p.N, outer);
  const std::string g = emit_window_loop(e, "g", p.group, outer);
  {
    int open = 0;
    const std::string iy = emit_window_loop(e, "iy", h, open);
    const std::string ix = emit_window_loop(e, "ix", w, open);
    const EmitAffine bi = EmitAffine().add(iy, wp).add(ix, 1).add(pt * wp + pl);
    const EmitAffine xi = EmitAffine().add(n, p.C * p.pin).add(g, p.pin).add(iy, w).add(ix, 1);
    e.line("buf[" + emit_convfast_ix(bi) + "] = x0[" + emit_convfast_ix(xi) + "];");
    emit_window_close(e, open);
  }
  int mopen = 0;
  const std::string mm = emit_window_loop(e, "mm", p.Mg, mopen);
  const EmitAffine m = EmitAffine().add(g, p.Mg).add(mm, 1);
  for (int64_t k = 0; k < p.kp; ++k)
    e.line("const " + p.t + " w" + std::to_string(k) + " = x1[" + emit_convfast_ix(EmitAffine(m.scaled(p.kp)).add(k)) + "];");
  {
    int open = 0;
    const std::string i = emit_window_loop(e, "i", run, open);
    if (open == 0) e.line("{");
    e.line(p.t + " acc = " + (p.bias ? "x2[" + emit_convfast_ix(m) + "]" : zero) + ";");
    for (int64_t ky = 0; ky < geo.kernel[0]; ++ky)
      for (int64_t kx = 0; kx < geo.kernel[1]; ++kx) {
        const int64_t off = ky * geo.dilations[0] * wp + kx * geo.dilations[1];
        e.line("acc += w" + std::to_string(ky * geo.kernel[1] + kx) + " * buf[" +
               emit_convfast_ix(EmitAffine().add(i, 1).add(off)) + "];");
      }
    e.line("t[" + emit_convfast_ix(EmitAffine().add(i, 1)) + "] = acc;");
    if (open == 0) e.line("}");
    emit_window_close(e, open);
  }
  {
    int open = 0;
    const std::string oy = emit_window_loop(e, "oy", hout, open);
    const std::string ox = emit_window_loop(e, "ox", wout, open);
    const EmitAffine yi = EmitAffine().add(n, p.M * p.pout).add(m.scaled(p.pout)).add(oy, wout).add(ox, 1);
    e.line("y0[" + emit_convfast_ix(yi) + "] = t[" + emit_convfast_ix(EmitAffine().add(oy, wp).add(ox, 1)) + "];");
    emit_window_close(e, open);
  }
  emit_window_close(e, mopen);
  emit_window_close(e, outer);
  return true;
}

// The largest divisor of n that is at most cap (at least 1).
static int64_t emit_convfast_divisor(int64_t n, int64_t cap) {
  for (int64_t d = std::min(n, std::max<int64_t>(cap, 1)); d > 1; --d)
    if (n % d == 0) return d;
  return 1;
}

bool emit_conv_fast_gemm(NodeEmitter& e, int64_t N, int64_t C, int64_t M, int64_t group, const support::WindowGeometry& geo) {
  const DType type = e.input(0).dtype;
  if (type != DType::Float && type != DType::Double) return false;
  const size_t r = geo.rank();
  if (r == 0 || group <= 0 || C % group != 0 || M % group != 0) return false;
  EmitConvFastPlan p;
  p.type = type;
  p.t = c_type(type);
  const auto esz = static_cast<int64_t>(dtype_size(type));
  p.vl = 64 / esz;
  p.N = N;
  p.C = C;
  p.M = M;
  p.group = group;
  p.Cg = C / group;
  p.Mg = M / group;
  for (size_t d = 0; d < r; ++d) {
    p.kp *= geo.kernel[d];
    p.pin *= geo.in[d];
    p.pout *= geo.out[d];
  }
  p.K = p.Cg * p.kp;
  p.bias = e.has_input(2);
  p.in_strides = row_major_strides(geo.in);
  p.k_strides = row_major_strides(geo.kernel);
  p.direct = geo.in == geo.out;
  for (size_t d = 0; d < r; ++d) p.direct = p.direct && geo.kernel[d] == 1 && geo.strides[d] == 1 && geo.pad_begin[d] == 0;
  const int64_t budget = 4096 / esz;  // elements of the patch
  const int64_t target = 4 * p.vl;    // lanes of a block
  if (p.pout == 0 || p.Cg == 0) return false;
  if (!p.direct && p.Mg < 4)
    return p.Cg == 1 && (emit_convfast_depthwise(e, p, geo, budget) || emit_convfast_depthwise_plane(e, p, geo, budget));
  if (!p.direct && p.kp * p.vl > budget) return false;

  int outer = 0;
  const std::string n = emit_window_loop(e, "n", N, outer);
  const std::string g = emit_window_loop(e, "g", group, outer);
  if (p.direct) {
    // Segments of the flat output plane, which is the input plane.
    p.cc = p.Cg;
    p.kc = p.Cg;
    const int64_t full = p.pout / target, rest = p.pout % target;
    if (full > 0) {
      int open = 0;
      const std::string sb = emit_window_loop(e, "sb", full, open);
      emit_convfast_block(e, p, geo, n, g, EmitAffine(), 1, EmitAffine().add(sb, target), target, {});
      emit_window_close(e, open);
    }
    if (rest > 0) emit_convfast_block(e, p, geo, n, g, EmitAffine(), 1, EmitAffine().add(full * target), rest, {});
  } else {
    const int64_t wout = geo.out[r - 1], rows = p.pout / wout;
    const int64_t most = std::min(2 * target, budget / p.kp);  // lanes a block may have
    auto chunking = [&](int64_t lanes) {
      p.cc = emit_convfast_divisor(p.Cg, budget / (p.kp * std::max(lanes, p.vl)));
      p.kc = p.cc * p.kp;
      p.chunks = p.Cg / p.cc;
    };
    // The cost of a choice of blocks, per element of W: the vector tiles of the product, weighted
    // by the loads and stores of Y each chunk adds (a tile's accumulators go through Y once per kc
    // columns of W), and W read once per block, dear when it is too large to stay in the cache.
    const double w_read = static_cast<double>(p.M * p.K * esz) > 1048576.0 ? 1.5 : 0.1;
    auto tiles = [&](int64_t lanes) { return (lanes + p.vl - 1) / p.vl; };
    auto cost = [&](int64_t ntiles, int64_t nblocks, int64_t lanes) {
      chunking(lanes);
      return static_cast<double>(ntiles) * (1.0 + 2.0 / static_cast<double>(p.kc)) + static_cast<double>(nblocks) * w_read;
    };
    // Blocks of R whole rows (and a last block of fewer), or each row in segments of S lanes (a
    // multiple of the vector, and a last shorter one): the cheapest.
    int64_t R = 0, S = 0;
    double best = 0.0;
    for (int64_t cand = 1; cand <= std::min(rows, most / wout); ++cand) {
      const int64_t rest = rows % cand > 0 ? 1 : 0;
      const double c = cost(rows / cand * tiles(cand * wout) + rest * tiles(rows % cand * wout), rows / cand + rest,
                            cand * wout);
      if (R == 0 || c < best) {
        best = c;
        R = cand;
      }
    }
    for (int64_t cand = p.vl; cand <= most && cand < wout; cand += p.vl) {
      const int64_t rest = wout % cand > 0 ? 1 : 0;
      const double c = cost(rows * (wout / cand * tiles(cand) + rest * tiles(wout % cand)), rows * (wout / cand + rest), cand);
      if ((R == 0 && S == 0) || c < best) {
        best = c;
        S = cand;
      }
    }
    if (S == 0) {
      chunking(R * wout);
      const std::vector<EmitConvFastClip> clips = emit_convfast_clips(geo, 0, wout);
      const int64_t full = rows / R, rest = rows % R;
      if (full > 0) {
        int open = 0;
        const std::string rb = emit_window_loop(e, "rb", full, open);
        emit_convfast_block(e, p, geo, n, g, EmitAffine().add(rb, R), R, EmitAffine(), wout, clips);
        emit_window_close(e, open);
      }
      if (rest > 0) emit_convfast_block(e, p, geo, n, g, EmitAffine().add(full * R), rest, EmitAffine(), wout, clips);
    } else {
      // Consecutive segments of equal length and clips in one loop.
      chunking(S);
      int open = 0;
      const std::string ro = emit_window_loop(e, "ro", rows, open);
      for (int64_t s = 0; s < wout;) {
        const int64_t len = std::min(S, wout - s);
        const std::vector<EmitConvFastClip> clips = emit_convfast_clips(geo, s, len);
        int64_t count = 1;
        while (s + (count + 1) * S <= wout && emit_convfast_clips(geo, s + count * S, S) == clips && len == S) ++count;
        int sopen = 0;
        const std::string sb = emit_window_loop(e, "sb", count, sopen);
        emit_convfast_block(e, p, geo, n, g, EmitAffine().add(ro, 1), 1, EmitAffine().add(sb, S).add(s), len, clips);
        emit_window_close(e, sopen);
        s += count * S;
      }
      emit_window_close(e, open);
    }
  }
  emit_window_close(e, outer);
  return true;
}

}  // namespace sonnx::emit
