// The control-flow operators: If, Loop, Scan. Expected values are worked out by hand from the ONNX
// operator specs.
#include <vector>

#include "tests/unit/op_test_util.h"

namespace sonnx::testing {
namespace {

// ---------------------------------------------------------------------------------------------
// If
std::vector<onnx::AttributeProto> if_branches() {
  auto then_g = graph("then", {node("Constant", {}, {"t"}, {attr_tensor("value", Tensor::from_vector<float>({2}, {1, 2}))})}, {},
                      {vi("t")});
  auto else_g = graph("else", {node("Constant", {}, {"e"}, {attr_tensor("value", Tensor::from_vector<float>({1}, {9}))})}, {},
                      {vi("e")});
  return {attr_graph("then_branch", then_g), attr_graph("else_branch", else_g)};
}

TEST(IfOp, SelectsBranchByCondition) {
  auto t = run_op("If", 16, {bool_scalar(true)}, if_branches());
  EXPECT_EQ(values_of<float>(t[0]), (std::vector<float>{1, 2}));
  auto e = run_op("If", 11, {tensor<bool>({1}, {false})}, if_branches());  // a [1]-shaped cond is fine
  EXPECT_EQ(values_of<float>(e[0]), (std::vector<float>{9}));
}

TEST(IfOp, NonBoolOrMultiElementConditionTraps) {
  expect_trap([] { run_op("If", 16, {tensor<bool>({2}, {true, false})}, if_branches()); }, "exactly one element");
  expect_trap([] { run_op("If", 16, {i64_scalar(1)}, if_branches()); }, "bool");
}

TEST(IfOp, BranchSeesOuterScope) {
  // The then-branch returns Identity(in0), a name of the enclosing graph.
  auto then_g = graph("then", {node("Identity", {"in1"}, {"r"})}, {}, {vi("r")});
  auto else_g = graph("else", {node("Neg", {"in1"}, {"r2"})}, {}, {vi("r2")});
  // run_op names inputs in0, in1, ...: in0 is the condition, in1 only captured by the branches.
  auto out = run_op("If", 16, {bool_scalar(true), tensor<float>({1}, {5})},
                    {attr_graph("then_branch", then_g), attr_graph("else_branch", else_g)});
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{5}));
}

// ---------------------------------------------------------------------------------------------
// Loop
// Body: (i, cond_in, acc) -> (cond_out = cond_in, acc + i, scan = acc + i), all int64 scalars.
onnx::GraphProto sum_body(bool keep_going_while_small = false) {
  std::vector<onnx::NodeProto> nodes = {node("Add", {"acc", "i"}, {"acc_out"}), node("Identity", {"acc_out"}, {"scan"})};
  if (keep_going_while_small) {
    // cond_out = acc_out < 3
    nodes.push_back(node("Constant", {}, {"three"}, {attr_tensor("value", Tensor::scalar<int64_t>(3))}));
    nodes.push_back(node("Less", {"acc_out", "three"}, {"cond_out"}));
  } else {
    nodes.push_back(node("Identity", {"cond_in"}, {"cond_out"}));
  }
  return graph("body", nodes,
               {vi("i", DType::Int64, {}, true), vi("cond_in", DType::Bool, {}, true), vi("acc", DType::Int64, {}, true)},
               {vi("cond_out", DType::Bool, {}, true), vi("acc_out", DType::Int64, {}, true),
                vi("scan", DType::Int64, {}, true)});
}

TEST(LoopOp, TripCountCarriesAndStacksScanOutputs) {
  // acc: 10 -> 10 -> 11 -> 13 (adding i = 0, 1, 2); scan outputs [10, 11, 13].
  auto out = run_op("Loop", 16, {i64_scalar(3), bool_scalar(true), i64_scalar(10)}, {attr_graph("body", sum_body())}, 2);
  EXPECT_EQ(values_of<int64_t>(out[0]), (std::vector<int64_t>{13}));
  EXPECT_EQ(out[1].tensor.shape(), (Shape{3}));
  EXPECT_EQ(values_of<int64_t>(out[1]), (std::vector<int64_t>{10, 11, 13}));
}

