#include "fold.h"

#include <limits>
#include <type_traits>

namespace sonnx {

std::optional<Tensor> int_tensor(DType elem, const std::vector<int64_t>& values, bool scalar) {
  if (!is_integer(elem) || (scalar && values.size() != 1)) return std::nullopt;
  Shape shape;
  if (!scalar) shape.push_back(static_cast<int64_t>(values.size()));
  Tensor t(elem, shape);
  bool fits = visit_dtype(elem, [&]<class T>() {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      T* out = t.data<T>();
      for (size_t i = 0; i < values.size(); ++i) {
        int64_t v = values[i];
        if constexpr (std::is_unsigned_v<T>) {
          if (v < 0 || static_cast<uint64_t>(v) > std::numeric_limits<T>::max()) return false;
        } else {
          if (v < std::numeric_limits<T>::min() || v > std::numeric_limits<T>::max()) return false;
        }
        out[i] = static_cast<T>(v);
      }
      return true;
    } else {
      return false;
    }
  });
  if (!fits) return std::nullopt;
  return t;
}

std::optional<Tensor> tensor_from_partial(const PartialValue& p, DType elem) {
  auto v = p.values();
  if (!v) return std::nullopt;
  return int_tensor(elem, *v, p.scalar);
}

}  // namespace sonnx
