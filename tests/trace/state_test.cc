// tests/trace/state_test.cc — the namespace state: encoding round trip, validation of
// damaged files, update/read through two stores, generation wake-ups.
#include <gtest/gtest.h>
#include <unistd.h>

#include <thread>

#include "trace/state.h"
#include "trace_test_util.h"

namespace pfc::trace {
namespace {

using testing::TempNamespace;

NamespaceState sample() {
  NamespaceState s;
  s.next_instance = 5;
  s.next_seq = 10;
  SessionEntry a;
  a.slot = 3;
  a.instance = 4;
  a.name = u"Alpha";
  a.log_file = u"/tmp/x.etl";
  s.sessions.push_back(a);
  EnableEntry e;
  e.provider.data1 = 0x1234;
  e.slot = 3;
  e.seq = 9;
  e.level = 4;
  e.any = 0xF0;
  e.filters = {1, 2, 3};
  s.enables.push_back(e);
  return s;
}

TEST(State, RoundTrip) {
  const NamespaceState s = sample();
  const auto bytes = encode_state(s);
  auto back = decode_state(bytes.data(), bytes.size());
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(encode_state(*back), bytes);
}

TEST(State, EveryTruncationIsAnError) {
  const auto bytes = encode_state(sample());
  for (size_t n = 0; n < bytes.size(); ++n) EXPECT_FALSE(decode_state(bytes.data(), n)) << n;
}

TEST(State, InconsistentStatesAreRejected) {
  NamespaceState dup = sample();
  dup.sessions.push_back(dup.sessions[0]);
  dup.sessions[1].name = u"ALPHA";  // names are case-insensitive
  dup.sessions[1].slot = 4;
  auto b1 = encode_state(dup);
  EXPECT_FALSE(decode_state(b1.data(), b1.size()));
  NamespaceState orphan = sample();
  orphan.enables[0].slot = 7;  // no such session
  auto b2 = encode_state(orphan);
  EXPECT_FALSE(decode_state(b2.data(), b2.size()));
  NamespaceState big_slot = sample();
  big_slot.sessions[0].slot = 64;
  big_slot.enables.clear();
  auto b3 = encode_state(big_slot);
  EXPECT_FALSE(decode_state(b3.data(), b3.size()));
}

TEST(State, RandomBytesNeverCrash) {
  auto bytes = encode_state(sample());
  uint32_t x = 12345;
  for (int round = 0; round < 2000; ++round) {
    auto copy = bytes;
    for (int k = 0; k < 3; ++k) {
      x = x * 1664525u + 1013904223u;
      copy[x % copy.size()] ^= static_cast<uint8_t>(x >> 24);
    }
    (void)decode_state(copy.data(), copy.size());
  }
}

TEST(StateStore, UpdateIsSeenByAnotherStore) {
  TempNamespace ns;
  TraceDir d1 = ns.open(), d2 = ns.open();
  auto s1 = StateStore::open(d1);
  auto s2 = StateStore::open(d2);
  ASSERT_TRUE(s1 && s2);
  const uint64_t g0 = s2->generation();
  auto r = s1->update([](NamespaceState& s) -> Result<void> {
    SessionEntry e;
    e.slot = *s.free_slot();
    e.instance = s.next_instance++;
    e.name = u"S";
    s.sessions.push_back(e);
    return {};
  });
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(s2->generation(), g0 + 1);
  auto seen = s2->read();
  ASSERT_TRUE(seen);
  ASSERT_EQ(seen->sessions.size(), 1u);
  EXPECT_EQ(seen->sessions[0].name, u"S");
}

TEST(StateStore, FailedChangeWritesNothing) {
  TempNamespace ns;
  TraceDir d = ns.open();
  auto st = StateStore::open(d);
  ASSERT_TRUE(st);
  const uint64_t g0 = st->generation();
  auto r = st->update([](NamespaceState&) -> Result<void> { return make_error("no"); });
  EXPECT_FALSE(r);
  EXPECT_EQ(st->generation(), g0);
}

TEST(StateStore, CorruptFileIsAnErrorAndTheNextUpdateRecovers) {
  TempNamespace ns;
  TraceDir d = ns.open();
  auto st = StateStore::open(d);
  ASSERT_TRUE(st);
  ASSERT_TRUE(st->update([](NamespaceState&) -> Result<void> { return {}; }));
  auto fd = d.open_file("state", false);
  ASSERT_TRUE(fd);
  ASSERT_EQ(::pwrite(fd->get(), "garbage!", 8, 30), 8);
  EXPECT_FALSE(st->read());
  auto r = st->update([](NamespaceState&) -> Result<void> { return {}; });
  ASSERT_TRUE(r);
  EXPECT_TRUE(st->read());
}

TEST(StateStore, WaitChangeWakesOnUpdate) {
  TempNamespace ns;
  TraceDir d = ns.open();
  auto st = StateStore::open(d);
  ASSERT_TRUE(st);
  const uint64_t g0 = st->generation();
  std::thread t([&] { (void)st->update([](NamespaceState&) -> Result<void> { return {}; }); });
  for (int i = 0; i < 100 && st->generation() == g0; ++i) st->wait_change(g0, 100);
  t.join();
  EXPECT_NE(st->generation(), g0);
}

}  // namespace
}  // namespace pfc::trace
