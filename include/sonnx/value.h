// A runtime value: a tensor, a sequence of values, or an optional value (possibly empty).
// ONNX maps and sparse tensors are types the loader understands but the interpreter does not run.
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
  enum class Kind { None, Tensor, Sequence, Optional };

  Kind kind = Kind::None;
  sonnx::Tensor tensor;                    // Kind::Tensor
  std::vector<Value> sequence;             // Kind::Sequence: the elements
  DType sequence_elem = DType::Undefined;  // element type of an (empty) sequence, if known
  std::shared_ptr<Value> optional;         // Kind::Optional: null when empty

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

  bool is_tensor() const { return kind == Kind::Tensor; }
  bool is_sequence() const { return kind == Kind::Sequence; }
  bool is_optional() const { return kind == Kind::Optional; }
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
  }
  return false;
}

using NamedValues = std::map<std::string, Value>;

}  // namespace sonnx
#pragma GCC visibility pop
