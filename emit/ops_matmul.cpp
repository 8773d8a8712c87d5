// C templates of the SONNX profile's matrix products: Gemm-13 (reference/ops/Gemm.cpp) and
// MatMul-13 (reference/ops/MatMul.cpp with support::matmul_geometry, reference/ops/support/matmul.h).
//
// Gemm-13, float, double, float16 and bfloat16 (and integers, below). Exact: per element a double
// accumulator from 0.0 adds (double)A'[m,k]·(double)B'[k,n] for k = 0, 1, …, K−1, then
// alpha·acc + beta·(double)C[m,n] with alpha and beta the attributes' floats as doubles
// (alpha·acc without C), as the reference's `v = alpha * acc; v += beta * c`, rounded once to the
// element type (generated code must be compiled without FP contraction: -std=c99 or
// -ffp-contract=off). float16 and bfloat16 (held as their bits) are read as their exact float
// values (NodeEmitter::load, the reference's compute_t) and the double rounded once into them
// (NodeEmitter::store: to_storage<T>(double), never through float). Fast: accumulation in the
// compute type (the element type; float for float16 and bfloat16, rounded once at the store);
// transB=0: a row of accumulators in a local array (k outside n, B read along its rows), transB=1:
// dot products (k contiguous in A and B). Integer types (int32, int64, uint32, uint64) when alpha
// and beta are integral, as the reference: products and sums wrap modulo 2^bits, then
// alpha·acc + beta·C wrapping; both modes.
// Refused: other element types; integer Gemm with a non-integral alpha or beta (the reference's
// double-and-saturate path); C that does not broadcast unidirectionally to [M, N]; A, B, C of
// different element types.
//
// MatMul-13, float, double, float16, bfloat16, int32, int64, uint32, uint64 with numpy's
// broadcasting of the batch dimensions and 1-D operands. Exact (floating types): per element a
// double accumulator from 0.0 adds (double)A[m,k]·(double)B[k,n] for k ascending (the reference
// keeps a row of such accumulators; each element's sum is the same), rounded once to the element
// type (float16/bfloat16: read as their float values, the double rounded once into them,
// to_storage<T>(double)); a row of up to 512 accumulators is kept in a local array so that B is
// read along its rows. Integers wrap as the reference (both modes). Fast (floating types): the
// same rows of accumulators (up to 4096 bytes) in the compute type (float for float16 and
// bfloat16), rounded once at the store.
// Refused: other element types; A and B of different element types; inner dimensions that differ or
// batch dimensions that do not broadcast.
#include <cmath>
#include <functional>

#include "emit_util.h"
#include "emit_window.h"
#include "reference/ops/params/gemm.h"

