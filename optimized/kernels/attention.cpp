// Scaled dot-product attention as exporters write it, run as one step (the group is found by
// optimized/plan/fusion_attention.cpp):
//   [Qs = Q / c | Q · c]; S = MatMul(Qs, Kt); [S = S / c | S · c]; P = Softmax(S, last axis);
//   O = MatMul(P, V)
// with Q [B.., M, D], Kt [B.., D, N], V [B.., N, Dv] of the same batch dims. Each batch index is
// cut into blocks of rows of Q, and a block is one task: its scores [rows, N] are the only part of
// S ever held (a buffer of the thread's), then its rows of O are written. The tasks share the
// executor's threads; each product is a oneDNN matmul on one thread (on vit_b_16's heads about 5x
// faster than a vectorised loop of our own: 0.46 against 2.5 ms for the products of 12 heads).
// The scale is applied where the model applies it, as the Div/Mul node computes it (one float
// operation per element), and the softmax is the fast Softmax kernel's (softmax_line.h), so the
// result differs from the nodes' only by the products' rounding (float sums, as the MatMul
// kernel's).
//
// Non-finite values: a NaN or an infinity in the scaled Q or in Kt makes scores of its block
// non-finite (a row's, a column's), one in V makes outputs of every block non-finite, and so does
// an overflow. Such a block is computed again as the reference computes the nodes (products and
// sums in double, rounded once to float), so its NaN and infinities are the reference's whatever
// oneDNN does with them; finite blocks pay two checks of data already in cache.
//
// Shapes, element types and the softmax axis are checked in output_shapes; what the kernel does not
// cover (another axis, batch dims that differ or broadcast, other types) it reports there, and the
// executor then runs the nodes one by one.
#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <tuple>
#include <unordered_map>

#include "onednn_common.h"
#include "reference/ops/params/softmax.h"
#include "sonnx/errors.h"
#include "softmax_line.h"
#include "omp_sync.h"

namespace sonnx::fast {

namespace {

using dnnl::memory;

// Rows of Q a task takes at most, and at least when blocks are cut smaller so that every thread
// has one. Larger blocks make fewer, larger products. Measured in vit_b_16 (12 steps of 12 heads
// [197, 64], one thread, ms the 12 steps take in a run): blocks of at most 64 rows (four of 49-50)
// 13.0-13.1, at most 100 (two of 98-99: 78 KB of scores) 12.7-12.8, all 197 rows at once 12.4-12.5;
// the four nodes one by one 12.6-12.8, holding the whole [12, 197, 197] scores (1.9 MB). In a
// model of the step alone, 16 rows were 7% slower than 100 and 32 rows 4%.
constexpr int64_t kMaxRows = 100, kMinRows = 16;

// A prepared oneDNN product of row-major matrices [M, K] · [K, N] → [M, N].
struct Product {
  dnnl::matmul::primitive_desc pd;
  dnnl::matmul prim;
};

std::shared_ptr<const Product> make_product(int64_t M, int64_t K, int64_t N) {
  auto p = std::make_shared<Product>();
  dnnl::matmul::desc d(plain_desc({M, K}), plain_desc({K, N}), plain_desc({M, N}));
  p->pd = dnnl::matmul::primitive_desc(d, user_scratchpad_attr(), cpu_engine());
  p->prim = dnnl::matmul(p->pd);
  return p;
}

// A product's memory objects on one thread, made once per run of the kernel (making them for
// every block cost about 10% of the products' time); each block sets their data handles.
class ThreadProduct {
 public:
  ThreadProduct(const Product& p, float* scratchpad) : p_(p) {
    const auto& eng = cpu_engine();
    args_.emplace(DNNL_ARG_SRC, memory(p.pd.src_desc(), eng, nullptr));
    args_.emplace(DNNL_ARG_WEIGHTS, memory(p.pd.weights_desc(), eng, nullptr));
    args_.emplace(DNNL_ARG_DST, memory(p.pd.dst_desc(), eng, nullptr));
    if (p.pd.scratchpad_desc().get_size() > 0)
      args_.emplace(DNNL_ARG_SCRATCHPAD, memory(p.pd.scratchpad_desc(), eng, scratchpad));
  }

