// Tests of the control-flow, sequence, optional, string, random and training-optimizer kernels
// (helper group e1). Expected values are worked out by hand from the ONNX operator specs.
#include <cmath>
#include <limits>
#include <set>

#include "op_test_util.h"

namespace sonnx::testing {
namespace {

// --- Building subgraphs -----------------------------------------------------------------------------
onnx::NodeProto node(const std::string& op, const std::vector<std::string>& in, const std::vector<std::string>& out,
                     const std::vector<onnx::AttributeProto>& attrs = {}) {
  onnx::NodeProto n;
  n.set_op_type(op);
  for (const auto& s : in) n.add_input(s);
  for (const auto& s : out) n.add_output(s);
  for (const auto& a : attrs) *n.add_attribute() = a;
  return n;
}

// A value_info; elem 0 leaves the type out, dims of -1 are left unknown.
onnx::ValueInfoProto vi(const std::string& name, int elem = 0, const std::vector<int64_t>& dims = {},
                        bool has_shape = false) {
  onnx::ValueInfoProto v;
  v.set_name(name);
  if (elem) {
    auto* tt = v.mutable_type()->mutable_tensor_type();
    tt->set_elem_type(elem);
    if (has_shape) {
      auto* shape = tt->mutable_shape();
      for (int64_t d : dims) {
        auto* dim = shape->add_dim();
        if (d >= 0) dim->set_dim_value(d);
      }
    }
  }
  return v;
}

onnx::GraphProto graph(const std::string& name, const std::vector<onnx::NodeProto>& nodes,
                       const std::vector<onnx::ValueInfoProto>& inputs, const std::vector<onnx::ValueInfoProto>& outputs) {
  onnx::GraphProto g;
  g.set_name(name);
  for (const auto& n : nodes) *g.add_node() = n;
  for (const auto& i : inputs) *g.add_input() = i;
  for (const auto& o : outputs) *g.add_output() = o;
  return g;
}

onnx::AttributeProto attr_graph(const std::string& name, const onnx::GraphProto& g) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::GRAPH);
  *a.mutable_g() = g;
  return a;
}

onnx::AttributeProto attr_type(const std::string& name, int elem) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::TYPE_PROTO);
  a.mutable_tp()->mutable_tensor_type()->set_elem_type(elem);
  return a;
}

onnx::AttributeProto const_value(const Tensor& t) {
  onnx::AttributeProto a;
  a.set_name("value");
  a.set_type(onnx::AttributeProto::TENSOR);
  onnx::TensorProto& p = *a.mutable_t();
  p.set_data_type(static_cast<int>(t.dtype()));
  for (int64_t d : t.shape()) p.add_dims(d);
  for (int64_t i = 0; i < t.size(); ++i) {
    if (t.dtype() == DType::Float) p.add_float_data(t.data<float>()[i]);
    else p.add_int64_data(t.as_int64(i));
  }
  return a;
}

constexpr int kFloat = 1, kInt64 = 7, kBool = 9;

Value seq_of(const std::vector<Value>& elems, DType elem = DType::Undefined) { return Value::make_sequence(elems, elem); }

template <class F>
void expect_trap(F f, const std::string& fragment) {
  try {
    f();
    FAIL() << "expected a trap mentioning '" << fragment << "'";
  } catch (const Trap& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

Value bool_scalar(bool b) { return Value(Tensor::scalar<bool>(b)); }
Value i64_scalar(int64_t v) { return Value(Tensor::scalar<int64_t>(v)); }

// --- If -------------------------------------------------------------------------------------------
std::vector<onnx::AttributeProto> if_branches() {
  auto then_g = graph("then", {node("Constant", {}, {"t"}, {const_value(Tensor::from_vector<float>({2}, {1, 2}))})}, {},
                      {vi("t")});
  auto else_g = graph("else", {node("Constant", {}, {"e"}, {const_value(Tensor::from_vector<float>({1}, {9}))})}, {},
                      {vi("e")});
  return {attr_graph("then_branch", then_g), attr_graph("else_branch", else_g)};
}

TEST(E1IfOp, SelectsBranchByCondition) {
  auto t = run_op("If", 16, {bool_scalar(true)}, if_branches());
  EXPECT_EQ(values_of<float>(t[0]), (std::vector<float>{1, 2}));
  auto e = run_op("If", 11, {tensor<bool>({1}, {false})}, if_branches());  // a [1]-shaped cond is fine
  EXPECT_EQ(values_of<float>(e[0]), (std::vector<float>{9}));
}

TEST(E1IfOp, NonBoolOrMultiElementConditionTraps) {
  expect_trap([] { run_op("If", 16, {tensor<bool>({2}, {true, false})}, if_branches()); }, "exactly one element");
  expect_trap([] { run_op("If", 16, {i64_scalar(1)}, if_branches()); }, "bool");
}

TEST(E1IfOp, BranchSeesOuterScope) {
  // The then-branch returns Identity(in0), a name of the enclosing graph.
  auto then_g = graph("then", {node("Identity", {"in1"}, {"r"})}, {}, {vi("r")});
  auto else_g = graph("else", {node("Neg", {"in1"}, {"r2"})}, {}, {vi("r2")});
  // run_op names inputs in0, in1, ...: in0 is the condition, in1 only captured by the branches.
  auto out = run_op("If", 16, {bool_scalar(true), tensor<float>({1}, {5})},
                    {attr_graph("then_branch", then_g), attr_graph("else_branch", else_g)});
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{5}));
}

