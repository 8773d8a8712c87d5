// Enclosures of the ai.onnx.ml operators that compute no new real number: ArrayFeatureExtractor
// (data movement), Binarizer (a comparison with a threshold) and LabelEncoder (a table lookup).
// On exact inputs (integers, strings) the reference computes the result (lift_exact). On float
// inputs the result is decided element by element where the bounds decide it; where they leave
// more than one outcome the enclosure says so (Undetermined) instead of guessing. An undefined
// input element (no real value, e.g. a NaN input) gives an undefined float output element: any
// value is admissible there. TreeEnsemble: enclose_ml_trees.cpp.
#include <cstdio>

#include "enclose_ops.h"
#include "reference/ops/params/binarizer.h"
#include "reference/ops/params/label_encoder.h"
#include "sonnx/errors.h"

namespace sonnx::enclose {

namespace {

std::string ml_interval_str(Interval v) {
  char s[64];
  std::snprintf(s, sizeof s, "[%.17g, %.17g]", v.lo, v.hi);
  return s;
}

[[noreturn]] void ml_undecided(const OpCall& c, int64_t element, Interval v, const std::string& why) {
  throw Undetermined(c.node.label() + ": the enclosures do not decide element " + std::to_string(element) +
                     " of its output at this input: X's enclosure " + ml_interval_str(v) + " " + why);
}

// Binarizer-1: Y = 1 where X > threshold, else 0, in X's type. Exact: 0 and 1 are values of every
// float type, and the comparison is exact in any of them.
std::vector<Bounds> ml_binarizer(const OpCall& c) {
  const Bounds& x = c.input(0);
  if (x.exact()) return lift_exact(c);
  const double t = BinarizerParams::read(c.ctx, c.version).threshold;
  Bounds y = float_bounds(x.type, x.lo.shape());
  for (int64_t i = 0; i < x.lo.size(); ++i) {
    Interval v = at(x, i);
    if (v.has_nan()) set(y, i, Interval::undefined());
    else if (std::isnan(t) || v.hi <= t) set(y, i, Interval::point(0));  // nothing is greater than NaN
    else if (v.lo > t) set(y, i, Interval::point(1));
    else ml_undecided(c, i, v, "lies on both sides of the threshold " + ml_interval_str(Interval::point(t)));
  }
  return {y};
}

// LabelEncoder-2 and -4 on float keys: element i of X maps to the value of the key equal to it (the
// last of equal keys, as the reference's table keeps it), or to the default where no key equals it.
// The bounds decide that where they are a point, or hold no key at all (every real in them then
// misses every key). Version 2 compares float keys bitwise, so +0 and −0 are different keys, which
// a real 0 does not choose between: Undetermined where X is 0 and a key is a zero.
std::vector<Bounds> ml_label_encoder(const OpCall& c) {
  const Bounds& x = c.input(0);
  if (x.exact()) return lift_exact(c);
  const LabelEncoderParams p = LabelEncoderParams::read(c.ctx, c.version);
  if (p.keys.dtype() != x.type) throw Trap(c.node.label() + ": X must have the keys' element type");
  const Tensor& values = p.values;
  const bool float_values = is_float(values.dtype()) || is_small_float(values.dtype());
  const bool bitwise = c.version < 4;
  std::vector<int64_t> pick(static_cast<size_t>(x.lo.size()), -1);  // the key's index, -1: the default
  std::vector<bool> undefined(pick.size(), false);
  for (int64_t i = 0; i < x.lo.size(); ++i) {
    Interval v = at(x, i);
    if (v.has_nan()) {
      if (!float_values) ml_undecided(c, i, v, "has no real value (a NaN input): it may equal any key");
      undefined[static_cast<size_t>(i)] = true;
      continue;
    }
    for (int64_t j = 0; j < p.keys.size(); ++j) {
      double k = p.keys.as_double(j);
      if (!(v.lo <= k && k <= v.hi)) continue;  // a NaN key never equals a real
      if (v.lo != v.hi) ml_undecided(c, i, v, "holds the key " + ml_interval_str(Interval::point(k)) + " and other values");
      if (bitwise && k == 0) ml_undecided(c, i, v, "is 0, and version 2 tells the keys +0 and -0 apart");
      pick[static_cast<size_t>(i)] = j;  // the last equal key wins
    }
  }
  Tensor out(values.dtype(), x.lo.shape());
  visit_dtype(values.dtype(), [&]<class T>() {
    T* o = out.data<T>();
    for (size_t i = 0; i < pick.size(); ++i) o[i] = pick[i] < 0 ? p.default_value.data<T>()[0] : values.data<T>()[pick[i]];
  });
  Bounds y = Bounds::of(out);
  for (size_t i = 0; i < undefined.size(); ++i)
    if (undefined[i]) set(y, static_cast<int64_t>(i), Interval::undefined());
  return {y};
}

}  // namespace

// Data movement: X's elements picked by exact indices, lifted from the reference kernel.
SONNX_ML_ENCLOSURE("ArrayFeatureExtractor", (1), Allowance::exact(), lift_monotone);
SONNX_ML_ENCLOSURE("Binarizer", (1), Allowance::exact(), ml_binarizer);
// Version 1 maps strings and int64s only: always exact inputs, which the reference computes.
SONNX_ML_ENCLOSURE("LabelEncoder", (1, 2, 4), Allowance::exact(), ml_label_encoder);

}  // namespace sonnx::enclose
