// Session::run_async (include/sonnx/sonnx.hpp): steps that can run beside the calling thread go to
// the application's launcher as tasks, and the results are bitwise those of Session::run. On
// GoogLeNet (tests/fixtures/make_googlenet.py, at SONNX_GOOGLENET; inception blocks are four
// independent branches) and on small text models with an If beside an independent branch.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "sonnx/sonnx.hpp"

namespace {

using namespace std::chrono_literals;

// The application's thread pool: a few threads taking tasks from a queue. Counts the tasks it was
// given and those it ran; join() runs what is queued, then stops the threads.
class Pool {
 public:
  explicit Pool(int threads) {
    for (int t = 0; t < threads; ++t) threads_.emplace_back([this] { loop(); });
  }
  ~Pool() { join(); }
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  sonnx::TaskLauncher launcher() {
    return [this](std::function<void()> task) {
      {
        std::lock_guard lock(mutex_);
        queue_.push_back(std::move(task));
        ++launched_;
      }
      ready_.notify_one();
    };
  }
  void join() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    ready_.notify_all();
    for (auto& t : threads_)
      if (t.joinable()) t.join();
  }
  int launched() {
    std::lock_guard lock(mutex_);
    return launched_;
  }
  int ran() {
    std::lock_guard lock(mutex_);
    return ran_;
  }

