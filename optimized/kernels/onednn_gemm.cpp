// Gemm and MatMul on oneDNN's matmul, float32.
// Gemm: Y = alpha * A' B' + beta * C; the transposes are strides of the source/weights
// descriptors, alpha an output scale, and beta * C a sum post-op over Y after C has been
// broadcast into Y. MatMul: 2-D and batched (numpy broadcasting of the batch dimensions); a 2-D B
// folds A's batch dimensions into its rows. A constant B is read where it is, in the model's own
// storage, except in the cases worth_packing() names, where a copy in oneDNN's blocked layout is
// made once when the kernel is prepared. A MatMul fused with the Add of a constant bias (and an
// activation after it, fusion.h) adds the bias and applies the activation in the primitive: oneDNN
// bias and eltwise post-op, the activation done as the nodes do it instead when an operand is not
// finite.
#include <cstring>
#include <map>
#include <mutex>
#include <unordered_map>

#include "onednn_common.h"
#include "reference/ops/params/gemm.h"

namespace sonnx::fast {
namespace {

using dnnl::memory;

struct MatmulEntry {
  int64_t M = 0, K = 0, N = 0;
  dnnl::matmul::primitive_desc pd;
  dnnl::matmul prim;
  memory::desc a_desc, b_desc;  // the user's layouts (b_desc: the packed layout for a packed B)
};

// A constant B copied into the blocked layout oneDNN chose for it.
struct PackedB {
  memory::desc desc;
  memory mem;
};

// Whether a constant B is worth a blocked copy, which holds its bytes twice. Measured with oneDNN
// 2.6 at one thread on AVX-512: a single-row A (a matrix-vector product, as in classifier heads)
// and a transposed B (Gemm transB, as Linear layers export) run 1.2-5x faster packed (A 1x1024,
// B' 1000x1024: 0.237 -> 0.047 ms), and so does a B whose rows lie a multiple of 4 KiB apart, which
// oneDNN reads through the same cache sets (197x768 times 768x3072: 10.2 -> 8.3 ms). Elsewhere a
// packed B gains about 4%, not worth the memory.
bool worth_packing(int64_t M, int64_t N, bool tb) { return M == 1 || tb || N % 1024 == 0; }

memory::desc plain_b_desc(int64_t K, int64_t N, bool tb) {
  return memory::desc({K, N}, memory::data_type::f32, tb ? memory::dims{1, K} : memory::dims{N, 1});
}

// What the primitive does after the product: Gemm's alpha and beta·C (a sum post-op over Y, which
// holds C broadcast), a bias row added to every row, an activation.
struct Epilogue {
  float alpha = 1;
  bool sum = false;
  float beta = 0;
  bool bias = false;
  Activation act;
};

dnnl::primitive_attr matmul_attr(const Epilogue& ep) {
  dnnl::primitive_attr attr = user_scratchpad_attr();
  if (ep.alpha != 1.0f) attr.set_output_scales(0, {ep.alpha});
  dnnl::post_ops ops;
  if (ep.sum) ops.append_sum(ep.beta);
  ep.act.append_to(ops);
  attr.set_post_ops(ops);
  return attr;
}

dnnl::matmul::desc matmul_desc(const memory::desc& a, const memory::desc& b, int64_t M, int64_t N, bool bias) {
  if (!bias) return dnnl::matmul::desc(a, b, plain_desc({M, N}));
  return dnnl::matmul::desc(a, b, plain_desc({1, N}), plain_desc({M, N}));
}

// `packed`: B is that packed copy (null: B in the user's layout).
std::shared_ptr<MatmulEntry> build_matmul(int64_t M, int64_t K, int64_t N, bool ta, bool tb, const Epilogue& ep,
                                          const PackedB* packed = nullptr) {
  auto e = std::make_shared<MatmulEntry>();
  e->M = M;
  e->K = K;
  e->N = N;
  e->a_desc = memory::desc({M, K}, memory::data_type::f32, ta ? memory::dims{1, M} : memory::dims{K, 1});
  e->b_desc = packed ? packed->desc : plain_b_desc(K, N, tb);
  e->pd = dnnl::matmul::primitive_desc(matmul_desc(e->a_desc, e->b_desc, M, N, ep.bias), matmul_attr(ep), cpu_engine());
  e->prim = dnnl::matmul(e->pd);
  return e;
}

// B copied into the layout oneDNN prefers for an M-row product, or null when that is B's own.
std::shared_ptr<const PackedB> pack_b(int64_t M, int64_t K, int64_t N, bool ta, bool tb, const Epilogue& ep, const float* b) {
  memory::desc a_desc({M, K}, memory::data_type::f32, ta ? memory::dims{1, M} : memory::dims{K, 1});
  memory::desc any({K, N}, memory::data_type::f32, memory::format_tag::any);
  dnnl::matmul::primitive_desc pd(matmul_desc(a_desc, any, M, N, ep.bias), matmul_attr(ep), cpu_engine());
  memory::desc plain = plain_b_desc(K, N, tb);
  if (pd.weights_desc() == plain) return nullptr;
  auto p = std::make_shared<PackedB>();
  p->desc = pd.weights_desc();
  p->mem = memory(p->desc, cpu_engine());
  memory src(plain, cpu_engine(), const_cast<float*>(b));
  dnnl::stream& s = thread_stream();
  dnnl::reorder(src, p->mem).execute(s, src, p->mem);
  s.wait();
  return p;
}

void run_matmul(const MatmulEntry& e, const float* a, const float* b, float* y, const float* bias = nullptr) {
  const auto& eng = cpu_engine();
  dnnl::stream& s = thread_stream();
  memory am(e.a_desc, eng, const_cast<float*>(a));
  memory bm(e.b_desc, eng, const_cast<float*>(b));
  memory ym(plain_desc({e.M, e.N}), eng, y);
  std::unordered_map<int, memory> args{{DNNL_ARG_SRC, am}, {DNNL_ARG_WEIGHTS, bm}, {DNNL_ARG_DST, ym}};
  if (bias) args.emplace(DNNL_ARG_BIAS, memory(plain_desc({1, e.N}), eng, const_cast<float*>(bias)));
  if (memory sp = thread_scratchpad(e.pd.scratchpad_desc())) args[DNNL_ARG_SCRATCHPAD] = sp;
  e.prim.execute(s, args);
  s.wait();
}

// A small cache of prepared matmuls keyed by (M, K, N) and whether the activation is fused.
class MatmulCache {
 public:
  template <class Make>
  std::shared_ptr<MatmulEntry> get(int64_t M, int64_t K, int64_t N, bool act, Make make) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto key = std::make_tuple(M, K, N, act);
    auto it = map_.find(key);
    if (it != map_.end()) return it->second;
    auto e = make();
    map_.emplace(key, e);
    return e;
  }

