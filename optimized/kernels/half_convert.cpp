// Float16 <-> float32 runs with the CPU's conversion instructions (AVX-512F: 16 lanes, F16C: 8),
// picked once from the CPU; float16_t's own conversions elsewhere. The instructions round as
// float16_t::from_float does (to nearest-even, with the rounding given in the instruction, so
// MXCSR does not matter), keep subnormal halves and overflow to ±inf; only NaN payloads may differ
// (the instructions keep the payload's high bits, float16_t makes one quiet NaN).
#include "half_convert.h"

#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace sonnx::fast {

namespace {

void half_to_float_scalar(const float16_t* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = static_cast<float>(x[i]);
}

void float_to_half_scalar(const float* x, float16_t* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = float16_t(x[i]);
}

#if defined(__x86_64__)

constexpr int kNearest = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;

// The zero-masked AVX-512 forms with every lane kept: the plain ones start from an undefined
// vector, which GCC 12 reports as maybe uninitialized.
[[gnu::target("avx512f")]] inline __m512 widen16(__m256i h) { return _mm512_maskz_cvtph_ps(0xffff, h); }
[[gnu::target("avx512f")]] inline __m256i narrow16(__m512 f) { return _mm512_maskz_cvtps_ph(0xffff, f, kNearest); }

// Each loop converts whole vectors, then the last n % lanes elements through a zero-padded vector,
// so every element goes through the same instruction.
[[gnu::target("avx512f")]] void half_to_float_avx512(const float16_t* x, float* y, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(y + i, widen16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i))));
  if (i == n) return;
  alignas(32) float16_t h[16] = {};
  alignas(64) float f[16];
  std::memcpy(h, x + i, static_cast<size_t>(n - i) * sizeof(float16_t));
  _mm512_store_ps(f, widen16(_mm256_load_si256(reinterpret_cast<const __m256i*>(h))));
  std::memcpy(y + i, f, static_cast<size_t>(n - i) * sizeof(float));
}

[[gnu::target("avx512f")]] void float_to_half_avx512(const float* x, float16_t* y, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm256_storeu_si256(reinterpret_cast<__m256i*>(y + i), narrow16(_mm512_loadu_ps(x + i)));
  if (i == n) return;
  alignas(64) float f[16] = {};
  alignas(32) float16_t h[16];
  std::memcpy(f, x + i, static_cast<size_t>(n - i) * sizeof(float));
  _mm256_store_si256(reinterpret_cast<__m256i*>(h), narrow16(_mm512_load_ps(f)));
  std::memcpy(y + i, h, static_cast<size_t>(n - i) * sizeof(float16_t));
}

[[gnu::target("avx,f16c")]] void half_to_float_f16c(const float16_t* x, float* y, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i))));
  if (i == n) return;
  alignas(16) float16_t h[8] = {};
  alignas(32) float f[8];
  std::memcpy(h, x + i, static_cast<size_t>(n - i) * sizeof(float16_t));
  _mm256_store_ps(f, _mm256_cvtph_ps(_mm_load_si128(reinterpret_cast<const __m128i*>(h))));
  std::memcpy(y + i, f, static_cast<size_t>(n - i) * sizeof(float));
}

[[gnu::target("avx,f16c")]] void float_to_half_f16c(const float* x, float16_t* y, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(y + i), _mm256_cvtps_ph(_mm256_loadu_ps(x + i), kNearest));
  if (i == n) return;
  alignas(32) float f[8] = {};
  alignas(16) float16_t h[8];
  std::memcpy(f, x + i, static_cast<size_t>(n - i) * sizeof(float));
  _mm_store_si128(reinterpret_cast<__m128i*>(h), _mm256_cvtps_ph(_mm256_load_ps(f), kNearest));
  std::memcpy(y + i, h, static_cast<size_t>(n - i) * sizeof(float16_t));
}

enum class Isa { Scalar, F16c, Avx512 };

Isa conversion_isa() {
  static const Isa best = [] {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return Isa::Avx512;
    if (__builtin_cpu_supports("avx") && __builtin_cpu_supports("f16c")) return Isa::F16c;
    return Isa::Scalar;
  }();
  return best;
}

#endif

}  // namespace

void half_to_float(const float16_t* x, float* y, int64_t n) {
#if defined(__x86_64__)
  switch (conversion_isa()) {
    case Isa::Avx512: return half_to_float_avx512(x, y, n);
    case Isa::F16c: return half_to_float_f16c(x, y, n);
    case Isa::Scalar: break;
  }
#endif
  half_to_float_scalar(x, y, n);
}

void float_to_half(const float* x, float16_t* y, int64_t n) {
#if defined(__x86_64__)
  switch (conversion_isa()) {
    case Isa::Avx512: return float_to_half_avx512(x, y, n);
    case Isa::F16c: return float_to_half_f16c(x, y, n);
    case Isa::Scalar: break;
  }
#endif
  float_to_half_scalar(x, y, n);
}

}  // namespace sonnx::fast