// --- Loop -----------------------------------------------------------------------------------------
// Body: (i, cond_in, acc) -> (cond_out = cond_in, acc + i, scan = acc + i), all int64 scalars.
onnx::GraphProto sum_body(bool keep_going_while_small = false) {
  std::vector<onnx::NodeProto> nodes = {node("Add", {"acc", "i"}, {"acc_out"}), node("Identity", {"acc_out"}, {"scan"})};
  if (keep_going_while_small) {
    // cond_out = acc_out < 3
    nodes.push_back(node("Constant", {}, {"three"}, {const_value(Tensor::scalar<int64_t>(3))}));
    nodes.push_back(node("Less", {"acc_out", "three"}, {"cond_out"}));
  } else {
    nodes.push_back(node("Identity", {"cond_in"}, {"cond_out"}));
  }
  return graph("body", nodes, {vi("i", kInt64, {}, true), vi("cond_in", kBool, {}, true), vi("acc", kInt64, {}, true)},
               {vi("cond_out", kBool, {}, true), vi("acc_out", kInt64, {}, true), vi("scan", kInt64, {}, true)});
}

TEST(E1LoopOp, TripCountCarriesAndStacksScanOutputs) {
  // acc: 10 -> 10 -> 11 -> 13 (adding i = 0, 1, 2); scan outputs [10, 11, 13].
  auto out = run_op("Loop", 16, {i64_scalar(3), bool_scalar(true), i64_scalar(10)}, {attr_graph("body", sum_body())}, 2);
  EXPECT_EQ(values_of<int64_t>(out[0]), (std::vector<int64_t>{13}));
  EXPECT_EQ(out[1].tensor.shape(), (Shape{3}));
  EXPECT_EQ(values_of<int64_t>(out[1]), (std::vector<int64_t>{10, 11, 13}));
}

TEST(E1LoopOp, ConditionStopsEarlyWithoutTripCount) {
  // acc 0 -> 0 (i=0, 0<3 go on) -> 1 (i=1, go on) -> 3 (i=2, 3<3 false: stop).
  auto out = run_op("Loop", 11, {Value(), bool_scalar(true), i64_scalar(0)}, {attr_graph("body", sum_body(true))}, 2);
  EXPECT_EQ(values_of<int64_t>(out[0]), (std::vector<int64_t>{3}));
  EXPECT_EQ(values_of<int64_t>(out[1]), (std::vector<int64_t>{0, 1, 3}));
}

TEST(E1LoopOp, FalseInitialConditionRunsZeroTimesWithTypedEmptyScan) {
  auto out = run_op("Loop", 13, {i64_scalar(5), bool_scalar(false), i64_scalar(7)}, {attr_graph("body", sum_body())}, 2);
  EXPECT_EQ(values_of<int64_t>(out[0]), (std::vector<int64_t>{7}));
  EXPECT_EQ(out[1].tensor.dtype(), DType::Int64);
  EXPECT_EQ(out[1].tensor.shape(), (Shape{0}));
}

TEST(E1LoopOp, NegativeTripCountRunsZeroTimes) {
  auto out = run_op("Loop", 16, {i64_scalar(-2), Value(), i64_scalar(7)}, {attr_graph("body", sum_body())}, 2);
  EXPECT_EQ(values_of<int64_t>(out[0]), (std::vector<int64_t>{7}));
  EXPECT_EQ(out[1].tensor.size(), 0);
}

TEST(E1LoopOp, BodyConditionIgnoredWhenConditionInputOmitted) {
  // The body would stop after acc >= 3, but with cond omitted only M counts: 0,1,3,6,10.
  auto out = run_op("Loop", 16, {i64_scalar(5), Value(), i64_scalar(0)}, {attr_graph("body", sum_body(true))}, 2);
  EXPECT_EQ(values_of<int64_t>(out[0]), (std::vector<int64_t>{10}));
  EXPECT_EQ(values_of<int64_t>(out[1]), (std::vector<int64_t>{0, 1, 3, 6, 10}));
}

TEST(E1LoopOp, NoTripCountAndNoConditionTraps) {
  expect_trap([] { run_op("Loop", 16, {Value(), Value(), i64_scalar(0)}, {attr_graph("body", sum_body())}, 2); },
              "never terminates");
}

TEST(E1LoopOp, ScanOutputsStackVectorsOnNewAxis) {
  // Body: (i, c, x[2]) -> (c, x, x * 2); scan output [M, 2].
  auto body = graph("body",
                    {node("Identity", {"c"}, {"c_out"}), node("Identity", {"x"}, {"x_out"}),
                     node("Add", {"x", "x"}, {"y"})},
                    {vi("i"), vi("c"), vi("x")}, {vi("c_out"), vi("x_out"), vi("y", kFloat, {2}, true)});
  auto out = run_op("Loop", 16, {i64_scalar(2), Value(), tensor<float>({2}, {1, -1})}, {attr_graph("body", body)}, 2);
  EXPECT_EQ(out[1].tensor.shape(), (Shape{2, 2}));
  EXPECT_EQ(values_of<float>(out[1]), (std::vector<float>{2, -2, 2, -2}));
  auto none = run_op("Loop", 16, {i64_scalar(0), Value(), tensor<float>({2}, {1, -1})}, {attr_graph("body", body)}, 2);
  EXPECT_EQ(none[1].tensor.shape(), (Shape{0, 2}));  // from the body's declared [2]
  EXPECT_EQ(none[1].tensor.dtype(), DType::Float);
}