namespace sonnx::emit {

// The unsigned type integer products wrap in (support::wide_unsigned_t), or nullptr for the
// element types these templates do not take.
static const char* emit_matmul_unsigned(DType t) {
  switch (t) {
    case DType::Int64:
    case DType::UInt64: return "uint64_t";
    case DType::Int32:
    case DType::UInt32: return "uint32_t";
    default: return nullptr;
  }
}

// The floating types these templates take: float, double, and float16 and bfloat16 (held as their
// bits, computed through NodeEmitter::load/store).
static bool emit_matmul_is_float(DType t) {
  return t == DType::Float || t == DType::Double || t == DType::Float16 || t == DType::BFloat16;
}

// One row of a matrix product, blocked: for each block of at most `cap` columns n, a local array
// acc[·] starts at 0; for k = 0, 1, …, K−1, av = A(k) and acc[n] += av·B(k, n) (k outside n, B read
// along its rows); then store(n, "acc[n]") writes each column. a_at and b_at give the operands as
// values (NodeEmitter::load); `cast` converts them to the accumulator's type ("(double)" in exact
// mode, "" in fast mode). The array is at most 4096 bytes.
static void emit_matmul_row_blocks(NodeEmitter& e, int64_t K, int64_t N, int64_t cap, const std::string& acc_t,
                                   const std::string& zero, const std::string& cast,
                                   const std::function<std::string(const std::string&)>& a_at,
                                   const std::function<std::string(const std::string&, const EmitAffine&)>& b_at,
                                   const std::function<std::string(const EmitAffine&, const std::string&)>& store) {
  const int64_t full = N / cap, rest = N % cap;
  auto block = [&](const EmitAffine& n0, int64_t width) {
    e.line("{");
    e.line(acc_t + " acc[" + std::to_string(width) + "];");
    int inner = 0;
    const std::string n = emit_window_loop(e, "n", width, inner);
    e.line("acc[" + n + "] = " + zero + ";");
    emit_window_close(e, inner);
    const std::string k = emit_window_loop(e, "k", K, inner);
    e.line("const " + acc_t + " av = " + cast + a_at(k) + ";");
    const std::string n2 = emit_window_loop(e, "n", width, inner);
    e.line("acc[" + n2 + "] += av * " + cast + b_at(k, EmitAffine(n0).add(n2, 1)) + ";");
    emit_window_close(e, inner);
    const std::string n3 = emit_window_loop(e, "n", width, inner);
    e.line(store(EmitAffine(n0).add(n3, 1), "acc[" + n3 + "]"));
    emit_window_close(e, inner);
    e.line("}");
  };
  if (full > 0) {
    int blocks = 0;
    const std::string nb = emit_window_loop(e, "nb", full, blocks);
    block(EmitAffine().add(nb, cap), cap);
    emit_window_close(e, blocks);
  }
  if (rest > 0) block(EmitAffine().add(full * cap), rest);
}

// Gemm-13: Y = alpha·A'·B' + beta·C.
static void emit_matmul_gemm(NodeEmitter& e) {
  const CValue &a = e.input(0), &b = e.input(1);
  const GemmParams p = e.params<GemmParams>();
  GemmParams::Dims d;
  if (std::string why = p.dims(a.shape, b.shape, d); !why.empty()) e.refuse(why);
  if (a.dtype != b.dtype) e.refuse("A and B have different element types");
  const DType type = a.dtype;
  const bool is_float = emit_matmul_is_float(type);
  const char* u = emit_matmul_unsigned(type);
  if (!is_float && !u) e.refuse("element type " + std::string(dtype_name(type)));
  const int64_t M = d.M, K = d.K, N = d.N;
  const int64_t a_sm = p.trans_a ? 1 : K, a_sk = p.trans_a ? M : 1;
  const int64_t b_sk = p.trans_b ? 1 : N, b_sn = p.trans_b ? K : 1;
  const bool has_c = e.has_input(2);
  std::vector<int64_t> cs = {0, 0};
  if (has_c) {
    const CValue& c = e.input(2);
    if (c.dtype != type) e.refuse("C has a different element type from A");
    const Shape out = {M, N};
    if (c.shape.size() > 2) e.refuse("C " + shape_str(c.shape) + " cannot broadcast to " + shape_str(out));
    for (size_t i = 0; i < c.shape.size(); ++i)
      if (c.shape[i] != 1 && c.shape[i] != out[2 - c.shape.size() + i])
        e.refuse("C " + shape_str(c.shape) + " cannot broadcast to " + shape_str(out));
    cs = broadcast_strides(c.shape, out);
  }
  if (e.output(0).shape != Shape{M, N}) e.refuse("the output's static shape is not [M, N]");
  if (M * N == 0) return;
  const std::string t = c_storage_type(type);
  const DType ct = is_float ? (type == DType::Double ? DType::Double : DType::Float) : type;  // c_compute_type's
  const double alpha = static_cast<double>(p.alpha), beta = static_cast<double>(p.beta);
  if (!std::isfinite(alpha) || !std::isfinite(beta)) e.needs_math();  // INFINITY or NAN

  int open = 0;
  const std::string m = emit_window_loop(e, "m", M, open);
  auto a_at = [&](const std::string& k) { return "x0[" + EmitAffine().add(m, a_sm).add(k, a_sk).str() + "]"; };
  auto b_at = [&](const std::string& k, const std::string& n) {
    return "x1[" + EmitAffine().add(k, b_sk).add(n, b_sn).str() + "]";
  };
  auto c_at = [&](const std::string& n) { return "x2[" + EmitAffine().add(m, cs[0]).add(n, cs[1]).str() + "]"; };
  auto c_at_n = [&](const EmitAffine& n) { return "x2[" + EmitAffine().add(m, cs[0]).add(n.scaled(cs[1])).str() + "]"; };
  auto b_at_n = [&](const std::string& k, const EmitAffine& n) {
    return "x1[" + EmitAffine().add(k, b_sk).add(n.scaled(b_sn)).str() + "]";
  };
  auto y_at_n = [&](const EmitAffine& n) { return "y0[" + EmitAffine().add(m, N).add(n).str() + "]"; };
  auto y_at = [&](const std::string& n) { return "y0[" + EmitAffine().add(m, N).add(n, 1).str() + "]"; };
  // The floating operands as values of the compute type (the element itself for float and double).
  auto a_ld = [&](const std::string& k) { return e.load(type, a_at(k)); };
  auto b_ld = [&](const std::string& k, const std::string& n) { return e.load(type, b_at(k, n)); };
  auto c_ld = [&](const std::string& n) { return e.load(type, c_at(n)); };

  if (!is_float) {
    const bool integral = alpha == std::trunc(alpha) && beta == std::trunc(beta) && std::fabs(alpha) < 9.2e18 &&
                          std::fabs(beta) < 9.2e18;
    if (!integral) e.refuse("integer Gemm with a non-integral alpha or beta");
    const std::string U = u;
    const bool wide = U == "uint64_t";
    auto ulit = [&](double v) {
      const auto bits = static_cast<uint64_t>(static_cast<int64_t>(v));
      return wide ? "UINT64_C(" + std::to_string(bits) + ")" : std::to_string(static_cast<uint32_t>(bits)) + "u";
    };
    const std::string n = emit_window_loop(e, "n", N, open);
    e.line(U + " acc = 0u;");
    int inner = 0;
    const std::string k = emit_window_loop(e, "k", K, inner);
    e.line("acc = (" + U + ")(acc + (" + U + ")((" + U + ")" + a_at(k) + " * (" + U + ")" + b_at(k, n) + "));");
    emit_window_close(e, inner);
    const std::string cv = has_c ? "(" + U + ")" + c_at(n) : "0u";
    e.line(y_at(n) + " = (" + t + ")(" + U + ")((" + U + ")(" + ulit(alpha) + " * acc) + (" + U + ")(" + ulit(beta) + " * " +
           cv + "));");
    emit_window_close(e, open);
    return;
  }

  if (e.mode() == Mode::Exact) {
    const std::string n = emit_window_loop(e, "n", N, open);
    e.line("double acc = 0.0;");
    int inner = 0;
    const std::string k = emit_window_loop(e, "k", K, inner);
    e.line("acc += (double)" + a_ld(k) + " * (double)" + b_ld(k, n) + ";");
    emit_window_close(e, inner);
    std::string v = c_literal(DType::Double, alpha) + " * acc";
    if (has_c) v += " + " + c_literal(DType::Double, beta) + " * (double)" + c_ld(n);
    e.line(e.store(type, y_at(n), v, true));
    emit_window_close(e, open);
    return;
  }

  // Fast: in the compute type (the element type; float for float16 and bfloat16), rounded once at
  // the store.
  const std::string at = c_compute_type(type);
  auto scale = [&](const std::string& acc, const std::string& c) {
    std::string v = alpha == 1.0 ? acc : c_literal(ct, alpha) + " * " + acc;
    if (has_c) v += beta == 1.0 ? " + " + c : " + " + c_literal(ct, beta) + " * " + c;
    return v;
  };
  if (p.trans_b) {  // B' read as rows of B: dot products, k contiguous
    const std::string n = emit_window_loop(e, "n", N, open);
    e.line(at + " acc = " + c_literal(ct, 0.0) + ";");
    int inner = 0;
    const std::string k = emit_window_loop(e, "k", K, inner);
    e.line("acc += " + a_ld(k) + " * " + b_ld(k, n) + ";");
    emit_window_close(e, inner);
    e.line(e.store(type, y_at(n), scale("acc", has_c ? c_ld(n) : ""), false));
    emit_window_close(e, open);
    return;
  }
  // B' read along B's rows: a row of accumulators, k outside n.
  emit_matmul_row_blocks(
      e, K, N, static_cast<int64_t>(4096 / dtype_size(ct)), at, c_literal(ct, 0.0), "", a_ld,
      [&](const std::string& k, const EmitAffine& n) { return e.load(type, b_at_n(k, n)); },
      [&](const EmitAffine& n, const std::string& acc) {
        return e.store(type, y_at_n(n), scale(acc, has_c ? e.load(type, c_at_n(n)) : ""), false);
      });
  emit_window_close(e, open);
}

// The most accumulators the exact MatMul keeps in a local array: 512 doubles, 4096 bytes.
static constexpr int64_t kEmitMatmulRow = 512;

// MatMul-13: numpy.matmul.
static void emit_matmul_matmul(NodeEmitter& e) {
  const CValue &av = e.input(0), &bv = e.input(1);
  if (av.dtype != bv.dtype) e.refuse("A and B have different element types");
  const DType type = av.dtype;
  const bool is_float = emit_matmul_is_float(type);
  const char* u = emit_matmul_unsigned(type);
  if (!is_float && !u) e.refuse("element type " + std::string(dtype_name(type)));
  if (av.shape.empty() || bv.shape.empty()) e.refuse("MatMul inputs must have rank at least 1");
  // support::matmul_geometry: a 1-D A is a row [1, K], a 1-D B a column [K, 1]; the batch
  // dimensions broadcast.
  Shape a = av.shape, b = bv.shape;
  const bool a_vec = a.size() == 1, b_vec = b.size() == 1;
  if (a_vec) a.insert(a.begin(), 1);
  if (b_vec) b.push_back(1);
  const int64_t M = a[a.size() - 2], K = a[a.size() - 1], N = b[b.size() - 1];
  if (b[b.size() - 2] != K) e.refuse("inner dimensions differ: " + shape_str(av.shape) + " x " + shape_str(bv.shape));
  const Shape ab(a.begin(), a.end() - 2), bb(b.begin(), b.end() - 2);
  Shape batch(std::max(ab.size(), bb.size()), 1);
  for (size_t i = 0; i < batch.size(); ++i) {
    const size_t ia = i + ab.size(), ib = i + bb.size();  // aligned from the end
    const int64_t da = ia >= batch.size() ? ab[ia - batch.size()] : 1;
    const int64_t db = ib >= batch.size() ? bb[ib - batch.size()] : 1;
    if (da != db && da != 1 && db != 1)
      e.refuse("batch dimensions " + shape_str(ab) + " and " + shape_str(bb) + " do not broadcast");
    batch[i] = da == 1 ? db : da;
  }
  Shape out_shape = batch;
  if (!a_vec) out_shape.push_back(M);
  if (!b_vec) out_shape.push_back(N);
  if (e.output(0).shape != out_shape)
    e.refuse("the output's static shape " + shape_str(e.output(0).shape) + " is not " + shape_str(out_shape));
  if (e.output(0).size() == 0) return;
  const std::string t = c_storage_type(type);

  // Batch loops: A's and B's matrix indices under broadcasting, the output's row-major.
  const LoopNest loops = open_loops(e, batch, "b");
  const std::vector<int64_t> sa = broadcast_strides(ab, batch), sb = broadcast_strides(bb, batch), sy = row_major_strides(batch);
  EmitAffine abase, bbase, ybase;  // the matrices' offsets
  for (size_t i = 0; i < batch.size(); ++i) {
    abase.add(loops.index[i], sa[i] * M * K);
    bbase.add(loops.index[i], sb[i] * K * N);
    ybase.add(loops.index[i], sy[i] * M * N);
  }
  int open = 0;
  const std::string m = emit_window_loop(e, "m", M, open);
  auto a_at = [&](const std::string& k) { return "x0[" + EmitAffine(abase).add(m, K).add(k, 1).str() + "]"; };
  auto b_at = [&](const std::string& k, const EmitAffine& n) { return "x1[" + EmitAffine(bbase).add(k, N).add(n).str() + "]"; };
  auto y_at = [&](const EmitAffine& n) { return "y0[" + EmitAffine(ybase).add(m, N).add(n).str() + "]"; };
  // The floating operands as values of the compute type (the element itself for float and double).
  auto a_ld = [&](const std::string& k) { return e.load(type, a_at(k)); };
  auto b_ld = [&](const std::string& k, const EmitAffine& n) { return e.load(type, b_at(k, n)); };

  if (!is_float) {  // per element, wrapping in the unsigned type
    const std::string U = u;
    const std::string n = emit_window_loop(e, "n", N, open);
    const EmitAffine nn = EmitAffine().add(n, 1);
    e.line(U + " acc = 0u;");
    int inner = 0;
    const std::string k = emit_window_loop(e, "k", K, inner);
    e.line("acc = (" + U + ")(acc + (" + U + ")((" + U + ")" + a_at(k) + " * (" + U + ")" + b_at(k, nn) + "));");
    emit_window_close(e, inner);
    e.line(y_at(nn) + " = (" + t + ")acc;");
  } else if (e.mode() == Mode::Exact) {  // rows of up to 512 double accumulators, each rounded once
    emit_matmul_row_blocks(e, K, N, kEmitMatmulRow, "double", "0.0", "(double)", a_ld, b_ld,
                           [&](const EmitAffine& n, const std::string& acc) { return e.store(type, y_at(n), acc, true); });
  } else {  // rows of accumulators in the compute type (float for float16 and bfloat16), rounded once
    const DType ct = type == DType::Double ? DType::Double : DType::Float;
    emit_matmul_row_blocks(e, K, N, static_cast<int64_t>(4096 / dtype_size(ct)), c_compute_type(type), c_literal(ct, 0.0), "",
                           a_ld, b_ld,
                           [&](const EmitAffine& n, const std::string& acc) { return e.store(type, y_at(n), acc, false); });
  }
  emit_window_close(e, open);
  close_loops(e, loops);
}

SONNX_EMIT_C("", "Gemm", (13), emit_matmul_gemm);
SONNX_EMIT_C("", "MatMul", (13), emit_matmul_matmul);

}  // namespace sonnx::emit
