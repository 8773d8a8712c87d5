#include "recurrent.h"

#include <cctype>
#include <string>
#include <vector>

namespace sonnx {

namespace {

std::string ascii_lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Parses the `activations`, `activation_alpha`, `activation_beta` attributes into
// `per_direction * num_directions` functions (direction 0's first). `defaults` are the
// per-direction defaults of the operator. Alphas and betas are consumed in the order of the
// activations, each only by the functions that take the parameter ("consumed in the order of
// activation functions"); a function with none left uses its operator's default.
// Accepted list lengths: per_direction*num_directions; for bidirectional also per_direction (the
// same functions for both directions); longer lists are cut (RNN's schema default lists two
// functions even for one direction). Names are matched without regard to case.
std::vector<RnnActivation> read_activations(const AttrReader& r, const std::vector<std::string>& defaults,
                                            int64_t num_directions) {
  const size_t k = defaults.size();
  const size_t want = k * static_cast<size_t>(num_directions);
  std::vector<std::string> names;
  if (r.has_attr("activations")) names = r.attr_strings("activations");
  else
    for (int64_t d = 0; d < num_directions; ++d) names.insert(names.end(), defaults.begin(), defaults.end());
  bool duplicate = false;
  if (names.size() == k && want == 2 * k) duplicate = true;
  else if (names.size() < want)
    r.fail("activations lists " + std::to_string(names.size()) + " functions, " + std::to_string(want) + " are required");
  else names.resize(want);

  std::vector<float> alphas = r.attr_floats("activation_alpha");
  std::vector<float> betas = r.attr_floats("activation_beta");
  size_t next_alpha = 0, next_beta = 0;
  auto take_alpha = [&](double def) { return next_alpha < alphas.size() ? double(alphas[next_alpha++]) : def; };
  auto take_beta = [&](double def) { return next_beta < betas.size() ? double(betas[next_beta++]) : def; };

  std::vector<RnnActivation> out;
  using K = RnnActivation::Kind;
  for (const auto& raw : names) {
    std::string n = ascii_lower(raw);
    RnnActivation a;
    if (n == "relu") a.kind = K::Relu;
    else if (n == "tanh") a.kind = K::Tanh;
    else if (n == "sigmoid") a.kind = K::Sigmoid;
    else if (n == "affine") {
      // Defaults of the (old) Affine operator: alpha=1, beta=0.
      a.kind = K::Affine;
      a.alpha = take_alpha(1.0);
      a.beta = take_beta(0.0);
    } else if (n == "leakyrelu") {
      a.kind = K::LeakyRelu;
      a.alpha = take_alpha(0.01);
    } else if (n == "thresholdedrelu") {
      a.kind = K::ThresholdedRelu;
      a.alpha = take_alpha(1.0);
    } else if (n == "scaledtanh") {
      // The ScaledTanh operator has no defaults; 1 and 1 make it plain Tanh.
      a.kind = K::ScaledTanh;
      a.alpha = take_alpha(1.0);
      a.beta = take_beta(1.0);
    } else if (n == "hardsigmoid") {
      a.kind = K::HardSigmoid;
      a.alpha = take_alpha(0.2);
      a.beta = take_beta(0.5);
    } else if (n == "elu") {
      a.kind = K::Elu;
      a.alpha = take_alpha(1.0);
    } else if (n == "softsign") a.kind = K::Softsign;
    else if (n == "softplus") a.kind = K::Softplus;
    else r.fail("unknown activation function '" + raw + "'");
    out.push_back(a);
  }
  if (duplicate) {
    std::vector<RnnActivation> both = out;
    both.insert(both.end(), out.begin(), out.end());
    out = both;
  }
  return out;
}

}  // namespace

RecurrentParams RecurrentParams::read(const AttrReader& r, int64_t version) {
  const std::string& op = r.node().op_type;
  RecurrentParams p;
  std::string direction = r.attr_string("direction", "forward");
  if (direction == "reverse") p.reverse = true;
  else if (direction == "bidirectional") p.num_directions = 2;
  else if (direction != "forward" && !(direction == "foward" && version == 1))  // version 1's misspelt default
    r.fail("direction must be forward, reverse or bidirectional, not '" + direction + "'");
  if (version >= 14) p.layout = r.attr_int("layout", 0);
  if (p.layout != 0 && p.layout != 1) r.fail("layout must be 0 or 1");
  if (r.has_attr("hidden_size")) p.hidden_size = r.attr_int("hidden_size", 0);
  if (r.has_attr("clip")) {
    p.clip = r.attr_float("clip", 0);
    if (!(*p.clip >= 0)) r.fail("clip must be a non-negative number");
  }
  if (op == "GRU" && version >= 3) p.linear_before_reset = r.attr_int("linear_before_reset", 0) != 0;
  if (op == "LSTM") p.input_forget = r.attr_int("input_forget", 0) != 0;
  static const std::vector<std::string> rnn{"Tanh"}, gru{"Sigmoid", "Tanh"}, lstm{"Sigmoid", "Tanh", "Tanh"};
  p.activations = read_activations(r, op == "LSTM" ? lstm : op == "GRU" ? gru : rnn, p.num_directions);
  return p;
}

}  // namespace sonnx
