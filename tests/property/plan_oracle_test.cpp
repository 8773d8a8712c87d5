// check_memory_plan against memory_plan.mlw's valid_plan and within, transcribed literally
// (conformance/oracle/structure_oracle.h), on the sequential plans the linear executor makes for
// random generated graphs, and on the same plans corrupted: one value moved onto another, a
// lifetime shortened and the offsets re-planned for it, an offset moved at random. Lifetimes for the
// oracle are computed here, by the definition of spec/memory_plan.md §1 (first: the producing
// step; last: the last reading step, or first), independently of the check's own walk; the
// outputs of view steps placed at their input's offset join its value (§8).
#include <map>
#include <random>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "oracle_recipe_gen.h"

#include "conformance/fuzz/graph_gen.h"
#include "conformance/oracle/structure_oracle.h"
#include "optimized/exec/make_executor.h"
#include "optimized/plan/memory_plan.h"
#include "optimized/plan/memory_planner.h"
#include "reference/check/prepare.h"

namespace sonnx::oracle {
namespace {

// The values placed in the arena, with the lifetimes, sizes and offsets valid_plan speaks of.
struct Placed {
  std::vector<int> slot;
  std::vector<int64_t> first, last, size, off;
};

Placed placed_values(const CompiledGraph& g, const MemoryPlan& p) {
  Placed v;
  const auto& steps = g.steps();
  // §8: the output of a view step placed at its (plain) input's offset is its input's value.
  std::vector<int> value_of(p.offset.size());
  for (size_t s = 0; s < value_of.size(); ++s) value_of[s] = static_cast<int>(s);
  for (const Step& st : steps) {
    if (!st.is_view() || st.inputs[0] < 0 || st.outputs[0] < 0) continue;
    auto x = static_cast<size_t>(st.inputs[0]), y = static_cast<size_t>(st.outputs[0]);
    bool plain = true;
    for (const Step& q : steps)
      for (int o : q.outputs) plain = plain && !(o == st.inputs[0] && q.blocked_output);
    if (plain && p.offset[x] >= 0 && p.offset[y] == p.offset[x]) value_of[y] = value_of[x];
  }
  std::map<int, size_t> index;  // a value of the theory -> its position in v
  for (size_t s = 0; s < p.offset.size(); ++s) {
    if (p.offset[s] < 0) continue;
    int slot = static_cast<int>(s);
    int64_t first = -1, last = -1;
    for (size_t i = 0; i < steps.size(); ++i) {
      for (int o : steps[i].outputs)
        if (o == slot && first < 0) first = static_cast<int64_t>(i);
      for (int r : steps[i].inputs)
        if (r == slot) last = static_cast<int64_t>(i);
      for (int r : steps[i].captures)
        if (r == slot) last = static_cast<int64_t>(i);
    }
    if (last < first) last = first;  // a value read by no step lives at its producer's step
    auto [it, fresh] = index.try_emplace(value_of[s], v.slot.size());
    if (fresh) {
      v.slot.push_back(slot);
      v.first.push_back(first);
      v.last.push_back(last);
      v.size.push_back(p.bytes[s]);
      v.off.push_back(p.offset[s]);
    } else {  // a member of a view group: the group lives from its first producer to its last reader
      size_t k = it->second;
      v.first[k] = std::min(v.first[k], first);
      v.last[k] = std::max(v.last[k], last);
      v.size[k] = std::max(v.size[k], p.bytes[s]);
    }
  }
  return v;
}

bool oracle_accepts(const CompiledGraph& g, const MemoryPlan& p) {
  Placed v = placed_values(g, p);
  return valid_plan(v.first, v.last, v.size, v.off) && within(v.size, v.off, p.arena_bytes);
}

std::string verdicts(const CompiledGraph& g, const MemoryPlan& p) {
  std::string check = check_memory_plan(g, p);
  bool oracle = oracle_accepts(g, p);
  if (oracle == check.empty()) return "";
  return std::string("valid_plan ") + (oracle ? "holds" : "fails") + ", check_memory_plan says '" + check + "'";
}

struct Compiled {
  std::shared_ptr<const CompiledModel> model;
  MemoryPlan plan;
};

// The linear executor's plan (sequential) for the generated graph, or nothing when it has no value
// in the arena.
std::optional<Compiled> plan_of(const fuzz::GeneratedCase& g, Planner planner) {
  LoadedModel lm{g.proto, g.model};
  prepare_loaded_model(lm, {}, "generated graph");
  ExecutorOptions eo;
  eo.planner = planner;
  auto ex = make_optimized_executor(lm.ir, "linear", eo);
  ex->run(g.inputs);
  if (!ex->plan()) return std::nullopt;
  return Compiled{ex->compiled(), *ex->plan()};
}

RC_GTEST_PROP(PlanOracle, CheckMemoryPlanAgreesWithValidPlan, ()) {
  fuzz::Recipe r = *gen_oracle_recipe(0.2, 5);
  fuzz::GeneratedCase g = fuzz::generate(r);
  Planner planner = *rc::gen::element(Planner::GreedyBySize, Planner::FirstFit);
  auto c = plan_of(g, planner);
  RC_PRE(c.has_value());
  const CompiledGraph& cg = c->model->root();
  MemoryPlan p = c->plan;
  RC_ASSERT(!p.concurrent);
  // The plan as made: both say valid.
  RC_ASSERT(check_memory_plan(cg, p) == "");
  RC_ASSERT(oracle_accepts(cg, p));
  Placed v = placed_values(cg, p);
  RC_TAG(v.slot.empty() ? "nothing in the arena" : v.slot.size() < 4 ? "1-3 values in the arena" : "4+ values in the arena");
  if (v.slot.empty()) return;
  std::mt19937_64 rng(r.seed);
  auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
  // One value moved onto another's offset.
  {
    MemoryPlan q = p;
    size_t a = pick(v.slot.size()), b = pick(v.slot.size());
    q.offset[static_cast<size_t>(v.slot[b])] = q.offset[static_cast<size_t>(v.slot[a])];
    std::string d = verdicts(cg, q);
    if (!d.empty()) RC_FAIL("moved onto another: " + d);
  }
  // One offset moved anywhere in the arena (a multiple of the alignment, still fitting).
  {
    MemoryPlan q = p;
    size_t a = pick(v.slot.size());
    int64_t room = (p.arena_bytes - v.size[a]) / kArenaAlignment;
    if (room >= 0) {
      q.offset[static_cast<size_t>(v.slot[a])] = kArenaAlignment * std::uniform_int_distribution<int64_t>(0, room)(rng);
      std::string d = verdicts(cg, q);
      if (!d.empty()) RC_FAIL("moved in the arena: " + d);
    }
  }
  // One lifetime shortened in the plan and the offsets planned again for the plan's lifetimes: the
  // plan agrees with itself, the check must judge it by the steps.
  {
    MemoryPlan q = p;
    size_t a = pick(v.slot.size());
    auto sa = static_cast<size_t>(v.slot[a]);
    q.last[sa] = q.first[sa];
    std::vector<int64_t> sizes, first, last;
    for (int s : v.slot) {
      sizes.push_back(q.bytes[static_cast<size_t>(s)]);
      first.push_back(q.first[static_cast<size_t>(s)]);
      last.push_back(q.last[static_cast<size_t>(s)]);
    }
    std::vector<int64_t> off = plan_offsets_for_intervals(planner, sizes, first, last);
    for (size_t k = 0; k < v.slot.size(); ++k) q.offset[static_cast<size_t>(v.slot[k])] = off[k];
    q.arena_bytes = arena_size(sizes, off);
    q.lower_bound_bytes = live_lower_bound(sizes, first, last, static_cast<int64_t>(cg.steps().size()));
    std::string d = verdicts(cg, q);
    if (!d.empty()) RC_FAIL("shortened lifetime: " + d);
    RC_TAG(oracle_accepts(cg, q) ? "shortened, still valid" : "shortened, caught");
  }
}

}  // namespace
}  // namespace sonnx::oracle