TEST(E1LoopOp, CarriesSequences) {
  // Body appends the iteration number to the carried sequence.
  auto body = graph("body", {node("Identity", {"c"}, {"c_out"}), node("SequenceInsert", {"s", "i"}, {"s_out"})},
                    {vi("i"), vi("c"), vi("s")}, {vi("c_out"), vi("s_out")});
  auto out = run_op("Loop", 13, {i64_scalar(3), Value(), seq_of({}, DType::Int64)}, {attr_graph("body", body)}, 1);
  ASSERT_TRUE(out[0].is_sequence());
  ASSERT_EQ(out[0].sequence.size(), 3u);
  EXPECT_EQ(values_of<int64_t>(out[0].sequence[2]), (std::vector<int64_t>{2}));
}

// --- Scan -----------------------------------------------------------------------------------------
// Body: (sum, x) -> (sum + x, sum + x) over float vectors.
onnx::GraphProto running_sum_body(const std::vector<int64_t>& elem_dims = {2}) {
  return graph("body", {node("Add", {"sum", "x"}, {"sum_out"}), node("Identity", {"sum_out"}, {"so"})},
               {vi("sum"), vi("x")}, {vi("sum_out"), vi("so", kFloat, elem_dims, true)});
}

TEST(E1ScanOp, Version9ForwardSum) {
  auto out = run_op("Scan", 9, {tensor<float>({2}, {0, 0}), tensor<float>({3, 2}, {1, 2, 3, 4, 5, 6})},
                    {attr_graph("body", running_sum_body()), attr_int("num_scan_inputs", 1)}, 2);
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{9, 12}));
  EXPECT_EQ(out[1].tensor.shape(), (Shape{3, 2}));
  EXPECT_EQ(values_of<float>(out[1]), (std::vector<float>{1, 2, 4, 6, 9, 12}));
}

TEST(E1ScanOp, InputAxisReverseDirectionAndOutputAxisPrepend) {
  // x is [2, 3]; scanning axis 1 gives columns [1,4], [2,5], [3,6]; reversed: [3,6], [2,5], [1,4].
  // Running sums: [3,6], [5,11], [6,15]. Prepending reverses them: [6,15], [5,11], [3,6], stacked on
  // output axis 1: [[6,5,3],[15,11,6]].
  auto out = run_op("Scan", 16, {tensor<float>({2}, {0, 0}), tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6})},
                    {attr_graph("body", running_sum_body()), attr_int("num_scan_inputs", 1),
                     attr_ints("scan_input_axes", {-1}), attr_ints("scan_input_directions", {1}),
                     attr_ints("scan_output_axes", {1}), attr_ints("scan_output_directions", {1})},
                    2);
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{6, 15}));
  EXPECT_EQ(out[1].tensor.shape(), (Shape{2, 3}));
  EXPECT_EQ(values_of<float>(out[1]), (std::vector<float>{6, 5, 3, 15, 11, 6}));
}

TEST(E1ScanOp, NegativeAxisNeedsVersion11) {
  expect_trap(
      [] {
        run_op("Scan", 9, {tensor<float>({2}, {0, 0}), tensor<float>({3, 2}, {1, 2, 3, 4, 5, 6})},
               {attr_graph("body", running_sum_body()), attr_int("num_scan_inputs", 1), attr_ints("scan_input_axes", {-2})},
               2);
      },
      "version 11");
}

TEST(E1ScanOp, ZeroLengthSequenceGivesEmptyOutputFromDeclaredType) {
  auto out = run_op("Scan", 11, {tensor<float>({2}, {7, 8}), Value(Tensor(DType::Float, {0, 2}))},
                    {attr_graph("body", running_sum_body()), attr_int("num_scan_inputs", 1)}, 2);
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{7, 8}));
  EXPECT_EQ(out[1].tensor.shape(), (Shape{0, 2}));
}

TEST(E1ScanOp, Version8BatchesWithSequenceLensPadsWithZeros) {
  // Batch 0 runs 2 steps of its 3, batch 1 all 3.
  // batch 0: x = [1,1],[2,2],(ignored) -> sums [1,1],[3,3], padding [0,0]
  // batch 1: x = [1,0],[2,0],[3,0] -> sums [1,0],[3,0],[6,0]
  auto out = run_op("Scan", 8,
                    {tensor<int64_t>({2}, {2, 3}), tensor<float>({2, 2}, {0, 0, 0, 0}),
                     tensor<float>({2, 3, 2}, {1, 1, 2, 2, 9, 9, 1, 0, 2, 0, 3, 0})},
                    {attr_graph("body", running_sum_body()), attr_int("num_scan_inputs", 1)}, 2);
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{3, 3, 6, 0}));
  EXPECT_EQ(out[1].tensor.shape(), (Shape{2, 3, 2}));
  EXPECT_EQ(values_of<float>(out[1]), (std::vector<float>{1, 1, 3, 3, 0, 0, 1, 0, 3, 0, 6, 0}));
  // Reverse direction: [3,0],[2,0],[1,0] -> sums [3,0],[5,0],[6,0].
  auto rev = run_op("Scan", 8,
                    {Value(), tensor<float>({1, 2}, {0, 0}), tensor<float>({1, 3, 2}, {1, 0, 2, 0, 3, 0})},
                    {attr_graph("body", running_sum_body()), attr_int("num_scan_inputs", 1), attr_ints("directions", {1})},
                    2);
  EXPECT_EQ(values_of<float>(rev[1]), (std::vector<float>{3, 0, 5, 0, 6, 0}));
}

