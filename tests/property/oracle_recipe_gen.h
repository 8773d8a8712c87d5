// The recipes the oracle property tests draw: operator choices uniform over the whole operator
// table from the first run on (RapidCheck scales even gen::inRange by its size, which starts at 0:
// unscaled, early runs would only draw the first operators of the table, and never If or Loop,
// which come last; gen::resize fixes the size of these draws), seeds uniform, up to
// `scale` x 100 operator choices as the size grows, opset 17 or the newest.
#pragma once
#include <limits>

#include <rapidcheck.h>

#include "conformance/fuzz/gen_context.h"
#include "conformance/fuzz/recipe.h"

namespace sonnx::fuzz {
// How RapidCheck prints a counterexample: the recipe replays it (parse_recipe).
inline void showValue(const Recipe& r, std::ostream& os) { os << recipe_str(r); }
}  // namespace sonnx::fuzz

namespace sonnx::oracle {

inline rc::Gen<fuzz::Recipe> gen_oracle_recipe(double scale, int max_dim) {
  constexpr uint32_t kMax = std::numeric_limits<uint32_t>::max();
  auto choice = rc::gen::build<fuzz::OpChoice>(
      rc::gen::set(&fuzz::OpChoice::op,
                   rc::gen::resize(100, rc::gen::inRange<uint32_t>(0, static_cast<uint32_t>(fuzz::op_generators().size())))),
      rc::gen::set(&fuzz::OpChoice::seed, rc::gen::resize(100, rc::gen::inRange<uint32_t>(0, kMax))));
  return rc::gen::build<fuzz::Recipe>(
      rc::gen::set(&fuzz::Recipe::seed, rc::gen::cast<uint64_t>(rc::gen::resize(100, rc::gen::inRange<uint32_t>(0, kMax)))),
      rc::gen::set(&fuzz::Recipe::max_dim, rc::gen::resize(100, rc::gen::inRange(1, max_dim + 1))),
      rc::gen::set(&fuzz::Recipe::opset, rc::gen::element(fuzz::kLegacyFuzzOpset, fuzz::kNewestFuzzOpset)),
      rc::gen::set(&fuzz::Recipe::ops, rc::gen::scale(scale, rc::gen::container<std::vector<fuzz::OpChoice>>(choice))));
}

}  // namespace sonnx::oracle