 private:
  void loop() {
    std::unique_lock lock(mutex_);
    for (;;) {
      ready_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopped, and every task given has run
      std::function<void()> task = std::move(queue_.front());
      queue_.pop_front();
      lock.unlock();
      task();
      lock.lock();
      ++ran_;
    }
  }
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> queue_;
  int launched_ = 0, ran_ = 0;
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

// A launcher that only keeps its tasks, to be run whenever the test says.
struct Queue {
  std::mutex mutex;
  std::vector<std::function<void()>> tasks;
  sonnx::TaskLauncher launcher() {
    return [this](std::function<void()> task) {
      std::lock_guard lock(mutex);
      tasks.push_back(std::move(task));
    };
  }
  std::vector<std::function<void()>> take() {
    std::lock_guard lock(mutex);
    return std::exchange(tasks, {});
  }
};

// Same outputs, each with the same type, shape and bits.
testing::AssertionResult bitwise_equal(const sonnx::NamedValues& got, const sonnx::NamedValues& want) {
  if (got.size() != want.size()) return testing::AssertionFailure() << got.size() << " outputs, not " << want.size();
  for (const auto& [name, v] : want) {
    auto it = got.find(name);
    if (it == got.end()) return testing::AssertionFailure() << "no output '" << name << "'";
    if (!(it->second == v)) return testing::AssertionFailure() << "output '" << name << "' differs";
  }
  return testing::AssertionSuccess();
}

bool ready(const std::future<sonnx::NamedValues>& f) { return f.wait_for(0s) == std::future_status::ready; }

// A float tensor of the shape declared as "tensor(float)[1,3,224,224]" (a symbolic dimension: 1),
// normally distributed from a fixed seed.
sonnx::Tensor random_input(const std::string& declared, unsigned seed) {
  sonnx::Shape shape;
  size_t open = declared.find('[');
  for (size_t at = open + 1; open != std::string::npos && at < declared.size();) {
    size_t end = declared.find_first_of(",]", at);
    std::string dim = declared.substr(at, end - at);
    if (!dim.empty()) shape.push_back(dim.find_first_not_of("0123456789") == std::string::npos ? std::stoll(dim) : 1);
    at = end + 1;
  }
  std::mt19937 gen(seed);
  std::normal_distribution<float> normal;
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  std::vector<float> values(static_cast<size_t>(n));
  for (float& v : values) v = normal(gen);
  return sonnx::Tensor::from_vector<float>(shape, values);
}

sonnx::NamedValues random_inputs(const sonnx::ModelHandle& model, unsigned seed) {
  sonnx::NamedValues in;
  for (const auto& [name, type] : model.inputs()) in[name] = random_input(type, seed++);
  return in;
}

// Runs `model` with run and three times with run_async on a thread pool (one Session, parallel
// executor, two threads): the same bits every time, at least one task given to the pool, every
// task run. A model whose output is constant would hide a wrong schedule: its first output varies.
void expect_async_runs_match(const sonnx::ModelHandle& model) {
  sonnx::Session session(model, {.executor = "parallel", .threads = 2});
  sonnx::NamedValues in = random_inputs(model, 1);
  sonnx::NamedValues want = session.run(in);
  auto y = want.begin()->second.tensor.values<float>();
  float lo = y[0], hi = y[0];
  for (float v : y) {
    ASSERT_TRUE(std::isfinite(v));
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  EXPECT_LT(lo, hi) << "a constant output";
  Pool pool(3);
  for (int run = 0; run < 3; ++run) {
    std::future<sonnx::NamedValues> f = session.run_async(in, pool.launcher());
    EXPECT_TRUE(ready(f)) << "run " << run;
    EXPECT_TRUE(bitwise_equal(f.get(), want)) << "run " << run;
  }
  EXPECT_TRUE(bitwise_equal(session.run(in), want));
  pool.join();
  EXPECT_GT(pool.launched(), 0) << "no step was handed to the launcher";
  EXPECT_EQ(pool.ran(), pool.launched());
}

sonnx::ModelHandle googlenet() {
  const char* path = std::getenv("SONNX_GOOGLENET");
  if (!path) throw std::runtime_error("SONNX_GOOGLENET is not set (tests/CMakeLists.txt makes the model)");
  return sonnx::load(path);
}

// A text model written to a file of this process and loaded.
sonnx::ModelHandle text_model(const std::string& name, const std::string& text) {
  auto file = std::filesystem::path(testing::TempDir()) / (name + "-" + std::to_string(getpid()) + ".onnxtxt");
  std::ofstream(file) << text;
  sonnx::ModelHandle model = sonnx::load(file);
  std::filesystem::remove(file);
  return model;
}

// I = If(C) on Relu(X) beside S = Sigmoid(Tanh(X)), which needs nothing from it: Relu and Tanh are
// ready at once, and the If's step (its body inside) runs beside the Tanh/Sigmoid branch.
sonnx::ModelHandle if_beside_branch() {
  return text_model("if-beside-branch", R"(<ir_version: 8, opset_import: ["" : 13]>
branches (float[2,8] X, bool C) => (float[2,8] Y, float[2,8] I, float[2,8] S) {
  A = Relu (X)
  I = If (C) <then_branch = yes () => (float[2,8] T) { T = Mul (A, A) },
              else_branch = no () => (float[2,8] E) { E = Neg (A) }>
  B = Tanh (X)
  S = Sigmoid (B)
  Y = Add (I, S)
})");
}

sonnx::NamedValues if_inputs(bool c) {
  std::vector<float> x(16);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i) * 0.37f - 2.5f;
  return {{"X", sonnx::Tensor::from_vector<float>({2, 8}, x)}, {"C", sonnx::Tensor::scalar<bool>(c)}};
}

TEST(RunAsync, GoogLeNetOnAThreadPoolMatchesRun) { expect_async_runs_match(googlenet()); }

TEST(RunAsync, RealGoogLeNetMatchesRun) {
  const char* dir = std::getenv("SONNX_REAL_MODELS");
  std::filesystem::path file = std::filesystem::path(dir ? dir : "") / "googlenet.onnx";
  if (!dir || !std::filesystem::exists(file))
    GTEST_SKIP() << "SKIP: no googlenet.onnx in SONNX_REAL_MODELS (conformance/data/make-real-models.sh makes it)";
  expect_async_runs_match(sonnx::load(file));
}

TEST(RunAsync, IfBesideAnIndependentBranchMatchesRun) {
  sonnx::ModelHandle model = if_beside_branch();
  sonnx::Session session(model, {.executor = "parallel", .threads = 2});
  Pool pool(2);
  int inline_calls = 0;
  // A launcher may also run the task at once, on the thread that launches it.
  sonnx::TaskLauncher run_inline = [&](std::function<void()> task) {
    ++inline_calls;
    task();
  };
  for (bool c : {true, false}) {
    sonnx::NamedValues want = session.run(if_inputs(c));
    // By hand: the branch taken shows in I (A*A or -A, A = Relu(X)).
    float x15 = 15 * 0.37f - 2.5f;
    EXPECT_EQ(want.at("I").tensor.values<float>()[0], c ? 0.0f : -0.0f);
    EXPECT_EQ(want.at("I").tensor.values<float>()[15], c ? x15 * x15 : -x15);
    EXPECT_GT(want.at("S").tensor.values<float>()[0], 0.0f);
    EXPECT_LT(want.at("S").tensor.values<float>()[0], 0.5f);  // sigmoid(tanh(-2.5))
    for (int run = 0; run < 3; ++run) {
      EXPECT_TRUE(bitwise_equal(session.run_async(if_inputs(c), pool.launcher()).get(), want)) << c << " " << run;
      EXPECT_TRUE(bitwise_equal(session.run_async(if_inputs(c), run_inline).get(), want)) << c << " " << run;
    }
  }
  pool.join();
  EXPECT_GT(pool.launched(), 0);
  EXPECT_EQ(pool.ran(), pool.launched());
  EXPECT_GT(inline_calls, 0);
}

TEST(RunAsync, TrapsAreInTheFuture) {
  sonnx::Session session(if_beside_branch(), {.executor = "parallel", .threads = 2});
  Pool pool(2);
  sonnx::NamedValues wrong_name = if_inputs(true);
  wrong_name["Z"] = wrong_name.at("X");
  sonnx::NamedValues wrong_shape = if_inputs(true);
  wrong_shape["X"] = sonnx::Tensor::from_vector<float>({1, 2}, {1, 2});
  sonnx::NamedValues missing = if_inputs(true);
  missing.erase("C");
  for (const sonnx::NamedValues& in : {wrong_name, wrong_shape, missing}) {
    std::future<sonnx::NamedValues> f;
    ASSERT_NO_THROW(f = session.run_async(in, pool.launcher()));
    EXPECT_TRUE(ready(f));
    EXPECT_THROW(f.get(), sonnx::Trap);
  }
  EXPECT_TRUE(bitwise_equal(session.run_async(if_inputs(true), pool.launcher()).get(), session.run(if_inputs(true))));

  // A step that traps while a launched task may be running the other branch.
  sonnx::Session gather(text_model("gather-beside-branch", R"(<ir_version: 8, opset_import: ["" : 13]>
gather (float[4,8] D, int64[2] K, float[2,8] X) => (float[2,8] G, float[2,8] T) {
  G = Gather <axis = 0> (D, K)
  T = Tanh (X)
})"),
                        {.executor = "parallel", .threads = 2});
  auto inputs = [](int64_t k) {
    std::vector<float> d(32);
    for (size_t i = 0; i < d.size(); ++i) d[i] = static_cast<float>(i);
    return sonnx::NamedValues{{"D", sonnx::Tensor::from_vector<float>({4, 8}, d)},
                              {"K", sonnx::Tensor::from_vector<int64_t>({2}, {1, k})},
                              {"X", sonnx::Tensor::from_vector<float>({2, 8}, std::vector<float>(16, 0.5f))}};
  };
  sonnx::NamedValues want = gather.run(inputs(3));
  for (int run = 0; run < 3; ++run) {
    std::future<sonnx::NamedValues> f = gather.run_async(inputs(7), pool.launcher());
    EXPECT_THROW(f.get(), sonnx::Trap);
    EXPECT_TRUE(bitwise_equal(gather.run_async(inputs(3), pool.launcher()).get(), want));
  }
  EXPECT_EQ(want.at("G").tensor.values<float>()[0], 8.0f);    // D's row 1, element 0
  EXPECT_EQ(want.at("G").tensor.values<float>()[15], 31.0f);  // D's row 3, element 7
}

TEST(RunAsync, ANullLauncherIsALoadErrorInTheFuture) {
  for (const char* executor : {"parallel", "linear"}) {
    sonnx::Session session(if_beside_branch(), {.executor = executor, .threads = 2});
    std::future<sonnx::NamedValues> f;
    ASSERT_NO_THROW(f = session.run_async(if_inputs(true), nullptr)) << executor;
    ASSERT_TRUE(ready(f));
    try {
      f.get();
      ADD_FAILURE() << executor << ": a run without a launcher";
    } catch (const sonnx::LoadError& e) {
      EXPECT_NE(std::string(e.what()).find("run_async needs a task launcher"), std::string::npos) << e.what();
    }
  }
}

TEST(RunAsync, OtherExecutorsRunInlineAndNeverLaunch) {
  sonnx::ModelHandle model = if_beside_branch();
  for (const char* executor : {"reference", "linear", "dataflow"}) {
    sonnx::Session session(model, {.executor = executor, .threads = 2});
    int calls = 0;
    sonnx::TaskLauncher count = [&](std::function<void()> task) {
      ++calls;
      task();
    };
    for (bool c : {true, false})
      EXPECT_TRUE(bitwise_equal(session.run_async(if_inputs(c), count).get(), session.run(if_inputs(c)))) << executor;
    EXPECT_EQ(calls, 0) << executor;
  }
}

// The launcher runs no task during the run: the calling thread does all the work, and the tasks,
// run afterwards (during a later run of the same executor, or after the session is gone), find
// their run over and return.
TEST(RunAsync, TasksThatRunLateFindNothingToDo) {
  sonnx::ModelHandle model = googlenet();
  sonnx::NamedValues in = random_inputs(model, 2);
  Queue queue;
  auto session = std::make_unique<sonnx::Session>(model, sonnx::SessionOptions{.executor = "parallel", .threads = 2});
  sonnx::NamedValues want = session->run(in);
  std::future<sonnx::NamedValues> f = session->run_async(in, queue.launcher());
  ASSERT_TRUE(ready(f));
  EXPECT_TRUE(bitwise_equal(f.get(), want));
  std::vector<std::function<void()>> stale = queue.take();
  ASSERT_FALSE(stale.empty());

  // The next run (on the same executor: the session's pool holds one) runs the stale tasks when it
  // launches its first task, then each of its own at once.
  size_t launches = 0;
  sonnx::TaskLauncher late_then_inline = [&](std::function<void()> task) {
    if (launches++ == 0)
      for (auto& t : std::exchange(stale, {})) t();
    task();
  };
  EXPECT_TRUE(bitwise_equal(session->run_async(in, late_then_inline).get(), want));
  EXPECT_GT(launches, 0u);
  EXPECT_TRUE(stale.empty());
  for (auto& t : queue.take()) t();  // none: nothing was queued since
  EXPECT_TRUE(bitwise_equal(session->run(in), want));

  // Tasks of a run whose session (and executor) is gone.
  f = session->run_async(in, queue.launcher());
  EXPECT_TRUE(bitwise_equal(f.get(), want));
  session.reset();
  stale = queue.take();
  ASSERT_FALSE(stale.empty());
  for (auto& t : stale) t();
}

}  // namespace