TEST(E1ScanOp, SequenceLensOutOfRangeTraps) {
  expect_trap(
      [] {
        run_op("Scan", 8, {tensor<int64_t>({1}, {4}), tensor<float>({1, 2}, {0, 0}), tensor<float>({1, 3, 2}, {1, 1, 2, 2, 3, 3})},
               {attr_graph("body", running_sum_body()), attr_int("num_scan_inputs", 1)}, 2);
      },
      "sequence_lens");
}

// --- Sequences ------------------------------------------------------------------------------------
Value abc_seq() {
  return seq_of({tensor<int64_t>({1}, {1}), tensor<int64_t>({2}, {2, 2}), tensor<int64_t>({3}, {3, 3, 3})});
}

TEST(E1SequenceOps, ConstructEmptyAndLength) {
  auto s = run_op("SequenceConstruct", 11, {tensor<float>({1}, {1}), tensor<float>({0}, {})});
  ASSERT_TRUE(s[0].is_sequence());
  EXPECT_EQ(s[0].sequence.size(), 2u);
  EXPECT_EQ(s[0].sequence_elem, DType::Float);
  expect_trap([] { run_op("SequenceConstruct", 11, {tensor<float>({1}, {1}), tensor<int64_t>({1}, {1})}); },
              "different element types");
  auto e = run_op("SequenceEmpty", 11, {}, {attr_int("dtype", 7)});
  EXPECT_TRUE(e[0].sequence.empty());
  EXPECT_EQ(e[0].sequence_elem, DType::Int64);
  EXPECT_EQ(run_op("SequenceEmpty", 11, {})[0].sequence_elem, DType::Float);
  EXPECT_EQ(values_of<int64_t>(run_op("SequenceLength", 11, {abc_seq()})[0]), (std::vector<int64_t>{3}));
  auto len0 = run_op("SequenceLength", 11, {seq_of({}, DType::Float)});
  EXPECT_EQ(len0[0].tensor.shape(), Shape{});
  EXPECT_EQ(values_of<int64_t>(len0[0]), (std::vector<int64_t>{0}));
}

TEST(E1SequenceOps, InsertAtNegativeAndEndPositions) {
  // position -1 inserts before the last element: [1], [2,2], [9], [3,3,3].
  auto out = run_op("SequenceInsert", 11, {abc_seq(), tensor<int64_t>({1}, {9}), Value(Tensor::scalar<int32_t>(-1))});
  ASSERT_EQ(out[0].sequence.size(), 4u);
  EXPECT_EQ(values_of<int64_t>(out[0].sequence[2]), (std::vector<int64_t>{9}));
  auto end = run_op("SequenceInsert", 11, {abc_seq(), tensor<int64_t>({1}, {9}), i64_scalar(3)});
  EXPECT_EQ(values_of<int64_t>(end[0].sequence[3]), (std::vector<int64_t>{9}));
  expect_trap([] { run_op("SequenceInsert", 11, {abc_seq(), tensor<int64_t>({1}, {9}), i64_scalar(4)}); }, "outside");
  expect_trap([] { run_op("SequenceInsert", 11, {abc_seq(), tensor<float>({1}, {9})}); }, "cannot insert");
}

TEST(E1SequenceOps, AtAndErase) {
  EXPECT_EQ(values_of<int64_t>(run_op("SequenceAt", 11, {abc_seq(), i64_scalar(-3)})[0]), (std::vector<int64_t>{1}));
  expect_trap([] { run_op("SequenceAt", 11, {abc_seq(), i64_scalar(3)}); }, "outside [-3, 2]");
  auto erased = run_op("SequenceErase", 11, {abc_seq()});  // default: the last
  ASSERT_EQ(erased[0].sequence.size(), 2u);
  EXPECT_EQ(values_of<int64_t>(erased[0].sequence[1]), (std::vector<int64_t>{2, 2}));
  auto front = run_op("SequenceErase", 11, {abc_seq(), i64_scalar(-3)});
  EXPECT_EQ(values_of<int64_t>(front[0].sequence[0]), (std::vector<int64_t>{2, 2}));
  expect_trap([] { run_op("SequenceErase", 11, {seq_of({}, DType::Float)}); }, "outside");
}

TEST(E1SequenceOps, SplitToSequenceScalarSplitLastChunkShorter) {
  auto out = run_op("SplitToSequence", 11, {tensor<float>({2, 5}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}), i64_scalar(2)},
                    {attr_int("axis", -1)});
  ASSERT_EQ(out[0].sequence.size(), 3u);
  EXPECT_EQ(out[0].sequence[2].tensor.shape(), (Shape{2, 1}));
  EXPECT_EQ(values_of<float>(out[0].sequence[2]), (std::vector<float>{4, 9}));
  EXPECT_EQ(values_of<float>(out[0].sequence[0]), (std::vector<float>{0, 1, 5, 6}));
  // A split longer than the dim gives one piece (and must not overflow while stepping).
  auto big = run_op("SplitToSequence", 11, {tensor<float>({3}, {1, 2, 3}), i64_scalar(std::numeric_limits<int64_t>::max())});
  ASSERT_EQ(big[0].sequence.size(), 1u);
  EXPECT_EQ(big[0].sequence[0].tensor.shape(), (Shape{3}));
}

