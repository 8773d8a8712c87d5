// The fuzzing loop behind `sonnx fuzz` and the property tests: generate recipes from consecutive
// seeds (offset per shard), check each case (differential.h), and shrink and write a repro for
// every failure.
#pragma once
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "conformance/test_selection.h"
#include "differential.h"

namespace sonnx::fuzz {

struct FuzzOptions {
  double seconds = 20;     // stop after this long (0: no time limit)
  int64_t max_graphs = 0;  // stop after this many graphs (0: no limit)
  uint64_t seed = 1;
  Shard shard;    // graph i uses seed + i·shard.count + shard.index
  int opset = 0;  // the graphs' ai.onnx opset: 17 or 27 (0: each recipe draws one)
  DiffOptions diff;
  std::filesystem::path out = "fuzz-repros";
  int max_failures = 3;  // stop after this many (each is shrunk, which takes a while)
  std::function<void(int64_t graphs, int failures, double seconds)> progress;  // called about twice a second
};

struct Repro {
  std::string path;
  int nodes = 0;
  std::string recipe, kind, executor, message;
  std::string description;  // the shrunk graph, printed on failure
};

struct FuzzReport {
  int64_t graphs = 0;
  int failures = 0;
  double seconds = 0;
  std::vector<Repro> repros;
};

FuzzReport run_fuzz(const FuzzOptions& options);

// Shrinks a failing case and writes its repro under `out`; the failure must be (kind, executor).
Repro shrink_and_write(const Recipe& recipe, const DiffResult& failure, const DiffOptions& diff,
                       const std::filesystem::path& out);

}  // namespace sonnx::fuzz