  void run(const float* a, const float* b, float* c) {
    args_.at(DNNL_ARG_SRC).set_data_handle(const_cast<float*>(a));
    args_.at(DNNL_ARG_WEIGHTS).set_data_handle(const_cast<float*>(b));
    args_.at(DNNL_ARG_DST).set_data_handle(c);
    dnnl::stream& s = thread_stream();
    p_.prim.execute(s, args_);
    s.wait();
  }

 private:
  const Product& p_;
  std::unordered_map<int, memory> args_;
};

// M rows (M > 0) in `count` blocks of `lo` or `hi` = lo + 1 rows (block i from row i·M / count on):
// blocks of at most kMaxRows rows, smaller (down to kMinRows) when there are fewer blocks in all
// `batches` than threads.
struct Blocks {
  int64_t count, lo, hi;
};
Blocks blocks(int64_t M, int64_t batches, int64_t threads) {
  auto ceil_div = [](int64_t a, int64_t b) { return (a + b - 1) / b; };
  int64_t count = ceil_div(M, kMaxRows);
  if (batches * count < threads) count = std::max(count, std::min(ceil_div(M, kMinRows), ceil_div(threads, batches)));
  int64_t lo = M / count;
  return {count, lo, lo + (M % count != 0)};
}

struct Geometry {
  int64_t batches = 1, M = 0, D = 0, N = 0, Dv = 0;
  Shape out;
};

// Where the scale is applied, and how.
enum class Scale { None, DivQ, MulQ, DivS, MulS };

class AttentionKernel final : public FastKernel {
 public:
  std::string label;
  int q = -1, k = -1, v = -1, c = -1;  // positions in the step's inputs (c: -1 without a scale)
  Scale scale = Scale::None;
  int64_t axis = -1;  // the Softmax's, as its version reads it

  std::string name() const override { return "fast:attention"; }

  std::vector<Shape> output_shapes(const std::vector<const Tensor*>& in) const override { return {geometry(in).out}; }

  void run(const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) const override {
    Run r;
    r.g = geometry(in);
    Tensor& o = *out.at(0);
    if (o.size() == 0) return;
    r.q = arg(in, static_cast<size_t>(q))->data<float>();
    r.k = arg(in, static_cast<size_t>(k))->data<float>();
    r.v = arg(in, static_cast<size_t>(v))->data<float>();
    r.c = c >= 0 ? arg(in, static_cast<size_t>(c))->data<float>()[0] : 1.0f;
    r.o = o.data<float>();
    r.blk = blocks(r.g.M, r.g.batches, omp_get_max_threads());
    // Empty products (D or N zero) oneDNN does not take; the exact path computes them.
    r.exact_only = r.g.D == 0 || r.g.N == 0;
    if (!r.exact_only) {
      prepare(r.g, r.blk, r.scores, r.values);
      for (const auto* p : {&r.scores[0], &r.scores[1], &r.values[0], &r.values[1]})
        r.scratchpad = std::max(r.scratchpad, (*p)->pd.scratchpad_desc().get_size());
    }
    SONNX_OMP_FORK(sync);
#pragma omp parallel
    {
      SONNX_OMP_TASK(sync);
      work(r);
    }
  }

  // The sizes of the step for these inputs; a Trap for what the kernel does not cover.
  Geometry geometry(const std::vector<const Tensor*>& in) const {
    std::vector<Shape> shapes;
    for (int i : {q, k, v}) {
      const Tensor* t = arg(in, static_cast<size_t>(i));
      if (!t || t->dtype() != DType::Float) decline("Q, K and V must be float32 tensors");
      shapes.push_back(t->shape());
    }
    const Tensor* tc = c >= 0 ? arg(in, static_cast<size_t>(c)) : nullptr;
    if (c >= 0 && (!tc || tc->dtype() != DType::Float || tc->size() != 1 || tc->rank() > static_cast<int64_t>(shapes[0].size())))
      decline("the scale must be one float32");
    return geometry(shapes[0], shapes[1], shapes[2]);
  }

