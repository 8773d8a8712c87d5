// A fuzz case as data: the seeds and operator choices a random graph is built from. The graph is
// a deterministic function of the recipe (graph_gen.h), so shrinking the recipe — fewer choices,
// a smaller dimension bound — shrinks the graph, and a recipe printed on failure replays exactly.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace sonnx::fuzz {

struct OpChoice {
  uint32_t op = 0;    // index into the operator table (taken modulo its size)
  uint32_t seed = 0;  // drives this operator's random choices (inputs, attributes, constants)
};

struct Recipe {
  uint64_t seed = 0;       // the first graph input's rank, dims and values
  int max_dim = 8;         // every solved dimension lies in [1, max_dim]
  std::vector<OpChoice> ops;
};

// A recipe drawn from a seed: 3–12 operator choices, max_dim in [2, 8].
Recipe random_recipe(uint64_t seed);
// "seed=S max_dim=D ops=[op:seed,...]" — printed with every failure; parse_recipe reads it back.
std::string recipe_str(const Recipe& r);
Recipe parse_recipe(const std::string& text);

}  // namespace sonnx::fuzz
