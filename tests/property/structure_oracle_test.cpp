// The executable-predicate differential (issue 14): the validator's structural rules against the
// literal transcriptions of spec/structure.mlw (conformance/oracle), on random generated graphs,
// on the validator mutations of conformance/fuzz and on near-miss models (one change at any graph
// level). Built twice: as is, every property must hold; with SONNX_ORACLE_PLANTED_BUG the
// validator under test has a planted bug (STRUCT-SSA misses a node output that repeats an
// initializer's name) and the test asserts the differential catches it.
#include <iostream>
#include <random>
#include <set>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "oracle_recipe_gen.h"

#include "conformance/fuzz/graph_gen.h"
#include "conformance/fuzz/mutate.h"
#include "conformance/oracle/near_miss.h"
#include "conformance/oracle/structure_differential.h"
#include "conformance/oracle/structure_oracle.h"
#include "sonnx/errors.h"

namespace sonnx::oracle {
namespace {

// A named model made from a generated graph: the graph itself, a mutation or a near miss.
struct Variant {
  std::string change;
  onnx::ModelProto proto;
};

std::vector<Variant> variants(const fuzz::GeneratedCase& g, uint64_t seed, bool generated, bool mutations, bool near_misses) {
  std::mt19937_64 rng(seed);
  std::vector<Variant> out;
  if (generated) out.push_back({"generated", g.proto});
  if (mutations)
    for (fuzz::Mutation m : {fuzz::Mutation::DropEdge, fuzz::Mutation::DuplicateOutput, fuzz::Mutation::Cycle})
      if (auto p = fuzz::mutate(g.proto, m, rng)) out.push_back({fuzz::mutation_name(m), std::move(*p)});
  if (near_misses)
    for (NearMiss m : all_near_misses())
      if (auto p = near_miss(g.proto, m, rng)) out.push_back({near_miss_name(m), std::move(*p)});
  return out;
}

std::optional<LoadedModel> load(const onnx::ModelProto& p) {
  try {
    return LoadedModel{p, model_from_proto(p, {})};
  } catch (const LoadError&) {
    return std::nullopt;  // nothing to check: the loader refuses it
  }
}

#ifdef SONNX_ORACLE_PLANTED_BUG
// The planted bug: STRUCT-SSA says nothing when the name a node output repeats is an initializer
// of its graph (a narrow case: every other re-assignment is still reported).
Validator validator_under_test() {
  return [](const LoadedModel& m) {
    std::vector<Diagnostic> kept;
    std::vector<LevelVerdict> levels = level_verdicts(m.ir.graph);
    for (auto& d : real_validator()(m)) {
      bool planted = false;
      for (const auto& lv : levels)
        if (d.rule == "STRUCT-SSA" && lv.path == d.graph && !d.node.empty())
          for (const auto& [name, t] : lv.graph->initializers) planted = planted || name == d.value;
      if (!planted) kept.push_back(std::move(d));
    }
    return kept;
  };
}
#else
Validator validator_under_test() { return real_validator(); }
#endif

// The first disagreement on the chosen variants of one recipe's graph, or "".
std::string differential(const fuzz::Recipe& r, bool generated, bool mutations, bool near_misses,
                         std::string* change = nullptr) {
  fuzz::GeneratedCase g = fuzz::generate(r);
  for (const auto& v : variants(g, r.seed, generated, mutations, near_misses)) {
    auto lm = load(v.proto);
    if (!lm) continue;
    std::string d = compare_structure(*lm, validator_under_test());
    if (!d.empty()) {
      if (change) *change = v.change;
      return v.change + ": " + d;
    }
  }
  return "";
}

#ifndef SONNX_ORACLE_PLANTED_BUG

RC_GTEST_PROP(StructureOracle, AgreesWithTheValidatorOnGeneratedGraphs, ()) {
  fuzz::Recipe r = *gen_oracle_recipe(0.1, 4);
  std::string d = differential(r, true, false, false);
  if (!d.empty()) RC_FAIL(d);
}

RC_GTEST_PROP(StructureOracle, AgreesWithTheValidatorOnMutations, ()) {
  fuzz::Recipe r = *gen_oracle_recipe(0.1, 4);
  std::string d = differential(r, false, true, false);
  if (!d.empty()) RC_FAIL(d);
}

RC_GTEST_PROP(StructureOracle, AgreesWithTheValidatorOnNearMisses, ()) {
  fuzz::Recipe r = *gen_oracle_recipe(0.1, 4);
  std::string d = differential(r, false, false, true);
  if (!d.empty()) RC_FAIL(d);
}

// The differential is not vacuous: over a fixed set of graphs and their variants every compared
// rule is seen both holding and failing, at the main graph and inside a subgraph, and every near
// miss finds a place.
TEST(StructureOracle, TheVariantsExerciseEveryRuleBothWays) {
  std::map<std::string, std::set<std::string>> seen;  // "STRUCT-SSA fails in a subgraph", ...
  std::map<std::string, int> applied;
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    fuzz::GeneratedCase g = fuzz::generate(fuzz::random_recipe(seed));
    for (const auto& v : variants(g, seed, true, true, true)) {
      ++applied[v.change];
      auto lm = load(v.proto);
      if (!lm) continue;
      for (const auto& lv : level_verdicts(lm->ir.graph)) {
        std::string where = lv.path == "main" ? "main" : "subgraph";
        auto note = [&](const char* rule, bool holds) {
          seen[rule].insert(std::string(holds ? "holds" : "fails") + " in " + where);
        };
        note("STRUCT-SSA", lv.ssa);
        note("STRUCT-DEFINED", lv.defined);
        note("STRUCT-OUTPUT", lv.output);
        note("STRUCT-TOPO-ORDER", lv.topo);
        note("STRUCT-ACYCLIC", lv.acyclic);
        note("SONNX-DEAD-NODE", lv.dead_nodes == 0);
      }
    }
  }
  for (const char* rule :
       {"STRUCT-SSA", "STRUCT-DEFINED", "STRUCT-OUTPUT", "STRUCT-TOPO-ORDER", "STRUCT-ACYCLIC", "SONNX-DEAD-NODE"})
    for (const char* how : {"holds in main", "fails in main", "holds in subgraph", "fails in subgraph"})
      EXPECT_TRUE(seen[rule].count(how)) << rule << " never " << how;
  for (NearMiss m : all_near_misses()) EXPECT_GT(applied[near_miss_name(m)], 0) << near_miss_name(m) << " never applied";
}

// The oracle satisfies the theorems structure.mlw proves about the predicates it transcribes (a
// check of the transcription itself): topo_implies_acyclic, topo_implies_defined, no_dead_node_r1.
TEST(StructureOracle, SatisfiesTheProvedTheorems) {
  int levels = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    fuzz::GeneratedCase g = fuzz::generate(fuzz::random_recipe(seed));
    for (const auto& v : variants(g, seed, true, true, true)) {
      auto lm = load(v.proto);
      if (!lm) continue;
      for (const auto& lv : level_verdicts(lm->ir.graph)) {
        ++levels;
        const Graph& gr = *lv.graph;
        if (lv.ssa && lv.topo) {
          EXPECT_TRUE(lv.acyclic) << v.change << " seed " << seed << " " << lv.path;
        }
        if (lv.topo) {
          EXPECT_TRUE(lv.defined) << v.change << " seed " << seed << " " << lv.path;
        }
        if (lv.dead_nodes == 0) {
          for (size_t k = 0; k < gr.nodes.size(); ++k) {
            bool r1 = false;
            for (const auto& x : gr.nodes[k].outputs) {
              if (!present(x)) continue;
              for (const auto& o : gr.outputs) r1 = r1 || o.name == x;
              for (size_t j = 0; j < gr.nodes.size(); ++j) r1 = r1 || node_reads(gr, j, x);
            }
            EXPECT_TRUE(r1) << v.change << " seed " << seed << " node " << k;
          }
        }
      }
    }
  }
  EXPECT_GT(levels, 500);
}

