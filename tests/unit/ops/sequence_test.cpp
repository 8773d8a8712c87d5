// The sequence operators, SequenceMap and the Optional operators. Expected values are worked out
// by hand from the ONNX operator specs.
#include <limits>
#include <vector>

#include "tests/unit/op_test_util.h"

namespace sonnx::testing {
namespace {

// ---------------------------------------------------------------------------------------------
// Sequences
Value abc_seq() { return seq_of({tensor<int64_t>({1}, {1}), tensor<int64_t>({2}, {2, 2}), tensor<int64_t>({3}, {3, 3, 3})}); }

TEST(SequenceOp, ConstructEmptyAndLength) {
  auto s = run_op("SequenceConstruct", 11, {tensor<float>({1}, {1}), tensor<float>({0}, {})});
  ASSERT_TRUE(s[0].is_sequence());
  EXPECT_EQ(s[0].sequence.size(), 2u);
  EXPECT_EQ(s[0].sequence_elem, DType::Float);
  expect_trap(
      [] {
        run_op("SequenceConstruct", 11, {tensor<float>({1}, {1}), tensor<int64_t>({1}, {1})});
      },
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

TEST(SequenceOp, InsertAtNegativeAndEndPositions) {
  // position -1 inserts before the last element: [1], [2,2], [9], [3,3,3].
  auto out = run_op("SequenceInsert", 11, {abc_seq(), tensor<int64_t>({1}, {9}), Value(Tensor::scalar<int32_t>(-1))});
  ASSERT_EQ(out[0].sequence.size(), 4u);
  EXPECT_EQ(values_of<int64_t>(out[0].sequence[2]), (std::vector<int64_t>{9}));
  auto end = run_op("SequenceInsert", 11, {abc_seq(), tensor<int64_t>({1}, {9}), i64_scalar(3)});
  EXPECT_EQ(values_of<int64_t>(end[0].sequence[3]), (std::vector<int64_t>{9}));
  expect_trap([] { run_op("SequenceInsert", 11, {abc_seq(), tensor<int64_t>({1}, {9}), i64_scalar(4)}); }, "outside");
  expect_trap([] { run_op("SequenceInsert", 11, {abc_seq(), tensor<float>({1}, {9})}); }, "cannot insert");
}

TEST(SequenceOp, AtAndErase) {
  EXPECT_EQ(values_of<int64_t>(run_op("SequenceAt", 11, {abc_seq(), i64_scalar(-3)})[0]), (std::vector<int64_t>{1}));
  expect_trap([] { run_op("SequenceAt", 11, {abc_seq(), i64_scalar(3)}); }, "outside [-3, 2]");
  auto erased = run_op("SequenceErase", 11, {abc_seq()});  // default: the last
  ASSERT_EQ(erased[0].sequence.size(), 2u);
  EXPECT_EQ(values_of<int64_t>(erased[0].sequence[1]), (std::vector<int64_t>{2, 2}));
  auto front = run_op("SequenceErase", 11, {abc_seq(), i64_scalar(-3)});
  EXPECT_EQ(values_of<int64_t>(front[0].sequence[0]), (std::vector<int64_t>{2, 2}));
  expect_trap([] { run_op("SequenceErase", 11, {seq_of({}, DType::Float)}); }, "outside");
}

TEST(SequenceOp, SplitToSequenceScalarSplitLastChunkShorter) {
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

TEST(SequenceOp, SplitToSequenceNoSplitKeepdimsZeroAndListSplit) {
  auto sq = run_op("SplitToSequence", 11, {tensor<int64_t>({3, 2}, {1, 2, 3, 4, 5, 6})}, {attr_int("keepdims", 0)});
  ASSERT_EQ(sq[0].sequence.size(), 3u);
  EXPECT_EQ(sq[0].sequence[1].tensor.shape(), (Shape{2}));
  EXPECT_EQ(values_of<int64_t>(sq[0].sequence[1]), (std::vector<int64_t>{3, 4}));
  auto kept = run_op("SplitToSequence", 11, {tensor<int64_t>({3, 2}, {1, 2, 3, 4, 5, 6})});
  EXPECT_EQ(kept[0].sequence[1].tensor.shape(), (Shape{1, 2}));
  auto list = run_op("SplitToSequence", 11, {tensor<int64_t>({3, 2}, {1, 2, 3, 4, 5, 6}), tensor<int32_t>({2}, {1, 2})});
  EXPECT_EQ(list[0].sequence[1].tensor.shape(), (Shape{2, 2}));
  expect_trap(
      [] {
        run_op("SplitToSequence", 11, {tensor<int64_t>({3}, {1, 2, 3}), tensor<int64_t>({2}, {1, 1})});
      },
      "sum to 2");
  expect_trap([] { run_op("SplitToSequence", 11, {tensor<int64_t>({3}, {1, 2, 3}), i64_scalar(0)}); }, "positive");
  expect_trap(
      [] {
        run_op("SplitToSequence", 11, {tensor<int64_t>({3}, {1, 2, 3}), tensor<int64_t>({2}, {-1, 4})});
      },
      "negative");
  // Zero-length pieces in a 1-D split are accepted (ONNX's test_sequence_model8 relies on it).
  auto zero = run_op("SplitToSequence", 11, {tensor<int64_t>({3}, {1, 2, 3}), tensor<int64_t>({3}, {0, 3, 0})});
  ASSERT_EQ(zero[0].sequence.size(), 3u);
  EXPECT_EQ(zero[0].sequence[0].tensor.shape(), (Shape{0}));
  EXPECT_EQ(values_of<int64_t>(zero[0].sequence[1]), (std::vector<int64_t>{1, 2, 3}));
  auto empty = run_op("SplitToSequence", 11, {Value(Tensor(DType::Float, {0, 4}))});
  EXPECT_TRUE(empty[0].sequence.empty());
}

TEST(SequenceOp, ConcatFromSequenceConcatAndStack) {
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

TEST(SequenceMapOp, MapsOverSequenceWithTensorBroadcastInput) {
  auto body = graph("body", {node("Add", {"a", "b"}, {"c"})}, {vi("a"), vi("b")}, {vi("c", DType::Float)});
  Value s = seq_of({tensor<float>({1}, {1}), tensor<float>({2}, {2, 3})});
  auto out = run_op("SequenceMap", 17, {s, tensor<float>({1}, {10})}, {attr_graph("body", body)});
  ASSERT_EQ(out[0].sequence.size(), 2u);
  EXPECT_EQ(values_of<float>(out[0].sequence[1]), (std::vector<float>{12, 13}));
  auto empty = run_op("SequenceMap", 17, {seq_of({}, DType::Float), tensor<float>({1}, {10})}, {attr_graph("body", body)});
  EXPECT_TRUE(empty[0].sequence.empty());
  EXPECT_EQ(empty[0].sequence_elem, DType::Float);
  expect_trap(
      [&] {
        run_op("SequenceMap", 17, {s, seq_of({tensor<float>({1}, {1})})}, {attr_graph("body", body)});
      },
      "elements");
}

// ---------------------------------------------------------------------------------------------
// Optional
TEST(OptionalOp, WrapTestAndUnwrap) {
  auto full = run_op("Optional", 15, {tensor<float>({1}, {4})});
  ASSERT_TRUE(full[0].is_optional());
  ASSERT_TRUE(full[0].optional);
  auto empty = run_op("Optional", 15, {}, {attr_type("type", DType::Float)});
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

TEST(OptionalOp, Version18PlainTensorsAndSequences) {
  // A tensor or a sequence counts as present and is returned as is; an omitted input is absent.
  Value t = tensor<float>({2}, {1, 2});
  EXPECT_EQ(values_of<bool>(run_op("OptionalHasElement", 18, {t})[0]), (std::vector<bool>{true}));
  EXPECT_EQ(values_of<bool>(run_op("OptionalHasElement", 18, {abc_seq()})[0]), (std::vector<bool>{true}));
  EXPECT_EQ(values_of<bool>(run_op("OptionalHasElement", 18, {none()})[0]), (std::vector<bool>{false}));
  EXPECT_EQ(values_of<float>(run_op("OptionalGetElement", 18, {t})[0]), (std::vector<float>{1, 2}));
  EXPECT_TRUE(run_op("OptionalGetElement", 18, {abc_seq()})[0].is_sequence());
  auto empty = run_op("Optional", 15, {}, {attr_type("type", DType::Float)});
  EXPECT_EQ(values_of<bool>(run_op("OptionalHasElement", 18, {empty[0]})[0]), (std::vector<bool>{false}));
  expect_trap([&] { run_op("OptionalGetElement", 18, {empty[0]}); }, "empty");
}

}  // namespace
}  // namespace sonnx::testing