 private:
  mutable std::mutex mu_;
  mutable std::map<std::tuple<int64_t, int64_t, int64_t, bool>, std::shared_ptr<MatmulEntry>> map_;
};

// A constant B packed when the kernel was prepared, with the products prepared for it by M. Once
// held (FastKernel::hold_input), the packed copy is B's only copy: the kernel then gets a
// Tensor::held for B, and rebuilds the plain values when a product cannot take the packed layout.
struct PackedProducts {
  std::shared_ptr<const PackedB> b;
  const float* source = nullptr;  // the constant's bytes b was made from, until held
  bool held = false;
  int64_t K = 0, N = 0;
  bool tb = false;
  Shape b_shape;  // B as the graph has it
  MatmulCache cache;

  void prepare(int64_t M, int64_t K_, int64_t N_, bool ta, bool tb_, const Epilogue& ep, const Tensor* constant) {
    if (!constant || !worth_packing(M, N_, tb_)) return;
    try {
      b = pack_b(M, K_, N_, ta, tb_, ep, constant->data<float>());
    } catch (const dnnl::error&) {
      b = nullptr;  // no packed layout for this product: B is read as it is
    }
    if (!b) return;
    source = constant->data<float>();
    K = K_;
    N = N_;
    tb = tb_;
    b_shape = constant->shape();
  }

  bool hold() {
    if (!b) return false;
    held = true;
    source = nullptr;  // the plain bytes are about to go: their address means nothing from now on
    return true;
  }

  // B's plain values, rebuilt from the packed copy.
  Tensor unpack() const {
    Tensor t(DType::Float, b_shape);
    memory plain(plain_b_desc(K, N, tb), cpu_engine(), t.data<float>());
    memory packed = b->mem;
    dnnl::stream& s = thread_stream();
    dnnl::reorder(packed, plain).execute(s, packed, plain);
    s.wait();
    return t;
  }