// Hand-made corners, each with the verdict structure.mlw gives (and the one exception).
Graph graph_of(std::vector<std::string> inputs, std::vector<std::string> inits,
               std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> nodes,
               std::vector<std::string> outputs) {
  Graph g;
  g.path = "main";
  for (auto& x : inputs) g.inputs.push_back({x, {}});
  for (auto& x : inits) g.initializers.emplace_back(x, Tensor());
  for (auto& [in, out] : nodes) {
    Node n;
    n.op_type = "Identity";
    n.inputs = in;
    n.outputs = out;
    n.index = g.nodes.size();
    g.nodes.push_back(n);
  }
  for (auto& x : outputs) g.outputs.push_back({x, {}});
  return g;
}

TEST(StructureOracle, HandMadeCorners) {
  // A chain x -> a -> b: everything holds.
  Graph ok = graph_of({"x"}, {}, {{{"x"}, {"a"}}, {{"a"}, {"b"}}}, {"b"});
  EXPECT_TRUE(ssa_flat({}, ok) && defined_flat({}, ok) && topo_flat({}, ok) && acyclic(ok) && no_dead_node(ok));
  // Listed backwards: not topologically sorted, still acyclic and defined.
  Graph back = graph_of({"x"}, {}, {{{"a"}, {"b"}}, {{"x"}, {"a"}}}, {"b"});
  EXPECT_FALSE(topo_flat({}, back));
  EXPECT_TRUE(acyclic(back) && defined_flat({}, back));
  // A two-node cycle.
  Graph cyc = graph_of({"x"}, {}, {{{"b"}, {"a"}}, {{"a"}, {"b"}}}, {"b"});
  EXPECT_FALSE(acyclic(cyc));
  // A name assigned twice; an undefined read; a dead node; an empty output name.
  EXPECT_FALSE(ssa_flat({}, graph_of({"x"}, {}, {{{"x"}, {"a"}}, {{"x"}, {"a"}}}, {"a"})));
  EXPECT_FALSE(defined_flat({}, graph_of({"x"}, {}, {{{"y"}, {"a"}}}, {"a"})));
  EXPECT_FALSE(no_dead_node(graph_of({"x"}, {}, {{{"x"}, {"a"}}, {{"x"}, {"d"}}}, {"a"})));
  EXPECT_FALSE(output_flat({}, graph_of({"x"}, {}, {{{"x"}, {"a"}}}, {""})));
  // A subgraph may not re-assign a name of its enclosing scope.
  EXPECT_FALSE(ssa_flat({"a"}, graph_of({}, {}, {{{}, {"a"}}}, {"a"})));
  // STRUCT-SSA input+initializer: see issue 14 decision. An input with an initializer of its name
  // is accepted as one value (the code's reading); two initializers of one other name are not.
  EXPECT_TRUE(ssa_flat({}, graph_of({"x"}, {"x"}, {{{"x"}, {"a"}}}, {"a"})));
  EXPECT_FALSE(ssa_flat({}, graph_of({"x"}, {"w", "w"}, {{{"x", "w"}, {"a"}}}, {"a"})));
}

