// The class labels of the ai.onnx.ml classifiers (LinearClassifier, SVMClassifier):
// classlabels_ints or classlabels_strings, exactly one of them non-empty. Y holds one label per row,
// int64 or string after the list given.
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

  static ClassLabels read(const AttrReader& r) {
    ClassLabels l;
    l.ints = r.attr_ints("classlabels_ints");
    l.strings = r.attr_strings("classlabels_strings");
    if (l.ints.empty() == l.strings.empty())
      r.fail("exactly one of classlabels_ints and classlabels_strings must be given (and non-empty)");
    return l;
  }

  // Y: the labels of the classes `picks` (indices into the list), one per row.
  Tensor pick(const std::vector<int64_t>& picks) const {
    Tensor y(dtype(), {static_cast<int64_t>(picks.size())});
    for (size_t i = 0; i < picks.size(); ++i) {
      const auto k = static_cast<size_t>(picks[i]);
      if (use_strings()) y.data<std::string>()[i] = strings[k];
      else y.data<int64_t>()[i] = ints[k];
    }
    return y;
  }
};

}  // namespace sonnx