TEST(E1SequenceOps, SplitToSequenceNoSplitKeepdimsZeroAndListSplit) {
  auto sq = run_op("SplitToSequence", 11, {tensor<int64_t>({3, 2}, {1, 2, 3, 4, 5, 6})}, {attr_int("keepdims", 0)});
  ASSERT_EQ(sq[0].sequence.size(), 3u);
  EXPECT_EQ(sq[0].sequence[1].tensor.shape(), (Shape{2}));
  EXPECT_EQ(values_of<int64_t>(sq[0].sequence[1]), (std::vector<int64_t>{3, 4}));
  auto kept = run_op("SplitToSequence", 11, {tensor<int64_t>({3, 2}, {1, 2, 3, 4, 5, 6})});
  EXPECT_EQ(kept[0].sequence[1].tensor.shape(), (Shape{1, 2}));
  auto list = run_op("SplitToSequence", 11, {tensor<int64_t>({3, 2}, {1, 2, 3, 4, 5, 6}), tensor<int32_t>({2}, {1, 2})});
  EXPECT_EQ(list[0].sequence[1].tensor.shape(), (Shape{2, 2}));
  expect_trap([] { run_op("SplitToSequence", 11, {tensor<int64_t>({3}, {1, 2, 3}), tensor<int64_t>({2}, {1, 1})}); },
              "sum to 2");
  expect_trap([] { run_op("SplitToSequence", 11, {tensor<int64_t>({3}, {1, 2, 3}), i64_scalar(0)}); }, "positive");
  expect_trap([] { run_op("SplitToSequence", 11, {tensor<int64_t>({3}, {1, 2, 3}), tensor<int64_t>({2}, {-1, 4})}); },
              "negative");
  // Zero-length pieces in a 1-D split are accepted (ONNX's test_sequence_model8 relies on it).
  auto zero = run_op("SplitToSequence", 11, {tensor<int64_t>({3}, {1, 2, 3}), tensor<int64_t>({3}, {0, 3, 0})});
  ASSERT_EQ(zero[0].sequence.size(), 3u);
  EXPECT_EQ(zero[0].sequence[0].tensor.shape(), (Shape{0}));
  EXPECT_EQ(values_of<int64_t>(zero[0].sequence[1]), (std::vector<int64_t>{1, 2, 3}));
  auto empty = run_op("SplitToSequence", 11, {Value(Tensor(DType::Float, {0, 4}))});
  EXPECT_TRUE(empty[0].sequence.empty());
}

TEST(E1SequenceOps, ConcatFromSequenceConcatAndStack) {
  Value s = seq_of({tensor<float>({1, 2}, {1, 2}), tensor<float>({1, 2}, {3, 4})});
  auto cat = run_op("ConcatFromSequence", 11, {s}, {attr_int("axis", -1)});
  EXPECT_EQ(cat[0].tensor.shape(), (Shape{1, 4}));
  EXPECT_EQ(values_of<float>(cat[0]), (std::vector<float>{1, 2, 3, 4}));
  // new_axis=1, axis=-1 inserts the new axis last: [1, 2, 2] with [i, j, k] = elem k [i, j].
  auto stack = run_op("ConcatFromSequence", 11, {s}, {attr_int("axis", -1), attr_int("new_axis", 1)});
  EXPECT_EQ(stack[0].tensor.shape(), (Shape{1, 2, 2}));
  EXPECT_EQ(values_of<float>(stack[0]), (std::vector<float>{1, 3, 2, 4}));
  auto scalars = run_op("ConcatFromSequence", 11, {seq_of({tensor<float>({}, {5}), tensor<float>({}, {6})})},
                        {attr_int("axis", 0), attr_int("new_axis", 1)});
  EXPECT_EQ(scalars[0].tensor.shape(), (Shape{2}));
  expect_trap([] { run_op("ConcatFromSequence", 11, {seq_of({}, DType::Float)}, {attr_int("axis", 0)}); }, "empty");
  expect_trap([&] { run_op("ConcatFromSequence", 11, {s}, {attr_int("axis", 2)}); }, "axis");
}

TEST(E1SequenceMapOp, MapsOverSequenceWithTensorBroadcastInput) {
  auto body = graph("body", {node("Add", {"a", "b"}, {"c"})}, {vi("a"), vi("b")}, {vi("c", kFloat)});
  Value s = seq_of({tensor<float>({1}, {1}), tensor<float>({2}, {2, 3})});
  auto out = run_op("SequenceMap", 17, {s, tensor<float>({1}, {10})}, {attr_graph("body", body)});
  ASSERT_EQ(out[0].sequence.size(), 2u);
  EXPECT_EQ(values_of<float>(out[0].sequence[1]), (std::vector<float>{12, 13}));
  auto empty = run_op("SequenceMap", 17, {seq_of({}, DType::Float), tensor<float>({1}, {10})}, {attr_graph("body", body)});
  EXPECT_TRUE(empty[0].sequence.empty());
  EXPECT_EQ(empty[0].sequence_elem, DType::Float);
  expect_trap([&] { run_op("SequenceMap", 17, {s, seq_of({tensor<float>({1}, {1})})}, {attr_graph("body", body)}); },
              "elements");
}

