// Sessions compiled for a device set (SessionOptions::devices): exactly the set, the failure that
// names every node no device runs, profile-guided assignment over the two simulated accelerators
// of tests/backends (convfast: slow at Add; addfast: slow at Conv), and run_async handing the
// steps that can overlap to the caller's launcher.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include <stdlib.h>

#include "sonnx/sonnx.hpp"

namespace {

const std::string kPlugins = SONNX_TEST_PLUGIN_DIR;     // the plugins' build folder
const std::string kModels = SONNX_TEST_BACKEND_MODELS;  // tests/backends

sonnx::Tensor random_tensor(const sonnx::Shape& shape, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1, 1);
  size_t n = 1;
  for (auto d : shape) n *= static_cast<size_t>(d);
  std::vector<float> v(n);
  for (float& x : v) x = u(rng);
  return sonnx::Tensor::from_vector<float>(shape, v);
}

sonnx::NamedValues branch_inputs() {
  return {{"x", random_tensor({1, 8, 16, 16}, 1)},
          {"w1", random_tensor({8, 8, 1, 1}, 2)},
          {"w2", random_tensor({8, 8, 1, 1}, 3)},
          {"b", random_tensor({1, 8, 16, 16}, 4)}};
}

sonnx::SessionOptions on_devices(std::vector<std::string> devices, std::string assign = "first") {
  sonnx::SessionOptions o;
  o.devices = std::move(devices);
  o.plugins = {kPlugins + "/convfast_backend.so", kPlugins + "/addfast_backend.so", kPlugins + "/sample_backend.so"};
  o.assign = std::move(assign);
  return o;
}

// Runs every task on a thread of its own, joined at the end.
struct ThreadLauncher {
  std::mutex mutex;
  std::vector<std::thread> threads;
  std::atomic<int> given{0}, ran{0};
  sonnx::TaskLauncher launcher() {
    return [this](std::function<void()> task) {
      ++given;
      std::lock_guard lock(mutex);
      threads.emplace_back([this, task = std::move(task)] {
        task();
        ++ran;
      });
    };
  }
  ~ThreadLauncher() {  // a task may launch more while we join
    for (;;) {
      std::thread t;
      {
        std::lock_guard lock(mutex);
        if (threads.empty()) return;
        t = std::move(threads.back());
        threads.pop_back();
      }
      t.join();
    }
  }
};

TEST(DeviceSession, ACpuOnlySetComputesWhatTheLinearExecutorComputes) {
  sonnx::ModelHandle m = sonnx::load(kModels + "/branches.onnxtxt");
  sonnx::SessionOptions linear;
  linear.executor = "linear";
  auto want = sonnx::Session(m, linear).run(branch_inputs());
  EXPECT_EQ(sonnx::Session(m, on_devices({"cpu"})).run(branch_inputs()), want);
}

TEST(DeviceSession, ProfileAssignmentOverlapsDeviceStepsOnTheLaunchersThreads) {
  // A fresh cache: this session measures every node.
  char dir[] = "/tmp/sonnx-cache-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  setenv("SONNX_CACHE_DIR", dir, 1);
  sonnx::ModelHandle m = sonnx::load(kModels + "/branches.onnxtxt");
  sonnx::Session s(m, on_devices({"convfast", "addfast"}, "profile"));
  auto inputs = branch_inputs();
  auto want = s.run(inputs);
  for (int r = 0; r < 3; ++r) {
    ThreadLauncher pool;
    auto got = s.run_async(inputs, pool.launcher()).get();
    EXPECT_EQ(got, want);  // bitwise: each step runs the same code wherever it runs
    // The Conv branch and the Add branch start together: one of them goes to the launcher.
    EXPECT_GE(pool.given.load(), 1);
  }
  // The plugins compute what the reference computes, up to the order of a Conv's sums.
  auto ref = sonnx::Session(m).run(inputs);
  const auto& y = want.at("y").tensor;
  const auto& r = ref.at("y").tensor;
  ASSERT_EQ(y.shape(), r.shape());
  for (size_t i = 0; i < static_cast<size_t>(y.size()); ++i) EXPECT_NEAR(y.values<float>()[i], r.values<float>()[i], 1e-5);
  std::filesystem::remove_all(dir);
}

TEST(DeviceSession, ALauncherThatNeverRunsItsTasksStillGetsTheResult) {
  sonnx::ModelHandle m = sonnx::load(kModels + "/branches.onnxtxt");
  sonnx::Session s(m, on_devices({"convfast", "addfast"}, "profile"));
  std::vector<std::function<void()>> parked;
  auto got = s.run_async(branch_inputs(), [&](std::function<void()> t) { parked.push_back(std::move(t)); }).get();
  EXPECT_EQ(got, s.run(branch_inputs()));
  EXPECT_FALSE(parked.empty());
  for (auto& t : parked) t();  // late: they find the run over and do nothing
  EXPECT_EQ(s.run(branch_inputs()), got);
}

TEST(DeviceSession, WithoutCpuANodeNoDeviceRunsFailsTheCompilationNamingIt) {
  sonnx::ModelHandle m = sonnx::load(kModels + "/mixed.onnxtxt");
  try {
    sonnx::Session s(m, on_devices({"sample"}));
    FAIL() << "compiled without a device for Abs and Sub";
  } catch (const sonnx::Unsupported& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("runs 2 nodes"), std::string::npos) << what;
    EXPECT_NE(what.find("(Abs) (sample: no capability for Abs)"), std::string::npos) << what;
    EXPECT_NE(what.find("(Sub) (sample: no capability for Sub)"), std::string::npos) << what;
  }
  EXPECT_NO_THROW(sonnx::Session(m, on_devices({"sample", "cpu"})));
}

TEST(DeviceSession, UnknownDevicesAndBadOptionsAreLoadErrors) {
  sonnx::ModelHandle m = sonnx::load(kModels + "/mixed.onnxtxt");
  EXPECT_THROW(sonnx::Session(m, on_devices({"npu"})), sonnx::LoadError);
  EXPECT_THROW(sonnx::Session(m, on_devices({""})), sonnx::LoadError);
  EXPECT_THROW(sonnx::Session(m, on_devices({"cpu", "cpu"})), sonnx::LoadError);
  EXPECT_THROW(sonnx::Session(m, on_devices({"cpu"}, "fastest")), sonnx::LoadError);
}

}  // namespace
