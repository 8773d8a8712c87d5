// Fuzz campaigns against a target: their JSON round trip, merging shards (counts added, defect
// groups merged by key keeping the smallest repro), and `--shard auto` reading each scheduler's
// variables.
#include <gtest/gtest.h>
#include <stdlib.h>

#include "conformance/fuzz/target_fuzz.h"
#include "conformance/test_selection.h"
#include "sonnx/errors.h"

namespace sonnx::fuzz {
namespace {

DefectGroup group(std::string op, std::string deviation, int64_t hits, int nodes) {
  DefectGroup g;
  g.op = std::move(op);
  g.pattern = "float,float; unequal shapes";
  g.deviation = std::move(deviation);
  g.hits = hits;
  g.seed = 100 + static_cast<uint64_t>(nodes);
  g.repro = "repro-" + std::to_string(nodes);
  g.repro_nodes = nodes;
  return g;
}

TargetCampaign campaign(std::vector<DefectGroup> groups, int64_t graphs) {
  TargetCampaign c;
  c.target = "faulty";
  c.target_version = "1.0";
  c.graphs = graphs;
  c.passed = graphs - 2;
  c.failed = 2;
  c.skip_reasons = {{"no enclosure for X-1", 0}};
  c.groups = std::move(groups);
  c.shard = "0/2";
  return c;
}

TEST(FuzzCampaign, JsonRoundTrip) {
  TargetCampaign c = campaign({group("Sub-14", "outside-enclosure", 3, 1), group("graph: Add+Tanh", "nan", 1, 2)}, 10);
  c.skipped = 4;
  c.skip_reasons = {{"unsupported: Einsum", 4}};
  TargetCampaign back = campaign_from_json(campaign_json(c));
  EXPECT_EQ(back.target, "faulty");
  EXPECT_EQ(back.graphs, 10);
  EXPECT_EQ(back.skipped, 4);
  EXPECT_EQ(back.skip_reasons.at("unsupported: Einsum"), 4);
  ASSERT_EQ(back.groups.size(), 2u);
  EXPECT_EQ(back.groups[0].key(), c.groups[0].key());
  EXPECT_EQ(back.groups[1].repro_nodes, 2);
  EXPECT_EQ(back.groups[0].hits, 3);
  EXPECT_THROW(campaign_from_json(nlohmann::json{{"backend", "x"}}), LoadError);  // a certificate
}

TEST(FuzzCampaign, MergeSumsCountsAndKeepsTheSmallestRepro) {
  TargetCampaign a = campaign({group("Sub-14", "outside-enclosure", 3, 2)}, 10);
  TargetCampaign b = campaign({group("Sub-14", "outside-enclosure", 2, 1), group("Tanh-13", "outside-enclosure", 1, 1)}, 7);
  b.shard = "1/2";
  TargetCampaign merged;
  merge_campaign(merged, a, "a.json");
  merge_campaign(merged, b, "b.json");
  EXPECT_EQ(merged.graphs, 17);
  EXPECT_EQ(merged.failed, 4);
  ASSERT_EQ(merged.groups.size(), 2u);
  EXPECT_EQ(merged.groups[0].hits, 5);
  EXPECT_EQ(merged.groups[0].repro_nodes, 1);
  EXPECT_EQ(merged.groups[0].repro, "repro-1");
  EXPECT_EQ(merged.shard, "0/2,1/2");
  // A group differing only in its deviation is another defect.
  TargetCampaign c = campaign({group("Sub-14", "nan", 1, 1)}, 1);
  merge_campaign(merged, c, "c.json");
  EXPECT_EQ(merged.groups.size(), 3u);
  TargetCampaign other = campaign({}, 1);
  other.target = "onnxruntime";
  EXPECT_THROW(merge_campaign(merged, other, "other.json"), LoadError);
}

// Sets variables for one scope and removes them (and every other scheduler's) around it.
class SchedulerEnv {
 public:
  SchedulerEnv(std::initializer_list<std::pair<const char*, const char*>> vars) {
    clear();
    for (auto [k, v] : vars) setenv(k, v, 1);
  }
  ~SchedulerEnv() { clear(); }

