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

// The ai.onnx opsets a graph is generated at: onnx 1.12's, and the newest the catalogue describes.
// At the newest, operators whose version changed since 17 are emitted in their new form (Reduce*
// axes inputs, Pad axes and wrap, Split num_outputs, AveragePool dilations) and the newer
// operators (Gelu, Mish, Swish, Bitwise*, CumProd, RMS/GroupNormalization) join the table.
inline constexpr int kLegacyFuzzOpset = 17;
inline constexpr int kNewestFuzzOpset = 27;
// A recipe may also fix any opset from 7 to 17 (the graphs `sonnx admit` upgrades): each operator
// is emitted in the form of the version that opset selects (attributes where later versions take
// inputs: Clip, Pad, Slice, Split, Squeeze, Unsqueeze, ReduceSum; no negative axes before 11), and
// operators that do not exist there yet are left out of the table (OpGenerator::since). Random
// recipes are drawn at 17 or the newest only.
inline constexpr int kOldestFuzzOpset = 7;
// The opsets a recipe may name: kOldestFuzzOpset..kLegacyFuzzOpset, and kNewestFuzzOpset.
inline constexpr bool is_fuzz_opset(int opset) {
  return (opset >= kOldestFuzzOpset && opset <= kLegacyFuzzOpset) || opset == kNewestFuzzOpset;
}

// A campaign's opset (every graph at it): 0 (each recipe draws one), kLegacyFuzzOpset or
// kNewestFuzzOpset. Throws LoadError naming them otherwise.
void require_campaign_opset(int opset);

struct Recipe {
  uint64_t seed = 0;             // the first graph input's rank, dims and values
  int max_dim = 8;               // every solved dimension lies in [1, max_dim]
  int opset = kLegacyFuzzOpset;  // the graph's ai.onnx opset import
  std::vector<OpChoice> ops;
  // Only the SONNX profile's operators (spec/profiles/sonnx.json; "profile=sonnx" in the text): the
  // graphs `sonnx admit` brings into the profile, for runtimes of profile models (`sonnx emit-c`'s C).
  bool sonnx_ops = false;
};

// A recipe drawn from a seed: 3–12 operator choices, max_dim in [2, 8], opset 17 or the newest
// (half each). `opset` > 0 fixes the opset instead (any is_fuzz_opset; the other choices are the
// same whatever the opset). `sonnx_ops`: the SONNX profile's operators only, at opset 17 unless
// `opset` says otherwise (admission upgrades 17 to the profile's versions).
Recipe random_recipe(uint64_t seed, int opset = 0, bool sonnx_ops = false);
// "seed=S max_dim=D opset=O ops=[op:seed,...]" — printed with every failure; parse_recipe reads it
// back (a recipe without opset= is at 17, as recipes were before the newest opset was generated).
std::string recipe_str(const Recipe& r);
Recipe parse_recipe(const std::string& text);

}  // namespace sonnx::fuzz
