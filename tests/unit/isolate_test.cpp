// IsolatedWorker: the items run in one child process; a crash or a hang is the result of the item
// in flight only, and the next item runs in a new child.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <string>

#include "conformance/isolate.h"

namespace sonnx {
namespace {

using Status = IsolatedResult::Status;

// Item 2 crashes, item 4 never ends; every other item answers with its number and the child's pid.
std::string work(size_t item) {
  if (item == 2) raise(SIGKILL);
  if (item == 4)
    for (;;) pause();
  return std::to_string(item) + ":" + std::to_string(getpid());
}

std::string pid_of(const IsolatedResult& r) { return r.output.substr(r.output.find(':') + 1); }

TEST(IsolatedWorker, ItemsShareAChildUntilOneCrashesOrHangs) {
  IsolatedWorker worker(work);
  IsolatedResult r0 = worker.run(0, 0), r1 = worker.run(1, 0);
  ASSERT_EQ(r0.status, Status::Ok);
  ASSERT_EQ(r1.status, Status::Ok);
  EXPECT_EQ(r0.output.substr(0, 2), "0:");
  EXPECT_EQ(r1.output.substr(0, 2), "1:");
  EXPECT_EQ(pid_of(r0), pid_of(r1));
  EXPECT_NE(pid_of(r0), std::to_string(getpid()));

  IsolatedResult crashed = worker.run(2, 0);
  EXPECT_EQ(crashed.status, Status::Crashed);
  EXPECT_NE(crashed.detail.find("signal 9"), std::string::npos) << crashed.detail;

  IsolatedResult r3 = worker.run(3, 0);
  ASSERT_EQ(r3.status, Status::Ok);
  EXPECT_EQ(r3.output.substr(0, 2), "3:");
  EXPECT_NE(pid_of(r3), pid_of(r0));

  EXPECT_EQ(worker.run(4, 0.2).status, Status::Timeout);
  IsolatedResult r5 = worker.run(5, 0);
  ASSERT_EQ(r5.status, Status::Ok);
  EXPECT_NE(pid_of(r5), pid_of(r3));
}

TEST(IsolatedWorker, AnExceptionEndsTheChildWithStatus3) {
  IsolatedWorker worker([](size_t) -> std::string { throw std::runtime_error("boom"); });
  IsolatedResult r = worker.run(0, 0);
  EXPECT_EQ(r.status, Status::Crashed);
  EXPECT_EQ(r.detail, "exited with status 3");
}

TEST(IsolatedWorker, ALargeResultArrivesWhole) {
  IsolatedWorker worker([](size_t n) { return std::string(n, 'x'); });
  IsolatedResult r = worker.run(5u << 20, 0);
  ASSERT_EQ(r.status, Status::Ok);
  EXPECT_EQ(r.output.size(), 5u << 20);
}

}  // namespace
}  // namespace sonnx
