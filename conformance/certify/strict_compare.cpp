#include "strict_compare.h"

#include <cmath>
#include <cstring>

namespace sonnx {

namespace {

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

Comparison compare_tensor(const Tensor& a, const Tensor& r, Accuracy acc) {
  Comparison c;
  if (a.dtype() != r.dtype() || a.shape() != r.shape()) return compare_values(a, r, {});  // says which differs
  DType t = a.dtype();
  auto fail_at = [&](int64_t i, const std::string& got, const std::string& want) {
    if (c.ok) c.message = "element " + std::to_string(i) + ": got " + got + ", reference " + want;
    c.ok = false;
    ++c.mismatches;
  };
  if (!is_float(t) || acc == Accuracy::Exact || t == DType::Complex64 || t == DType::Complex128) {
    // Bitwise (strings by content); also for complex numbers, which have no kernels that round.
    if (t == DType::String) {
      for (int64_t i = 0; i < a.size(); ++i)
        if (a.data<std::string>()[i] != r.data<std::string>()[i]) fail_at(i, a.data<std::string>()[i], r.data<std::string>()[i]);
      return c;
    }
    size_t es = dtype_size(t);
    for (int64_t i = 0; i < a.size(); ++i) {
      const std::byte* x = a.raw() + static_cast<size_t>(i) * es;
      const std::byte* y = r.raw() + static_cast<size_t>(i) * es;
      if (std::memcmp(x, y, es) == 0) continue;
      if (is_float(t) && std::isnan(a.as_double(i)) && std::isnan(r.as_double(i))) continue;
      double d = std::fabs(a.as_double(i) - r.as_double(i));
      c.max_abs = std::max(c.max_abs, d);
      if (is_float(t)) c.max_ulp = std::max(c.max_ulp, ulp_distance(a.as_double(i), r.as_double(i), t));
      fail_at(i, num(a.as_double(i)), num(r.as_double(i)));
    }
    return c;
  }
  StrictTolerance tol = strict_tolerance(t);
  for (int64_t i = 0; i < a.size(); ++i) {
    double x = a.as_double(i), y = r.as_double(i);
    if (std::isnan(x) || std::isnan(y)) {
      if (!(std::isnan(x) && std::isnan(y))) fail_at(i, num(x), num(y));
      continue;
    }
    if (std::isinf(x) || std::isinf(y)) {
      if (x != y) fail_at(i, num(x), num(y));
      continue;
    }
    double d = std::fabs(x - y);
    double ulp = ulp_distance(x, y, t);
    c.max_abs = std::max(c.max_abs, d);
    if (y != 0) c.max_rel = std::max(c.max_rel, d / std::fabs(y));
    c.max_ulp = std::max(c.max_ulp, ulp);
    if (ulp > tol.ulp && d > tol.abs + tol.rel * std::fabs(y)) fail_at(i, num(x), num(y));
  }
  return c;
}

}  // namespace

StrictTolerance strict_tolerance(DType t) {
  switch (t) {
    case DType::Float: return {1e-6, 1e-5, 2};
    case DType::Double: return {1e-12, 1e-12, 2};
    case DType::Float16:
    case DType::BFloat16: return {1e-3, 1e-3, 2};
    default: return {0, 0, 0};
  }
}

Comparison strict_compare(const Value& actual, const Value& reference, Accuracy accuracy) {
  if (accuracy == Accuracy::Random) {
    Comparison c = compare_values(actual, reference, {0, 0});
    return c.ok ? c : compare_statistically(actual, reference);
  }
  if (actual.is_tensor() && reference.is_tensor()) return compare_tensor(actual.tensor, reference.tensor, accuracy);
  if (actual.is_optional() && reference.is_optional() && actual.optional && reference.optional)
    return strict_compare(*actual.optional, *reference.optional, accuracy);
  if (actual.is_sequence() && reference.is_sequence() && actual.sequence.size() == reference.sequence.size()) {
    Comparison c;
    for (size_t i = 0; i < actual.sequence.size(); ++i) {
      Comparison e = strict_compare(actual.sequence[i], reference.sequence[i], accuracy);
      if (!e.ok) e.message = "sequence element " + std::to_string(i) + ": " + e.message;
      c.merge(e);
    }
    return c;
  }
  if (actual.is_map() && reference.is_map() && actual.map_keys() == reference.map_keys()) {  // the values, by key
    Comparison c = compare_tensor(actual.map_values(), reference.map_values(), accuracy);
    if (!c.ok) c.message = "map values (by key, in increasing order): " + c.message;
    return c;
  }
  return compare_values(actual, reference, {0, 0});  // kinds, lengths, empty optionals, map keys
}

}  // namespace sonnx
