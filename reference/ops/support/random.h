// Random numbers (RandomUniform, RandomNormal, their *Like forms, Bernoulli, Multinomial,
// Dropout): the generator a node uses and sampling into a floating tensor. (Their attributes are
// their parameter structs', e.g. RandomParams in reference/ops/params/random.h.)
#pragma once
#include <bit>
#include <cmath>
#include <random>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernel.h"

namespace sonnx::support {

// The shape rule of RandomNormal and RandomUniform (the `shape` attribute) and of their *Like forms
// (the input's shape), of the element type their RandomParams give.
void random_shape_rule(InferContext& ctx);

// The generator a sampling node uses: a fresh one seeded from `seed` (the node's `seed` attribute, as
// its parameter struct read it; its bit pattern, so every distinct seed gives a distinct stream)
// when present, else the run's generator.
struct NodeRng {
  std::mt19937_64 own;
  std::mt19937_64* gen;
  NodeRng(const OpContext& ctx, std::optional<float> seed) {
    if (seed) {
      own.seed(static_cast<uint64_t>(std::bit_cast<uint32_t>(*seed)));
      gen = &own;
    } else {
      gen = &ctx.rng();
    }
  }
  // Uniform on [0, 1) with 53 random bits (written out so results do not depend on the standard
  // library's distribution implementations).
  double uniform01() { return static_cast<double>((*gen)() >> 11) * 0x1.0p-53; }
  // Standard normal by the Box-Muller transform (one value per call; 1 - u avoids log(0)).
  double normal01() {
    double u1 = 1.0 - uniform01();
    double u2 = uniform01();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
  }
};

// A tensor of a floating element type filled with draws from `draw()` (a double, rounded to the
// element type) in row-major order.
template <class F>
Tensor random_float_tensor(const OpContext& ctx, DType type, const Shape& shape, F draw) {
  if (type != DType::Float && type != DType::Double && type != DType::Float16)
    ctx.fail("output element type " + std::string(dtype_name(type)) + " is not float16, float or double");
  return visit_float(ctx, type, [&]<class T>() {
    Tensor out(type, shape);
    T* p = out.data<T>();
    for (int64_t i = 0; i < out.size(); ++i) p[i] = to_storage<T>(static_cast<compute_t<T>>(draw()));
    return out;
  });
}

}  // namespace sonnx::support
