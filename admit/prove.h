// The runs that show an admitted model means what the original means (admit.h): both models run by
// the reference interpreter on the same inputs, every output compared bit for bit.
#pragma once
#include <cstdint>
#include <string>

#include "admit.h"

namespace sonnx::admit {

// Seeded random values for every graph input of g without an initializer (declared static tensor
// types): floating values of both signs over several magnitudes, small non-negative integers (valid
// as indices into most axes), random booleans. Inputs of other types are left out.
NamedValues random_inputs(const Graph& g, uint64_t seed);

// Runs the original on `inputs` plus `fixed` (the values admission made constants) and the
// admitted model on those of `inputs` it declares (an input removed as unused is the original's
// only; when not given, it gets a random value); on a difference names the first value of the admitted model's node
// order that differs from the original's value of that name. With a judge (an inexact rewrite was
// applied), outputs that are not bitwise equal must lie in the original's admissible enclosure.
ProofRun compare_runs(const Model& original, const Model& admitted, const NamedValues& inputs, const NamedValues& fixed,
                      const std::string& label, const EnclosureJudge* judge = nullptr);

}  // namespace sonnx::admit
