// NonMaxSuppression. Expected values are worked out by hand from the operator definition.
#include <vector>

#include "tests/unit/op_test_util.h"

namespace sonnx::testing {
namespace {

// ---------------------------------------------------------------------------------------------
// NonMaxSuppression

TEST(NonMaxSuppressionOp, SelectsGreedily) {
  // box1 overlaps box0 with IoU 0.9/1.1 > 0.5; box2 is far away.
  auto boxes = tensor<float>({1, 3, 4}, {0, 0, 1, 1, 0, 0.1f, 1, 1.1f, 0, 10, 1, 11});
  auto scores = tensor<float>({1, 1, 3}, {0.9f, 0.8f, 0.7f});
  auto run = [&](int64_t max_out, std::vector<Value> extra) {
    std::vector<Value> in = {boxes, scores, tensor<int64_t>({1}, {max_out})};
    for (auto& v : extra) in.push_back(v);
    return run_op("NonMaxSuppression", 11, in);
  };
  auto a = run(3, {tensor<float>({1}, {0.5f})});
  EXPECT_EQ(a[0].tensor.shape(), (Shape{2, 3}));
  EXPECT_EQ(values_of<int64_t>(a[0]), (std::vector<int64_t>{0, 0, 0, 0, 0, 2}));
  auto b = run(1, {tensor<float>({1}, {0.5f})});
  EXPECT_EQ(values_of<int64_t>(b[0]), (std::vector<int64_t>{0, 0, 0}));
  auto c = run(3, {tensor<float>({1}, {0.5f}), tensor<float>({1}, {0.75f})});
  EXPECT_EQ(values_of<int64_t>(c[0]), (std::vector<int64_t>{0, 0, 0}));
  auto d = run(0, {tensor<float>({1}, {0.5f})});
  EXPECT_EQ(d[0].tensor.shape(), (Shape{0, 3}));
  // iou_threshold 0.95: nothing is suppressed; order follows the scores.
  auto e = run(3, {tensor<float>({1}, {0.95f})});
  EXPECT_EQ(values_of<int64_t>(e[0]), (std::vector<int64_t>{0, 0, 0, 0, 0, 1, 0, 0, 2}));
}

TEST(NonMaxSuppressionOp, CenterPointBox) {
  // Centre format [xc, yc, w, h]: boxes 0 and 1 overlap fully (same box), box 2 is apart.
  auto boxes = tensor<float>({1, 3, 4}, {0.5f, 0.5f, 1, 1, 0.5f, 0.5f, 1, 1, 5, 5, 1, 1});
  auto scores = tensor<float>({1, 1, 3}, {0.5f, 0.9f, 0.1f});
  auto out = run_op("NonMaxSuppression", 11, {boxes, scores, tensor<int64_t>({}, {10}), tensor<float>({}, {0.5f})},
                    {attr_int("center_point_box", 1)});
  EXPECT_EQ(values_of<int64_t>(out[0]), (std::vector<int64_t>{0, 0, 1, 0, 0, 2}));
}

}  // namespace
}  // namespace sonnx::testing
