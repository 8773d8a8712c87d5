// A dense tensor: element type, shape and row-major data. Value semantics (copying copies the data);
// the reference interpreter treats every tensor as immutable once produced. An optimized executor
// may also make a *view*: a tensor whose bytes live in memory it owns (its arena). Copying a view
// gives an ordinary tensor with its own copy of the data, so a view never escapes its arena.
// A *shared* tensor reads immutable bytes that an owner keeps alive (a loaded model's raw data, a
// memory-mapped external-data file): its copies share those bytes, and writing through a non-const
// accessor first gives the tensor a private copy, so value semantics still hold. Weights are
// shared tensors, so copies of a model do not copy its weights.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "dtype.h"
#include "errors.h"

// Everything this header declares is the library's public API: exported from libsonnx.so, whose
// other symbols are hidden (api/CMakeLists.txt).
#pragma GCC visibility push(default)
namespace sonnx {

using Shape = std::vector<int64_t>;

// Number of elements of a shape; throws Trap on a negative dimension or an element count that
// would not fit in memory, so an absurd shape never reaches an allocation.
int64_t shape_size(const Shape& shape);
std::string shape_str(const Shape& shape);  // "[2,3,4]"

class Tensor {
 public:
  Tensor() = default;
  Tensor(DType type, Shape shape);  // zero-filled (empty strings for String)
  // A view of `size` elements at `data` (not String); the caller keeps the memory alive.
  static Tensor view(DType type, Shape shape, std::byte* data);
  // A shared tensor over `data` (not String), kept alive by `owner`.
  static Tensor shared(DType type, Shape shape, const std::byte* data, std::shared_ptr<const void> owner);
  // A tensor whose values a fast kernel holds in a layout of its own (oneDNN's packed weights,
  // FastKernel::hold_input): type and shape only. Reading its elements throws InternalError.
  static Tensor held(DType type, Shape shape);

  Tensor(const Tensor& o);
  Tensor& operator=(const Tensor& o);
  Tensor(Tensor&&) noexcept = default;
  Tensor& operator=(Tensor&&) noexcept = default;
  bool is_view() const { return view_ != nullptr && !owner_; }
  bool is_shared() const { return owner_ != nullptr; }
  bool is_held() const { return held_; }

  template <class T>
  static Tensor from_vector(Shape shape, const std::vector<T>& values) {
    Tensor t(dtype_of<T>(), std::move(shape));
    if (static_cast<int64_t>(values.size()) != t.size()) throw InternalError("from_vector: size mismatch");
    T* out = t.data<T>();
    for (size_t i = 0; i < values.size(); ++i) out[i] = values[i];
    return t;
  }
  template <class T>
  static Tensor scalar(T v) {
    return from_vector<T>({}, {v});
  }

  DType dtype() const { return type_; }
  const Shape& shape() const { return shape_; }
  int64_t rank() const { return static_cast<int64_t>(shape_.size()); }
  int64_t dim(int64_t i) const { return shape_.at(static_cast<size_t>(i)); }
  int64_t size() const { return size_; }  // element count
  bool defined() const { return type_ != DType::Undefined; }

  // Typed access; throws InternalError if T is not the element type.
  template <class T>
  T* data() {
    check_type(dtype_of<T>());
    if constexpr (std::is_same_v<T, std::string>) return strings_.data();
    else return reinterpret_cast<T*>(raw());
  }
  template <class T>
  const T* data() const {
    check_type(dtype_of<T>());
    if constexpr (std::is_same_v<T, std::string>) return strings_.data();
    else return reinterpret_cast<const T*>(raw());
  }
  template <class T>
  std::span<const T> values() const {
    return {data<T>(), static_cast<size_t>(size_)};
  }
  template <class T>
  std::span<T> values() {
    return {data<T>(), static_cast<size_t>(size_)};
  }

