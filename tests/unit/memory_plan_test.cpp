// The memory planners (optimized/plan/memory_planner, spec/memory_plan.md): the placement
// contract, validity of both planners on random lifetimes, and the lower bound.
#include <gtest/gtest.h>

#include <random>

#include "optimized/plan/memory_planner.h"

namespace sonnx {
namespace {

bool overlaps(int64_t a, int64_t as, int64_t b, int64_t bs) { return a < b + bs && b < a + as; }

TEST(MemoryPlanner, PlaceReturnsTheLowestFreeOffset) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<std::pair<int64_t, int64_t>> blocks;
    int n = static_cast<int>(rng() % 6);
    for (int k = 0; k < n; ++k) blocks.emplace_back(rng() % 40, 1 + rng() % 12);
    std::sort(blocks.begin(), blocks.end());
    int64_t size = 1 + rng() % 10;
    int64_t got = place(size, blocks);
    auto free_at = [&](int64_t r) {
      for (auto [o, s] : blocks)
        if (overlaps(r, size, o, s)) return false;
      return true;
    };
    ASSERT_TRUE(free_at(got)) << "trial " << trial;
    for (int64_t r = 0; r < got; ++r) ASSERT_FALSE(free_at(r)) << "a lower offset " << r << " was free, trial " << trial;
  }
}

TEST(MemoryPlanner, BothPlannersNeverOverlapLiveValuesAndRespectTheLowerBound) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 300; ++trial) {
    int m = 1 + static_cast<int>(rng() % 25), steps = 1 + static_cast<int>(rng() % 15);
    std::vector<int64_t> size(m), first(m), last(m);
    for (int t = 0; t < m; ++t) {
      size[t] = static_cast<int64_t>(rng() % 100);
      first[t] = rng() % steps;
      last[t] = first[t] + rng() % (steps - first[t]);
    }
    auto conflict = [&](size_t a, size_t b) { return first[a] <= last[b] && first[b] <= last[a]; };
    for (Planner p : {Planner::GreedyBySize, Planner::FirstFit}) {
      auto off = plan_offsets(p, size, first, conflict);
      int64_t arena = arena_size(size, off);
      for (int a = 0; a < m; ++a) {
        ASSERT_GE(off[a], 0);
        ASSERT_LE(off[a] + size[a], arena);
        for (int b = a + 1; b < m; ++b)
          if (conflict(a, b) && size[a] && size[b]) {
            ASSERT_FALSE(overlaps(off[a], size[a], off[b], size[b])) << planner_name(p) << " trial " << trial;
          }
      }
      ASSERT_GE(arena, live_lower_bound(size, first, last, steps)) << planner_name(p);
    }
  }
}

TEST(MemoryPlanner, TheIntervalPlannerGivesTheGenericPlannersOffsets) {
  std::mt19937 rng(13);
  for (int trial = 0; trial < 300; ++trial) {
    int m = static_cast<int>(rng() % 40), steps = 1 + static_cast<int>(rng() % 20);
    std::vector<int64_t> size(m), first(m), last(m);
    for (int t = 0; t < m; ++t) {
      size[t] = 64 * static_cast<int64_t>(rng() % 6);
      first[t] = rng() % steps;
      last[t] = first[t] + rng() % (steps - first[t]);
    }
    auto conflict = [&](size_t a, size_t b) { return first[a] <= last[b] && first[b] <= last[a]; };
    for (Planner p : {Planner::GreedyBySize, Planner::FirstFit})
      ASSERT_EQ(plan_offsets_for_intervals(p, size, first, last), plan_offsets(p, size, first, conflict))
          << planner_name(p) << " trial " << trial;
  }
}

TEST(MemoryPlanner, AChainNeedsOnlyTwoBuffersAndReachesTheLowerBound) {
  // v0 -> v1 -> ... each value read by the next step only: two values live at a time.
  std::vector<int64_t> size{400, 300, 400, 200, 400}, first{0, 1, 2, 3, 4}, last{1, 2, 3, 4, 4};
  auto conflict = [&](size_t a, size_t b) { return first[a] <= last[b] && first[b] <= last[a]; };
  int64_t lb = live_lower_bound(size, first, last, 5);
  EXPECT_EQ(lb, 700);  // steps 0 and 1: v0 + v1 = 400 + 300
  EXPECT_EQ(arena_size(size, plan_offsets(Planner::GreedyBySize, size, first, conflict)), lb);
}

TEST(MemoryPlanner, ParsesPlannerNames) {
  EXPECT_EQ(parse_planner("greedy"), Planner::GreedyBySize);
  EXPECT_EQ(parse_planner("first-fit"), Planner::FirstFit);
  EXPECT_THROW(parse_planner("best"), std::invalid_argument);
}

}  // namespace
}  // namespace sonnx