// --- Optional -------------------------------------------------------------------------------------
TEST(E1OptionalOps, WrapTestAndUnwrap) {
  auto full = run_op("Optional", 15, {tensor<float>({1}, {4})});
  ASSERT_TRUE(full[0].is_optional());
  ASSERT_TRUE(full[0].optional);
  auto empty = run_op("Optional", 15, {}, {attr_type("type", kFloat)});
  ASSERT_TRUE(empty[0].is_optional());
  EXPECT_FALSE(empty[0].optional);
  EXPECT_EQ(values_of<bool>(run_op("OptionalHasElement", 15, {full[0]})[0]), (std::vector<bool>{true}));
  EXPECT_EQ(values_of<bool>(run_op("OptionalHasElement", 15, {empty[0]})[0]), (std::vector<bool>{false}));
  EXPECT_EQ(values_of<float>(run_op("OptionalGetElement", 15, {full[0]})[0]), (std::vector<float>{4}));
  expect_trap([&] { run_op("OptionalGetElement", 15, {empty[0]}); }, "empty");
  expect_trap([] { run_op("Optional", 15, {}); }, "'type'");
  auto seq = run_op("OptionalGetElement", 15, {Value::make_optional(abc_seq())});
  EXPECT_TRUE(seq[0].is_sequence());
}

// --- StringNormalizer ------------------------------------------------------------------------------
std::vector<std::string> strings_of(const Value& v) { return values_of<std::string>(v); }

TEST(E1StringNormalizerOp, CaseInsensitiveStopwordsAndUpper) {
  auto out = run_op("StringNormalizer", 10, {tensor<std::string>({1, 3}, {"Monday", "tuesday", "MONDAY"})},
                    {attr_strings("stopwords", {"monday"}), attr_string("case_change_action", "UPPER")});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 1}));
  EXPECT_EQ(strings_of(out[0]), (std::vector<std::string>{"TUESDAY"}));
}

TEST(E1StringNormalizerOp, CaseSensitiveKeepsOtherCase) {
  auto out = run_op("StringNormalizer", 10, {tensor<std::string>({2}, {"Monday", "monday"})},
                    {attr_strings("stopwords", {"monday"}), attr_int("is_case_sensitive", 1),
                     attr_string("case_change_action", "LOWER")});
  EXPECT_EQ(strings_of(out[0]), (std::vector<std::string>{"monday"}));
}

TEST(E1StringNormalizerOp, EverythingRemovedGivesOneEmptyString) {
  auto one_d = run_op("StringNormalizer", 10, {tensor<std::string>({2}, {"a", "A"})}, {attr_strings("stopwords", {"a"})});
  EXPECT_EQ(one_d[0].tensor.shape(), (Shape{1}));
  EXPECT_EQ(strings_of(one_d[0]), (std::vector<std::string>{""}));
  auto two_d = run_op("StringNormalizer", 10, {tensor<std::string>({1, 1}, {"a"})}, {attr_strings("stopwords", {"a"})});
  EXPECT_EQ(two_d[0].tensor.shape(), (Shape{1, 1}));
}

TEST(E1StringNormalizerOp, Utf8CaseMapping) {
  // é (U+00E9) -> É (U+00C9); ß has no single-letter capital and stays; Greek σ -> Σ; ж -> Ж.
  auto up = run_op("StringNormalizer", 10, {tensor<std::string>({1}, {"caf\xC3\xA9 stra\xC3\x9F" "e \xCF\x83\xD0\xB6"})},
                   {attr_string("case_change_action", "UPPER"), attr_string("locale", "en_US")});
  EXPECT_EQ(strings_of(up[0])[0], "CAF\xC3\x89 STRA\xC3\x9F" "E \xCE\xA3\xD0\x96");
  auto low = run_op("StringNormalizer", 10, {tensor<std::string>({1}, {"\xC4\xB0\xC5\xB8Q"})},
                    {attr_string("case_change_action", "LOWER")});
  // İ (U+0130) -> i, Ÿ (U+0178) -> ÿ (U+00FF), Q -> q
  EXPECT_EQ(strings_of(low[0])[0], "i\xC3\xBFq");
}

TEST(E1StringNormalizerOp, InvalidUtf8AndBadShapeTrap) {
  expect_trap([] { run_op("StringNormalizer", 10, {tensor<std::string>({1}, {"\xC3"})}, {attr_string("case_change_action", "UPPER")}); },
              "UTF-8");
  expect_trap([] { run_op("StringNormalizer", 10, {tensor<std::string>({2, 1}, {"a", "b"})}); }, "[C] or [1, C]");
}

// --- Random ---------------------------------------------------------------------------------------
TEST(E1RandomOps, UniformShapeTypeRangeAndSeedDeterminism) {
  auto a = run_op("RandomUniform", 1, {}, {attr_ints("shape", {3, 4}), attr_float("low", -2), attr_float("high", -1),
                                          attr_float("seed", 3), attr_int("dtype", 11)});
  EXPECT_EQ(a[0].tensor.dtype(), DType::Double);
  EXPECT_EQ(a[0].tensor.shape(), (Shape{3, 4}));
  for (double v : values_of<double>(a[0])) {
    EXPECT_GE(v, -2.0);
    EXPECT_LT(v, -1.0);
  }
  auto b = run_op("RandomUniform", 1, {}, {attr_ints("shape", {3, 4}), attr_float("low", -2), attr_float("high", -1),
                                          attr_float("seed", 3), attr_int("dtype", 11)});
  EXPECT_EQ(values_of<double>(a[0]), values_of<double>(b[0]));
  std::set<double> distinct;
  for (double v : values_of<double>(a[0])) distinct.insert(v);
  EXPECT_GT(distinct.size(), 1u);
}