TEST(LoopOp, ConditionStopsEarlyWithoutTripCount) {
  // acc 0 -> 0 (i=0, 0<3 go on) -> 1 (i=1, go on) -> 3 (i=2, 3<3 false: stop).
  auto out = run_op("Loop", 11, {Value(), bool_scalar(true), i64_scalar(0)}, {attr_graph("body", sum_body(true))}, 2);
  EXPECT_EQ(values_of<int64_t>(out[0]), (std::vector<int64_t>{3}));
  EXPECT_EQ(values_of<int64_t>(out[1]), (std::vector<int64_t>{0, 1, 3}));
}

TEST(LoopOp, FalseInitialConditionRunsZeroTimesWithTypedEmptyScan) {
  auto out = run_op("Loop", 13, {i64_scalar(5), bool_scalar(false), i64_scalar(7)}, {attr_graph("body", sum_body())}, 2);
  EXPECT_EQ(values_of<int64_t>(out[0]), (std::vector<int64_t>{7}));
  EXPECT_EQ(out[1].tensor.dtype(), DType::Int64);
  EXPECT_EQ(out[1].tensor.shape(), (Shape{0}));
}

TEST(LoopOp, NegativeTripCountRunsZeroTimes) {
  auto out = run_op("Loop", 16, {i64_scalar(-2), Value(), i64_scalar(7)}, {attr_graph("body", sum_body())}, 2);
  EXPECT_EQ(values_of<int64_t>(out[0]), (std::vector<int64_t>{7}));
  EXPECT_EQ(out[1].tensor.size(), 0);
}

TEST(LoopOp, BodyConditionIgnoredWhenConditionInputOmitted) {
  // The body would stop after acc >= 3, but with cond omitted only M counts: 0,1,3,6,10.
  auto out = run_op("Loop", 16, {i64_scalar(5), Value(), i64_scalar(0)}, {attr_graph("body", sum_body(true))}, 2);
  EXPECT_EQ(values_of<int64_t>(out[0]), (std::vector<int64_t>{10}));
  EXPECT_EQ(values_of<int64_t>(out[1]), (std::vector<int64_t>{0, 1, 3, 6, 10}));
}

TEST(LoopOp, NoTripCountAndNoConditionTraps) {
  expect_trap(
      [] {
        run_op("Loop", 16, {Value(), Value(), i64_scalar(0)}, {attr_graph("body", sum_body())}, 2);
      },
      "never terminates");
}

TEST(LoopOp, ScanOutputsStackVectorsOnNewAxis) {
  // Body: (i, c, x[2]) -> (c, x, x * 2); scan output [M, 2].
  auto body = graph("body",
                    {node("Identity", {"c"}, {"c_out"}), node("Identity", {"x"}, {"x_out"}), node("Add", {"x", "x"}, {"y"})},
                    {vi("i"), vi("c"), vi("x")}, {vi("c_out"), vi("x_out"), vi("y", DType::Float, {2}, true)});
  auto out = run_op("Loop", 16, {i64_scalar(2), Value(), tensor<float>({2}, {1, -1})}, {attr_graph("body", body)}, 2);
  EXPECT_EQ(out[1].tensor.shape(), (Shape{2, 2}));
  EXPECT_EQ(values_of<float>(out[1]), (std::vector<float>{2, -2, 2, -2}));
  auto none = run_op("Loop", 16, {i64_scalar(0), Value(), tensor<float>({2}, {1, -1})}, {attr_graph("body", body)}, 2);
  EXPECT_EQ(none[1].tensor.shape(), (Shape{0, 2}));  // from the body's declared [2]
  EXPECT_EQ(none[1].tensor.dtype(), DType::Float);
}

TEST(LoopOp, CarriesSequences) {
  // Body appends the iteration number to the carried sequence.
  auto body = graph("body", {node("Identity", {"c"}, {"c_out"}), node("SequenceInsert", {"s", "i"}, {"s_out"})},
                    {vi("i"), vi("c"), vi("s")}, {vi("c_out"), vi("s_out")});
  auto out = run_op("Loop", 13, {i64_scalar(3), Value(), seq_of({}, DType::Int64)}, {attr_graph("body", body)}, 1);
  ASSERT_TRUE(out[0].is_sequence());
  ASSERT_EQ(out[0].sequence.size(), 3u);
  EXPECT_EQ(values_of<int64_t>(out[0].sequence[2]), (std::vector<int64_t>{2}));
}