  Geometry geometry(const Shape& sq, const Shape& sk, const Shape& sv) const {
    size_t r = sq.size();
    if (r < 2 || sk.size() != r || sv.size() != r) decline("Q, K and V must have the same rank, at least 2");
    Geometry g;
    for (size_t i = 0; i + 2 < r; ++i) {
      if (sq[i] != sk[i] || sq[i] != sv[i])
        decline("the batch dims differ: " + shape_str(sq) + ", " + shape_str(sk) + ", " + shape_str(sv));
      g.batches *= sq[i];
    }
    g.M = sq[r - 2];
    g.D = sq[r - 1];
    g.N = sk[r - 1];
    g.Dv = sv[r - 1];
    if (sk[r - 2] != g.D || sv[r - 2] != g.N)
      decline("inner dimensions differ: " + shape_str(sq) + ", " + shape_str(sk) + ", " + shape_str(sv));
    auto rank = static_cast<int64_t>(r);
    if (axis < -rank || axis >= rank || (axis < 0 ? axis + rank : axis) != rank - 1)
      decline("the softmax is not over the last axis");
    g.out.assign(sq.begin(), sq.end() - 1);
    g.out.push_back(g.Dv);
    return g;
  }

  // The products for these sizes (made now when the shapes are known before the first run).
  void prepare(const Geometry& g, const Blocks& blk, std::shared_ptr<const Product>* scores,
               std::shared_ptr<const Product>* values) const {
    for (int t = 0; t < 2; ++t) {
      int64_t r = t == 0 ? blk.hi : blk.lo;
      scores[t] = product(r, g.D, g.N);
      values[t] = product(r, g.N, g.Dv);
    }
  }

 private:
  mutable std::mutex mu_;
  mutable std::map<std::tuple<int64_t, int64_t, int64_t>, std::shared_ptr<const Product>> products_;

  // What the threads of one run share.
  struct Run {
    Geometry g;
    Blocks blk{};
    const float *q = nullptr, *k = nullptr, *v = nullptr;
    float c = 1, *o = nullptr;
    bool exact_only = false;
    std::shared_ptr<const Product> scores[2], values[2];  // [0]: blocks of blk.hi rows, [1]: of blk.lo
    size_t scratchpad = 0;  // bytes; the products' scratchpads share one per-thread buffer (they run in turn)
  };

  // One thread's share of the blocks, with its own buffers (inside the parallel region).
  void work(const Run& r) const {
    const Geometry& g = r.g;
    int64_t hi = r.blk.hi, tasks = g.batches * r.blk.count;
    std::vector<float> qs(static_cast<size_t>(scale_on_q() ? hi * g.D : 0)), s(static_cast<size_t>(hi * g.N));
    std::vector<double> e(static_cast<size_t>(g.N));
    // Nothing may leave the parallel region: where oneDNN fails, blocks take the exact path.
    bool fast = !r.exact_only;
    std::vector<ThreadProduct> products;  // scores[0], values[0], scores[1], values[1]
    try {
      float* sp = fast ? thread_scratch(4, r.scratchpad / sizeof(float) + 1) : nullptr;
      for (int h = 0; fast && h < 2; ++h) {
        products.emplace_back(*r.scores[h], sp);
        products.emplace_back(*r.values[h], sp);
      }
    } catch (const dnnl::error&) {
      fast = false;
    }
#pragma omp for schedule(static)
    for (int64_t t = 0; t < tasks; ++t) {
      int64_t b = t / r.blk.count, i = t % r.blk.count, r0 = i * g.M / r.blk.count, n = (i + 1) * g.M / r.blk.count - r0;
      const float* qb = r.q + (b * g.M + r0) * g.D;
      const float* kb = r.k + b * g.D * g.N;
      const float* vb = r.v + b * g.N * g.Dv;
      float* ob = r.o + (b * g.M + r0) * g.Dv;
      size_t at = n == hi ? 0 : 2;
      bool done = false;
      try {
        done = fast && fast_block(qb, kb, vb, ob, n, g, r.c, products[at], products[at + 1], qs.data(), s.data(), e.data());
      } catch (const dnnl::error&) {
        done = false;
      }
      if (!done) exact_block(qb, kb, vb, ob, n, g, r.c, s.data(), e.data());
    }
  }

