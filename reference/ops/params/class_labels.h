// The class labels of the ai.onnx.ml classifiers and ZipMap: classlabels_ints (LinearClassifier,
// SVMClassifier) or classlabels_int64s (TreeEnsembleClassifier, ZipMap), or classlabels_strings;
// exactly one of the two lists non-empty. A label is an int64 or a string after the list given.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "reference/model/attr_reader.h"
#include "sonnx/tensor.h"

namespace sonnx {

struct ClassLabels {
  std::vector<int64_t> ints;
  std::vector<std::string> strings;

  bool use_strings() const { return !strings.empty(); }
  int64_t size() const { return static_cast<int64_t>(use_strings() ? strings.size() : ints.size()); }
  DType dtype() const { return use_strings() ? DType::String : DType::Int64; }

  static ClassLabels read(const AttrReader& r, const std::string& ints_attr = "classlabels_ints") {
    ClassLabels l;
    l.ints = r.attr_ints(ints_attr);
    l.strings = r.attr_strings("classlabels_strings");
    if (l.ints.empty() == l.strings.empty())
      r.fail("exactly one of " + ints_attr + " and classlabels_strings must be given (and non-empty)");
    return l;
  }

  // Element `at` of y (of dtype()) set to label k.
  void write(Tensor& y, int64_t at, size_t k) const {
    if (use_strings()) y.data<std::string>()[at] = strings[k];
    else y.data<int64_t>()[at] = ints[k];
  }

  // The labels as a 1-D tensor.
  Tensor all() const {
    std::vector<int64_t> every(static_cast<size_t>(size()));
    for (size_t k = 0; k < every.size(); ++k) every[k] = static_cast<int64_t>(k);
    return pick(every);
  }

  // Y: the labels of the classes `picks` (indices into the list), one per row.
  Tensor pick(const std::vector<int64_t>& picks) const {
    Tensor y(dtype(), {static_cast<int64_t>(picks.size())});
    for (size_t i = 0; i < picks.size(); ++i) write(y, static_cast<int64_t>(i), static_cast<size_t>(picks[i]));
    return y;
  }
};

}  // namespace sonnx