 private:
  static void clear() {
    for (const char* k : {"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_STEP",
                          "JOB_COMPLETION_INDEX", "SONNX_SHARD_COUNT", "SONNX_SHARD_INDEX", "CI_NODE_INDEX", "CI_NODE_TOTAL",
                          "CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL", "BUILDKITE_PARALLEL_JOB", "BUILDKITE_PARALLEL_JOB_COUNT",
                          "GTEST_SHARD_INDEX", "GTEST_TOTAL_SHARDS"})
      unsetenv(k);
  }
};

void expect_shard(const std::string& text, int index, int count, const std::string& source_has) {
  Shard s = parse_shard(text);
  EXPECT_EQ(s.index, index);
  EXPECT_EQ(s.count, count);
  EXPECT_NE(s.source.find(source_has), std::string::npos) << s.source;
}

TEST(ShardAuto, ReadsEachScheduler) {
  {
    SchedulerEnv e{{"SLURM_ARRAY_TASK_ID", "7"},
                   {"SLURM_ARRAY_TASK_COUNT", "4"},
                   {"SLURM_ARRAY_TASK_MIN", "1"},
                   {"SLURM_ARRAY_TASK_STEP", "2"}};
    expect_shard("auto", 3, 4, "Slurm");  // --array=1-7:2: tasks 1, 3, 5, 7
  }
  {
    SchedulerEnv e{{"SLURM_ARRAY_TASK_ID", "2"}, {"SLURM_ARRAY_TASK_COUNT", "3"}};
    expect_shard("auto", 2, 3, "Slurm");
  }
  {
    SchedulerEnv e{{"JOB_COMPLETION_INDEX", "5"}, {"SONNX_SHARD_COUNT", "16"}};
    expect_shard("auto", 5, 16, "Kubernetes");
  }
  {
    SchedulerEnv e{{"CI_NODE_INDEX", "1"}, {"CI_NODE_TOTAL", "2"}};
    expect_shard("auto", 0, 2, "GitLab");  // 1-based
  }
  {
    SchedulerEnv e{{"CIRCLE_NODE_INDEX", "1"}, {"CIRCLE_NODE_TOTAL", "2"}};
    expect_shard("auto", 1, 2, "CircleCI");
  }
  {
    SchedulerEnv e{{"BUILDKITE_PARALLEL_JOB", "0"}, {"BUILDKITE_PARALLEL_JOB_COUNT", "3"}};
    expect_shard("auto", 0, 3, "Buildkite");
  }
  {
    SchedulerEnv e{{"SONNX_SHARD_INDEX", "2"}, {"SONNX_SHARD_COUNT", "4"}};
    expect_shard("auto", 2, 4, "SONNX_SHARD_INDEX");
  }
  {
    SchedulerEnv e{{"GTEST_SHARD_INDEX", "1"}, {"GTEST_TOTAL_SHARDS", "3"}};
    expect_shard("auto", 1, 3, "ctest");
  }
}

TEST(ShardAuto, RefusesWhatDoesNotAddUp) {
  {
    SchedulerEnv e{{"SONNX_SHARD_INDEX", ""}};     // none set (an empty value counts as unset)
    EXPECT_THROW(parse_shard("auto"), LoadError);  // no scheduler
  }
  {
    SchedulerEnv e{{"SLURM_ARRAY_TASK_ID", "4"}, {"SLURM_ARRAY_TASK_COUNT", "4"}};
    EXPECT_THROW(parse_shard("auto"), LoadError);  // index outside the count
  }
  {
    SchedulerEnv e{{"SLURM_ARRAY_TASK_ID", "4"}, {"SLURM_ARRAY_TASK_COUNT", "4"}, {"SLURM_ARRAY_TASK_STEP", "3"}};
    EXPECT_THROW(parse_shard("auto"), LoadError);  // not MIN + k·STEP
  }
  {
    SchedulerEnv e{{"SLURM_ARRAY_TASK_ID", "x"}, {"SLURM_ARRAY_TASK_COUNT", "4"}};
    EXPECT_THROW(parse_shard("auto"), LoadError);
  }
  {
    SchedulerEnv e{{"JOB_COMPLETION_INDEX", "1"}};
    EXPECT_THROW(parse_shard("auto"), LoadError);  // no total
  }
  {
    SchedulerEnv e{{"CI_NODE_INDEX", "0"}, {"CI_NODE_TOTAL", "2"}};
    EXPECT_THROW(parse_shard("auto"), LoadError);  // GitLab's index is 1-based
  }
}

}  // namespace
}  // namespace sonnx::fuzz