  // B's plain values for a product that does not use the packed copy: the tensor's own, or the
  // held constant's rebuilt into `scratch`.
  const float* plain(const Tensor& bt, Tensor& scratch) const {
    if (!bt.is_held() || !held) return bt.data<float>();  // (another kernel's held B: throws)
    scratch = unpack();
    return scratch.data<float>();
  }

  // Runs the product on the packed copy when `bt` is the constant it was made from and oneDNN
  // takes that layout for this M; false otherwise (the caller then reads plain(bt)).
  bool run(int64_t M, int64_t K_, int64_t N_, bool ta, bool tb_, const Epilogue& ep, const float* pa, const Tensor& bt,
           float* py, const float* bias = nullptr) const {
    if (!b || !(bt.is_held() ? held : bt.data<float>() == source)) return false;
    bool act = ep.act.kind != Activation::Kind::None;
    auto e = cache.get(M, K_, N_, act, [&]() -> std::shared_ptr<MatmulEntry> {
      try {
        return build_matmul(M, K_, N_, ta, tb_, ep, b.get());
      } catch (const dnnl::error&) {
        return nullptr;
      }
    });
    if (!e) return false;
    run_matmul(*e, pa, static_cast<const float*>(b->mem.get_data_handle()), py, bias);
    return true;
  }
};

// ---- Gemm ----

class GemmKernel final : public FastKernel {
 public:
  std::string label;
  int64_t version = 0;
  GemmParams params;
  bool has_c = false;
  MatmulCache cache;
  PackedProducts packed;

  std::string name() const override { return "onednn:gemm"; }
  Epilogue epilogue() const { return Epilogue{params.alpha, has_c, params.beta, false, {}}; }

  struct Dims {
    int64_t M, K, N;
  };
  Dims dims(const Shape& a, const Shape& b) const {
    GemmParams::Dims d;
    if (std::string why = params.dims(a, b, d); !why.empty()) fail(label, version, why);
    return {d.M, d.K, d.N};
  }

  void check_c(const Shape& c, int64_t M, int64_t N) const {
    std::string mn = "[" + std::to_string(M) + "," + std::to_string(N) + "]";
    if (!params.c_broadcasts && c != Shape{M, N})
      fail(label, version, "C " + shape_str(c) + " must be " + mn + " when broadcast=0");
    if (c.size() > 2) fail(label, version, "C " + shape_str(c) + " cannot broadcast to " + mn);
    Shape out = {M, N};
    for (size_t i = 0; i < c.size(); ++i)
      if (c[i] != 1 && c[i] != out[2 - c.size() + i]) fail(label, version, "C " + shape_str(c) + " cannot broadcast to " + mn);
  }

  std::vector<Shape> output_shapes(const std::vector<const Tensor*>& in) const override {
    const Tensor* a = arg(in, 0);
    const Tensor* b = arg(in, 1);
    if (!a || !b) fail(label, version, "inputs A and B are required");
    if (a->dtype() != DType::Float || b->dtype() != DType::Float) fail(label, version, "A and B have different element types");
    Dims d = dims(a->shape(), b->shape());
    if (has_c) {
      const Tensor* c = arg(in, 2);
      if (!c) fail(label, version, "input C is required");
      if (c->dtype() != DType::Float) fail(label, version, "C has a different element type from A");
      check_c(c->shape(), d.M, d.N);
    }
    return {{d.M, d.N}};
  }

  void run(const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) const override {
    const Tensor& a = *arg(in, 0);
    const Tensor& b = *arg(in, 1);
    Tensor& y = *out.at(0);
    Dims d = dims(a.shape(), b.shape());
    if (y.size() == 0) return;
    float* py = y.data<float>();
    if (d.K == 0) {  // an empty sum: Y = beta * C (or 0)
      std::memset(py, 0, static_cast<size_t>(y.size()) * sizeof(float));
      if (has_c) {
        const Tensor& c = *arg(in, 2);
        broadcast_c(c, d.M, d.N, py);
        for (int64_t i = 0; i < y.size(); ++i) py[i] = static_cast<float>(static_cast<double>(params.beta) * py[i]);
      }
      return;
    }
    if (has_c) broadcast_c(*arg(in, 2), d.M, d.N, py);
    if (packed.run(d.M, d.K, d.N, params.trans_a, params.trans_b, epilogue(), a.data<float>(), b, py)) return;
    Tensor scratch;
    const float* pb = packed.plain(b, scratch);
    auto e = cache.get(d.M, d.K, d.N, false,
                       [&] { return build_matmul(d.M, d.K, d.N, params.trans_a, params.trans_b, epilogue()); });
    run_matmul(*e, a.data<float>(), pb, py);
  }

