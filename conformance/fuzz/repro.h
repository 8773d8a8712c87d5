// A failing case as a standalone ONNX backend-test directory that `sonnx conform DIR` replays:
// model.onnx, test_data_set_0/input_K.pb (the K-th graph input) and output_K.pb (the REFERENCE
// interpreter's K-th output), plus fuzz_case.json recording the recipe, how the inputs were drawn
// and the failure.
#pragma once
#include <filesystem>

#include "differential.h"

namespace sonnx::fuzz {

void write_repro(const std::filesystem::path& dir, const GeneratedCase& g, const NamedValues& reference,
                 const DiffResult& failure, const std::string& inject_fault);

}  // namespace sonnx::fuzz
