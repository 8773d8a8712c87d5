#include "sonnx/tensor.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace sonnx {

namespace {
// Largest tensor the reference will allocate: beyond this a shape is treated as absurd input.
constexpr int64_t kMaxElements = int64_t{1} << 34;
}  // namespace

int64_t shape_size(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) throw Trap("negative dimension in shape " + shape_str(shape));
    if (d != 0 && n > kMaxElements / d) throw Trap("shape " + shape_str(shape) + " is too large");
    n *= d;
  }
  return n;
}

std::string shape_str(const Shape& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

Tensor::Tensor(DType type, Shape shape) : type_(type), shape_(std::move(shape)) {
  size_ = shape_size(shape_);
  if (type_ == DType::String) strings_.resize(static_cast<size_t>(size_));
  else if (type_ != DType::Undefined) bytes_.resize(static_cast<size_t>(size_) * dtype_size(type_));
}

Tensor Tensor::view(DType type, Shape shape, std::byte* data) {
  if (type == DType::String || type == DType::Undefined) throw InternalError("a view cannot hold strings");
  Tensor t;
  t.type_ = type;
  t.shape_ = std::move(shape);
  t.size_ = shape_size(t.shape_);
  t.view_ = data;
  return t;
}

Tensor Tensor::shared(DType type, Shape shape, const std::byte* data, std::shared_ptr<const void> owner) {
  Tensor t = view(type, std::move(shape), const_cast<std::byte*>(data));  // never written through: see raw()
  t.owner_ = std::move(owner);
  return t;
}

Tensor Tensor::held(DType type, Shape shape) {
  Tensor t = view(type, std::move(shape), nullptr);  // type and shape, no bytes
  t.held_ = true;
  return t;
}

void Tensor::unshare() {
  bytes_.assign(view_, view_ + byte_size());
  view_ = nullptr;
  owner_.reset();
}

Tensor::Tensor(const Tensor& o) : type_(o.type_), shape_(o.shape_), size_(o.size_), strings_(o.strings_), held_(o.held_) {
  if (o.owner_) {
    view_ = o.view_;
    owner_ = o.owner_;
  } else if (o.view_) {
    bytes_.assign(o.view_, o.view_ + o.byte_size());
  } else {
    bytes_ = o.bytes_;
  }
}

Tensor& Tensor::operator=(const Tensor& o) {
  if (this != &o) *this = Tensor(o);
  return *this;
}

void Tensor::check_type(DType want) const {
  if (held_)
    throw InternalError("the values of this " + shape_str(shape_) + " tensor are held by a fast kernel and cannot be read here");
  if (want != type_)
    throw InternalError("tensor of type " + std::string(dtype_name(type_)) + " accessed as " + std::string(dtype_name(want)));
}

double Tensor::as_double(int64_t i) const {
  if (is_small_type(type_)) return visit_small_dtype(type_, [&]<class T>() { return small_to_double(data<T>()[i]); });
  return visit_dtype(type_, [&]<class T>() -> double {
    if constexpr (std::is_arithmetic_v<T>) return static_cast<double>(data<T>()[i]);
    else if constexpr (std::is_same_v<T, float16_t> || std::is_same_v<T, bfloat16_t>) return static_cast<float>(data<T>()[i]);
    else throw Trap("expected a numeric tensor, got " + std::string(dtype_name(type_)));
  });
}

namespace {
// Float to int64 without undefined behaviour: NaN becomes 0, out-of-range values saturate.
int64_t saturate_to_int64(double v) {
  if (std::isnan(v)) return 0;
  if (v <= -9223372036854775808.0) return std::numeric_limits<int64_t>::min();
  if (v >= 9223372036854775808.0) return std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(v);
}
}  // namespace

int64_t Tensor::as_int64(int64_t i) const {
  if (is_small_type(type_)) return saturate_to_int64(as_double(i));  // integers are exact
  return visit_dtype(type_, [&]<class T>() -> int64_t {
    if constexpr (std::is_integral_v<T>) return static_cast<int64_t>(data<T>()[i]);
    else if constexpr (std::is_arithmetic_v<T>) return saturate_to_int64(static_cast<double>(data<T>()[i]));
    else if constexpr (std::is_same_v<T, float16_t> || std::is_same_v<T, bfloat16_t>)
      return saturate_to_int64(static_cast<float>(data<T>()[i]));
    else throw Trap("expected a numeric tensor, got " + std::string(dtype_name(type_)));
  });
}

std::vector<int64_t> Tensor::to_int64_vector() const {
  std::vector<int64_t> out(static_cast<size_t>(size_));
  for (int64_t i = 0; i < size_; ++i) out[static_cast<size_t>(i)] = as_int64(i);
  return out;
}

Tensor Tensor::reshaped(Shape shape) const {
  if (shape_size(shape) != size_) throw Trap("cannot reshape " + shape_str(shape_) + " to " + shape_str(shape));
  Tensor t = *this;
  t.shape_ = std::move(shape);
  return t;
}

bool Tensor::operator==(const Tensor& o) const {
  return type_ == o.type_ && shape_ == o.shape_ && held_ == o.held_ && strings_ == o.strings_ && byte_size() == o.byte_size() &&
         std::equal(raw(), raw() + byte_size(), o.raw());
}

}  // namespace sonnx