TEST(E1RandomOps, NormalLikeTakesShapeAndTypeFromInput) {
  auto out = run_op("RandomNormalLike", 1, {Value(Tensor(DType::Float16, {2, 0, 3}))}, {attr_float("mean", 5)});
  EXPECT_EQ(out[0].tensor.dtype(), DType::Float16);
  EXPECT_EQ(out[0].tensor.shape(), (Shape{2, 0, 3}));
  expect_trap([] { run_op("RandomUniformLike", 1, {tensor<int32_t>({1}, {1})}); }, "not float16, float or double");
  auto typed = run_op("RandomUniformLike", 1, {tensor<int32_t>({2}, {1, 1})}, {attr_int("dtype", 1)});
  EXPECT_EQ(typed[0].tensor.dtype(), DType::Float);
}

TEST(E1RandomOps, NormalMeanIsRoughlyRight) {
  auto out = run_op("RandomNormal", 1, {}, {attr_ints("shape", {4000}), attr_float("mean", 3), attr_float("scale", 0.5f)});
  double sum = 0;
  for (float v : values_of<float>(out[0])) sum += v;
  // Standard error of the mean: 0.5 / sqrt(4000) ~ 0.008; allow 6 of them.
  EXPECT_NEAR(sum / 4000, 3.0, 0.05);
}

TEST(E1RandomOps, BernoulliCertainProbabilitiesAndDtype) {
  auto out = run_op("Bernoulli", 15, {tensor<double>({4}, {0, 1, 0, 1})}, {attr_int("dtype", 7)});
  EXPECT_EQ(out[0].tensor.dtype(), DType::Int64);
  EXPECT_EQ(values_of<int64_t>(out[0]), (std::vector<int64_t>{0, 1, 0, 1}));
  auto same_type = run_op("Bernoulli", 15, {tensor<float>({2}, {1, 0})});
  EXPECT_EQ(values_of<float>(same_type[0]), (std::vector<float>{1, 0}));
  expect_trap([] { run_op("Bernoulli", 15, {tensor<float>({1}, {1.5f})}); }, "outside [0, 1]");
  expect_trap([] { run_op("Bernoulli", 15, {tensor<float>({1}, {std::nanf("")})}); }, "outside [0, 1]");
}

TEST(E1RandomOps, MultinomialOnlyDrawsPossibleClasses) {
  float ninf = -std::numeric_limits<float>::infinity();
  auto out = run_op("Multinomial", 7, {tensor<float>({2, 3}, {ninf, 0, ninf, 0, ninf, ninf})},
                    {attr_int("sample_size", 5), attr_int("dtype", 7)});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{2, 5}));
  EXPECT_EQ(values_of<int64_t>(out[0]), (std::vector<int64_t>{1, 1, 1, 1, 1, 0, 0, 0, 0, 0}));
  auto i32 = run_op("Multinomial", 7, {tensor<float>({1, 2}, {0, 0})});
  EXPECT_EQ(i32[0].tensor.dtype(), DType::Int32);
  EXPECT_EQ(i32[0].tensor.shape(), (Shape{1, 1}));
  expect_trap([&] { run_op("Multinomial", 7, {tensor<float>({1, 2}, {ninf, ninf})}); }, "no possible class");
}

// --- Training optimizers ------------------------------------------------------------------------------
const std::string kTraining = "ai.onnx.preview.training";

TEST(E1TrainingOps, AdagradStep) {
  // r = 1 / (1 + 1 * 1) = 0.5; G_reg = 0 * X + 2 = 2; H_new = 5 + 4 = 9; X_new = 3 - 0.5 * 2 / (3 + 0) = 8/3.
  auto out = run_op("Adagrad", 1,
                    {Value(Tensor::scalar<float>(1)), i64_scalar(1), tensor<float>({1}, {3}), tensor<float>({1}, {2}),
                     tensor<float>({1}, {5})},
                    {attr_float("decay_factor", 1), attr_float("epsilon", 0)}, 2, kTraining);
  EXPECT_FLOAT_EQ(values_of<float>(out[0])[0], 8.f / 3.f);
  EXPECT_FLOAT_EQ(values_of<float>(out[1])[0], 9.f);
}

TEST(E1TrainingOps, AdamFirstStepAndBiasCorrection) {
  // T=0: R_adj = R = 1; G_reg = 0.5*2 + 1 = 2; V_new = 0.5*0 + 0.5*2 = 1; H_new = 0.75*0 + 0.25*4 = 1;
  // X_new = 2 - 1 * 1 / (1 + 0) = 1; X_final = (1 - 0.5) * 1 = 0.5.
  std::vector<onnx::AttributeProto> attrs = {attr_float("alpha", 0.5f), attr_float("beta", 0.75f), attr_float("epsilon", 0),
                                             attr_float("norm_coefficient", 0.5f),
                                             attr_float("norm_coefficient_post", 0.5f)};
  auto out = run_op("Adam", 1,
                    {Value(Tensor::scalar<double>(1)), i64_scalar(0), tensor<double>({1}, {2}), tensor<double>({1}, {1}),
                     tensor<double>({1}, {0}), tensor<double>({1}, {0})},
                    attrs, 3, kTraining);
  EXPECT_DOUBLE_EQ(values_of<double>(out[0])[0], 0.5);
  EXPECT_DOUBLE_EQ(values_of<double>(out[1])[0], 1.0);
  EXPECT_DOUBLE_EQ(values_of<double>(out[2])[0], 1.0);
  // T=1: R_adj = sqrt(1 - 0.75) / (1 - 0.5) = 1, so the same numbers.
  auto t1 = run_op("Adam", 1,
                   {Value(Tensor::scalar<double>(1)), i64_scalar(1), tensor<double>({1}, {2}), tensor<double>({1}, {1}),
                    tensor<double>({1}, {0}), tensor<double>({1}, {0})},
                   attrs, 3, kTraining);
  EXPECT_DOUBLE_EQ(values_of<double>(t1[0])[0], 0.5);
}

