// tests/router/epoch_test.cc — EpochDomain: deleters run only after every reader that
// could have seen the retired object has left; nesting; synchronize; a stress test of
// pointer replacement under concurrent readers (run under TSan / ASan too).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <semaphore>
#include <thread>
#include <vector>

#include "runtime/epoch.h"

namespace pfc {
namespace {

// A reader thread that enters a guard, reports, and leaves when told.
class HeldReader {
 public:
  explicit HeldReader(const EpochDomain& d) {
    thread_ = std::thread([this, &d] {
      {
        auto g = d.enter();
        entered_.release();
        leave_.acquire();
      }
      if (reenter_) {  // a new section, which announces a newer epoch
        auto g = d.enter();
        entered_.release();
        leave_.acquire();
      }
    });
    entered_.acquire();
  }
  void reenter() {
    reenter_ = true;
    leave_.release();
    entered_.acquire();
  }
  void leave() {
    leave_.release();
    thread_.join();
  }

 private:
  std::binary_semaphore entered_{0}, leave_{0};
  bool reenter_ = false;
  std::thread thread_;
};

TEST(Epoch, RetireRunsAtOnceWithoutReaders) {
  EpochDomain d;
  int ran = 0;
  d.retire([&] { ++ran; });
  EXPECT_EQ(ran, 1);
  EXPECT_EQ(d.pending(), 0u);
}

TEST(Epoch, RetireWaitsForReaderThatEnteredBefore) {
  EpochDomain d;
  std::atomic<int> ran{0};
  HeldReader reader(d);
  d.retire([&] { ran.fetch_add(1); });
  EXPECT_EQ(ran.load(), 0);
  EXPECT_EQ(d.collect(), 0u);
  EXPECT_EQ(d.pending(), 1u);
  reader.leave();
  EXPECT_EQ(d.collect(), 1u);
  EXPECT_EQ(ran.load(), 1);
}

TEST(Epoch, ReaderThatReenteredDoesNotBlock) {
  EpochDomain d;
  std::atomic<int> ran{0};
  HeldReader reader(d);
  d.retire([&] { ran.fetch_add(1); });
  EXPECT_EQ(d.collect(), 0u);
  reader.reenter();  // still inside a section, but one that began after the retire
  EXPECT_EQ(d.collect(), 1u);
  EXPECT_EQ(ran.load(), 1);
  reader.leave();
}

TEST(Epoch, NestedGuardsProtectUntilOutermostLeaves) {
  EpochDomain a, b;
  int ran = 0;
  EXPECT_FALSE(EpochDomain::in_critical_section());
  {
    auto outer = a.enter();
    {
      auto inner = b.enter();  // another domain nests too
      EXPECT_TRUE(EpochDomain::in_critical_section());
    }
    EXPECT_TRUE(EpochDomain::in_critical_section());
    b.retire([&] { ++ran; });
    EXPECT_EQ(ran, 0) << "this thread is still a reader";
  }
  EXPECT_FALSE(EpochDomain::in_critical_section());
  EXPECT_EQ(b.collect(), 1u);
  EXPECT_EQ(ran, 1);
}

TEST(Epoch, SynchronizeBlocksUntilReadersLeave) {
  EpochDomain d;
  std::atomic<bool> ran{false}, done{false};
  HeldReader reader(d);
  d.retire([&] { ran.store(true); });
  std::thread sync([&] {
    d.synchronize();
    done.store(true);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_FALSE(done.load());
  EXPECT_FALSE(ran.load());
  reader.leave();
  sync.join();
  EXPECT_TRUE(done.load());
  EXPECT_TRUE(ran.load());
  EXPECT_EQ(d.pending(), 0u);
}

TEST(Epoch, ExitedThreadsDoNotBlockAndDestructorRunsPending) {
  int ran = 0;
  {
    EpochDomain d;
    for (int i = 0; i < 8; ++i) std::thread([&d] { auto g = d.enter(); }).join();
    d.retire([&] { ++ran; });
    EXPECT_EQ(ran, 1);
    HeldReader reader(d);
    d.retire([&] { ++ran; });
    EXPECT_EQ(ran, 1);
    reader.leave();
  }
  EXPECT_EQ(ran, 2);
}

// Readers dereference a pointer the writer keeps replacing; each node checks it is alive.
TEST(Epoch, StressReplaceUnderReaders) {
  struct Node {
    std::atomic<uint64_t> alive{1};
    uint64_t value;
  };
  static std::atomic<int> live{0};
  EpochDomain d;
  std::atomic<Node*> current{new Node{{1}, 0}};
  live.store(1);
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> bad{0};
  std::vector<std::thread> readers;
  readers.reserve(2);
  for (int t = 0; t < 2; ++t) {
    readers.emplace_back([&] {
      uint64_t last = 0;
      while (!stop.load(std::memory_order_relaxed)) {
        auto g = d.enter();
        const Node* n = current.load(std::memory_order_acquire);
        if (n->alive.load(std::memory_order_relaxed) != 1 || n->value < last) bad.fetch_add(1);
        last = n->value;
      }
    });
  }
  for (uint64_t i = 1; i <= 3000; ++i) {
    auto* n = new Node{{1}, i};
    live.fetch_add(1);
    Node* old = current.exchange(n, std::memory_order_acq_rel);
    d.retire([old] {
      old->alive.store(0, std::memory_order_relaxed);
      delete old;
      live.fetch_sub(1);
    });
  }
  stop.store(true);
  for (auto& t : readers) t.join();
  d.synchronize();
  EXPECT_EQ(bad.load(), 0u);
  EXPECT_EQ(live.load(), 1);
  delete current.load();
}

}  // namespace
}  // namespace pfc
