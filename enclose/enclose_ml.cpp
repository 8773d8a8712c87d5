// Enclosures of the ai.onnx.ml operators that compute no new real number: ArrayFeatureExtractor
// and FeatureVectorizer (data movement; FeatureVectorizer's conversion to float rounds each value to
// nearest, as Cast does), Binarizer (a comparison with a threshold), LabelEncoder, CategoryMapper and
// OneHotEncoder (table lookups) and Imputer (a value replaced where it equals another). On exact
// inputs (integers, strings) the reference computes the result (lift_exact). On float inputs the
// result is decided element by element where the bounds decide it; where they leave more than one
// outcome the enclosure says so (Undetermined) instead of guessing, or, where the output is a float
// that takes either of two values (Imputer), holds both. An undefined input element (no real value,
// e.g. a NaN input) gives an undefined float output element: any value is admissible there.
// TreeEnsemble: enclose_ml_trees.cpp; the predictors: enclose_ml_linear.cpp, enclose_ml_svm.cpp,
// enclose_ml_tree_votes.cpp; Scaler and Normalizer: enclose_ml_scaling.cpp.
#include <cmath>
#include <map>
#include <set>

#include "ml_common.h"
#include "reference/ops/params/binarizer.h"
#include "reference/ops/params/imputer.h"
#include "reference/ops/params/label_encoder.h"
#include "reference/ops/params/one_hot_encoder.h"
#include "sonnx/errors.h"

