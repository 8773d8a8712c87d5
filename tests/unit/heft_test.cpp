// Profile-guided assignment's scheduler (optimized/backends/assign.h) on costs given by hand, and
// partitioning over a device set without cpu: every node no device runs is named, with reasons.
#include <gtest/gtest.h>

#include <algorithm>

#include "optimized/backends/assign.h"
#include "optimized/backends/partition.h"
#include "reference/model/text_syntax.h"
#include "sonnx/errors.h"

namespace sonnx {
namespace {

using Succ = std::vector<std::vector<std::pair<size_t, double>>>;

// A chain a0 -> a1 -> ... with `mib` on every edge.
Succ chain(size_t n, double mib) {
  Succ s(n);
  for (size_t i = 0; i + 1 < n; ++i) s[i].push_back({i + 1, mib});
  return s;
}

TEST(Heft, EachNodeGoesWhereItIsFastWhenCopiesAreCheap) {
  // Device 0 fast at even nodes (Conv), device 1 at odd ones (Add).
  std::vector<std::vector<double>> cost{{1, 9}, {9, 1}, {1, 9}, {9, 1}};
  std::vector<size_t> placement, order;
  std::vector<NodeCost> timeline;
  double makespan = heft_schedule(cost, chain(4, 1.0), 0.1, placement, order, timeline);
  EXPECT_EQ(placement, (std::vector<size_t>{0, 1, 0, 1}));
  EXPECT_EQ(order, (std::vector<size_t>{0, 1, 2, 3}));
  EXPECT_DOUBLE_EQ(makespan, 4 * 1.0 + 3 * 0.1);  // four fast nodes, three copies
  EXPECT_LT(makespan, 1 + 9 + 1 + 9);             // either device alone
  EXPECT_DOUBLE_EQ(timeline[3].start, 3.3);
  EXPECT_DOUBLE_EQ(timeline[3].finish, 4.3);
}

TEST(Heft, ExpensiveCopiesKeepAChainOnOneDevice) {
  std::vector<std::vector<double>> cost{{1, 9}, {3, 1}, {1, 9}, {3, 1}};
  std::vector<size_t> placement, order;
  std::vector<NodeCost> timeline;
  double makespan = heft_schedule(cost, chain(4, 1.0), 5.0, placement, order, timeline);
  EXPECT_EQ(placement, (std::vector<size_t>{0, 0, 0, 0}));  // 2 saved per Add < 5 per copy
  EXPECT_DOUBLE_EQ(makespan, 8);
}

TEST(Heft, IndependentBranchesRunSideBySide) {
  // 0 -> {1, 2} -> 3; branches cost 10 on either device.
  std::vector<std::vector<double>> cost{{1, 1}, {10, 10}, {10, 10}, {1, 1}};
  Succ succ(4);
  succ[0] = {{1, 0.0}, {2, 0.0}};
  succ[1] = {{3, 0.0}};
  succ[2] = {{3, 0.0}};
  std::vector<size_t> placement, order;
  std::vector<NodeCost> timeline;
  double makespan = heft_schedule(cost, succ, 0.0, placement, order, timeline);
  EXPECT_NE(placement[1], placement[2]);
  EXPECT_DOUBLE_EQ(makespan, 12);
  EXPECT_EQ(order.front(), 0u);
  EXPECT_EQ(order.back(), 3u);
}

TEST(Heft, NeverPicksADeviceThatCannotRunTheNode) {
  std::vector<std::vector<double>> cost{{-1, 50}, {1, -1}};
  std::vector<size_t> placement, order;
  std::vector<NodeCost> timeline;
  heft_schedule(cost, chain(2, 0.0), 0.0, placement, order, timeline);
  EXPECT_EQ(placement, (std::vector<size_t>{1, 0}));
}

// A device that runs Add only.
class AddOnly : public Backend {
 public:
  std::string name() const override { return "addonly"; }
  std::string version() const override { return "1"; }
  std::string type() const override { return "accelerator"; }
  std::vector<Capability> capabilities() const override { return {{"", "Add", 7, 0, {DType::Float}}}; }
  bool supports(const NodeQuery& q) const override { return capability_matches(capabilities(), q); }
  std::string why_not(const NodeQuery& q) const override { return capability_mismatch(capabilities(), q); }
  std::unique_ptr<CompiledStep> prepare(const Model&) const override { throw BackendError("not in this test"); }
};

TEST(DeviceSet, WithoutCpuEveryUnsupportedNodeIsNamedWithReasons) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[2] x, int64[2] k) => (float[2] z, int64[2] n) { s = Add(x, x)  a = Abs(s)  z = Neg(a)  n = Add(k, k) })");
  PartitionOptions po;
  po.allow_fallback = false;
  try {
    partition(m, {std::make_shared<AddOnly>()}, po);
    FAIL() << "partitioned without a device for Abs";
  } catch (const Unsupported& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("no device in the set {addonly} runs 3 nodes"), std::string::npos) << what;
    EXPECT_NE(what.find("(Abs) (addonly: no capability for Abs)"), std::string::npos) << what;
    EXPECT_NE(what.find("(Neg) (addonly: no capability for Neg)"), std::string::npos) << what;
    EXPECT_NE(what.find("addonly: input 0 is int64, which it does not take for Add"), std::string::npos) << what;
  }
  po.allow_fallback = true;  // with cpu: the three go to it
  ExecutionPlan plan = partition(m, {std::make_shared<AddOnly>()}, po);
  std::vector<std::string> on_cpu = plan.unsupported_ops;
  std::sort(on_cpu.begin(), on_cpu.end());
  EXPECT_EQ(on_cpu, (std::vector<std::string>{"Abs", "Add", "Neg"}));
}

TEST(DeviceSet, OpsetOutsideTheCapabilityIsTheReason) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 6]>
g (float[2] x) => (float[2] s) { s = Add(x, x) })");
  EXPECT_EQ(AddOnly().why_not(node_queries(m).at(0)), "no capability for Add at opset 6");
}

}  // namespace
}  // namespace sonnx
