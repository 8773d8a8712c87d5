#include "recipe.h"

#include <random>
#include <sstream>
#include <stdexcept>

#include "sonnx/errors.h"

namespace sonnx::fuzz {

void require_campaign_opset(int opset) {
  if (opset != 0 && opset != kLegacyFuzzOpset && opset != kNewestFuzzOpset)
    throw LoadError("the fuzzer's opset is " + std::to_string(kLegacyFuzzOpset) + ", " + std::to_string(kNewestFuzzOpset) +
                    " or 0 (mixed)");
}

Recipe random_recipe(uint64_t seed, int opset, bool sonnx_ops) {
  std::mt19937_64 rng(seed);
  Recipe r;
  r.seed = seed;
  r.max_dim = static_cast<int>(std::uniform_int_distribution<int>(2, 8)(rng));
  int n = std::uniform_int_distribution<int>(3, 12)(rng);
  for (int i = 0; i < n; ++i) r.ops.push_back({static_cast<uint32_t>(rng()), static_cast<uint32_t>(rng())});
  // Drawn last, so the other choices of a seed are those it had before the opset was drawn.
  bool newest = (rng() & 1) != 0;
  r.opset = opset > 0 ? opset : sonnx_ops ? kLegacyFuzzOpset : newest ? kNewestFuzzOpset : kLegacyFuzzOpset;
  r.sonnx_ops = sonnx_ops;
  return r;
}

std::string recipe_str(const Recipe& r) {
  std::ostringstream os;
  os << "seed=" << r.seed << " max_dim=" << r.max_dim << " opset=" << r.opset << (r.sonnx_ops ? " profile=sonnx" : "")
     << " ops=[";
  for (size_t i = 0; i < r.ops.size(); ++i) os << (i ? "," : "") << r.ops[i].op << ":" << r.ops[i].seed;
  os << "]";
  return os.str();
}

Recipe parse_recipe(const std::string& text) {
  Recipe r;
  std::istringstream is(text);
  std::string tok;
  while (is >> tok) {
    auto eq = tok.find('=');
    if (eq == std::string::npos) throw std::invalid_argument("recipe: expected key=value, got '" + tok + "'");
    std::string k = tok.substr(0, eq), v = tok.substr(eq + 1);
    if (k == "seed") {
      r.seed = std::stoull(v);
    } else if (k == "max_dim") {
      r.max_dim = std::stoi(v);
    } else if (k == "opset") {
      r.opset = std::stoi(v);
      if (!is_fuzz_opset(r.opset))
        throw std::invalid_argument("recipe: opset is " + std::to_string(kOldestFuzzOpset) + " to " +
                                    std::to_string(kLegacyFuzzOpset) + ", or " + std::to_string(kNewestFuzzOpset));
    } else if (k == "profile") {
      if (v != "sonnx") throw std::invalid_argument("recipe: profile is sonnx, not '" + v + "'");
      r.sonnx_ops = true;
    } else if (k == "ops") {
      if (v.size() < 2 || v.front() != '[' || v.back() != ']') throw std::invalid_argument("recipe: ops=[op:seed,...]");
      std::istringstream ops(v.substr(1, v.size() - 2));
      std::string item;
      while (std::getline(ops, item, ',')) {
        auto colon = item.find(':');
        if (colon == std::string::npos) throw std::invalid_argument("recipe: op choice is op:seed");
        r.ops.push_back({static_cast<uint32_t>(std::stoul(item.substr(0, colon))),
                         static_cast<uint32_t>(std::stoul(item.substr(colon + 1)))});
      }
    } else {
      throw std::invalid_argument("recipe: unknown key '" + k + "'");
    }
  }
  return r;
}

}  // namespace sonnx::fuzz
