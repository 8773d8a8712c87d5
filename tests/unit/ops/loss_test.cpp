// The losses: NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss. Expected values are worked
// out by hand from the operator definitions.
#include <cmath>
#include <vector>

#include "tests/unit/op_test_util.h"

namespace sonnx::testing {
namespace {

// ---------------------------------------------------------------------------------------------
// Losses

// The NegativeLogLikelihoodLoss documentation example: N, C, d1 = 2, 3, 2.
Value nll_input() { return tensor<float>({2, 3, 2}, {1, 2, 2, 2, 3, 2, 0, 1, 2, 2, 1, 2}); }
Value nll_target() { return tensor<int64_t>({2, 2}, {2, 1, 0, 2}); }
Value nll_weight() { return tensor<float>({3}, {0.2f, 0.3f, 0.1f}); }

TEST(LossOp, NllDocumentationExamples) {
  auto none_ = run_op("NegativeLogLikelihoodLoss", 13, {nll_input(), nll_target()}, {attr_string("reduction", "none")});
  EXPECT_EQ(none_[0].tensor.shape(), (Shape{2, 2}));
  expect_floats_near(none_[0], {-3, -2, 0, -2});
  // Weighted: -3*0.1 - 2*0.3 - 0*0.2 - 2*0.1 = -1.1; mean divides by 0.1+0.3+0.2+0.1 = 0.7.
  auto sum = run_op("NegativeLogLikelihoodLoss", 12, {nll_input(), nll_target(), nll_weight()},
                    {attr_string("reduction", "sum")});
  EXPECT_EQ(sum[0].tensor.shape(), Shape{});
  expect_floats_near(sum[0], {-1.1f});
  expect_floats_near(run_op("NegativeLogLikelihoodLoss", 13, {nll_input(), nll_target(), nll_weight()})[0], {-1.1f / 0.7f});
}

TEST(LossOp, NllIgnoreIndex) {
  // ignore_index 2: the samples (0,0) and (1,1) drop out; the rest are -2 and -0, mean over 2.
  auto out = run_op("NegativeLogLikelihoodLoss", 13, {nll_input(), nll_target()}, {attr_int("ignore_index", 2)});
  expect_floats_near(out[0], {-1});
  // An ignore_index outside [0, C) is fine; any other out-of-range target traps.
  auto t = tensor<int32_t>({2, 2}, {-1, 1, 0, -1});
  expect_floats_near(run_op("NegativeLogLikelihoodLoss", 13, {nll_input(), t},
                            {attr_int("ignore_index", -1), attr_string("reduction", "sum")})[0],
                     {-2});
  expect_trap([&] { run_op("NegativeLogLikelihoodLoss", 13, {nll_input(), t}); });
}

TEST(LossOp, SoftmaxCrossEntropy) {
  // scores [0, ln 3] → log_prob [-ln 4, ln 3 - ln 4]; label 1 → loss ln(4/3).
  Value scores = tensor<float>({1, 2}, {0.f, std::log(3.f)});
  auto out = run_op("SoftmaxCrossEntropyLoss", 13, {scores, tensor<int64_t>({1}, {1})}, {}, 2);
  expect_floats_near(out[0], {std::log(4.f / 3.f)});
  expect_floats_near(out[1], {-std::log(4.f), std::log(0.75f)});
  // Two samples, weights [1, 3]: losses ln 4 (label 0, w 1) and ln(4/3) (label 1, w 3).
  Value scores2 = tensor<float>({2, 2}, {0.f, std::log(3.f), 0.f, std::log(3.f)});
  Value labels2 = tensor<int64_t>({2}, {0, 1});
  Value w = tensor<float>({2}, {1, 3});
  auto mean = run_op("SoftmaxCrossEntropyLoss", 12, {scores2, labels2, w});
  expect_floats_near(mean[0], {(std::log(4.f) + 3 * std::log(4.f / 3.f)) / 4}, 1e-6f);
  auto none_ = run_op("SoftmaxCrossEntropyLoss", 12, {scores2, labels2, w}, {attr_string("reduction", "none")});
  expect_floats_near(none_[0], {std::log(4.f), 3 * std::log(4.f / 3.f)}, 1e-6f);
  auto ignored = run_op("SoftmaxCrossEntropyLoss", 13, {scores2, labels2}, {attr_int("ignore_index", 0)});
  expect_floats_near(ignored[0], {std::log(4.f / 3.f)});
}

}  // namespace
}  // namespace sonnx::testing