  [[noreturn]] void decline(const std::string& why) const { throw Trap(label + ": the fused attention does not apply: " + why); }

  bool scale_on_q() const { return scale == Scale::DivQ || scale == Scale::MulQ; }

  std::shared_ptr<const Product> product(int64_t M, int64_t K, int64_t N) const {
    std::lock_guard lock(mu_);
    auto& p = products_[{M, K, N}];
    if (!p) p = make_product(M, K, N);
    return p;
  }

  // The scale as the Div or Mul node computes it (IEEE float; Mul commutes).
  void apply_scale(const float* x, float* y, int64_t n, float cv) const {
    if (scale == Scale::DivQ || scale == Scale::DivS)
      for (int64_t i = 0; i < n; ++i) y[i] = x[i] / cv;
    else
      for (int64_t i = 0; i < n; ++i) y[i] = x[i] * cv;
  }

  // One block of n rows with oneDNN's products; false (and o partly written) when a score or an
  // output is not finite.
  bool fast_block(const float* qb, const float* kb, const float* vb, float* ob, int64_t n, const Geometry& g, float cv,
                  ThreadProduct& scores, ThreadProduct& values, float* qs, float* s, double* e) const {
    if (scale_on_q()) {
      apply_scale(qb, qs, n * g.D, cv);
      qb = qs;
    }
    scores.run(qb, kb, s);
    if (scale == Scale::DivS || scale == Scale::MulS) apply_scale(s, s, n * g.N, cv);
    if (!all_finite(s, n * g.N)) return false;
    for (int64_t i = 0; i < n; ++i) softmax_line(s + i * g.N, s + i * g.N, g.N, e);
    values.run(s, vb, ob);
    return all_finite(ob, n * g.Dv);
  }