// ---------------------------------------------------------------------------------------------
// Scan
// Body: (sum, x) -> (sum + x, sum + x) over float vectors.
onnx::GraphProto running_sum_body(const std::vector<int64_t>& elem_dims = {2}) {
  return graph("body", {node("Add", {"sum", "x"}, {"sum_out"}), node("Identity", {"sum_out"}, {"so"})}, {vi("sum"), vi("x")},
               {vi("sum_out"), vi("so", DType::Float, elem_dims, true)});
}

TEST(ScanOp, Version9ForwardSum) {
  auto out = run_op("Scan", 9, {tensor<float>({2}, {0, 0}), tensor<float>({3, 2}, {1, 2, 3, 4, 5, 6})},
                    {attr_graph("body", running_sum_body()), attr_int("num_scan_inputs", 1)}, 2);
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{9, 12}));
  EXPECT_EQ(out[1].tensor.shape(), (Shape{3, 2}));
  EXPECT_EQ(values_of<float>(out[1]), (std::vector<float>{1, 2, 4, 6, 9, 12}));
}

TEST(ScanOp, InputAxisReverseDirectionAndOutputAxisPrepend) {
  // x is [2, 3]; scanning axis 1 gives columns [1,4], [2,5], [3,6]; reversed: [3,6], [2,5], [1,4].
  // Running sums: [3,6], [5,11], [6,15]. Prepending reverses them: [6,15], [5,11], [3,6], stacked on
  // output axis 1: [[6,5,3],[15,11,6]].
  auto out = run_op("Scan", 16, {tensor<float>({2}, {0, 0}), tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6})},
                    {attr_graph("body", running_sum_body()), attr_int("num_scan_inputs", 1), attr_ints("scan_input_axes", {-1}),
                     attr_ints("scan_input_directions", {1}), attr_ints("scan_output_axes", {1}),
                     attr_ints("scan_output_directions", {1})},
                    2);
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{6, 15}));
  EXPECT_EQ(out[1].tensor.shape(), (Shape{2, 3}));
  EXPECT_EQ(values_of<float>(out[1]), (std::vector<float>{6, 5, 3, 15, 11, 6}));
}

TEST(ScanOp, NegativeAxisNeedsVersion11) {
  expect_trap(
      [] {
        run_op("Scan", 9, {tensor<float>({2}, {0, 0}), tensor<float>({3, 2}, {1, 2, 3, 4, 5, 6})},
               {attr_graph("body", running_sum_body()), attr_int("num_scan_inputs", 1), attr_ints("scan_input_axes", {-2})}, 2);
      },
      "version 11");
}

TEST(ScanOp, ZeroLengthSequenceGivesEmptyOutputFromDeclaredType) {
  auto out = run_op("Scan", 11, {tensor<float>({2}, {7, 8}), Value(Tensor(DType::Float, {0, 2}))},
                    {attr_graph("body", running_sum_body()), attr_int("num_scan_inputs", 1)}, 2);
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{7, 8}));
  EXPECT_EQ(out[1].tensor.shape(), (Shape{0, 2}));
}

TEST(ScanOp, Version8BatchesWithSequenceLensPadsWithZeros) {
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
  auto rev = run_op("Scan", 8, {Value(), tensor<float>({1, 2}, {0, 0}), tensor<float>({1, 3, 2}, {1, 0, 2, 0, 3, 0})},
                    {attr_graph("body", running_sum_body()), attr_int("num_scan_inputs", 1), attr_ints("directions", {1})}, 2);
  EXPECT_EQ(values_of<float>(rev[1]), (std::vector<float>{3, 0, 5, 0, 6, 0}));
}

TEST(ScanOp, SequenceLensOutOfRangeTraps) {
  expect_trap(
      [] {
        run_op("Scan", 8,
               {tensor<int64_t>({1}, {4}), tensor<float>({1, 2}, {0, 0}), tensor<float>({1, 3, 2}, {1, 1, 2, 2, 3, 3})},
               {attr_graph("body", running_sum_body()), attr_int("num_scan_inputs", 1)}, 2);
      },
      "sequence_lens");
}

}  // namespace
}  // namespace sonnx::testing
