// The parameters of RNN, GRU and LSTM (reference/ops/op_params.h), their activation functions
// included, read by their reference kernels, shape rule and enclosures.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "reference/model/attr_reader.h"

namespace sonnx {

// An activation function by name (the list in the RNN/GRU/LSTM schemas) with its alpha and beta.
struct RnnActivation {
  enum class Kind { Relu, Tanh, Sigmoid, Affine, LeakyRelu, ThresholdedRelu, ScaledTanh, HardSigmoid, Elu, Softsign, Softplus };
  Kind kind = Kind::Tanh;
  double alpha = 0;
  double beta = 0;

  template <class C>
  C operator()(C x) const {
    const C a = static_cast<C>(alpha), b = static_cast<C>(beta);
    switch (kind) {
      case Kind::Relu: return x < C(0) ? C(0) : x;  // NaN stays NaN
      case Kind::Tanh: return std::tanh(x);
      case Kind::Sigmoid:
        // 1/(1+e^-x), written so neither branch overflows to Inf/Inf.
        if (x >= C(0)) return C(1) / (C(1) + std::exp(-x));
        else {
          C e = std::exp(x);
          return e / (C(1) + e);
        }
      case Kind::Affine: return a * x + b;
      case Kind::LeakyRelu: return x < C(0) ? a * x : x;
      case Kind::ThresholdedRelu: return x >= a || std::isnan(x) ? x : C(0);  // "x if x >= alpha else 0"
      case Kind::ScaledTanh: return a * std::tanh(b * x);
      case Kind::HardSigmoid: {
        C v = a * x + b;
        if (std::isnan(v)) return v;
        return std::min(std::max(v, C(0)), C(1));
      }
      case Kind::Elu: return x < C(0) ? a * (std::exp(x) - C(1)) : x;
      case Kind::Softsign: return x / (C(1) + std::abs(x));
      case Kind::Softplus:
        // log(1+e^x) without overflow for large x: x + log(1+e^-x).
        return x > C(0) ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
    }
    return x;
  }
};

struct RecurrentParams {
  int64_t num_directions = 1;  // direction: forward (version 1 also spells it "foward"), reverse or bidirectional (checked)
  bool reverse = false;        // direction "reverse": one direction, run backwards
  int64_t layout = 0;          // from version 14: 0 (time-major) or 1 (batch-major) (checked)
  std::optional<int64_t> hidden_size;  // when given, R's last dimension
  std::optional<float> clip;           // activation inputs bounded to [-clip, clip]; not negative (checked)
  bool linear_before_reset = false;    // GRU from version 3
  bool input_forget = false;           // LSTM: the forget gate is 1 − the input gate
  // `activations` with `activation_alpha`/`activation_beta`, or the operator's defaults (RNN Tanh;
  // GRU Sigmoid, Tanh; LSTM Sigmoid, Tanh, Tanh): the functions of direction 0, then direction 1's.
  std::vector<RnnActivation> activations;
  static RecurrentParams read(const AttrReader& reader, int64_t version);
};

}  // namespace sonnx