  // One block of n rows as the reference computes the nodes: each product's sums in double,
  // rounded once to float; the scale in float; the softmax of softmax_line (the reference's but
  // for exp's last bit).
  void exact_block(const float* qb, const float* kb, const float* vb, float* ob, int64_t n, const Geometry& g, float cv,
                   float* s, double* e) const {
    for (int64_t i = 0; i < n; ++i) {
      float* si = s;  // one row of scores at a time
      const float* qi = qb + i * g.D;
      for (int64_t j = 0; j < g.N; ++j) {
        double acc = 0;
        for (int64_t d = 0; d < g.D; ++d) {
          float x = qi[d];
          if (scale_on_q()) apply_scale(&x, &x, 1, cv);
          acc += static_cast<double>(x) * static_cast<double>(kb[d * g.N + j]);
        }
        si[j] = static_cast<float>(acc);
      }
      if (scale == Scale::DivS || scale == Scale::MulS) apply_scale(si, si, g.N, cv);
      softmax_line(si, si, g.N, e);
      for (int64_t d = 0; d < g.Dv; ++d) {
        double acc = 0;
        for (int64_t j = 0; j < g.N; ++j) acc += static_cast<double>(si[j]) * static_cast<double>(vb[j * g.Dv + d]);
        ob[i * g.Dv + d] = static_cast<float>(acc);
      }
    }
  }
};

// The position of `name` in the step's inputs, or -1.
int position(const Node& n, const std::string& name) {
  for (size_t i = 0; i < n.inputs.size(); ++i)
    if (n.inputs[i] == name) return static_cast<int>(i);
  return -1;
}

bool one_float(const FastKernelRequest& r, const std::string& name) {
  auto it = r.constants.find(name);
  return it != r.constants.end() && it->second->dtype() == DType::Float && it->second->size() == 1;
}

// The scaled operand and the scale of Div(x, c) / Mul(x, c) / Mul(c, x) (c a constant of one element).
std::pair<std::string, std::string> scale_operands(const FastKernelRequest& r, const Node& n) {
  if (n.op_type == "Mul" && one_float(r, n.inputs[0])) return {n.inputs[1], n.inputs[0]};
  return {n.inputs[0], n.inputs[1]};
}

}  // namespace

std::unique_ptr<FastKernel> make_attention_kernel(const FastKernelRequest& r) {
  const Node& first = *r.node;
  const auto& f = r.fused_nodes;
  bool scale_first = first.op_type == "Div" || first.op_type == "Mul";
  // The nodes: [scale], MatMul, [scale], Softmax, MatMul — one scale at most.
  std::vector<const Node*> nodes{&first};
  nodes.insert(nodes.end(), f.begin(), f.end());
  if (nodes.size() < 3 || nodes.size() > 4 || r.fused_versions.size() != f.size() || nodes.back()->op_type != "MatMul" ||
      nodes[nodes.size() - 2]->op_type != "Softmax")
    return nullptr;
  const Node* mm1 = scale_first ? nodes[1] : nodes[0];
  const Node* scale_node = scale_first ? nodes[0] : nodes.size() == 4 ? nodes[1] : nullptr;
  if (mm1->op_type != "MatMul" || (scale_node && scale_node->op_type != "Div" && scale_node->op_type != "Mul")) return nullptr;
  // Versions before 7 of Div and Mul broadcast only with an attribute; r.version is the first
  // node's, and a MatMul from 9 on means an opset where Div and Mul are at 7 or later.
  if (r.version < (scale_first ? 7 : 9)) return nullptr;
  const Node& softmax = *nodes[nodes.size() - 2];
  const Node& mm2 = *nodes.back();
  auto k = std::make_unique<AttentionKernel>();
  k->label = mm1->label() + " (attention)";
  // Before Softmax-13 the input is coerced to 2-D at the axis, which is the last axis alone exactly
  // when axis is the last.
  std::optional<SoftmaxParams> p = try_params<SoftmaxParams>(softmax, r.fused_versions[nodes.size() - 3]);
  if (!p) return nullptr;
  k->axis = p->axis;
  std::string q_name = mm1->inputs[0];
  if (scale_node) {
    auto [x, c] = scale_operands(r, *scale_node);
    if (!one_float(r, c)) return nullptr;
    k->c = position(first, c);
    if (scale_first) q_name = x;
    bool div = scale_node->op_type == "Div";
    k->scale = scale_first ? (div ? Scale::DivQ : Scale::MulQ) : (div ? Scale::DivS : Scale::MulS);
  }
  k->q = position(first, q_name);
  k->k = position(first, mm1->inputs[1]);
  k->v = position(first, mm2.inputs[1]);
  if (k->q < 0 || k->k < 0 || k->v < 0 || (scale_node && k->c < 0)) return nullptr;
  for (int i : {k->q, k->k, k->v}) {  // a type known to be another than float32: the nodes run
    const TypeInfo* t = input_type(r, static_cast<size_t>(i));
    if (t && t->elem != DType::Undefined && t->elem != DType::Float) return nullptr;
  }
  std::optional<Shape> sq = static_shape(r, static_cast<size_t>(k->q)), sk = static_shape(r, static_cast<size_t>(k->k)),
                       sv = static_shape(r, static_cast<size_t>(k->v));
  if (sq && sk && sv) {  // known shapes: the products are made now rather than in the first run
    try {
      Geometry g = k->geometry(*sq, *sk, *sv);
      std::shared_ptr<const Product> scores[2], values[2];
      if (g.M > 0 && g.D > 0 && g.N > 0 && g.Dv > 0)
        k->prepare(g, blocks(g.M, g.batches, omp_get_max_threads()), scores, values);
    } catch (const Trap&) {
      return nullptr;  // shapes the kernel does not take: the nodes run one by one
    } catch (const dnnl::error&) {
      return nullptr;
    }
  }
  return k;
}

}  // namespace sonnx::fast
