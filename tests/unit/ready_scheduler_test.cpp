// The one dependency graph (reference/model/dependencies) and the one ready-step scheduler
// (optimized/exec/ready_scheduler) that the parallel and device-set executors share.
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <map>
#include <optional>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "optimized/exec/ready_scheduler.h"
#include "reference/model/dependencies.h"
#include "sonnx/errors.h"

namespace sonnx {
namespace {

using Names = std::vector<std::vector<std::string>>;

TEST(DependencyGraph, EdgesGoFromTheWriterToEachReaderOnce) {
  // 0: x -> a    1: a, a -> b    2: x -> c    3: b, c, a -> d
  DependencyGraph g(Names{{"a"}, {"b"}, {"c"}, {"d"}}, Names{{"x"}, {"a", "a"}, {"x"}, {"b", "c", "a"}});
  ASSERT_EQ(g.size(), 4u);
  EXPECT_EQ(g.successors()[0], (std::vector<int>{1, 3}));
  EXPECT_EQ(g.successors()[1], (std::vector<int>{3}));
  EXPECT_EQ(g.successors()[2], (std::vector<int>{3}));
  EXPECT_TRUE(g.successors()[3].empty());
  EXPECT_EQ(g.num_predecessors(), (std::vector<int>{0, 1, 0, 3}));
  EXPECT_EQ(g.writer(3, 0), 1);
  EXPECT_EQ(g.writer(3, 2), 0);
  EXPECT_EQ(g.writer(0, 0), -1);  // a graph input: no step writes it
  ASSERT_TRUE(g.topological_order());
  EXPECT_TRUE(g.cycle().empty());
}

TEST(DependencyGraph, ReadingItsOwnOutputIsACycle) {
  DependencyGraph g(std::vector<std::vector<int>>{{0}, {1}}, std::vector<std::vector<int>>{{-1}, {1, 0}});
  EXPECT_EQ(g.num_predecessors(), (std::vector<int>{0, 2}));
  EXPECT_FALSE(g.topological_order());
  EXPECT_EQ(g.cycle(), (std::vector<size_t>{1}));
}

TEST(DependencyGraph, NodesWaitForWhatTheirSubgraphsCapture) {
  Graph body;
  Node inner;
  inner.op_type = "Identity";
  inner.inputs = {"t"};  // t comes from the enclosing graph
  inner.outputs = {"u"};
  body.nodes.push_back(inner);
  body.outputs.push_back(ValueInfo{});
  body.outputs.back().name = "u";
  Graph g;
  Node make_t, use_t;
  make_t.op_type = "Relu";
  make_t.inputs = {"x"};
  make_t.outputs = {"t"};
  use_t.op_type = "If";
  use_t.inputs = {"cond"};
  use_t.outputs = {"y"};
  Attribute then_branch;
  then_branch.name = "then_branch";
  then_branch.g = std::make_shared<Graph>(body);
  use_t.attributes.push_back(then_branch);
  g.nodes = {use_t, make_t};  // listed out of order
  EXPECT_EQ(node_reads(g.nodes[0]), (std::vector<std::string>{"cond", "t"}));
  DependencyGraph d = node_dependencies(g);
  EXPECT_EQ(d.successors()[1], (std::vector<int>{0}));
  EXPECT_EQ(d.topological_order(), (std::optional<std::vector<size_t>>{{1, 0}}));
}

// A diamond chain: step 3k+1 and 3k+2 wait for 3k, 3k+3 waits for both.
DependencyGraph diamonds(int k) {
  std::vector<std::vector<int>> writes, reads;
  for (int d = 0; d < k; ++d) {
    int top = 3 * d;
    writes.push_back({top});
    reads.push_back({top - 1});
    writes.push_back({top + 1});
    reads.push_back({top});
    writes.push_back({top + 2});
    reads.push_back({top});
  }
  writes.push_back({3 * k});
  reads.push_back({});
  for (int d = 1; d <= k; ++d) reads[static_cast<size_t>(3 * d)] = {3 * d - 2, 3 * d - 1};
  return DependencyGraph(writes, reads);
}

// Runs every step once and checks, as each starts, that its predecessors have finished.
struct Checked {
  explicit Checked(const DependencyGraph& g)
      : graph(g), done(new std::atomic<int>[g.size()]), runs(new std::atomic<int>[g.size()]) {
    for (size_t i = 0; i < g.size(); ++i) done[i] = runs[i] = 0;
    for (size_t p = 0; p < g.size(); ++p)
      for (int s : g.successors()[p]) preds_of[static_cast<size_t>(s)].push_back(static_cast<int>(p));
  }
  void operator()(int i) {
    for (int p : preds_of[static_cast<size_t>(i)])
      if (done[p] == 0) early = true;
    ++runs[i];
    done[i] = 1;
  }
  const DependencyGraph& graph;
  std::unique_ptr<std::atomic<int>[]> done, runs;
  std::map<size_t, std::vector<int>> preds_of;
  std::atomic<bool> early{false};
};

TEST(ReadyScheduler, CallerAloneRunsATopologicallyNumberedGraphInIndexOrder) {
  DependencyGraph g = diamonds(4);
  ReadyScheduler s;
  std::vector<int> order;
  s.run(g, [&](int i) { order.push_back(i); });
  std::vector<int> expected(g.size());
  for (size_t i = 0; i < expected.size(); ++i) expected[i] = static_cast<int>(i);
  EXPECT_EQ(order, expected);
}

TEST(ReadyScheduler, TakesTheHighestPriorityAmongReadySteps) {
  // Three independent steps: priorities 1, 3, 2.
  DependencyGraph g(std::vector<std::vector<int>>{{0}, {1}, {2}}, std::vector<std::vector<int>>{{}, {}, {}});
  std::vector<double> priority{1, 3, 2};
  ReadyScheduler s;
  std::vector<int> order;
  s.run(
      g, [&](int i) { order.push_back(i); }, &priority);
  EXPECT_EQ(order, (std::vector<int>{1, 2, 0}));
}

TEST(ReadyScheduler, APoolRunsEachStepOnceAfterItsPredecessors) {
  DependencyGraph g = diamonds(50);
  ReadyScheduler s(2);
  for (int round = 0; round < 20; ++round) {
    Checked c(g);
    s.run(g, [&](int i) { c(i); });
    EXPECT_FALSE(c.early) << "round " << round;
    for (size_t i = 0; i < g.size(); ++i) ASSERT_EQ(c.runs[i], 1) << "step " << i << ", round " << round;
  }
}

TEST(ReadyScheduler, AfterAnErrorNoNewStepStartsAndTheErrorIsRethrown) {
  // Step 0 fails; steps 1 and 2 (after 1) do not depend on it.
  DependencyGraph g(std::vector<std::vector<int>>{{0}, {1}, {2}}, std::vector<std::vector<int>>{{}, {}, {1}});
  for (int workers : {0, 2}) {
    ReadyScheduler s(workers);
    std::atomic<int> others{0};
    auto step = [&](int i) {
      if (i == 0) throw Trap("step 0 fails");
      ++others;
    };
    EXPECT_THROW(s.run(g, step), Trap) << workers << " workers";
    // The caller alone takes step 0 first and starts nothing after it; a pool may have been
    // running step 1 beside it.
    if (workers == 0) {
      EXPECT_EQ(others, 0);
    }
    Checked c(g);  // the scheduler runs again afterwards
    s.run(g, [&](int i) { c(i); });
    for (size_t i = 0; i < g.size(); ++i) EXPECT_EQ(c.runs[i], 1);
  }
}

TEST(ReadyScheduler, ACycleIsAnErrorNotAHang) {
  DependencyGraph g(std::vector<std::vector<int>>{{0}, {1}}, std::vector<std::vector<int>>{{}, {1}});
  for (int workers : {0, 2}) {
    ReadyScheduler s(workers);
    EXPECT_THROW(s.run(g, [](int) {}), InternalError) << workers << " workers";
  }
}

TEST(ReadyScheduler, ALaunchedRunFinishesAloneWhenTheLauncherRunsNothingInTime) {
  DependencyGraph g = diamonds(10);
  ReadyScheduler s;
  std::vector<std::function<void()>> tasks;
  TaskLauncher keep = [&](std::function<void()> t) { tasks.push_back(std::move(t)); };
  Checked c(g);
  s.run(
      g, [&](int i) { c(i); }, nullptr, &keep);
  for (size_t i = 0; i < g.size(); ++i) EXPECT_EQ(c.runs[i], 1);
  EXPECT_FALSE(tasks.empty());  // the diamonds' sides were offered
  for (auto& t : tasks) t();    // too late: they find the run over and run nothing
  for (size_t i = 0; i < g.size(); ++i) EXPECT_EQ(c.runs[i], 1);
}

TEST(ReadyScheduler, LaunchedTasksOnOtherThreadsShareTheRun) {
  DependencyGraph g = diamonds(40);
  ReadyScheduler s;
  std::mutex m;
  std::vector<std::thread> threads;
  TaskLauncher spawn = [&](std::function<void()> t) {
    std::lock_guard lock(m);
    threads.emplace_back(std::move(t));
  };
  Checked c(g);
  s.run(
      g, [&](int i) { c(i); }, nullptr, &spawn);
  for (auto& t : threads) t.join();
  EXPECT_FALSE(c.early);
  for (size_t i = 0; i < g.size(); ++i) EXPECT_EQ(c.runs[i], 1);
  EXPECT_GT(threads.size(), 0u);
}

}  // namespace
}  // namespace sonnx