namespace sonnx::enclose {

namespace {

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

// Imputer-1 on float X: an element equal to replaced_value_float (compared by value, -0 equal to
// 0) becomes its feature's imputed value, any other stays. Where the bounds are that value the
// element is replaced, where they do not hold it the element stays, else it is one of the two:
// their hull. A NaN replaced value matches only NaN, which a defined element is not.
std::vector<Bounds> ml_imputer(const OpCall& c) {
  const Bounds& x = c.input(0);
  if (x.exact()) return lift_exact(c);
  const ImputerParams p = ImputerParams::read(c.ctx, c.version);
  if (x.lo.rank() < 1) throw Trap(c.node.label() + ": X must have at least one dimension");
  const int64_t features = x.lo.dim(x.lo.rank() - 1);
  if (std::string why = p.fits(x.type, features); !why.empty()) throw Trap(c.node.label() + ": " + why);
  const double replaced = p.replaced_float;  // as X's type holds it: float and double hold every float
  Bounds y = float_bounds(x.type, x.lo.shape());
  for (int64_t i = 0; i < x.lo.size(); ++i) {
    const Interval v = at(x, i);
    const double imputed = p.float_values[static_cast<size_t>(p.count() == 1 ? 0 : i % features)];
    if (v.has_nan() || std::isnan(replaced) || !v.contains(replaced)) set(y, i, v);
    else if (v.lo == v.hi) set(y, i, Interval::point(imputed));
    else set(y, i, hull(v, Interval::point(imputed)));
  }
  return {y};
}

// Whether the integer m lies in [lo, hi], two integer-valued doubles or infinities, compared exactly.
bool ml_integer_within(int64_t m, double lo, double hi) {
  constexpr double kTwo63 = 0x1p63;
  const bool above_lo = lo < -kTwo63 || (lo < kTwo63 && static_cast<int64_t>(lo) <= m);
  const bool below_hi = hi >= kTwo63 || (hi >= -kTwo63 && static_cast<int64_t>(hi) >= m);
  return above_lo && below_hi;
}

// OneHotEncoder-1 on float X: element i truncated toward zero is looked up among cats_int64s (the
// last of equal categories); NaN, an infinity or a value beyond int64 is no category. Truncation is
// nondecreasing and takes every integer between trunc(lo) and trunc(hi) on [lo, hi], so the
// element's category is decided where those integers all give one position (one integer, or no
// category among them), else Undetermined.
int64_t ml_one_hot_position(const OpCall& c, const OneHotEncoderParams& p, Interval v, int64_t i) {
  const double lo = std::trunc(v.lo), hi = std::trunc(v.hi);
  constexpr double kTwo63 = 0x1p63;
  std::map<int64_t, int64_t> last;  // each category within [lo, hi] and its last position
  for (size_t j = 0; j < p.int_cats.size(); ++j)
    if (ml_integer_within(p.int_cats[j], lo, hi)) last[p.int_cats[j]] = static_cast<int64_t>(j);
  // Some value of v truncates to no category: beyond int64, or an integer among [lo, hi] that is none.
  const bool misses = lo < -kTwo63 || hi >= kTwo63 || hi - lo + 1 > static_cast<double>(last.size());
  std::set<int64_t> outcomes;
  for (const auto& [cat, position] : last) outcomes.insert(position);
  if (misses) outcomes.insert(-1);
  if (outcomes.size() == 1) return *outcomes.begin();
  throw Undetermined(c.node.label() + ": the enclosures do not decide element " + std::to_string(i) +
                     " of its output at this input: X's enclosure " + ml_interval_str(v) +
                     " truncates to more than one category (or to one and to none)");
}

std::vector<Bounds> ml_one_hot_encoder(const OpCall& c) {
  const Bounds& x = c.input(0);
  if (x.exact()) return lift_exact(c);
  const OneHotEncoderParams p = OneHotEncoderParams::read(c.ctx, c.version);
  if (std::string why = p.fits(x.type); !why.empty()) throw Trap(c.node.label() + ": " + why);
  const int64_t k = p.count();
  Shape shape = x.lo.shape();
  shape.push_back(k);
  Bounds y = float_bounds(DType::Float, shape);  // zero-filled
  for (int64_t i = 0; i < x.lo.size(); ++i) {
    const Interval v = at(x, i);
    if (v.has_nan()) {
      for (int64_t j = 0; j < k; ++j) set(y, i * k + j, Interval::undefined());
      continue;
    }
    const int64_t j = ml_one_hot_position(c, p, v, i);
    if (j >= 0) set(y, i * k + j, Interval::point(1));
    else if (!p.zeros) throw Trap(c.node.label() + ": element " + std::to_string(i) + " of X is no category, and zeros = 0");
  }
  return {y};
}

// FeatureVectorizer-1: the inputs' rows side by side, each value converted to float (rounding to
// nearest, nondecreasing; exact from float), the rest of each input's columns 0: the reference run
// on the lower and on the upper bounds encloses it (its float output read as bounds).
std::vector<Bounds> ml_feature_vectorizer(const OpCall& c) {
  const Tensor lo = run_on_bounds(c, false).at(0).tensor, hi = run_on_bounds(c, true).at(0).tensor;
  Bounds y = float_bounds(DType::Float, lo.shape());
  for (int64_t i = 0; i < lo.size(); ++i) {
    const double a = lo.as_double(i), b = hi.as_double(i);
    set(y, i, std::isnan(a) || std::isnan(b) ? Interval::undefined() : Interval{a, b});
  }
  return {y};
}

}  // namespace

// Data movement: X's elements picked by exact indices, lifted from the reference kernel.
SONNX_ML_ENCLOSURE("ArrayFeatureExtractor", (1), Allowance::exact(), lift_monotone);
SONNX_ML_ENCLOSURE("Binarizer", (1), Allowance::exact(), ml_binarizer);
// Version 1 maps strings and int64s only: always exact inputs, which the reference computes.
SONNX_ML_ENCLOSURE("LabelEncoder", (1, 2, 4), Allowance::exact(), ml_label_encoder);
SONNX_ML_ENCLOSURE("Imputer", (1), Allowance::exact(), ml_imputer);
SONNX_ML_ENCLOSURE("OneHotEncoder", (1), Allowance::exact(), ml_one_hot_encoder);
// X is string or int64: always exact, which the reference computes.
SONNX_ML_ENCLOSURE("CategoryMapper", (1), Allowance::exact(), lift_exact);
SONNX_ML_ENCLOSURE("FeatureVectorizer", (1), Allowance::exact(), ml_feature_vectorizer);

}  // namespace sonnx::enclose
