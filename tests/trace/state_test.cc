// tests/trace/state_test.cc — the namespace state: encoding round trip, validation of
// damaged files, update/read through two stores, generation wake-ups, the spare a publish
// keeps, reads that publishes overlap, and instance numbers that a damaged state never
// gives back.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <functional>
#include <string>
#include <thread>
#include <vector>

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

// A change that leaves what readers would refuse — a name or filters beyond their limits —
// is refused and writes nothing: published, it would end every session.
TEST(StateStore, WhatReadersWouldRefuseIsNeverWritten) {
  TempNamespace ns;
  TraceDir d = ns.open();
  auto st = StateStore::open(d);
  ASSERT_TRUE(st);
  ASSERT_TRUE(st->update([](NamespaceState& s) -> Result<void> {
    s = sample();
    return {};
  }));
  const uint64_t g0 = st->generation();
  const std::function<void(NamespaceState&)> too_big[] = {
      [](NamespaceState& s) { s.sessions[0].name.assign(kMaxSessionNameUnits + 1, u'N'); },
      [](NamespaceState& s) { s.enables[0].filters.assign(kMaxFilterBytes + 1, 0); },
  };
  for (const auto& change : too_big) {
    auto r = st->update([&](NamespaceState& s) -> Result<void> {
      change(s);
      return {};
    });
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("refused a trace namespace state that readers would not read"),
              std::string::npos)
        << r.error().message;
  }
  EXPECT_EQ(st->generation(), g0);
  bool damaged = true;
  auto now = st->read(&damaged);
  ASSERT_TRUE(now) << now.error().message;
  EXPECT_EQ(encode_state(*now), encode_state([&] {
              NamespaceState s = sample();
              s.generation = g0;
              return s;
            }()));
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

// ---- damaged state files: never an instance number again ------------------------------

// Starts a session named `name` through `st`; its instance (0 when the update failed).
uint64_t start_session(StateStore& st, const std::u16string& name) {
  uint64_t instance = 0;
  auto r = st.update([&](NamespaceState& s) -> Result<void> {
    SessionEntry e;
    e.slot = *s.free_slot();
    e.instance = instance = s.next_instance++;
    e.name = name;
    s.sessions.push_back(e);
    return {};
  });
  EXPECT_TRUE(r) << r.error().message;
  return r ? instance : 0;
}

void write_bytes(const TraceDir& d, const std::string& name, const std::vector<uint8_t>& bytes) {
  auto fd = d.open_file(name, true);
  ASSERT_TRUE(fd);
  ASSERT_EQ(::ftruncate(fd->get(), 0), 0);
  ASSERT_EQ(::pwrite(fd->get(), bytes.data(), bytes.size(), 0), ssize_t(bytes.size()));
}

// A publish exchanges `state.tmp` with `state`: the state it replaced, with its blocks, is
// the next spare, and the spare holds at least the blocks of the state now published
// (docs/namespace.md §2). The first publish renames and reserves a new spare.
TEST(StateStore, ThePublishKeepsTheReplacedStateAsItsSpare) {
  TempNamespace ns;
  TraceDir d = ns.open();
  auto st = StateStore::open(d);
  ASSERT_TRUE(st);
  struct stat info {};
  for (const std::u16string& name :
       {std::u16string(u"A"), std::u16string(1000, u'B'), std::u16string(1000, u'C')}) {
    const bool first = ::fstatat(d.fd(), "state", &info, 0) != 0;
    const ino_t replaced = info.st_ino;
    ASSERT_NE(start_session(*st, name), 0u);
    struct stat spare, now;
    ASSERT_EQ(::fstatat(d.fd(), "state.tmp", &spare, 0), 0);
    ASSERT_EQ(::fstatat(d.fd(), "state", &now, 0), 0);
    if (!first) {
      EXPECT_EQ(spare.st_ino, replaced);
    }
    EXPECT_GE(spare.st_blocks * 512, now.st_size + 4096) << "a spare without its blocks";
  }
}

