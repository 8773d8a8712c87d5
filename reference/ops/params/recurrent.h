// The parameters of RNN, GRU and LSTM beside their activations (reference/ops/op_params.h; the
// activations, with each operator's defaults, are support::rnn_activations), read by their
// reference kernels, shape rule and enclosures.
#pragma once
#include <cstdint>
#include <optional>

#include "reference/model/attr_reader.h"

namespace sonnx {

struct RecurrentParams {
  int64_t num_directions = 1;  // direction: forward (version 1 also spells it "foward"), reverse or bidirectional (checked)
  bool reverse = false;        // direction "reverse": one direction, run backwards
  int64_t layout = 0;          // from version 14: 0 (time-major) or 1 (batch-major) (checked)
  std::optional<int64_t> hidden_size;  // when given, R's last dimension
  std::optional<float> clip;           // activation inputs bounded to [-clip, clip]; not negative (checked)
  bool linear_before_reset = false;    // GRU from version 3
  bool input_forget = false;           // LSTM: the forget gate is 1 − the input gate
  static RecurrentParams read(const AttrReader& reader, int64_t version);
};

}  // namespace sonnx