  std::byte* raw() {
    if (owner_) unshare();
    return view_ ? view_ : bytes_.data();
  }
  const std::byte* raw() const { return view_ ? view_ : bytes_.data(); }
  size_t byte_size() const { return view_ ? static_cast<size_t>(size_) * dtype_size(type_) : bytes_.size(); }

  // Element i converted to double / int64 (any numeric or bool type, the small types of
  // small_types.h included: float to int64 truncates and saturates); for index-like inputs.
  double as_double(int64_t i) const;
  int64_t as_int64(int64_t i) const;
  // All elements as int64 (for shape/axes/indices inputs of any integer type).
  std::vector<int64_t> to_int64_vector() const;

  // Same data, new shape with the same element count.
  Tensor reshaped(Shape shape) const;

  bool operator==(const Tensor& o) const;  // same type, shape and bits

 private:
  void check_type(DType want) const;
  void unshare();  // a private copy of shared bytes, before a write
  DType type_ = DType::Undefined;
  Shape shape_;
  int64_t size_ = 0;
  std::vector<std::byte> bytes_;
  std::vector<std::string> strings_;
  std::byte* view_ = nullptr;          // set for a view or a shared tensor: the bytes live there, bytes_ is empty
  std::shared_ptr<const void> owner_;  // set for a shared tensor: keeps view_ alive
  bool held_ = false;                  // no bytes: a kernel holds the values (held())
};

// Calls f.template operator()<T>() with T the storage type of `type`: the 16 classic element types
// only. The IR 9–13 types (float8, float4, int4, int2, ...) throw Unsupported here, so that no kernel
// written before them meets them by accident; visit_small_dtype below visits those.
template <class F>
decltype(auto) visit_dtype(DType type, F&& f) {
  switch (type) {
    case DType::Float: return f.template operator()<float>();
    case DType::UInt8: return f.template operator()<uint8_t>();
    case DType::Int8: return f.template operator()<int8_t>();
    case DType::UInt16: return f.template operator()<uint16_t>();
    case DType::Int16: return f.template operator()<int16_t>();
    case DType::Int32: return f.template operator()<int32_t>();
    case DType::Int64: return f.template operator()<int64_t>();
    case DType::String: return f.template operator()<std::string>();
    case DType::Bool: return f.template operator()<bool>();
    case DType::Float16: return f.template operator()<float16_t>();
    case DType::Double: return f.template operator()<double>();
    case DType::UInt32: return f.template operator()<uint32_t>();
    case DType::UInt64: return f.template operator()<uint64_t>();
    case DType::Complex64: return f.template operator()<std::complex<float>>();
    case DType::Complex128: return f.template operator()<std::complex<double>>();
    case DType::BFloat16: return f.template operator()<bfloat16_t>();
    default: break;
  }
  throw Unsupported("element type " + std::string(dtype_name(type)) + " is not supported here");
}

// Calls f.template operator()<T>() with T the storage struct of one of the ten small types
// (small_types.h); Unsupported for any other type.
template <class F>
decltype(auto) visit_small_dtype(DType type, F&& f) {
  switch (type) {
    case DType::Float8E4M3FN: return f.template operator()<float8e4m3fn_t>();
    case DType::Float8E4M3FNUZ: return f.template operator()<float8e4m3fnuz_t>();
    case DType::Float8E5M2: return f.template operator()<float8e5m2_t>();
    case DType::Float8E5M2FNUZ: return f.template operator()<float8e5m2fnuz_t>();
    case DType::UInt4: return f.template operator()<uint4_t>();
    case DType::Int4: return f.template operator()<int4_t>();
    case DType::Float4E2M1: return f.template operator()<float4e2m1_t>();
    case DType::Float8E8M0: return f.template operator()<float8e8m0_t>();
    case DType::UInt2: return f.template operator()<uint2_t>();
    case DType::Int2: return f.template operator()<int2_t>();
    default: break;
  }
  throw Unsupported("element type " + std::string(dtype_name(type)) + " is not one of the small types");
}

}  // namespace sonnx
#pragma GCC visibility pop
