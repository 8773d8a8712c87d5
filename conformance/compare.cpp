#include "compare.h"

#include <bit>
#include <cmath>
#include <limits>

namespace sonnx {

void Comparison::merge(const Comparison& o) {
  if (ok && !o.ok) message = o.message;
  ok = ok && o.ok;
  max_abs = std::max(max_abs, o.max_abs);
  max_rel = std::max(max_rel, o.max_rel);
  max_ulp = std::max(max_ulp, o.max_ulp);
  mismatches += o.mismatches;
}

namespace {

// Maps a float's bits to a monotonic integer line so that ULP distance is a subtraction.
int64_t ordered_bits(double v, DType type) {
  if (type == DType::Double) {
    auto b = std::bit_cast<int64_t>(v);
    return b < 0 ? std::numeric_limits<int64_t>::min() - b : b;
  }
  int32_t b;
  if (type == DType::Float16) b = float16_t(static_cast<float>(v)).bits;
  else if (type == DType::BFloat16) b = bfloat16_t(static_cast<float>(v)).bits;
  else b = std::bit_cast<int32_t>(static_cast<float>(v));
  if (type == DType::Float16 || type == DType::BFloat16) {
    int32_t mag = b & 0x7fff;
    return (b & 0x8000) ? -mag : mag;
  }
  return b < 0 ? -static_cast<int64_t>(b & 0x7fffffff) : b;
}

std::string fmt(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

Comparison compare_tensors(const Tensor& a, const Tensor& e, const Tolerance& tol) {
  Comparison c;
  if (a.dtype() != e.dtype()) {
    c.ok = false;
    c.message = "element type " + std::string(dtype_name(a.dtype())) + ", expected " + std::string(dtype_name(e.dtype()));
    return c;
  }
  if (a.shape() != e.shape()) {
    c.ok = false;
    c.message = "shape " + shape_str(a.shape()) + ", expected " + shape_str(e.shape());
    return c;
  }
  DType t = a.dtype();
  auto fail_at = [&](int64_t i, const std::string& got, const std::string& want) {
    if (c.ok) c.message = "element " + std::to_string(i) + ": got " + got + ", expected " + want;
    c.ok = false;
    ++c.mismatches;
  };
  if (t == DType::String) {
    auto av = a.values<std::string>(), ev = e.values<std::string>();
    for (int64_t i = 0; i < a.size(); ++i)
      if (av[i] != ev[i]) fail_at(i, "'" + av[i] + "'", "'" + ev[i] + "'");
    return c;
  }
  if (t == DType::Complex64 || t == DType::Complex128) {
    // Compare real and imaginary parts as two floats each.
    bool is64 = t == DType::Complex64;
    for (int64_t i = 0; i < a.size(); ++i) {
      std::complex<double> x = is64 ? std::complex<double>(a.data<std::complex<float>>()[i]) : a.data<std::complex<double>>()[i];
      std::complex<double> y = is64 ? std::complex<double>(e.data<std::complex<float>>()[i]) : e.data<std::complex<double>>()[i];
      for (auto [p, q] : {std::pair{x.real(), y.real()}, std::pair{x.imag(), y.imag()}}) {
        double d = std::fabs(p - q);
        c.max_abs = std::max(c.max_abs, d);
        if (d > tol.atol + tol.rtol * std::fabs(q) && !(std::isnan(p) && std::isnan(q))) fail_at(i, fmt(p), fmt(q));
      }
    }
    return c;
  }
  bool floating = is_float(t) || is_small_float(t);  // float8 and float4 compare as values (NaN equals NaN)
  for (int64_t i = 0; i < a.size(); ++i) {
    if (!floating) {
      // Integers and bool compare exactly, as integers.
      if (a.as_int64(i) != e.as_int64(i) || (t == DType::UInt64 && a.data<uint64_t>()[i] != e.data<uint64_t>()[i])) {
        fail_at(i, std::to_string(a.as_int64(i)), std::to_string(e.as_int64(i)));
        c.max_abs = std::max(c.max_abs, std::fabs(a.as_double(i) - e.as_double(i)));
      }
      continue;
    }
    double x = a.as_double(i), y = e.as_double(i);
    if (std::isnan(x) || std::isnan(y)) {
      if (!(std::isnan(x) && std::isnan(y))) fail_at(i, fmt(x), fmt(y));
      continue;
    }
    if (std::isinf(x) || std::isinf(y)) {
      if (x != y) fail_at(i, fmt(x), fmt(y));
      continue;
    }
    double d = std::fabs(x - y);
    c.max_abs = std::max(c.max_abs, d);
    if (y != 0) c.max_rel = std::max(c.max_rel, d / std::fabs(y));
    c.max_ulp = std::max(c.max_ulp, ulp_distance(x, y, t));
    if (d > tol.atol + tol.rtol * std::fabs(y)) fail_at(i, fmt(x), fmt(y));
  }
  return c;
}

}  // namespace

double ulp_distance(double a, double b, DType type) {
  if (std::isnan(a) || std::isnan(b)) return 0;
  return std::fabs(static_cast<double>(ordered_bits(a, type) - ordered_bits(b, type)));
}

Comparison compare_values(const Value& actual, const Value& expected, const Tolerance& tol) {
  Comparison c;
  auto kind_name = [](const Value& v) {
    switch (v.kind) {
      case Value::Kind::Tensor: return "tensor";
      case Value::Kind::Sequence: return "sequence";
      case Value::Kind::Optional: return "optional";
      case Value::Kind::Map: return "map";
      case Value::Kind::None: break;
    }
    return "nothing";
  };
  // An optional that holds a value may stand for the value itself in test data, and vice versa.
  if (actual.is_optional() && !expected.is_optional() && actual.optional) return compare_values(*actual.optional, expected, tol);
  if (expected.is_optional() && !actual.is_optional() && expected.optional)
    return compare_values(actual, *expected.optional, tol);
  if (actual.kind != expected.kind) {
    c.ok = false;
    c.message = std::string("got a ") + kind_name(actual) + ", expected a " + kind_name(expected);
    return c;
  }
  switch (actual.kind) {
    case Value::Kind::Tensor: return compare_tensors(actual.tensor, expected.tensor, tol);
    case Value::Kind::Sequence:
      if (actual.sequence.size() != expected.sequence.size()) {
        c.ok = false;
        c.message = "sequence of " + std::to_string(actual.sequence.size()) + " elements, expected " +
                    std::to_string(expected.sequence.size());
        return c;
      }
      for (size_t i = 0; i < actual.sequence.size(); ++i) {
        Comparison e = compare_values(actual.sequence[i], expected.sequence[i], tol);
        if (!e.ok) e.message = "sequence element " + std::to_string(i) + ": " + e.message;
        c.merge(e);
      }
      return c;
    case Value::Kind::Optional:
      if (!actual.optional || !expected.optional) {
        if (actual.optional || expected.optional) {
          c.ok = false;
          c.message = actual.optional ? "optional holds a value, expected empty" : "optional is empty, expected a value";
        }
        return c;
      }
      return compare_values(*actual.optional, *expected.optional, tol);
    case Value::Kind::Map: {
      // Keys exactly (they are integers or strings), values as tensors are; both in increasing
      // key order, so entry i of one is entry i of the other once the keys agree.
      if (actual.map_keys().size() != expected.map_keys().size()) {
        c.ok = false;
        c.message = "map of " + std::to_string(actual.map_keys().size()) + " entries, expected " +
                    std::to_string(expected.map_keys().size());
        return c;
      }
      Comparison keys = compare_tensors(actual.map_keys(), expected.map_keys(), tol);
      if (!keys.ok) {
        keys.message = "map keys (in increasing order): " + keys.message;
        return keys;
      }
      Comparison values = compare_tensors(actual.map_values(), expected.map_values(), tol);
      if (!values.ok) values.message = "map values (by key, in increasing order): " + values.message;
      return values;
    }
    case Value::Kind::None: return c;
  }
  return c;
}

Comparison compare_statistically(const Value& actual, const Value& expected) {
  Comparison c;
  if (!actual.is_tensor() || !expected.is_tensor()) return compare_values(actual, expected, {});
  const Tensor& a = actual.tensor;
  const Tensor& e = expected.tensor;
  if (a.dtype() != e.dtype() || a.shape() != e.shape()) return compare_values(actual, expected, {});
  if (a.size() == 0 || a.dtype() == DType::String) return c;
  double ma = 0, me = 0;
  bool e_binary = true, a_binary = true;
  for (int64_t i = 0; i < a.size(); ++i) {
    double x = a.as_double(i), y = e.as_double(i);
    ma += x;
    me += y;
    e_binary = e_binary && (y == 0 || y == 1);
    a_binary = a_binary && (x == 0 || x == 1);
  }
  auto n = static_cast<double>(a.size());
  ma /= n;
  me /= n;
  double va = 0, ve = 0;
  for (int64_t i = 0; i < a.size(); ++i) {
    va += (a.as_double(i) - ma) * (a.as_double(i) - ma);
    ve += (e.as_double(i) - me) * (e.as_double(i) - me);
  }
  va /= n;
  ve /= n;
  double se = std::sqrt((va + ve) / n);
  c.max_abs = std::fabs(ma - me);
  if (e_binary && !a_binary) {
    c.ok = false;
    c.message = "expected a sample of 0/1 values, got other values";
  } else if (std::fabs(ma - me) > 5 * se + 1e-6 * (1 + std::fabs(me))) {
    c.ok = false;
    c.message = "sample mean " + fmt(ma) + " differs from expected sample mean " + fmt(me) + " by more than 5 standard errors";
  }
  return c;
}

}  // namespace sonnx