// A reader may still have open the file the next publish writes into (the former `state`):
// it reads again rather than seeing a torn file, which it would take for a damaged state
// (its sessions lost). States of sizes that cross pages, published while another store reads.
TEST(StateStore, AReadOverlappedByPublishesIsNeverTorn) {
  TempNamespace ns;
  TraceDir d1 = ns.open(), d2 = ns.open();
  auto writer = StateStore::open(d1);
  auto reader = StateStore::open(d2);
  ASSERT_TRUE(writer && reader);
  std::atomic<bool> done{false};
  std::thread t([&] {
    for (int i = 0; i < 2000; ++i) {
      (void)writer->update([i](NamespaceState& s) -> Result<void> {
        s.sessions.clear();
        for (uint32_t slot = 0; slot < (i % 2 == 0 ? 1u : 2u); ++slot) {
          SessionEntry e;
          e.slot = slot;
          e.instance = s.next_instance++;
          e.name = std::u16string(i % 2 == 0 ? 1 : 1000, u'A' + char16_t(slot));
          s.sessions.push_back(e);
        }
        return {};
      });
    }
    done = true;
  });
  // Two readers besides the writer: on a loaded machine one is now and then preempted
  // inside its read.
  std::atomic<size_t> failed{0};
  std::string first_error;
  std::vector<std::thread> readers;
  readers.reserve(2);
  for (int r = 0; r < 2; ++r) {
    readers.emplace_back([&] {
      while (!done) {
        auto s = reader->read();
        if (!s && failed++ == 0) first_error = s.error().message;
      }
    });
  }
  t.join();
  for (std::thread& r : readers) r.join();
  EXPECT_EQ(failed, 0u) << first_error;
}

// Maps the generation page of the namespace `d` (the test's own view of it).
GenPage* map_gen(const TraceDir& d, Mapping& keep) {
  auto fd = d.open_file("gen", false);
  EXPECT_TRUE(fd);
  if (!fd) return nullptr;
  auto map = Mapping::map(fd->get(), 4096);
  EXPECT_TRUE(map);
  if (!map) return nullptr;
  keep = std::move(*map);
  return reinterpret_cast<GenPage*>(keep.data());
}

// Why readers check spare_writes: the second publish after a reader opened `state` writes
// into that very file (it became the spare), and the reader's check sees it.
TEST(StateStore, WritingIntoAFormerStateBumpsSpareWrites) {
  TempNamespace ns;
  TraceDir d = ns.open();
  auto st = StateStore::open(d);
  ASSERT_TRUE(st);
  Mapping keep;
  GenPage* gen = map_gen(d, keep);
  ASSERT_NE(gen, nullptr);
  (void)start_session(*st, u"A");
  auto held = d.open_file("state", false);  // a reader's open file
  ASSERT_TRUE(held);
  const uint32_t before = gen->spare_writes.load();
  (void)start_session(*st, u"B");
  (void)start_session(*st, u"C");
  struct stat now, was;
  ASSERT_EQ(::fstat(held->get(), &was), 0);
  ASSERT_EQ(::fstatat(d.fd(), "state", &now, 0), 0);
  EXPECT_EQ(was.st_ino, now.st_ino);  // the third publish wrote into it and put it back
  EXPECT_EQ(gen->spare_writes.load(), before + 2);
}

// Publishers that never stop writing while a reader reads: it reads under their lock at last,
// and gets the state.
TEST(StateStore, AReaderOverlappedAgainAndAgainReadsUnderTheLock) {
  TempNamespace ns;
  TraceDir d = ns.open();
  auto st = StateStore::open(d);
  ASSERT_TRUE(st);
  (void)start_session(*st, u"A");
  Mapping keep;
  GenPage* gen = map_gen(d, keep);
  ASSERT_NE(gen, nullptr);
  std::atomic<bool> done{false};
  const uint32_t start = gen->spare_writes.load();
  std::thread bump([&] {
    while (!done) gen->spare_writes.fetch_add(1);
  });
  while (gen->spare_writes.load() == start) std::this_thread::yield();
  auto s = st->read();
  done = true;
  bump.join();
  ASSERT_TRUE(s) << s.error().message;
  ASSERT_EQ(s->sessions.size(), 1u);
  EXPECT_EQ(s->sessions[0].name, u"A");
}

// The ways a state file was found damaged: it reads as an error, and the next update
// replaces it by an empty state.
enum class Damage { RandomBytes, BadBodyWithValidCrc, Truncated, HugeSize, Empty };

