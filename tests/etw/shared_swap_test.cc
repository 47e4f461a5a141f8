// tests/etw/shared_swap_test.cc — libpfc_etw's default engine in one process
// (etw/shared_compiler.h): threads routing through a program while its background thread
// swaps in the namespace's native code (compiled by the build's pfc-trace-compiler) only
// ever get the interpreter's decisions, and a program retired before its code arrives is
// simply dropped. Run under ThreadSanitizer too, where it checks the swap.
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "compiler/interp.h"
#include "etw/shared_compiler.h"

namespace pfc::etw {
namespace {

class SharedSwap : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/pfc-swap-XXXXXX";
    dir_ = ::mkdtemp(tmpl);
    ::setenv("PFC_TRACE_DIR", (dir_ + "/ns").c_str(), 1);
    ::setenv("PFC_COMPILER_IDLE_MS", "300", 1);
  }
  void TearDown() override {
    std::ifstream lock(dir_ + "/ns/compiler.lock");  // the service this test started
    if (int pid = 0; lock >> pid && pid > 1 && is_service(pid) && ::kill(pid, SIGKILL) == 0) {
      // Gone once a zombie (init reaps it), at most 10 s: a killed process may still finish
      // the system call it was in, a file it creates in the namespace.
      for (int i = 0; i < 10000 && is_service(pid); ++i) ::usleep(1000);
    }
    std::filesystem::remove_all(dir_);
  }
  // Whether `pid` is a compile service that is not a zombie.
  static bool is_service(int pid) {
    const std::string proc = "/proc/" + std::to_string(pid);
    std::string name, line;
    if (!std::getline(std::ifstream(proc + "/comm"), name) || !name.starts_with("pfc-trace-comp"))
      return false;
    std::ifstream status(proc + "/status");
    while (std::getline(status, line))
      if (line.starts_with("State:")) return line.find('Z') == std::string::npos;
    return false;
  }

  static ProgramSpec spec(uint8_t first_level) {
    ProgramSpec s;
    s.provider.name = "SwapTest";
    s.provider.guid = Guid::from_provider_name("SwapTest");
    EnableParams a, b;
    a.level = first_level;
    b.level = 5;
    b.any = 0x10;
    s.sessions = {SessionEntry(3, a), SessionEntry(9, b)};
    return s;
  }

  static bool wait_native(uint64_t want) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (shared_code_status().native < want) {
      if (std::chrono::steady_clock::now() >= end) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return true;
  }

  std::string dir_;
};

TEST_F(SharedSwap, RoutingThreadsGetTheInterpretersDecisionsAcrossTheSwap) {
  const SharedCodeStatus before = shared_code_status();
  auto program = make_shared_compiler()->compile(spec(3));
  ASSERT_TRUE(program) << program.error().message;
  auto reference = InterpCompiler().compile(spec(3));
  ASSERT_TRUE(reference);
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> routed{0}, bad{0};
  auto reader = [&](uint64_t salt) {
    Event e;
    for (uint64_t i = salt; !stop.load(std::memory_order_relaxed); ++i) {
      e.desc.level = static_cast<uint8_t>(i % 8);
      e.desc.keyword = (i & 1) ? 0x10 : 0x20;
      if ((*program)->route(e.view()) != (*reference)->route(e.view())) bad.fetch_add(1);
      routed.fetch_add(1, std::memory_order_relaxed);
    }
  };
  std::thread t1(reader, 0), t2(reader, 1);
  const bool native = wait_native(before.native + 1);
  const uint64_t at_swap = routed.load();
  while (native && routed.load() < at_swap + 10000) std::this_thread::yield();
  stop.store(true);
  t1.join();
  t2.join();
  ASSERT_TRUE(native) << shared_code_status().last_error;
  EXPECT_EQ(bad.load(), 0u);
  const SharedCodeStatus after = shared_code_status();
  EXPECT_EQ(after.requested, before.requested + 1);
  EXPECT_EQ(after.interpreted, before.interpreted) << after.last_error;
}

TEST_F(SharedSwap, ProgramRetiredBeforeItsCodeArrivesIsDropped) {
  const SharedCodeStatus before = shared_code_status();
  auto compiler = make_shared_compiler();
  for (uint8_t level = 1; level <= 4; ++level) ASSERT_TRUE(compiler->compile(spec(level)));
  auto kept = compiler->compile(spec(6));
  ASSERT_TRUE(kept);
  ASSERT_TRUE(wait_native(before.native + 1)) << shared_code_status().last_error;
  auto reference = InterpCompiler().compile(spec(6));
  Event e;
  for (uint8_t level = 0; level < 8; ++level) {
    e.desc.level = level;
    EXPECT_EQ((*kept)->route(e.view()), (*reference)->route(e.view()));
  }
  const SharedCodeStatus after = shared_code_status();
  EXPECT_EQ(after.requested, before.requested + 5);
  EXPECT_EQ(after.interpreted, before.interpreted) << after.last_error;
}

// A forked child has none of the parent's threads: its first program starts its own
// worker, which brings it native code. Not under ThreadSanitizer, which cannot start a
// thread in the child of a multi-threaded fork (the ci and asan-ubsan builds run it).
#if defined(__SANITIZE_THREAD__)
#define PFC_TEST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define PFC_TEST_TSAN 1
#endif
#endif
#ifndef PFC_TEST_TSAN
TEST_F(SharedSwap, ForkedChildStartsItsOwnWorker) {
  auto compiler = make_shared_compiler();
  auto parent = compiler->compile(spec(2));  // the parent's worker runs
  ASSERT_TRUE(parent);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const uint64_t before = shared_code_status().native;
    auto mine = compiler->compile(spec(7));
    ::_exit(mine && wait_native(before + 1) ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
}
#endif

}  // namespace
}  // namespace pfc::etw
