// An element without a real value (NaN bounds: √ of an interval reaching below 0, 0/0) stays
// without one through the operators after it, never an interval with lo > hi. Found by fuzzing
// onnxruntime: a Softmax of one such element gave [3.4e38, −3.4e38], which every result "failed".
#include <gtest/gtest.h>

#include <cmath>

#include "enclose_test_util.h"

namespace sonnx::enclose {
namespace {

TEST(EncloseUndefined, SoftmaxOfAnUndefinedElementIsUndefined) {
  // d = x − (x/3)·3 is an interval around 0 (the products round); √d has no real value where d < 0.
  for (Semantics semantics : {Semantics::Real, Semantics::Admissible}) {
    OneNodeModel m = graph_model(13,
                                 {named_node("Div", {"x", "three"}, "q"), named_node("Mul", {"q", "three"}, "p"),
                                  named_node("Sub", {"x", "p"}, "d"), named_node("Sqrt", {"d"}, "s"),
                                  named_node("Softmax", {"s"}, "y")},
                                 {{"x", floats({1, 1}, {0.1f})}, {"three", floats({1}, {3.0f})}}, {"s", "y"});
    auto bounds = enclose_model(m.model, m.feed, semantics);
    Interval s = bound_at(bounds.at("s"), 0), y = bound_at(bounds.at("y"), 0);
    ASSERT_TRUE(std::isnan(s.lo) && std::isnan(s.hi)) << "the premise: √ of an interval reaching below 0";
    EXPECT_TRUE(std::isnan(y.lo) && std::isnan(y.hi)) << "[" << y.lo << ", " << y.hi << "]";
  }
}

}  // namespace
}  // namespace sonnx::enclose
