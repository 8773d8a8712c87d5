// The fast Split, Pad and Where kernels (optimized/kernels/split.cpp, pad.cpp, where.cpp) against
// the reference kernels, bitwise (elements are copied): every operator version, attribute and
// input forms (constant or not), all Pad modes, broadcasting in each Where input, several element
// types, empty tensors and outputs large enough to be split over two threads. Inputs the
// reference refuses trap in both; requests the kernels cannot serve give null.
#include <omp.h>

#include <cmath>
#include <cstring>
#include <random>
#include <set>
#include <thread>

#include "op_test_util.h"
#include "optimized/kernels/fast_kernel.h"
#include "optimized/kernels/onednn_common.h"
#include "tensor_test_util.h"

namespace sonnx::testing {
namespace {

// Random elements of any fixed-width type (random bits: NaNs with payloads included), bool as 0/1.
Tensor random_tensor(DType type, const Shape& s, std::mt19937& rng) {
  Tensor t(type, s);
  std::byte* p = t.raw();
  std::uniform_int_distribution<int> byte(0, 255);
  for (size_t i = 0; i < t.byte_size(); ++i) p[i] = static_cast<std::byte>(type == DType::Bool ? byte(rng) & 1 : byte(rng));
  return t;
}

Tensor random_bool(const Shape& s, std::mt19937& rng) { return random_tensor(DType::Bool, s, rng); }

// One node with the given inputs (all of known type; those listed in `constant` are constants).
struct PwsCase {
  Node node;
  std::vector<Tensor> inputs;
  FastKernelRequest req;
  std::vector<onnx::AttributeProto> attrs;
  size_t data_input = 0;  // the input whose element type the outputs have
  PwsCase(const std::string& op, int64_t version, std::vector<Tensor> in, std::vector<onnx::AttributeProto> a,
          size_t outputs = 1, std::set<size_t> constant = {})
      : inputs(std::move(in)), attrs(std::move(a)) {
    node.op_type = op;
    node.name = "n";
    for (size_t k = 0; k < outputs; ++k) node.outputs.push_back("y" + std::to_string(k));
    for (size_t i = 0; i < inputs.size(); ++i) node.inputs.push_back(inputs[i].defined() ? "in" + std::to_string(i) : "");
    for (const auto& attr : attrs) node.attributes.push_back(ir_attr(attr));
    req.node = &node;
    req.version = version;
    for (size_t i = 0; i < inputs.size(); ++i) {
      req.input_types.push_back(inputs[i].defined() ? type_of(inputs[i]) : TypeInfo{});
      if (constant.count(i)) req.constants[node.inputs[i]] = &inputs[i];
    }
    if (op == "Where") data_input = 1;
  }
  std::vector<const Tensor*> pointers() const {
    std::vector<const Tensor*> p;
    for (const auto& t : inputs) p.push_back(t.defined() ? &t : nullptr);
    return p;
  }
  std::unique_ptr<FastKernel> kernel() const {
    auto k = make_fast_kernel(req);
    if (!k) throw std::runtime_error("no fast kernel for " + node.op_type);
    return k;
  }
  std::vector<Tensor> run(const FastKernel& k) const {
    std::vector<Shape> shapes = k.output_shapes(pointers());
    if (shapes.size() != node.outputs.size()) throw std::runtime_error("wrong number of output shapes");
    DType type = inputs[data_input].dtype();
    std::vector<Tensor> y;
    for (size_t i = 0; i < shapes.size(); ++i) {
      y.emplace_back(type, shapes[i]);
      if (k.output_bytes(pointers(), std::vector<FastKernel::Layout>(inputs.size(), nullptr), i) !=
          static_cast<int64_t>(y.back().byte_size()))
        throw std::runtime_error("output_bytes disagrees with the output's size");
    }
    std::vector<Tensor*> out;
    for (auto& t : y) out.push_back(&t);
    k.run(pointers(), out);
    return y;
  }
  std::vector<Tensor> fast() const { return run(*kernel()); }
  std::vector<Tensor> reference() const {
    std::vector<Value> in;
    for (const auto& t : inputs) in.push_back(t.defined() ? Value(t) : Value());
    std::vector<Value> out = run_op(node.op_type, req.version, in, attrs, node.outputs.size());
    std::vector<Tensor> r;
    for (auto& v : out) r.push_back(v.tensor);
    return r;
  }
};

void pws_expect_bitwise(const PwsCase& c, const std::string& what) {
  std::vector<Tensor> got, want;
  try {
    got = c.fast();
    want = c.reference();
  } catch (const std::exception& e) {
    FAIL() << what << ": " << e.what();
  }
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t k = 0; k < got.size(); ++k) {
    ASSERT_EQ(got[k].shape(), want[k].shape()) << what << ", output " << k;
    EXPECT_TRUE(got[k] == want[k]) << what << ", output " << k;
  }
}

// The trap's message after "<label> version <v>: ", or "" when f does not trap.
template <class F>
std::string trap_message(F f) {
  try {
    f();
  } catch (const Trap& e) {
    std::string m = e.what();
    size_t at = m.find(": ");
    return at == std::string::npos ? m : m.substr(at + 2);
  }
  return "";
}

// Both trap, with the same message but for the node's label.
void pws_expect_both_trap(const PwsCase& c, const std::string& what) {
  std::string fast = trap_message([&] { c.fast(); }), ref = trap_message([&] { c.reference(); });
  EXPECT_NE(fast, "") << what << " (fast)";
  EXPECT_NE(ref, "") << what << " (reference)";
  EXPECT_EQ(fast, ref) << what;
}

// An attribute the operator cannot take (PadParams and the like): the factory declines the node and
// the reference reports it.
void expect_declined_and_reference_traps(const PwsCase& c, const std::string& what) {
  EXPECT_EQ(make_fast_kernel(c.req), nullptr) << what << " (fast)";
  EXPECT_NE(trap_message([&] { c.reference(); }), "") << what << " (reference)";
}

const DType kTypes[] = {DType::Float,  DType::Int64, DType::UInt8,      DType::Float16,
                        DType::Double, DType::Bool,  DType::Complex128, DType::Float8E4M3FN};

// ---- Split ----

TEST(FastSplit, EveryVersionMatchesTheReferenceBitwise) {
  std::mt19937 rng(1);
  for (DType type : kTypes) {
    std::string t(dtype_name(type));
    Tensor x = random_tensor(type, {4, 6, 5}, rng);
    // Versions 1, 2 and 11: sizes as the attribute, or equal parts.
    for (int v : {1, 2, 11}) {
      std::string at = "Split-" + std::to_string(v) + " " + t;
      pws_expect_bitwise(PwsCase("Split", v, {x}, {attr_int("axis", 1), attr_ints("split", {1, 3, 2})}, 3), at + " split attr");
      pws_expect_bitwise(PwsCase("Split", v, {x}, {attr_int("axis", -1), attr_ints("split", {5, 0})}, 2), at + " empty part");
      pws_expect_bitwise(PwsCase("Split", v, {x}, {attr_int("axis", 1)}, 3), at + " equal parts");
      pws_expect_bitwise(PwsCase("Split", v, {x}, {}, 2), at + " default axis");
    }
    // Version 1: sizes as an input too (integer or float, constant or not).
    for (bool constant : {false, true}) {
      std::set<size_t> c = constant ? std::set<size_t>{1} : std::set<size_t>{};
      pws_expect_bitwise(PwsCase("Split", 1, {x, i64({2, 2, 1})}, {attr_int("axis", 2)}, 3, c), "Split-1 split input " + t);
      pws_expect_bitwise(PwsCase("Split", 1, {x, Tensor::from_vector<float>({2}, {1.7f, 3.2f})}, {}, 2, c),
                         "Split-1 float split input " + t);
    }
    // Versions 13 and 18: sizes as an input (constant or not), or equal parts.
    for (int v : {13, 18}) {
      std::string at = "Split-" + std::to_string(v) + " " + t;
      for (bool constant : {false, true}) {
        std::set<size_t> c = constant ? std::set<size_t>{1} : std::set<size_t>{};
        pws_expect_bitwise(PwsCase("Split", v, {x, i64({3, 1, 0, 2})}, {attr_int("axis", -2)}, 4, c), at + " split input");
        pws_expect_bitwise(PwsCase("Split", v, {x, Tensor::from_vector<int32_t>({2}, {1, 3})}, {}, 2, c), at + " int32 split");
      }
      pws_expect_bitwise(PwsCase("Split", v, {x}, {attr_int("axis", 1)}, 2), at + " equal parts");
      pws_expect_bitwise(PwsCase("Split", v, {x, Tensor()}, {attr_int("axis", 1)}, 6), at + " omitted split");
    }
    // Version 18: num_outputs, the last part smaller when the axis does not divide.
    pws_expect_bitwise(PwsCase("Split", 18, {x}, {attr_int("axis", 1), attr_int("num_outputs", 4)}, 4), "num_outputs 6/4 " + t);
    pws_expect_bitwise(PwsCase("Split", 18, {x}, {attr_int("axis", 2), attr_int("num_outputs", 3)}, 3), "num_outputs 5/3 " + t);
    pws_expect_bitwise(PwsCase("Split", 18, {x}, {attr_int("axis", -1)}, 2), "num_outputs from the outputs 5/2 " + t);
  }
  std::mt19937 rng2(2);
  Tensor empty = random_tensor(DType::Float, {3, 0, 4}, rng2);
  pws_expect_bitwise(PwsCase("Split", 13, {empty}, {attr_int("axis", 1)}, 2), "Split of an empty axis");
  pws_expect_bitwise(PwsCase("Split", 13, {empty, i64({1, 3})}, {attr_int("axis", 2)}, 2), "Split of an empty tensor");
  pws_expect_bitwise(PwsCase("Split", 18, {random_tensor(DType::Float, {7}, rng2)}, {attr_int("num_outputs", 1)}, 1),
                     "one part");
}

TEST(FastSplit, InputsTheReferenceRefusesTrapInBoth) {
  std::mt19937 rng(3);
  Tensor x = random_tensor(DType::Float, {4, 6}, rng);
  pws_expect_both_trap(PwsCase("Split", 13, {x, i64({2, 2})}, {attr_int("axis", 1)}, 2), "sizes that do not add up");
  pws_expect_both_trap(PwsCase("Split", 13, {x, i64({7, -1})}, {attr_int("axis", 1)}, 2), "a negative size");
  pws_expect_both_trap(PwsCase("Split", 13, {x, i64({2, 2, 2})}, {attr_int("axis", 1)}, 2), "more sizes than outputs");
  pws_expect_both_trap(PwsCase("Split", 13, {x, Tensor::from_vector<int64_t>({1, 2}, {3, 3})}, {attr_int("axis", 1)}, 2),
                       "a 2-D split input");
  pws_expect_both_trap(PwsCase("Split", 13, {x, Tensor::from_vector<float>({2}, {3, 3})}, {attr_int("axis", 1)}, 2),
                       "a float split input after version 1");
  pws_expect_both_trap(PwsCase("Split", 13, {x}, {attr_int("axis", 1)}, 4), "equal parts that do not divide");
  pws_expect_both_trap(PwsCase("Split", 2, {x}, {attr_int("axis", 0), attr_ints("split", {1, 2})}, 2), "attribute sizes");
  pws_expect_both_trap(PwsCase("Split", 11, {x}, {attr_int("axis", 2)}, 2), "axis out of range");
  pws_expect_both_trap(PwsCase("Split", 13, {x}, {attr_int("axis", -3)}, 2), "negative axis out of range");
  pws_expect_both_trap(PwsCase("Split", 13, {Tensor::scalar<float>(1)}, {}, 1), "a scalar");
  pws_expect_both_trap(PwsCase("Split", 18, {Tensor::scalar<float>(1)}, {}, 1), "a scalar (18)");
  pws_expect_both_trap(PwsCase("Split", 18, {x}, {attr_int("axis", 1), attr_int("num_outputs", 3)}, 2),
                       "num_outputs != outputs");
  pws_expect_both_trap(PwsCase("Split", 18, {x}, {attr_int("axis", 1), attr_int("num_outputs", 0)}, 2), "num_outputs 0");
  pws_expect_both_trap(PwsCase("Split", 18, {x, i64({3, 3})}, {attr_int("axis", 1), attr_int("num_outputs", 2)}, 2),
                       "split input and num_outputs");
  pws_expect_both_trap(PwsCase("Split", 18, {random_tensor(DType::Float, {5}, rng)}, {}, 4), "5 into 4 parts of 2");
  pws_expect_both_trap(PwsCase("Split", 1, {x, Tensor::from_vector<bool>({2}, {true, true})}, {}, 2), "a bool split input");
}

TEST(FastSplit, DeclinesWhatItDoesNotServe) {
  std::mt19937 rng(4);
  Tensor x = random_tensor(DType::Float, {4, 6}, rng);
  PwsCase unknown("Split", 13, {x}, {}, 2);
  unknown.req.input_types = {TypeInfo{}};
  EXPECT_NE(make_fast_kernel(unknown.req), nullptr) << "an element type unknown when prepared is taken at run time";
  Tensor strings(DType::String, {4});
  EXPECT_EQ(make_fast_kernel(PwsCase("Split", 13, {strings}, {}, 2).req), nullptr) << "string data";
  EXPECT_EQ(make_fast_kernel(PwsCase("Split", 13, {x}, {}, 0).req), nullptr) << "no outputs";
  EXPECT_EQ(make_fast_kernel(PwsCase("Split", 13, {x}, {attr_string("axis", "1")}, 2).req), nullptr) << "axis of type string";
  EXPECT_EQ(make_fast_kernel(PwsCase("Split", 2, {x}, {attr_int("split", 2)}, 2).req), nullptr) << "split of type int";
  EXPECT_NE(make_fast_kernel(PwsCase("Split", 13, {x}, {}, 2).req), nullptr);
}

// ---- Pad ----

TEST(FastPad, EveryVersionAndModeMatchesTheReferenceBitwise) {
  std::mt19937 rng(5);
  const char* modes[] = {"constant", "reflect", "edge", "wrap"};
  struct P {
    std::vector<int64_t> pads;
    std::string what;
  };
  // x is [3, 4, 5]: pads larger than an axis (reflect periodically, wrap round), crops, both.
  std::vector<P> cases = {{{0, 0, 0, 0, 0, 0}, "no pads"},
                          {{1, 2, 3, 2, 1, 0}, "positive"},
                          {{0, 0, 2, 0, 0, 3}, "last axis only"},
                          {{2, 0, 0, 1, 0, 0}, "first axis only"},
                          {{-1, 1, -2, 0, -3, 1}, "crops"},
                          {{0, 9, 7, 0, 6, 11}, "larger than the axes"},
                          {{-2, 0, 4, 1, -1, -2}, "crop and grow one axis"},
                          {{0, -4, 0, 0, 0, 0}, "crop an axis to nothing"}};
  for (DType type : {DType::Float, DType::Int64, DType::UInt8, DType::Double, DType::Float16, DType::Bool, DType::Complex128}) {
    std::string t(dtype_name(type));
    Tensor x = random_tensor(type, {3, 4, 5}, rng);
    Tensor value = random_tensor(type, {}, rng), value1 = random_tensor(type, {1}, rng);
    for (const P& p : cases)
      for (int v : {11, 13, 18, 19, 21, 23, 24, 25})
        for (const char* mode : modes) {
          if (std::string(mode) == "wrap" && v < 19) continue;
          std::string at = "Pad-" + std::to_string(v) + " " + mode + " " + p.what + " " + t;
          std::vector<onnx::AttributeProto> m = {attr_string("mode", mode)};
          for (bool constant : {false, true}) {
            std::set<size_t> c = constant ? std::set<size_t>{1, 2} : std::set<size_t>{};
            pws_expect_bitwise(PwsCase("Pad", v, {x, i64(p.pads)}, m, 1, c), at + " default value");
            pws_expect_bitwise(PwsCase("Pad", v, {x, i64(p.pads), value}, m, 1, c), at + " constant_value");
          }
          pws_expect_bitwise(PwsCase("Pad", v, {x, i64(p.pads), value1}, m, 1), at + " constant_value [1]");
        }
  }
  // Versions 1 and 2: pads and the float value as attributes, data of a floating type.
  for (DType type : {DType::Float, DType::Double, DType::Float16, DType::BFloat16}) {
    std::string t(dtype_name(type));
    Tensor x = random_tensor(type, {3, 4, 5}, rng);
    for (const P& p : cases)
      for (const char* mode : {"constant", "reflect", "edge"}) {
        std::vector<onnx::AttributeProto> m = {attr_string("mode", mode), attr_float("value", -1.3f)};
        pws_expect_bitwise(PwsCase("Pad", 1, {x}, {m[0], m[1], attr_ints("paddings", p.pads)}),
                           "Pad-1 " + std::string(mode) + " " + p.what + " " + t);
        pws_expect_bitwise(PwsCase("Pad", 2, {x}, {m[0], m[1], attr_ints("pads", p.pads)}),
                           "Pad-2 " + std::string(mode) + " " + p.what + " " + t);
      }
    pws_expect_bitwise(PwsCase("Pad", 2, {x}, {attr_ints("pads", {1, 1, 1, 1, 1, 1})}), "Pad-2 default mode and value " + t);
  }
}

TEST(FastPad, AxesInputEmptyTensorsAndScalars) {
  std::mt19937 rng(6);
  Tensor x = random_tensor(DType::Float, {3, 4, 5}, rng);
  Tensor none;
  for (int v : {18, 19, 25})
    for (const char* mode : {"constant", "reflect", "edge", "wrap"}) {
      if (std::string(mode) == "wrap" && v < 19) continue;
      std::vector<onnx::AttributeProto> m = {attr_string("mode", mode)};
      std::string at = "Pad-" + std::to_string(v) + " " + mode;
      for (bool constant : {false, true}) {
        std::set<size_t> c = constant ? std::set<size_t>{1, 3} : std::set<size_t>{};
        pws_expect_bitwise(PwsCase("Pad", v, {x, i64({1, 2, 3, 0}), none, i64({-1, 0})}, m, 1, c), at + " axes -1, 0");
        pws_expect_bitwise(PwsCase("Pad", v, {x, i64({-1, 6}), Tensor::scalar<float>(7), i64({1})}, m, 1, c), at + " axes 1");
        pws_expect_bitwise(PwsCase("Pad", v, {x, i64({}), none, i64({})}, m, 1, c), at + " no axes");
      }
    }
  Tensor empty = random_tensor(DType::Float, {3, 0, 5}, rng);
  pws_expect_bitwise(PwsCase("Pad", 13, {empty, i64({1, 2, 0, 0, 1, 1})}, {}), "constant pad of an empty axis");
  pws_expect_bitwise(PwsCase("Pad", 13, {empty, i64({1, 0, 1, 0, 0, 1})}, {attr_string("mode", "edge")}),
                     "edge, empty axis unpadded");
  pws_expect_bitwise(PwsCase("Pad", 13, {x, i64({0, -4, 0, 0, 0, 0})}, {attr_string("mode", "reflect")}), "cropped to empty");
  pws_expect_bitwise(PwsCase("Pad", 13, {Tensor::scalar<float>(2.5f), i64({})}, {}), "a scalar");
  pws_expect_bitwise(PwsCase("Pad", 13, {random_tensor(DType::Int32, {7}, rng), i64({2, 3}), Tensor::scalar<int32_t>(-9)}, {}),
                     "1-D int32");
  pws_expect_bitwise(PwsCase("Pad", 19, {random_tensor(DType::Int8, {1, 2}, rng), i64({3, 5, 4, 7})},
                             {attr_string("mode", "wrap")}),
                     "wrap around a single element");
  pws_expect_bitwise(PwsCase("Pad", 13, {random_tensor(DType::Int8, {1, 2}, rng), i64({3, 5, 4, 7})},
                             {attr_string("mode", "reflect")}),
                     "reflect a single element");
  pws_expect_bitwise(PwsCase("Pad", 13, {x, Tensor::from_vector<int32_t>({6}, {1, 0, 2, 0, 3, 1})}, {}), "int32 pads");
}

TEST(FastPad, InputsTheReferenceRefusesTrapInBoth) {
  std::mt19937 rng(7);
  Tensor x = random_tensor(DType::Float, {3, 4}, rng), none;
  pws_expect_both_trap(PwsCase("Pad", 13, {x, i64({1, 1, 1})}, {}), "pads of the wrong length");
  pws_expect_both_trap(PwsCase("Pad", 13, {x, Tensor::from_vector<int64_t>({2, 2}, {1, 1, 1, 1})}, {}), "2-D pads");
  pws_expect_both_trap(PwsCase("Pad", 13, {x, Tensor::from_vector<float>({4}, {1, 1, 1, 1})}, {}), "float pads");
  expect_declined_and_reference_traps(PwsCase("Pad", 13, {x, i64({1, 1, 1, 1})}, {attr_string("mode", "mirror")}),
                                      "unknown mode");
  expect_declined_and_reference_traps(PwsCase("Pad", 18, {x, i64({1, 1, 1, 1})}, {attr_string("mode", "wrap")}),
                                      "wrap before 19");
  pws_expect_both_trap(PwsCase("Pad", 13, {x, i64({1, 1, 1, 1}), Tensor::scalar<double>(1)}, {}),
                       "constant_value of another type");
  pws_expect_both_trap(PwsCase("Pad", 13, {x, i64({1, 1, 1, 1}), Tensor::from_vector<float>({2}, {1, 2})}, {}),
                       "two constant values");
  pws_expect_both_trap(PwsCase("Pad", 13, {x, i64({-2, 0, -2, 0})}, {}), "a negative size");
  pws_expect_both_trap(PwsCase("Pad", 13, {x, i64({int64_t{1} << 62, 0, 1, 0})}, {}), "an absurd pad");
  Tensor empty = random_tensor(DType::Float, {0, 4}, rng);
  for (const char* mode : {"reflect", "edge"})
    pws_expect_both_trap(PwsCase("Pad", 13, {empty, i64({1, 0, 0, 0})}, {attr_string("mode", mode)}),
                         std::string(mode) + " of an empty axis");
  pws_expect_both_trap(PwsCase("Pad", 19, {x, i64({-3, 0, 1, 0})}, {attr_string("mode", "wrap")}),
                       "wrap of a cropped-away axis");
  pws_expect_both_trap(PwsCase("Pad", 18, {x, i64({1, 1, 1, 1}), none, i64({0, -2})}, {}), "an axis given twice");
  pws_expect_both_trap(PwsCase("Pad", 18, {x, i64({1, 1}), none, i64({2})}, {}), "an axis out of range");
  pws_expect_both_trap(PwsCase("Pad", 18, {x, i64({1, 1, 1, 1}), none, i64({1})}, {}), "pads for more axes than given");
  pws_expect_both_trap(PwsCase("Pad", 1, {Tensor::from_vector<int64_t>({2}, {1, 2})}, {attr_ints("paddings", {1, 1})}),
                       "Pad-1 of integers");
  pws_expect_both_trap(PwsCase("Pad", 2, {x}, {attr_ints("pads", {1, 1})}), "Pad-2 pads of the wrong length");
}

TEST(FastPad, DeclinesWhatItDoesNotServe) {
  std::mt19937 rng(8);
  Tensor x = random_tensor(DType::Float, {3, 4}, rng);
  PwsCase unknown("Pad", 13, {x, i64({1, 1, 1, 1})}, {});
  unknown.req.input_types[0] = TypeInfo{};
  EXPECT_NE(make_fast_kernel(unknown.req), nullptr) << "an element type unknown when prepared is taken at run time";
  EXPECT_EQ(make_fast_kernel(PwsCase("Pad", 13, {Tensor(DType::String, {2}), i64({1, 1})}, {}).req), nullptr) << "strings";
  EXPECT_EQ(make_fast_kernel(PwsCase("Pad", 1, {x}, {attr_ints("pads", {1, 1, 1, 1})}).req), nullptr)
      << "Pad-1 without paddings";
  EXPECT_EQ(make_fast_kernel(PwsCase("Pad", 2, {x}, {}).req), nullptr) << "Pad-2 without pads";
  EXPECT_EQ(make_fast_kernel(PwsCase("Pad", 13, {x, i64({1, 1, 1, 1})}, {attr_int("mode", 1)}).req), nullptr)
      << "mode of type int";
  EXPECT_EQ(make_fast_kernel(PwsCase("Pad", 13, {x, i64({1, 1, 1, 1})}, {}, 2).req), nullptr) << "two outputs";
  EXPECT_NE(make_fast_kernel(PwsCase("Pad", 13, {x, i64({1, 1, 1, 1})}, {}).req), nullptr);
}

// ---- Where ----

TEST(FastWhere, BroadcastingInEveryInputMatchesTheReferenceBitwise) {
  std::mt19937 rng(9);
  struct S {
    Shape c, x, y;
  };
  std::vector<S> shapes = {{{2, 3, 4}, {2, 3, 4}, {2, 3, 4}},
                           {{3, 4}, {2, 3, 4}, {2, 3, 4}},  // the condition broadcast
                           {{2, 3, 4}, {4}, {2, 3, 4}},     // X broadcast
                           {{2, 3, 4}, {2, 3, 4}, {3, 1}},  // Y broadcast
                           {{2, 1, 4}, {1, 3, 1}, {2, 3, 1}},
                           {{1, 1, 1}, {5, 1, 3}, {}},
                           {{}, {}, {}},
                           {{4, 1}, {1, 5}, {4, 5}},
                           {{3, 1, 5, 1}, {1, 2, 5, 3}, {2, 1, 1}},
                           {{2, 0, 3}, {1, 3}, {2, 1, 1}},  // empty output
                           {{0}, {1}, {}}};
  for (int v : {9, 16})
    for (DType type : kTypes)
      for (const S& s : shapes) {
        std::string at = "Where-" + std::to_string(v) + " " + std::string(dtype_name(type)) + " " + shape_str(s.c) + " " +
                         shape_str(s.x) + " " + shape_str(s.y);
        Tensor c = random_bool(s.c, rng), x = random_tensor(type, s.x, rng), y = random_tensor(type, s.y, rng);
        pws_expect_bitwise(PwsCase("Where", v, {c, x, y}, {}), at);
        pws_expect_bitwise(PwsCase("Where", v, {c, x, y}, {}, 1, {0, 2}), at + " constant condition and Y");
      }
}

TEST(FastWhere, InputsTheReferenceRefusesTrapInBoth) {
  std::mt19937 rng(10);
  Tensor c = random_bool({2, 3}, rng), x = random_tensor(DType::Float, {2, 3}, rng);
  pws_expect_both_trap(PwsCase("Where", 16, {random_tensor(DType::UInt8, {2, 3}, rng), x, x}, {}), "a uint8 condition");
  pws_expect_both_trap(PwsCase("Where", 16, {c, x, random_tensor(DType::Double, {2, 3}, rng)}, {}),
                       "X and Y of different types");
  pws_expect_both_trap(PwsCase("Where", 9, {c, x, random_tensor(DType::Float, {3, 2}, rng)}, {}),
                       "shapes that do not broadcast");
  pws_expect_both_trap(PwsCase("Where", 9, {random_bool({4}, rng), x, x}, {}), "a condition that does not broadcast");
  pws_expect_both_trap(PwsCase("Where", 9, {c, random_tensor(DType::Float, {0, 3}, rng), x}, {}), "0 against 2");
}

TEST(FastWhere, DeclinesWhatItDoesNotServe) {
  std::mt19937 rng(11);
  Tensor c = random_bool({2}, rng), x = random_tensor(DType::Float, {2}, rng);
  PwsCase unknown("Where", 16, {c, x, x}, {});
  unknown.req.input_types[1] = TypeInfo{};
  EXPECT_NE(make_fast_kernel(unknown.req), nullptr) << "an X of a type unknown when prepared is taken at run time";
  Tensor s(DType::String, {2});
  EXPECT_EQ(make_fast_kernel(PwsCase("Where", 16, {c, s, s}, {}).req), nullptr) << "strings";
  EXPECT_EQ(make_fast_kernel(PwsCase("Where", 16, {c, x}, {}).req), nullptr) << "two inputs";
  EXPECT_NE(make_fast_kernel(PwsCase("Where", 16, {c, x, x}, {}).req), nullptr);
}

// ---- Large outputs on two threads, and one kernel run by several threads at once ----

TEST(FastPadWhereSplit, LargeOutputsOnTwoThreadsMatchTheReferenceBitwise) {
  std::mt19937 rng(12);
  int saved = omp_get_max_threads();
  omp_set_num_threads(2);
  Tensor x = random_tensor(DType::Float, {3, 5, 300, 301}, rng);  // 1.35M elements
  pws_expect_bitwise(PwsCase("Split", 18, {x}, {attr_int("axis", 3), attr_int("num_outputs", 3)}, 3), "large Split axis 3");
  pws_expect_bitwise(PwsCase("Split", 13, {x, i64({1, 2})}, {attr_int("axis", 0)}, 2), "large Split axis 0");
  pws_expect_bitwise(PwsCase("Pad", 19, {x, i64({0, 1, 2, 3, 0, 2, -1, 4})}, {attr_string("mode", "reflect")}),
                     "large reflect Pad");
  pws_expect_bitwise(PwsCase("Pad", 19, {x, i64({1, 0, 0, 0, 1, 0, 0, 0})}, {attr_string("mode", "wrap")}),
                     "large Pad of axis 0");
  pws_expect_bitwise(PwsCase("Pad", 19, {x, i64({0, 0, 3, 0, 0, 0, 0, 0}), Tensor::scalar<float>(2)}, {}), "large constant Pad");
  pws_expect_bitwise(PwsCase("Pad", 19, {x, i64({0, 0, 0, 0, 0, 0, 0, 0})}, {}), "large Pad without pads");
  Tensor c = random_bool({5, 1, 301}, rng), y = random_tensor(DType::Float, {300, 1}, rng);
  pws_expect_bitwise(PwsCase("Where", 16, {c, x, y}, {}), "large Where with broadcasting");
  pws_expect_bitwise(PwsCase("Where", 16, {random_bool(x.shape(), rng), x, random_tensor(DType::Float, x.shape(), rng)}, {}),
                     "large Where of equal shapes");
  pws_expect_bitwise(PwsCase("Where", 16, {random_bool({3, 1, 1, 1}, rng), x, y}, {}), "large Where, condition per image");
  omp_set_num_threads(saved);
}

TEST(FastPadWhereSplit, OneKernelRunsOnSeveralThreadsAtOnce) {
  std::mt19937 rng(13);
  Tensor x = random_tensor(DType::Int64, {6, 40, 50}, rng);
  std::vector<PwsCase> cases;
  cases.reserve(3);  // a PwsCase's request points into it: no moves
  cases.emplace_back("Split", 13, std::vector<Tensor>{x, i64({1, 2, 3})}, std::vector<onnx::AttributeProto>{}, 3);
  cases.emplace_back("Pad", 19, std::vector<Tensor>{x, i64({1, 2, 3, 4, 5, 6})},
                     std::vector<onnx::AttributeProto>{attr_string("mode", "edge")});
  cases.emplace_back("Where", 16, std::vector<Tensor>{random_bool({40, 1}, rng), x, random_tensor(DType::Int64, {50}, rng)},
                     std::vector<onnx::AttributeProto>{});
  for (const PwsCase& c : cases) {
    auto k = c.kernel();
    std::vector<Tensor> want = c.reference();
    std::vector<std::vector<Tensor>> got(4);
    std::vector<std::thread> threads;
    for (size_t t = 0; t < got.size(); ++t) threads.emplace_back([&, t] { got[t] = c.run(*k); });
    for (auto& t : threads) t.join();
    for (const auto& g : got) {
      ASSERT_EQ(g.size(), want.size()) << c.node.op_type;
      for (size_t i = 0; i < g.size(); ++i) EXPECT_TRUE(g[i] == want[i]) << c.node.op_type << " output " << i;
    }
  }
}

}  // namespace
}  // namespace sonnx::testing