  bool hold_input(size_t k) override { return k == 1 && packed.hold(); }
  Tensor plain_input(size_t k) const override { return k == 1 && packed.held ? packed.unpack() : FastKernel::plain_input(k); }

  // Y[m, n] = C broadcast to [M, N].
  static void broadcast_c(const Tensor& c, int64_t M, int64_t N, float* py) {
    const float* pc = c.data<float>();
    Shape cs = c.shape();
    while (cs.size() < 2) cs.insert(cs.begin(), 1);
    bool rows = cs[0] != 1, cols = cs[1] != 1;
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n) py[m * N + n] = pc[(rows ? m * cs[1] : 0) + (cols ? n : 0)];
  }
};

// ---- MatMul ----

class MatMulKernel final : public FastKernel {
 public:
  std::string label;
  int64_t version = 0;
  MatmulCache cache;

  std::string name() const override { return "onednn:matmul"; }
  PackedProducts packed;  // for a constant 2-D B
  // Fused "MatMulBias": input 2 is the constant bias (N elements, as [N] or [1, ..., 1, N]) and
  // `act` the activation after it.
  const Tensor* bias = nullptr;
  const float* finite_b = nullptr;  // a constant B whose values are all finite (checked once)
  bool held_b_finite = false;       // the same for the B this kernel holds
  bool bias_finite = false;
  Epilogue epilogue;  // bias and act, for the fused form

  struct Geometry {
    int64_t M = 0, K = 0, N = 0;
    bool fold = false;  // B is 2-D: A's batch dims fold into M
    Shape out, batch, a_batch, b_batch;
  };

  Geometry geometry(const Shape& a, const Shape& b) const {
    if (a.size() < 2 || b.size() < 2)
      fail(label, version, "this kernel takes inputs of rank at least 2, got " + shape_str(a) + " x " + shape_str(b));
    Geometry g;
    g.M = a[a.size() - 2];
    g.K = a.back();
    g.N = b.back();
    if (b[b.size() - 2] != g.K) fail(label, version, "inner dimensions differ: " + shape_str(a) + " x " + shape_str(b));
    g.a_batch.assign(a.begin(), a.end() - 2);
    g.b_batch.assign(b.begin(), b.end() - 2);
    size_t r = std::max(g.a_batch.size(), g.b_batch.size());
    g.batch.assign(r, 1);
    for (size_t i = 0; i < r; ++i) {
      int64_t da = i + g.a_batch.size() >= r ? g.a_batch[i + g.a_batch.size() - r] : 1;
      int64_t db = i + g.b_batch.size() >= r ? g.b_batch[i + g.b_batch.size() - r] : 1;
      if (da != db && da != 1 && db != 1)
        fail(label, version, "shapes " + shape_str(a) + " and " + shape_str(b) + " cannot broadcast");
      g.batch[i] = da == 1 ? db : da;
    }
    g.out = g.batch;
    g.out.push_back(g.M);
    g.out.push_back(g.N);
    g.fold = b.size() == 2;
    return g;
  }

  bool hold_input(size_t k) override {
    if (k != 1 || !packed.hold()) return false;
    held_b_finite = finite_b != nullptr;
    finite_b = nullptr;
    return true;
  }
  Tensor plain_input(size_t k) const override { return k == 1 && packed.held ? packed.unpack() : FastKernel::plain_input(k); }