#else  // SONNX_ORACLE_PLANTED_BUG

// The planted bug is found: among fixed graphs and their variants one model makes the validator
// under test and the oracle disagree on STRUCT-SSA, and the real validator agrees with the oracle
// on that same model (the disagreement is the planted bug's, not a real one).
TEST(PlantedBug, TheDifferentialFindsIt) {
  bool found = false;
  for (uint64_t seed = 1; seed <= 200 && !found; ++seed) {
    fuzz::Recipe r = fuzz::random_recipe(seed);
    fuzz::GeneratedCase g = fuzz::generate(r);
    for (const auto& v : variants(g, seed, true, true, true)) {
      auto lm = load(v.proto);
      if (!lm) continue;
      std::string d = compare_structure(*lm, validator_under_test());
      if (d.empty()) continue;
      EXPECT_NE(d.find("STRUCT-SSA"), std::string::npos) << d;
      EXPECT_EQ(compare_structure(*lm, real_validator()), "") << "seed " << seed << " " << v.change;
      found = true;
      std::cout << "planted bug found at seed " << seed << " (" << v.change << "): " << d;
      break;
    }
  }
  EXPECT_TRUE(found) << "the differential did not catch the planted STRUCT-SSA bug";
}

// And through RapidCheck, as the property runs in the ordinary build: the property fails.
TEST(PlantedBug, ThePropertyFails) {
  bool ok = rc::check("near misses agree with the oracle", [] {
    fuzz::Recipe r = *gen_oracle_recipe(0.1, 4);
    std::string d = differential(r, false, false, true);
    if (!d.empty()) RC_FAIL(d);
  });
  EXPECT_FALSE(ok) << "the property held although the validator under test has a planted bug";
}

#endif

}  // namespace
}  // namespace sonnx::oracle
