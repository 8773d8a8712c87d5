// The fast data-movement kernels (optimized/kernels/movement.cpp) and the oneDNN ConvTranspose
// (onednn_deconv.cpp) against the reference kernels: movement bitwise (elements are copied),
// ConvTranspose within rtol 1e-4 / atol 1e-5; inputs the reference refuses trap in both; requests
// the kernels cannot serve give null.
#include <omp.h>

#include <cmath>
#include <random>

#include "op_test_util.h"
#include "optimized/kernels/fast_kernel.h"
#include "optimized/kernels/onednn_common.h"
#include "tensor_test_util.h"

namespace sonnx::testing {
namespace {

// One node with the given inputs (all known-typed; those listed in `constant` are constants).
struct NodeCase {
  Node node;
  std::vector<Tensor> inputs;
  FastKernelRequest req;
  NodeCase(const std::string& op, int64_t version, std::vector<Tensor> in, std::vector<onnx::AttributeProto> attrs,
           std::set<size_t> constant = {})
      : inputs(std::move(in)) {
    node.op_type = op;
    node.name = "n";
    node.outputs = {"y"};
    for (size_t i = 0; i < inputs.size(); ++i) node.inputs.push_back(inputs[i].defined() ? "in" + std::to_string(i) : "");
    for (const auto& a : attrs) node.attributes.push_back(ir_attr(a));
    req.node = &node;
    req.version = version;
    for (size_t i = 0; i < inputs.size(); ++i) {
      req.input_types.push_back(inputs[i].defined() ? type_of(inputs[i]) : TypeInfo{});
      if (constant.count(i)) req.constants[node.inputs[i]] = &inputs[i];
    }
    attrs_ = std::move(attrs);
  }
  std::vector<const Tensor*> pointers() const {
    std::vector<const Tensor*> p;
    for (const auto& t : inputs) p.push_back(t.defined() ? &t : nullptr);
    return p;
  }
  Tensor fast() const {
    auto k = make_fast_kernel(req);
    if (!k) throw std::runtime_error("no fast kernel for " + node.op_type);
    Tensor y(DType::Float, k->output_shapes(pointers()).at(0));
    std::vector<Tensor*> out{&y};
    k->run(pointers(), out);
    return y;
  }
  Tensor reference() const {
    std::vector<Value> in;
    for (const auto& t : inputs) in.push_back(t.defined() ? Value(t) : Value());
    return run_op(node.op_type, req.version, in, attrs_).at(0).tensor;
  }
  std::vector<onnx::AttributeProto> attrs_;
};

Tensor data(const Shape& s, std::mt19937& rng) {
  Tensor t = random_float_tensor(s, rng, -2, 2);
  if (t.size() > 1) t.data<float>()[1] = std::nanf("");
  return t;
}

void expect_bitwise(const NodeCase& c, const std::string& what) {
  Tensor got = c.fast(), want = c.reference();
  ASSERT_EQ(got.shape(), want.shape()) << what;
  EXPECT_TRUE(got == want) << what;
}

void expect_both_trap(const NodeCase& c, const std::string& what) {
  EXPECT_THROW(c.fast(), Trap) << what << " (fast)";
  EXPECT_THROW(c.reference(), Trap) << what << " (reference)";
}

TEST(FastMovement, TransposeSliceExpandMatchTheReferenceBitwise) {
  std::mt19937 rng(3);
  Tensor x = data({2, 3, 4, 5}, rng);
  expect_bitwise(NodeCase("Transpose", 13, {x}, {}), "Transpose default perm");
  expect_bitwise(NodeCase("Transpose", 13, {x}, {attr_ints("perm", {0, 2, 1, 3})}), "Transpose 0213");
  expect_bitwise(NodeCase("Transpose", 13, {x}, {attr_ints("perm", {3, 0, 2, 1})}), "Transpose 3021");
  struct S {
    std::vector<int64_t> starts, ends, axes, steps;
  };
  for (const S& s : std::vector<S>{{{0}, {1}, {1}, {1}},
                                   {{1, -3}, {100, -1}, {-1, 2}, {1, 1}},
                                   {{3, 10}, {-100, 0}, {2, 3}, {-1, -2}},
                                   {{0, 0}, {2, 0}, {0, 1}, {1, 1}},
                                   {{-1}, {-6}, {3}, {-2}}}) {
    expect_bitwise(NodeCase("Slice", 13, {x, i64(s.starts), i64(s.ends), i64(s.axes), i64(s.steps)}, {}), "Slice");
    expect_bitwise(NodeCase("Slice", 13, {x, i64(s.starts), i64(s.ends), i64(s.axes)}, {}), "Slice without steps");
  }
  expect_bitwise(NodeCase("Slice", 13, {x, i64({1, 1}), i64({2, 3})}, {}), "Slice without axes");
  expect_bitwise(NodeCase("Slice", 1, {x}, {attr_ints("starts", {1}), attr_ints("ends", {3}), attr_ints("axes", {2})}),
                 "Slice-1");
  Tensor v = data({3, 1}, rng);
  expect_bitwise(NodeCase("Expand", 13, {v, i64({2, 1, 4})}, {}), "Expand");
  expect_bitwise(NodeCase("Expand", 13, {v, i64({1})}, {}), "Expand to a smaller shape");
  expect_both_trap(NodeCase("Transpose", 13, {x}, {attr_ints("perm", {0, 0, 1, 2})}), "Transpose with a repeated axis");
  expect_both_trap(NodeCase("Slice", 13, {x, i64({0}), i64({1}), i64({1}), i64({0})}, {}), "Slice step 0");
  expect_both_trap(NodeCase("Slice", 13, {x, i64({0, 0}), i64({1, 1}), i64({1, -3})}, {}), "Slice repeated axis");
  expect_both_trap(NodeCase("Expand", 13, {v, i64({2, 5})}, {}), "Expand to a shape that does not broadcast");
}

// Large copies split their rows over threads: each thread starts its own walk through the input.
TEST(FastMovement, LargeCopiesOnTwoThreadsMatchTheReferenceBitwise) {
  std::mt19937 rng(10);
  int saved = omp_get_max_threads();
  omp_set_num_threads(2);
  Tensor x = data({7, 48, 5, 41}, rng);
  expect_bitwise(NodeCase("Transpose", 13, {x}, {attr_ints("perm", {2, 0, 3, 1})}), "large Transpose");
  expect_bitwise(NodeCase("Slice", 13, {x, i64({1, 40}), i64({6, 0}), i64({0, 3}), i64({1, -3})}, {}), "large Slice");
  omp_set_num_threads(saved);
}

// Concat of channels-last or channel-blocked inputs writes the same layout, element for element the
// reference's result; inputs in other layouts are made plain first.
TEST(FastMovement, ConcatKeepsChannelsLastAndBlockedLayouts) {
  using tag = dnnl::memory::format_tag;
  std::mt19937 rng(11);
  Tensor a = data({2, 16, 3, 5}, rng), b = data({2, 32, 3, 5}, rng);
  Tensor want = NodeCase("Concat", 13, {a, b}, {attr_int("axis", 1)}).reference();
  for (auto [t, expect_kept] :
       {std::pair{tag::nhwc, true}, std::pair{tag::nChw16c, true}, std::pair{tag::nChw8c, true}, std::pair{tag::nchw, false}}) {
    NodeCase c("Concat", 13, {a, b}, {attr_int("axis", 1)});
    auto k = make_fast_kernel(c.req);
    ASSERT_NE(k, nullptr);
    ASSERT_TRUE(k->can_produce_blocked_output());
    EXPECT_FALSE(k->accepts_layout(0)) << "accepts layouts only once it may write one";
    k->produce_blocked_output();
    ASSERT_TRUE(k->accepts_layout(0));
    dnnl::memory::desc da, db;
    Tensor ba(DType::Float, {1}), bb(DType::Float, {1});
    auto blocked = [&](const Tensor& x, dnnl::memory::desc& d, Tensor& storage) {
      d = dnnl::memory::desc(fast::to_dims(x.shape()), dnnl::memory::data_type::f32, t);
      storage = Tensor(DType::Float, {static_cast<int64_t>(d.get_size() / sizeof(float))});
      dnnl::memory src(fast::plain_desc(x.shape()), fast::cpu_engine(), const_cast<std::byte*>(x.raw()));
      dnnl::memory dst(d, fast::cpu_engine(), storage.raw());
      fast::run_reorder(fast::make_reorder(src.get_desc(), d), src, dst);
      fast::thread_stream().wait();
      return Tensor::view(DType::Float, x.shape(), storage.raw());
    };
    Tensor xa = blocked(a, da, ba), xb = blocked(b, db, bb);
    Tensor y(DType::Float, want.shape());
    std::vector<Tensor*> out{&y};
    std::vector<FastKernel::Layout> out_layouts;
    k->run_with_layouts({&xa, &xb}, {&da, &db}, out, out_layouts);
    ASSERT_EQ(out_layouts.size(), 1u);
    EXPECT_EQ(out_layouts[0] != nullptr, expect_kept) << static_cast<int>(t);
    Tensor got = out_layouts[0] ? layout_to_plain(y, out_layouts[0]) : y;
    EXPECT_TRUE(got == want) << "layout " << static_cast<int>(t);
  }
}

TEST(FastMovement, ConcatAndGatherMatchTheReferenceBitwise) {
  std::mt19937 rng(4);
  Tensor a = data({2, 3, 4}, rng), b = data({2, 1, 4}, rng), c = data({2, 0, 4}, rng);
  expect_bitwise(NodeCase("Concat", 13, {a, b, c, a}, {attr_int("axis", 1)}), "Concat axis 1");
  expect_bitwise(NodeCase("Concat", 13, {a, a}, {attr_int("axis", -1)}), "Concat axis -1");
  expect_bitwise(NodeCase("Concat", 13, {a, a}, {attr_int("axis", 0)}), "Concat axis 0");
  expect_both_trap(NodeCase("Concat", 13, {a, data({3, 3, 4}, rng)}, {attr_int("axis", 1)}), "Concat of different shapes");
  Tensor idx = Tensor::from_vector<int64_t>({2, 2}, {0, -1, 2, 1});
  Tensor idx32 = Tensor::from_vector<int32_t>({3}, {1, 0, 1});
  expect_bitwise(NodeCase("Gather", 13, {a, idx}, {attr_int("axis", 1)}), "Gather axis 1");
  expect_bitwise(NodeCase("Gather", 13, {a, idx32}, {attr_int("axis", 0)}), "Gather int32 axis 0");
  expect_bitwise(NodeCase("Gather", 13, {a, Tensor::scalar<int64_t>(3)}, {attr_int("axis", -1)}), "Gather scalar index");
  expect_both_trap(NodeCase("Gather", 13, {a, i64({3})}, {attr_int("axis", 1)}), "Gather index out of range");
}

TEST(FastMovement, SameBytesOperatorsMatchTheReferenceBitwise) {
  std::mt19937 rng(5);
  Tensor x = data({2, 3, 1, 4}, rng);
  expect_bitwise(NodeCase("Reshape", 13, {x, i64({6, -1})}, {}), "Reshape -1");
  expect_bitwise(NodeCase("Reshape", 13, {x, i64({0, 0, 4})}, {}), "Reshape 0 copies");
  expect_bitwise(NodeCase("Reshape", 14, {data({2, 0}, rng), i64({0, 5})}, {attr_int("allowzero", 1)}), "Reshape allowzero");
  expect_bitwise(NodeCase("Flatten", 13, {x}, {}), "Flatten default");
  expect_bitwise(NodeCase("Flatten", 13, {x}, {attr_int("axis", -1)}), "Flatten -1");
  expect_bitwise(NodeCase("Flatten", 13, {x}, {attr_int("axis", 0)}), "Flatten 0");
  expect_bitwise(NodeCase("Squeeze", 13, {x}, {}), "Squeeze all");
  expect_bitwise(NodeCase("Squeeze", 13, {x, i64({-2})}, {}), "Squeeze -2");
  expect_bitwise(NodeCase("Squeeze", 11, {x}, {attr_ints("axes", {2})}), "Squeeze-11");
  expect_bitwise(NodeCase("Unsqueeze", 13, {x, i64({0, -1})}, {}), "Unsqueeze 0,-1");
  expect_bitwise(NodeCase("Unsqueeze", 11, {x}, {attr_ints("axes", {1})}), "Unsqueeze-11");
  expect_bitwise(NodeCase("Identity", 16, {x}, {}), "Identity");
  expect_both_trap(NodeCase("Reshape", 13, {x, i64({5, -1})}, {}), "Reshape to a size that does not divide");
  expect_both_trap(NodeCase("Reshape", 13, {x, i64({-1, -1})}, {}), "Reshape with two -1");
  expect_both_trap(NodeCase("Squeeze", 13, {x, i64({1})}, {}), "Squeeze of an axis that is not 1");
  expect_both_trap(NodeCase("Unsqueeze", 13, {x, i64({0, 0})}, {}), "Unsqueeze with a repeated axis");
}

TEST(FastMovement, DeclinesWhatItDoesNotServe) {
  std::mt19937 rng(6);
  Tensor ints = Tensor::from_vector<int64_t>({2}, {1, 2});
  EXPECT_EQ(make_fast_kernel(NodeCase("Transpose", 13, {ints}, {}).req), nullptr) << "int64 data";
  EXPECT_EQ(make_fast_kernel(NodeCase("Reshape", 1, {data({2}, rng)}, {attr_ints("shape", {2})}).req), nullptr) << "Reshape-1";
  EXPECT_EQ(make_fast_kernel(NodeCase("Concat", 13, {data({2}, rng), ints}, {attr_int("axis", 0)}).req), nullptr) << "mixed";
  NodeCase unknown("Transpose", 13, {data({2}, rng)}, {});
  unknown.req.input_types = {TypeInfo{}};
  EXPECT_EQ(make_fast_kernel(unknown.req), nullptr) << "unknown element type";
}

TEST(FastResize, NearestMatchesTheReferenceBitwise) {
  std::mt19937 rng(9);
  Tensor x = data({1, 2, 5, 7}, rng);
  Tensor none;
  auto f32 = [](std::vector<float> v) { return Tensor::from_vector<float>({static_cast<int64_t>(v.size())}, v); };
  Tensor up = f32({1, 1, 2, 3}), down = f32({1, 1, 0.6f, 0.45f}), mixed = f32({1, 1, 1.7f, 0.5f});
  expect_bitwise(NodeCase("Resize", 10, {x, up}, {}), "Resize-10 upsample");
  expect_bitwise(NodeCase("Resize", 10, {x, down}, {}), "Resize-10 downsample");
  for (const char* coord : {"half_pixel", "asymmetric", "align_corners", "pytorch_half_pixel", "tf_half_pixel_for_nn"})
    for (const char* nearest : {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"})
      for (const Tensor* scales : {&up, &down, &mixed}) {
        std::vector<onnx::AttributeProto> attrs = {attr_string("coordinate_transformation_mode", coord),
                                                   attr_string("nearest_mode", nearest)};
        expect_bitwise(NodeCase("Resize", 13, {x, none, *scales}, attrs), std::string("Resize-13 ") + coord + " " + nearest);
      }
  expect_bitwise(NodeCase("Resize", 11, {x, f32({}), f32({}), i64({1, 2, 9, 4})}, {}), "Resize-11 sizes");
  expect_bitwise(NodeCase("Resize", 18, {x, none, none, i64({3, 11})},
                          {attr_ints("axes", {2, 3}), attr_string("keep_aspect_ratio_policy", "not_larger")}),
                 "Resize-18 axes, not_larger");
  expect_bitwise(NodeCase("Resize", 19, {x, none, up}, {attr_string("coordinate_transformation_mode", "half_pixel_symmetric")}),
                 "Resize-19 half_pixel_symmetric");
  expect_both_trap(NodeCase("Resize", 13, {x, none, f32({1, 2})}, {}), "Resize with scales of the wrong rank");
  EXPECT_EQ(make_fast_kernel(NodeCase("Resize", 13, {x, none, up}, {attr_string("mode", "linear")}).req), nullptr);
  EXPECT_EQ(
      make_fast_kernel(
          NodeCase("Resize", 13, {x, none, up}, {attr_string("coordinate_transformation_mode", "tf_crop_and_resize")}).req),
      nullptr);
}

// ---- ConvTranspose on oneDNN ----

void expect_close(const NodeCase& c, const std::string& what) {
  Tensor got = c.fast(), want = c.reference();
  ASSERT_EQ(got.shape(), want.shape()) << what;
  auto g = got.values<float>();
  auto w = want.values<float>();
  int bad = 0;
  for (size_t i = 0; i < g.size(); ++i)
    if (!(std::fabs(static_cast<double>(g[i]) - w[i]) <= 1e-5 + 1e-4 * std::fabs(static_cast<double>(w[i]))) && ++bad <= 3)
      ADD_FAILURE() << what << ": element " << i << " got " << g[i] << " want " << w[i];
  EXPECT_EQ(bad, 0) << what;
}

TEST(FastDeconv, MatchesTheReferenceOverAttributeCombinations) {
  std::mt19937 rng(7);
  struct C {
    std::string what;
    Shape x, w;
    std::vector<onnx::AttributeProto> attrs;
    bool bias = true;
  };
  std::vector<C> cases = {
      {"2x2 stride 2", {1, 4, 5, 6}, {4, 3, 2, 2}, {attr_ints("strides", {2, 2})}},
      {"3x3 pads", {2, 3, 5, 5}, {3, 2, 3, 3}, {attr_ints("strides", {2, 2}), attr_ints("pads", {1, 1, 1, 1})}, false},
      {"output_padding",
       {1, 2, 4, 4},
       {2, 2, 3, 3},
       {attr_ints("strides", {2, 2}), attr_ints("pads", {1, 1, 1, 1}), attr_ints("output_padding", {1, 1})}},
      {"groups", {1, 4, 5, 4}, {4, 3, 3, 2}, {attr_int("group", 2), attr_ints("dilations", {2, 1})}},
      {"output_shape", {1, 2, 3, 3}, {2, 2, 3, 3}, {attr_ints("strides", {3, 2}), attr_ints("output_shape", {10, 8})}},
      {"SAME_UPPER", {1, 2, 3, 4}, {2, 1, 3, 3}, {attr_ints("strides", {2, 2}), attr_string("auto_pad", "SAME_UPPER")}},
      {"SAME_LOWER", {1, 2, 3, 4}, {2, 1, 3, 3}, {attr_ints("strides", {2, 2}), attr_string("auto_pad", "SAME_LOWER")}},
      {"1-D", {2, 3, 7}, {3, 2, 4}, {attr_ints("strides", {3}), attr_ints("pads", {1, 2})}},
  };
  for (const auto& k : cases)
    for (int version : {1, 11}) {
      std::vector<Tensor> in = {data(k.x, rng), random_float_tensor(k.w, rng)};
      in[0].data<float>()[1] = 0.5f;  // no NaN here: oneDNN and the reference agree only on finite data
      if (k.bias) in.push_back(random_float_tensor({k.w[1] * (k.attrs.size() && k.attrs[0].name() == "group" ? 2 : 1)}, rng));
      NodeCase c("ConvTranspose", version, in, k.attrs, {1});
      ASSERT_NE(make_fast_kernel(c.req), nullptr) << k.what;
      expect_close(c, "ConvTranspose-" + std::to_string(version) + " " + k.what);
    }
}

TEST(FastDeconv, TrapsAndDeclines) {
  std::mt19937 rng(8);
  Tensor x = data({1, 2, 3, 3}, rng), w = random_float_tensor({2, 2, 3, 3}, rng);
  NodeCase not_constant("ConvTranspose", 11, {x, w}, {});
  EXPECT_EQ(make_fast_kernel(not_constant.req), nullptr) << "weights that are not constant";
  NodeCase bad_bias("ConvTranspose", 11, {x, w, random_float_tensor({3}, rng)}, {}, {1});
  expect_both_trap(bad_bias, "bias of the wrong size");
  NodeCase big_pads("ConvTranspose", 11, {x, w}, {attr_ints("pads", {4, 4, 4, 4})}, {1});
  EXPECT_EQ(make_fast_kernel(big_pads.req), nullptr) << "X's shape known: declined, the reference reports it";
  big_pads.req.input_types[0].shape = std::vector<Dim>(4, Dim{std::nullopt, "d"});
  expect_both_trap(big_pads, "pads larger than the output (X's shape known at run time only)");
}

}  // namespace
}  // namespace sonnx::testing