  std::vector<Shape> output_shapes(const std::vector<const Tensor*>& in) const override {
    const Tensor* a = arg(in, 0);
    const Tensor* b = arg(in, 1);
    if (!a || !b) fail(label, version, "inputs A and B are required");
    if (a->dtype() != DType::Float || b->dtype() != DType::Float) fail(label, version, "A and B have different element types");
    Geometry g = geometry(a->shape(), b->shape());
    shape_size(g.out);
    if (bias) {  // a form the primitive does not take runs as the nodes (fusion.h)
      const Shape& bs = bias->shape();
      bool row = bs.size() <= g.out.size() && bs.back() == g.N &&
                 std::all_of(bs.begin(), bs.end() - 1, [](int64_t d) { return d == 1; });
      if (!g.fold || !row)
        fail(label, version, "the fused bias " + shape_str(bs) + " is not a row of the output " + shape_str(g.out));
    }
    return {g.out};
  }

  void run(const std::vector<const Tensor*>& in, const std::vector<Tensor*>& out) const override {
    const Tensor& a = *arg(in, 0);
    const Tensor& b = *arg(in, 1);
    Tensor& y = *out.at(0);
    Geometry g = geometry(a.shape(), b.shape());
    float* py = y.data<float>();
    if (y.size() == 0) return;
    if (g.K == 0) {  // an empty sum: 0, plus the bias and its activation when fused
      std::memset(py, 0, static_cast<size_t>(y.size()) * sizeof(float));
      if (bias && g.fold) {
        const float* pbias = bias->data<float>();
        for (int64_t i = 0; i < y.size(); ++i) py[i] += pbias[i % g.N];
        epilogue.act.apply(py, y.size());
      }
      return;
    }
    const float* pa = a.data<float>();
    if (g.fold) {
      Tensor scratch;  // a held B's plain values, when the packed copy does not serve
      int64_t rows = shape_size(g.batch) * g.M;
      // oneDNN's activation is IEEE's only on finite data: otherwise the product with the bias,
      // then the activation as the nodes compute it.
      Epilogue ep = epilogue;
      bool act = ep.act.kind != Activation::Kind::None;
      bool b_finite = b.is_held() ? held_b_finite : (b.data<float>() == finite_b || all_finite(b.data<float>(), b.size()));
      if (act && !(bias_finite && b_finite && all_finite(pa, a.size()))) {
        ep.act = Activation{};
        act = false;
      }
      const float* pbias = bias ? bias->data<float>() : nullptr;
      if (!packed.run(rows, g.K, g.N, false, false, ep, pa, b, py, pbias)) {
        const float* pb = packed.plain(b, scratch);
        auto e = cache.get(rows, g.K, g.N, act, [&] { return build_matmul(rows, g.K, g.N, false, false, ep); });
        run_matmul(*e, pa, pb, py, pbias);
      }
      if (!act) epilogue.act.apply(py, y.size());
      return;
    }
    // Batched: one 2-D product per batch index, operands picked by broadcasting.
    const float* pb = b.data<float>();
    auto e = cache.get(g.M, g.K, g.N, false, [&] { return build_matmul(g.M, g.K, g.N, false, false, Epilogue{}); });
    size_t r = g.batch.size();
    std::vector<int64_t> idx(r, 0);
    int64_t batches = shape_size(g.batch);
    auto offset = [&](const Shape& own) {
      int64_t off = 0;
      size_t lead = r - own.size();
      for (size_t i = 0; i < own.size(); ++i) off = off * own[i] + (own[i] == 1 ? 0 : idx[lead + i]);
      return off;
    };
    for (int64_t bi = 0; bi < batches; ++bi) {
      run_matmul(*e, pa + offset(g.a_batch) * g.M * g.K, pb + offset(g.b_batch) * g.K * g.N, py + bi * g.M * g.N);
      for (size_t d = r; d-- > 0;) {
        if (++idx[d] < g.batch[d]) break;
        idx[d] = 0;
      }
    }
  }
};

bool float_or_unknown(const FastKernelRequest& r, size_t i) {
  if (const Tensor* c = constant_input(r, i)) return c->dtype() == DType::Float;
  const TypeInfo* t = input_type(r, i);
  return !t || t->elem == DType::Undefined || t->elem == DType::Float;
}

}  // namespace