TEST(E1TrainingOps, MomentumStandardAndNesterovWithTwoTensors) {
  // X1=1, G1=1, V1=2; X2=[0,4], G2=[2,0], V2=[0,0]; R=0.5, T=1, alpha=0.5, beta=2, norm=0.
  // standard: V1_new = 1 + 2*1 = 3, X1_new = 1 - 1.5 = -0.5; V2_new = [4, 0], X2_new = [-2, 4].
  // nesterov: X1_new = 1 - 0.5*(1 + 0.5*3) = -0.25; X2_new = [0 - 0.5*(2 + 2), 4] = [-2, 4].
  std::vector<Value> in = {Value(Tensor::scalar<float>(0.5f)), i64_scalar(1), tensor<float>({}, {1}),
                           tensor<float>({2}, {0, 4}), tensor<float>({}, {1}), tensor<float>({2}, {2, 0}),
                           tensor<float>({}, {2}), tensor<float>({2}, {0, 0})};
  auto attrs = [](const std::string& mode) {
    return std::vector<onnx::AttributeProto>{attr_float("alpha", 0.5f), attr_float("beta", 2), attr_float("norm_coefficient", 0),
                                             attr_string("mode", mode)};
  };
  auto s = run_op("Momentum", 1, in, attrs("standard"), 4, kTraining);
  EXPECT_FLOAT_EQ(values_of<float>(s[0])[0], -0.5f);
  EXPECT_EQ(values_of<float>(s[1]), (std::vector<float>{-2, 4}));
  EXPECT_FLOAT_EQ(values_of<float>(s[2])[0], 3.f);
  EXPECT_EQ(values_of<float>(s[3]), (std::vector<float>{4, 0}));
  auto n = run_op("Momentum", 1, in, attrs("nesterov"), 4, kTraining);
  EXPECT_FLOAT_EQ(values_of<float>(n[0])[0], -0.25f);
  EXPECT_EQ(values_of<float>(n[1]), (std::vector<float>{-2, 4}));
  // T = 0 ignores beta: V1_new = 1 + 1 = 2.
  in[1] = i64_scalar(0);
  auto first = run_op("Momentum", 1, in, attrs("standard"), 4, kTraining);
  EXPECT_FLOAT_EQ(values_of<float>(first[2])[0], 2.f);
  expect_trap([&] { run_op("Momentum", 1, in, attrs("heavy"), 4, kTraining); }, "mode");
}

TEST(E1TrainingOps, MismatchedShapesTrap) {
  expect_trap(
      [] {
        run_op("Adagrad", 1,
               {Value(Tensor::scalar<float>(1)), i64_scalar(0), tensor<float>({2}, {1, 2}), tensor<float>({1}, {1}),
                tensor<float>({2}, {0, 0})},
               {}, 2, kTraining);
      },
      "shape of the optimized tensor");
}

// --- Gradient ---------------------------------------------------------------------------------------
// d = (a + b) * a with the Gradient node listed first: dd/da = 2a + b, dd/db = a.
TEST(E1GradientOp, ReverseModeThroughAddAndMul) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  auto* imp = m.add_opset_import();
  imp->set_version(13);
  auto* imp2 = m.add_opset_import();
  imp2->set_domain(kTraining);
  imp2->set_version(1);
  auto* g = m.mutable_graph();
  g->set_name("grad");
  auto grad = node("Gradient", {"a", "b"}, {"dd_da", "dd_db"}, {attr_strings("xs", {"a", "b"}), attr_string("y", "d")});
  grad.set_domain(kTraining);
  *g->add_node() = grad;
  *g->add_node() = node("Add", {"a", "b"}, {"c"});
  *g->add_node() = node("Mul", {"c", "a"}, {"d"});
  for (const char* n : {"a", "b"}) *g->add_input() = vi(n, kFloat, {}, true);
  for (const char* n : {"d", "dd_da", "dd_db"}) *g->add_output() = vi(n, kFloat, {}, true);
  Model model = model_from_proto(m, {});
  Interpreter interp(model);
  NamedValues out = interp.run({{"a", tensor<float>({}, {3})}, {"b", tensor<float>({}, {-1})}});
  EXPECT_EQ(values_of<float>(out["d"]), (std::vector<float>{6}));
  EXPECT_EQ(values_of<float>(out["dd_da"]), (std::vector<float>{5}));
  EXPECT_EQ(values_of<float>(out["dd_db"]), (std::vector<float>{3}));
}

}  // namespace
}  // namespace sonnx::testing
