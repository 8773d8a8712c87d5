// Value::make_map: a map's entries put in their canonical order (keys increasing), a repeated key
// refused, so that equality, comparison and every file a map is written to see one order.
#include <algorithm>
#include <cstring>
#include <numeric>

#include "sonnx/value.h"

namespace sonnx {

namespace {

// The positions of `keys` in increasing key order; throws Trap on a key given twice.
template <class K>
std::vector<size_t> map_key_order(const Tensor& keys) {
  std::span<const K> k = keys.values<K>();
  std::vector<size_t> order(k.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return k[a] < k[b]; });
  for (size_t i = 1; i < order.size(); ++i)
    if (!(k[order[i - 1]] < k[order[i]])) {
      if constexpr (std::is_same_v<K, std::string>) throw Trap("map: key \"" + k[order[i]] + "\" is given twice");
      else throw Trap("map: key " + std::to_string(k[order[i]]) + " is given twice");
    }
  return order;
}

// The elements of a 1-D tensor taken in `order` (any element type: strings by value, the others
// as their bytes in memory).
Tensor map_permuted(const Tensor& t, const std::vector<size_t>& order) {
  Tensor out(t.dtype(), t.shape());
  if (t.dtype() == DType::String) {
    const std::string* in = t.data<std::string>();
    std::string* o = out.data<std::string>();
    for (size_t i = 0; i < order.size(); ++i) o[i] = in[order[i]];
    return out;
  }
  const size_t width = dtype_size(t.dtype());
  const std::byte* in = t.raw();
  std::byte* o = out.raw();
  for (size_t i = 0; i < order.size(); ++i) std::memcpy(o + i * width, in + order[i] * width, width);
  return out;
}

}  // namespace

Value Value::make_map(sonnx::Tensor keys, sonnx::Tensor values) {
  if (keys.rank() != 1 || values.rank() != 1 || keys.size() != values.size())
    throw Trap("map: keys and values must be 1-D tensors of one length, got " + shape_str(keys.shape()) + " and " +
               shape_str(values.shape()));
  if (!values.defined()) throw Trap("map: the values have no element type");
  const DType key_type = keys.dtype();
  if (key_type != DType::String && !is_integer(key_type))
    throw Trap("map: keys must be of an integer type or strings, not " + std::string(dtype_name(key_type)));
  std::vector<size_t> order = visit_dtype(key_type, [&]<class K>() -> std::vector<size_t> {
    if constexpr (std::is_integral_v<K> || std::is_same_v<K, std::string>) return map_key_order<K>(keys);
    else throw InternalError("map: key type");
  });
  Value v;
  v.kind = Kind::Map;
  v.map = std::make_shared<const MapEntries>(MapEntries{map_permuted(keys, order), map_permuted(values, order)});
  return v;
}

}  // namespace sonnx
