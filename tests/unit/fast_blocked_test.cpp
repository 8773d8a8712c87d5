// The fast kernels that read oneDNN's channel-blocked layouts besides Conv (GlobalAveragePool and
// the binary and unary elementwise kernels, optimized/kernels/blocked_layout.h): on blocked inputs made by
// oneDNN reorders, their results converted back to plain are bitwise the reference's, padding
// lanes stay zero; and in a squeeze-excitation block the values stay blocked between the kernels.
#include <dnnl.hpp>
#include <limits>
#include <random>

#include "op_test_util.h"
#include "optimized/exec/make_executor.h"
#include "optimized/kernels/fast_kernel.h"
#include "optimized/kernels/onednn_common.h"
#include "reference/infer/infer_types.h"
#include "reference/interp/interpreter.h"
#include "tensor_test_util.h"

namespace sonnx::testing {
namespace {

using dnnl::memory;

// A tensor of `plain`'s shape whose bytes are in `tag` (padding lanes zero), and the layout token.
struct Blocked {
  memory::desc desc;
  Tensor storage, view;
  Blocked(const Tensor& plain, memory::format_tag tag)
      : desc(fast::to_dims(plain.shape()), memory::data_type::f32, tag),
        storage(DType::UInt8, {static_cast<int64_t>(desc.get_size())}),
        view(Tensor::view(DType::Float, plain.shape(), storage.raw())) {
    memory src(fast::plain_desc(plain.shape()), fast::cpu_engine(), const_cast<std::byte*>(plain.raw()));
    memory dst(desc, fast::cpu_engine(), view.raw());
    fast::run_reorder(fast::make_reorder(src.get_desc(), desc), src, dst);
    fast::thread_stream().wait();
  }
  FastKernel::Layout layout() const { return &desc; }
};

// Random values with a NaN and a zero where the tensor is large enough.
Tensor special_tensor(const Shape& s, std::mt19937& rng, bool nan = true) {
  Tensor t = random_float_tensor(s, rng, -2, 2);
  if (t.size() > 2) {
    if (nan) t.data<float>()[1] = std::numeric_limits<float>::quiet_NaN();
    t.data<float>()[2] = 0.0f;
  }
  return t;
}

FastKernelRequest request(Node& node, const std::string& op, const std::vector<Shape>& shapes) {
  node.op_type = op;
  node.name = "n";
  node.outputs = {"y"};
  FastKernelRequest r;
  r.node = &node;
  r.version = 14;
  for (size_t i = 0; i < shapes.size(); ++i) {
    node.inputs.push_back("x" + std::to_string(i));
    r.input_types.push_back(float_type(shapes[i]));
  }
  return r;
}

// The channel-blocked layouts oneDNN picks for convolutions, and channels-last.
const memory::format_tag kTags[] = {memory::format_tag::nChw8c, memory::format_tag::nChw16c, memory::format_tag::nhwc};

TEST(FastBlocked, GlobalAveragePoolReadsABlockedInput) {
  std::mt19937 rng(1);
  for (auto tag : kTags)
    for (const Shape& s : {Shape{1, 24, 5, 7}, Shape{2, 32, 3, 3}, Shape{1, 3, 4, 4}}) {
      Tensor x = special_tensor(s, rng, false);
      Blocked bx(x, tag);
      Node node;
      auto k = make_fast_kernel(request(node, "GlobalAveragePool", {s}));
      ASSERT_NE(k, nullptr);
      ASSERT_TRUE(k->accepts_layout(0));
      Tensor y(DType::Float, k->output_shapes({&bx.view})[0]);
      std::vector<FastKernel::Layout> out_layouts;
      k->run_with_layouts({&bx.view}, {bx.layout()}, {&y}, out_layouts);
      EXPECT_EQ(out_layouts.at(0), nullptr);
      Tensor want = run_op("GlobalAveragePool", 14, {Value(x)}, {})[0].tensor;
      EXPECT_TRUE(y == want) << shape_str(s);
    }
}

// MaxPool on a blocked input writes its result blocked alike (oneDNN's pooling, exact on finite
// data); with a NaN in the input it computes on a plain copy and says its result is plain. Either
// way the values are bitwise the reference's.
TEST(FastBlocked, MaxPoolPassesTheBlockedLayoutThrough) {
  std::mt19937 rng(4);
  struct C {
    Shape x;
    std::vector<onnx::AttributeProto> attrs;
  };
  const std::vector<C> cases = {
      {{1, 24, 9, 9}, {attr_ints("kernel_shape", {3, 3}), attr_ints("strides", {2, 2})}},
      {{2, 20, 8, 7}, {attr_ints("kernel_shape", {3, 3}), attr_ints("strides", {2, 2}), attr_int("ceil_mode", 1)}},
      {{1, 16, 6, 6}, {attr_ints("kernel_shape", {2, 2}), attr_ints("pads", {1, 1, 1, 1})}},
  };
  for (auto tag : kTags)
    for (const C& c : cases)
      for (bool nan : {false, true}) {
        Tensor x = special_tensor(c.x, rng, nan);
        Blocked bx(x, tag);
        Node node;
        FastKernelRequest r = request(node, "MaxPool", {c.x});
        r.version = 12;
        for (const auto& a : c.attrs) node.attributes.push_back(ir_attr(a));
        auto k = make_fast_kernel(r);
        ASSERT_NE(k, nullptr);
        ASSERT_TRUE(k->can_produce_blocked_output());
        k->produce_blocked_output();
        ASSERT_TRUE(k->accepts_layout(0));
        std::string what = shape_str(c.x) + (nan ? " with NaN" : "");
        std::vector<const Tensor*> in{&bx.view};
        Shape ys = k->output_shapes(in)[0];
        Tensor storage(DType::UInt8, {k->output_bytes(in, {bx.layout()}, 0)});
        Tensor y = Tensor::view(DType::Float, ys, storage.raw());
        std::vector<FastKernel::Layout> out_layouts;
        k->run_with_layouts(in, {bx.layout()}, {&y}, out_layouts);
        EXPECT_EQ(out_layouts.at(0) == nullptr, nan) << what;
        Tensor got = out_layouts[0] ? layout_to_plain(y, out_layouts[0]) : y;
        Tensor want = run_op("MaxPool", 12, {Value(x)}, c.attrs)[0].tensor;
        EXPECT_TRUE(got == want) << what;
      }
}

// The result stays in the blocked operand's layout when the other operand is blocked alike, plain
// of the same shape, per channel, per (n, c) (plain or blocked) or a scalar; in either position.
TEST(FastBlocked, BinaryKeepsTheBlockedLayoutBitwise) {
  std::mt19937 rng(2);
  const Shape xs{2, 20, 3, 5};
  const std::vector<Shape> others{{2, 20, 3, 5}, {1, 20, 1, 1}, {20, 1, 1}, {2, 20, 1, 1}, {}, {1}, {2, 1, 1, 1}};
  for (auto tag : kTags)
    for (const char* op : {"Add", "Sub", "Mul", "Div"})
      for (const Shape& os : others)
        for (bool other_blocked : {false, true})
          for (bool swapped : {false, true}) {
            // A blocked other operand: the same shape, or per (n, c) (a Conv on pooled values).
            if (other_blocked && os != xs && !(os.size() == 4 && os[2] == 1 && os[3] == 1)) continue;
            Tensor x = special_tensor(xs, rng), o = special_tensor(os, rng);
            Blocked bx(x, tag), bo(other_blocked ? o : x, tag);
            const Tensor* ox = other_blocked ? &bo.view : &o;
            FastKernel::Layout ol = other_blocked ? bo.layout() : nullptr;
            std::vector<const Tensor*> in{&bx.view, ox};
            std::vector<FastKernel::Layout> layouts{bx.layout(), ol};
            if (swapped) {
              std::swap(in[0], in[1]);
              std::swap(layouts[0], layouts[1]);
            }
            Node node;
            auto k = make_fast_kernel(request(node, op, {in[0]->shape(), in[1]->shape()}));
            ASSERT_NE(k, nullptr);
            k->expect_blocked_input();
            ASSERT_TRUE(k->can_produce_blocked_output());
            k->produce_blocked_output();
            std::string what = std::string(op) + " " + shape_str(os) + (other_blocked ? " blocked" : "") +
                               (swapped ? " swapped" : "");
            int64_t bytes = k->output_bytes(in, layouts, 0);
            ASSERT_EQ(bytes, static_cast<int64_t>(bx.desc.get_size())) << what;
            Tensor storage(DType::UInt8, {bytes});
            std::fill_n(storage.data<uint8_t>(), bytes, uint8_t{0xff});  // garbage: the kernel writes the padding
            Tensor y = Tensor::view(DType::Float, xs, storage.raw());
            std::vector<FastKernel::Layout> out_layouts;
            k->run_with_layouts(in, layouts, {&y}, out_layouts);
            ASSERT_NE(out_layouts.at(0), nullptr) << what;
            std::vector<Value> args{Value(x), Value(o)};
            if (swapped) std::swap(args[0], args[1]);
            Tensor want = run_op(op, 14, args, {})[0].tensor;
            EXPECT_TRUE(layout_to_plain(y, out_layouts[0]) == want) << what;
            // The padding lanes are zero: the blocked buffer equals a reorder of the plain result.
            Blocked bw(want, tag);
            const float* got = y.data<float>();
            const float* exp = bw.view.data<float>();
            for (size_t i = 0; i < bx.desc.get_size() / sizeof(float); ++i)
              if (!(got[i] == exp[i] || (got[i] != got[i] && exp[i] != exp[i]))) {
                ADD_FAILURE() << what << " at " << i;
                break;
              }
          }
}

// Operands the blocked loops do not pair (a non-channel broadcast, different blockings) and a
// result wanted plain: computed on plain copies, bitwise equal still.
TEST(FastBlocked, BinaryFallsBackToPlainWhereTheBlockedLoopsDoNotApply) {
  std::mt19937 rng(3);
  const Shape xs{1, 16, 4, 6};
  for (bool produce : {false, true})
    for (int variant = 0; variant < 2; ++variant) {
      Tensor x = special_tensor(xs, rng);
      Tensor o = variant == 0 ? special_tensor({1, 1, 1, 6}, rng) : special_tensor(xs, rng);
      Blocked bx(x, memory::format_tag::nChw16c), bo(o, memory::format_tag::nChw8c);
      std::vector<const Tensor*> in{&bx.view, variant == 0 ? &o : &bo.view};
      std::vector<FastKernel::Layout> layouts{bx.layout(), variant == 0 ? nullptr : bo.layout()};
      Node node;
      auto k = make_fast_kernel(request(node, "Mul", {xs, o.shape()}));
      ASSERT_NE(k, nullptr);
      k->expect_blocked_input();
      if (produce) k->produce_blocked_output();
      EXPECT_EQ(k->output_bytes(in, layouts, 0), static_cast<int64_t>(x.size() * sizeof(float)));
      Tensor y(DType::Float, xs);
      std::vector<FastKernel::Layout> out_layouts;
      k->run_with_layouts(in, layouts, {&y}, out_layouts);
      EXPECT_EQ(out_layouts.at(0), nullptr);
      EXPECT_TRUE(y == run_op("Mul", 14, {Value(x), Value(o)}, {})[0].tensor) << variant << produce;
    }
}

// fast:unary on a blocked X: the same bits as on the plain X, padding lanes zero (Sigmoid(0) is not).
TEST(FastBlocked, UnaryKeepsTheBlockedLayout) {
  std::mt19937 rng(6);
  const Shape xs{2, 20, 3, 3};
  for (auto tag : kTags)
    for (const char* op : {"Relu", "Sigmoid", "Neg"}) {
      Tensor x = special_tensor(xs, rng);
      Blocked bx(x, tag);
      Node node;
      auto k = make_fast_kernel(request(node, op, {xs}));
      ASSERT_NE(k, nullptr) << op;
      ASSERT_EQ(k->name(), "fast:unary");
      k->expect_blocked_input();
      ASSERT_TRUE(k->can_produce_blocked_output());
      k->produce_blocked_output();
      int64_t bytes = k->output_bytes({&bx.view}, {bx.layout()}, 0);
      ASSERT_EQ(bytes, static_cast<int64_t>(bx.desc.get_size()));
      Tensor storage(DType::UInt8, {bytes});
      Tensor y = Tensor::view(DType::Float, xs, storage.raw());
      std::vector<FastKernel::Layout> out_layouts;
      k->run_with_layouts({&bx.view}, {bx.layout()}, {&y}, out_layouts);
      ASSERT_NE(out_layouts.at(0), nullptr);
      Tensor want(DType::Float, xs);
      k->run({&x}, {&want});
      EXPECT_TRUE(layout_to_plain(y, out_layouts[0]) == want) << op;
      Blocked bw(want, tag);
      const float* got = y.data<float>();
      const float* exp = bw.view.data<float>();
      for (size_t i = 0; i < bx.desc.get_size() / sizeof(float); ++i)
        if (!(got[i] == exp[i] || (got[i] != got[i] && exp[i] != exp[i]))) {
          ADD_FAILURE() << op << " at " << i;
          break;
        }
    }
}

// Squeeze-excitation: Conv → GlobalAveragePool → Conv+Relu → Conv → Sigmoid → Mul(c1, s), then
// Add(c1) and a last Conv. c1, the Mul and the Add stay blocked; the results match the reference.
TEST(FastBlocked, ASqueezeExcitationBlockStaysBlocked) {
  Model m = testing::empty_model(13);
  std::mt19937 rng(4);
  auto node = [&](const std::string& op, std::vector<std::string> in, const std::string& out,
                  std::vector<Attribute> attrs = {}) {
    testing::add_node(m.graph, testing::ir_node(op, std::move(in), {out}, std::move(attrs)));
  };
  auto weight = [&](const std::string& name, const Shape& s) {
    m.graph.initializers.emplace_back(name, random_float_tensor(s, rng));
    return name;
  };
  m.graph.inputs.push_back({"X", float_type({1, 8, 10, 10})});
  node("Conv", {"X", weight("W1", {24, 8, 3, 3}), weight("B1", {24})}, "c1", {ir_attr(attr_ints("pads", {1, 1, 1, 1}))});
  node("GlobalAveragePool", {"c1"}, "g");
  node("Conv", {"g", weight("W2", {6, 24, 1, 1}), weight("B2", {6})}, "r");
  node("Relu", {"r"}, "ra");
  node("Conv", {"ra", weight("W3", {24, 6, 1, 1}), weight("B3", {24})}, "e");
  node("Sigmoid", {"e"}, "s");
  node("Mul", {"c1", "s"}, "m");
  node("Add", {"m", "c1"}, "a");
  node("Conv", {"a", weight("W4", {8, 24, 1, 1})}, "Y");
  m.graph.outputs.push_back({"Y", float_type({1, 8, 10, 10})});
  add_inferred_types(m);  // the fast kernels need the intermediate types

  auto exec = make_optimized_executor(m, "linear");
  std::map<std::string, bool> blocked;
  for (const auto& s : exec->compiled()->root().steps()) blocked[s.node->outputs[0]] = s.blocked_output;
  EXPECT_TRUE(blocked["c1"]);
  EXPECT_TRUE(blocked["m"]);
  EXPECT_TRUE(blocked["a"]);
  std::mt19937 in_rng(5);
  NamedValues in;
  in["X"] = Value(random_float_tensor({1, 8, 10, 10}, in_rng));
  NamedValues want = Interpreter(m).run(in);
  for (int run = 0; run < 2; ++run) {  // the planning run, then in the arena
    NamedValues got = exec->run(in);
    const Tensor &a = got.at("Y").tensor, &e = want.at("Y").tensor;
    ASSERT_EQ(a.shape(), e.shape());
    for (int64_t i = 0; i < e.size(); ++i)
      ASSERT_NEAR(a.data<float>()[i], e.data<float>()[i], 1e-4 + 1e-4 * std::fabs(e.data<float>()[i])) << i;
  }
  const auto& k = exec->kernels_run();
  EXPECT_EQ(k.count("fast:globalaveragepool") ? k.at("fast:globalaveragepool") : 0, 1);
  EXPECT_EQ(k.count("fast:binary") ? k.at("fast:binary") : 0, 2);
  for (const auto& name : optimized_executor_names()) {
    NamedValues got = make_optimized_executor(m, name)->run(in);
    const Tensor &a = got.at("Y").tensor, &e = want.at("Y").tensor;
    for (int64_t i = 0; i < e.size(); ++i)
      ASSERT_NEAR(a.data<float>()[i], e.data<float>()[i], 1e-4 + 1e-4 * std::fabs(e.data<float>()[i])) << name << " " << i;
  }
}

}  // namespace
}  // namespace sonnx::testing