void damage(const TraceDir& d, Damage how) {
  std::vector<uint8_t> bytes;
  switch (how) {
    case Damage::RandomBytes: {
      uint32_t x = 99;
      for (int i = 0; i < 4096; ++i)
        bytes.push_back(uint8_t((x = x * 1664525u + 1013904223u) >> 24));
      break;
    }
    case Damage::BadBodyWithValidCrc: {
      NamespaceState bad = sample();
      bad.next_instance = 2;  // below its session's instance 4
      bytes = encode_state_file(bad);
      break;
    }
    case Damage::Truncated: {
      auto fd = d.open_file("state", false);
      ASSERT_TRUE(fd);
      ASSERT_EQ(::ftruncate(fd->get(), 30), 0);
      return;
    }
    case Damage::HugeSize: {
      auto fd = d.open_file("state", false);
      ASSERT_TRUE(fd);
      ASSERT_EQ(::ftruncate(fd->get(), off_t(kMaxStateBytes) + 1), 0);
      return;
    }
    case Damage::Empty: break;
  }
  write_bytes(d, "state", bytes);
}

class DamagedState : public ::testing::TestWithParam<Damage> {};

TEST_P(DamagedState, IsReportedAndNeverGivesAnInstanceBack) {
  TempNamespace ns;
  TraceDir d = ns.open();
  auto st = StateStore::open(d);
  ASSERT_TRUE(st);
  for (const char16_t* name : {u"A", u"B", u"C"}) (void)start_session(*st, name);
  damage(d, GetParam());
  bool damaged = false;
  EXPECT_FALSE(st->read(&damaged));
  EXPECT_TRUE(damaged);
  // The generation page recorded the counter; nothing else names instance 3.
  EXPECT_EQ(start_session(*st, u"D"), 4u);
  auto now = st->read(&damaged);
  ASSERT_TRUE(now);
  EXPECT_FALSE(damaged);
  ASSERT_EQ(now->sessions.size(), 1u);  // the damaged state's sessions are gone
}

std::string damage_name(const ::testing::TestParamInfo<Damage>& i) {
  static const char* const kNames[] = {"RandomBytes", "BadBodyWithValidCrc", "Truncated",
                                       "HugeSize", "Empty"};
  return kNames[static_cast<int>(i.param)];
}

INSTANTIATE_TEST_SUITE_P(Kinds, DamagedState,
                         ::testing::Values(Damage::RandomBytes, Damage::BadBodyWithValidCrc,
                                           Damage::Truncated, Damage::HugeSize, Damage::Empty),
                         damage_name);

// With the generation page's record lost too, the directory's ring and marker names still
// carry the instances in use; names of other forms, or beyond kMaxInstance, count for nothing.
TEST(StateStore, InstancesTheDirectoryNamesAreNotReused) {
  TempNamespace ns;
  TraceDir d = ns.open();
  auto st = StateStore::open(d);
  ASSERT_TRUE(st);
  (void)start_session(*st, u"A");
  for (const char* name : {"r-41-1-1", "r-12-1-1-front", "c-57-1-1-host", "c-9-1-1-300",
                           "r-281474976710656-1-1", "x-99-1-1", "r-70-x", "p-80-1"})
    write_bytes(d, name, {});
  damage(d, Damage::RandomBytes);
  auto gen = d.open_file("gen", false);
  ASSERT_TRUE(gen);
  const uint64_t zero = 0;
  ASSERT_EQ(::pwrite(gen->get(), &zero, 8, offsetof(GenPage, next_instance)), 8);
  EXPECT_EQ(start_session(*st, u"B"), 58u);
  EXPECT_EQ(start_session(*st, u"C"), 59u);
}

// A namespace without a state file (nothing published yet) has an empty state, not a
// damaged one.
TEST(StateStore, MissingStateReadsAsEmptyAndNotDamaged) {
  TempNamespace ns;
  TraceDir d = ns.open();
  auto st = StateStore::open(d);
  ASSERT_TRUE(st);
  bool damaged = true;
  auto s = st->read(&damaged);
  ASSERT_TRUE(s);
  EXPECT_FALSE(damaged);
  EXPECT_TRUE(s->sessions.empty());
}

}  // namespace
}  // namespace pfc::trace