std::unique_ptr<FastKernel> make_gemm_kernel(const FastKernelRequest& r) {
  const Node& node = *r.node;
  if (node.outputs.size() != 1 || node.inputs.size() < 2 || node.inputs.size() > 3) return nullptr;
  if (!has_node_input(node, 0) || !has_node_input(node, 1)) return nullptr;
  // Float32 known for at least one of A and B, the others float32 or unknown.
  if (!(input_is_float(r, 0) || input_is_float(r, 1))) return nullptr;
  if (!float_or_unknown(r, 0) || !float_or_unknown(r, 1)) return nullptr;
  auto k = std::make_unique<GemmKernel>();
  k->label = node.label();
  k->version = r.version;
  std::optional<GemmParams> p = try_params<GemmParams>(node, r.version);
  if (!p) return nullptr;
  k->params = *p;
  k->has_c = has_node_input(node, 2);
  if (k->has_c && !float_or_unknown(r, 2)) return nullptr;
  if (r.version < 7 && !k->has_c) return nullptr;  // C is required there: the reference reports it
  // beta = 0 must still turn an infinite C into NaN; leave that to the reference.
  if (k->has_c && p->beta == 0.0f) return nullptr;
  if (const Tensor* b = constant_input(r, 1); b && b->rank() != 2) return nullptr;
  // Prepare the product now when A's shape is known.
  std::optional<Shape> as = static_shape(r, 0), bs = static_shape(r, 1);
  if (as && bs) {
    try {
      auto d = k->dims(*as, *bs);
      if (d.M > 0 && d.N > 0 && d.K > 0) {
        k->cache.get(d.M, d.K, d.N, false, [&] { return build_matmul(d.M, d.K, d.N, p->trans_a, p->trans_b, k->epilogue()); });
        k->packed.prepare(d.M, d.K, d.N, p->trans_a, p->trans_b, k->epilogue(), constant_input(r, 1));
      }
    } catch (const Trap&) {
      return nullptr;
    }
  }
  return k;
}

std::unique_ptr<FastKernel> make_matmul_kernel(const FastKernelRequest& r) {
  const Node& node = *r.node;
  bool fused = r.fused_pattern == "MatMulBias";
  if (node.outputs.size() != 1 || node.inputs.size() != (fused ? 3u : 2u)) return nullptr;
  if (!has_node_input(node, 0) || !has_node_input(node, 1)) return nullptr;
  if (!(input_is_float(r, 0) || input_is_float(r, 1))) return nullptr;
  if (!float_or_unknown(r, 0) || !float_or_unknown(r, 1)) return nullptr;
  // Ranks must be known and at least 2 (1-D operands are left to the reference).
  auto ra = known_rank(r, 0), rb = known_rank(r, 1);
  if (!ra || !rb || *ra < 2 || *rb < 2) return nullptr;
  auto k = std::make_unique<MatMulKernel>();
  k->label = node.label();
  k->version = r.version;
  if (fused) {
    // B must be 2-D (the product folds A's batch into rows) and the bias a float constant.
    k->bias = constant_input(r, 2);
    if (*rb != 2 || !k->bias || k->bias->dtype() != DType::Float || k->bias->rank() < 1 || !read_activation(r, k->epilogue.act))
      return nullptr;
    k->epilogue.bias = true;
    k->bias_finite = all_finite(k->bias->data<float>(), k->bias->size());
  }
  if (const Tensor* b = constant_input(r, 1); b && b->dtype() == DType::Float && all_finite(b->data<float>(), b->size()))
    k->finite_b = b->data<float>();
  std::optional<Shape> as = static_shape(r, 0), bs = static_shape(r, 1);
  if (as && bs && bs->size() == 2) {
    try {
      auto g = k->geometry(*as, *bs);
      int64_t rows = shape_size(g.batch) * g.M;
      if (rows > 0 && g.K > 0 && g.N > 0) {
        bool act = k->epilogue.act.kind != Activation::Kind::None;
        k->cache.get(rows, g.K, g.N, act, [&] { return build_matmul(rows, g.K, g.N, false, false, k->epilogue); });
        k->packed.prepare(rows, g.K, g.N, false, false, k->epilogue, constant_input(r, 1));
      }
    } catch (const Trap&) {
      return nullptr;
    }
  }
  return k;
}

SONNX_FAST_KERNEL("", "Gemm", (1, 6, 7, 9, 11, 13), make_gemm_kernel);
SONNX_FAST_KERNEL("", "MatMul", (1, 9, 13), make_matmul_kernel);

}  // namespace sonnx::fast
