// What the enclosures of the ai.onnx.ml operators share (enclose_ml*.cpp; spec/accuracy.md, "The
// ai.onnx.ml operators"): X's elements as intervals, the post_transform of a row of scores, the
// class a row of scores picks where the bounds decide it, and a relative widening.
#pragma once
#include <initializer_list>
#include <string>
#include <vector>

#include "enclose_ops.h"
#include "reference/ops/support/post_transform.h"

namespace sonnx::enclose {

// An interval as the refusals and Undetermined messages print it.
std::string ml_interval_str(Interval v);

// Element i of X: a float element's bounds, an integer's value (a point, or the two doubles around
// it beyond 2^53, where a double does not hold every integer).
Interval ml_element(const Bounds& x, int64_t i);

// X's elements as a linear or SVM predictor reads them: under the admissible semantics each rounded
// outward to float, the conversion an implementation computing in float makes (one computing in
// double reads the values inside), so that no later step pays for X's element type.
std::vector<Interval> ml_features(const OpCall& c, const Bounds& x);

// The reference's checks and traps for the node (run once on the lower bounds: float bounds reach
// it as float64), and a trap where a float input's element type is none of `float_types`, which
// the run cannot see.
void ml_reference_checks(const OpCall& c, std::initializer_list<DType> float_types);

// The post_transform of the `count` scores of y from `base` on, in place: NONE nothing; LOGISTIC the
// exact logistic of each score's enclosure, under the admissible semantics widened by
// kElementaryUlps; SOFTMAX Softmax's rule on the row (softmax_line); SOFTMAX_ZERO that rule on the
// scores that are not zero (Undetermined where the bounds leave a score's zeroness open); PROBIT
// as LOGISTIC, with the normal quantile.
void ml_post_transform(const OpCall& c, support::PostTransform t, Bounds& y, int64_t base, int64_t count);

// The index of the first largest score of the row (support::ml_first_max: a later score must be
// greater), where the bounds decide it for every value within them; else Undetermined, naming the
// row and `what` ("its label"). An undefined score decides nothing.
int64_t ml_decided_first_max(const OpCall& c, const std::vector<Interval>& scores, int64_t row, const std::string& what);

// 1 where every value of s is > 0, 0 where every value is ≤ 0 (a binary decision: the second class,
// a vote, one_class's +1), else Undetermined, naming the row and `what`.
int64_t ml_decided_positive(const OpCall& c, Interval s, int64_t row, const std::string& what);

// Whether the node's output k is named (an omitted output is neither computed nor decided).
inline bool ml_wants_output(const OpCall& c, size_t k) { return k < c.node.outputs.size() && !c.node.outputs[k].empty(); }

// Every real within rho·|w| + tiny of some w in v (v widened by a relative error bound rho and an
// absolute one, tiny), rounded outward; an undefined v stays undefined, an infinite bound infinite.
Interval ml_widen_relative(Interval v, double rho, double tiny);

}  // namespace sonnx::enclose
