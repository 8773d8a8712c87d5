// A runtime value: a tensor, a sequence of values, an optional value (possibly empty), or a map
// (ai.onnx.ml's map(K, V)). Sparse tensors are a type the loader understands but the interpreter
// does not run.
// NamedValues: a graph's inputs or outputs by name, as every executor takes and returns them.
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tensor.h"

// Everything this header declares is the library's public API: exported from libsonnx.so, whose
// other symbols are hidden (api/CMakeLists.txt).
#pragma GCC visibility push(default)
namespace sonnx {

struct Value {
  enum class Kind { None, Tensor, Sequence, Optional, Map };

  // The entries of a map: `keys` a 1-D tensor of an integer type or string, distinct and in
  // increasing order (integers by value, strings by their bytes), `values` the 1-D tensor of the
  // value at each key. Values are scalars of one element type: every operator that makes or reads
  // a map (ZipMap, DictVectorizer, CastMap) has such values. The order is canonical, so two maps
  // are equal exactly when their entries are.
  struct MapEntries {
    sonnx::Tensor keys, values;
  };

  Kind kind = Kind::None;
  sonnx::Tensor tensor;                    // Kind::Tensor
  std::vector<Value> sequence;             // Kind::Sequence: the elements
  DType sequence_elem = DType::Undefined;  // element type of an (empty) sequence, if known
  std::shared_ptr<Value> optional;         // Kind::Optional: null when empty
  std::shared_ptr<const MapEntries> map;   // Kind::Map: never null (make_map); shared, immutable

  Value() = default;
  Value(sonnx::Tensor t) : kind(Kind::Tensor), tensor(std::move(t)) {}  // NOLINT implicit on purpose

  static Value make_sequence(std::vector<Value> elems, DType elem = DType::Undefined) {
    Value v;
    v.kind = Kind::Sequence;
    v.sequence = std::move(elems);
    v.sequence_elem = elem;
    return v;
  }
  static Value make_optional(std::optional<Value> content) {
    Value v;
    v.kind = Kind::Optional;
    if (content) v.optional = std::make_shared<Value>(std::move(*content));
    return v;
  }

  // A map of the entries keys[i] -> values[i], given in any order (reference/model/map_value.cpp).
  // Throws Trap when keys or values are not 1-D tensors of one length, the keys are neither of an
  // integer type nor strings, or a key is given twice.
  static Value make_map(sonnx::Tensor keys, sonnx::Tensor values);

  bool is_tensor() const { return kind == Kind::Tensor; }
  bool is_sequence() const { return kind == Kind::Sequence; }
  bool is_optional() const { return kind == Kind::Optional; }
  bool is_map() const { return kind == Kind::Map; }
  const sonnx::Tensor& map_keys() const { return map->keys; }      // Kind::Map
  const sonnx::Tensor& map_values() const { return map->values; }  // Kind::Map
  bool operator==(const Value& o) const;
};

inline bool Value::operator==(const Value& o) const {
  if (kind != o.kind) return false;
  switch (kind) {
    case Kind::None: return true;
    case Kind::Tensor: return tensor == o.tensor;
    case Kind::Sequence: return sequence == o.sequence;
    case Kind::Optional:
      if (!optional || !o.optional) return !optional && !o.optional;
      return *optional == *o.optional;
    case Kind::Map: return map->keys == o.map->keys && map->values == o.map->values;
  }
  return false;
}

using NamedValues = std::map<std::string, Value>;

}  // namespace sonnx
#pragma GCC visibility pop
