// tests/oracle/scope_index_test.cc — scope indexing (docs/ir.md §4 "Session masks"): random
// multi-session specs whose exe / package_id / app_id lists overlap, repeat one another,
// are disjoint, differ only in case, are empty or hold non-ASCII names, mixed with level,
// PID and event-name checks, routed on events whose strings are listed names in any case,
// behind paths, unlisted, empty or missing (null). The indexed lowering, the lowering
// without scope indexing and the JIT (O0, O1, O2) of the indexed one must all give the
// oracle's masks, and `pfc run --explain`'s first failed check must be the same with and
// without indexing.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "compiler/jit/jit.h"
#include "tests/oracle/lowering_check.h"

namespace pfc {
namespace {

// Names the lists draw from: case variants of one another, a prefix of another, and two
// non-ASCII letters that ASCII case folding must not merge (é / É).
const std::string kNames[] = {"a.exe", "A.EXE", "b",          "B",          "svc.exe", "svc.ex",
                              "Tool",  "tool",  "\xC3\xA9.x", "\xC3\x89.x", "pkg!1",   "Pkg!1"};
// Event strings: the names, other cases, unlisted ones and the empty string.
const std::string kStrings[] = {"a.exe", "A.exe",      "b",          "svc.EXE", "svc.ex",
                                "TOOL",  "\xC3\xA9.x", "\xC3\x89.X", "pkg!1",   "PKG!1",
                                "zzz",   "",           "svc.exe.x"};
const std::string kDirs[] = {"", "C:\\bin\\", "/usr/bin/", "a/b\\"};

class Gen {
 public:
  explicit Gen(uint64_t seed) : rng_(seed) {}
  uint64_t below(uint64_t n) { return rng_() % n; }

  ProgramSpec spec() {
    ProgramSpec spec;
    spec.provider.name = "P";
    spec.provider.legacy = below(20) == 0;
    spec.provider.events = {EventDef{"E", {1, 0, 0, 4, 0, 0, 0}, {}}};
    const uint32_t sessions = 1 + uint32_t(below(8));
    // A few shared lists, so that sessions repeat one another.
    std::vector<std::vector<std::string>> shared;
    shared.reserve(3);
    for (int i = 0; i < 3; ++i) shared.push_back(list());
    for (uint32_t s = 0; s < sessions; ++s) {
      EnableParams p;
      p.level = uint8_t(below(3) == 0 ? 0 : 1 + below(5));
      std::optional<std::vector<std::string>>* lists[] = {&p.exe_names, &p.package_ids, &p.app_ids};
      for (auto* l : lists) {
        const uint64_t k = below(6);
        if (k < 2) *l = k == 0 ? list() : shared[below(shared.size())];
      }
      if (below(6) == 0) p.pids = std::vector<uint32_t>{uint32_t(below(3))};
      if (below(6) == 0) p.event_names = EventNameFilter{0, 0, 0, below(2) == 0, {"E", "F"}};
      spec.sessions.emplace_back(uint32_t(s * 7 % 64), std::move(p));
    }
    return spec;
  }

  Event event() {
    Event e;
    e.desc = {1, 0, 0, uint8_t(below(6)), 0, 0, 0};
    e.pid = uint32_t(below(3));
    e.name = below(2) ? "E" : "G";
    e.exe = kDirs[below(std::size(kDirs))] + pick();
    e.package_id = pick();
    e.app_id = pick();
    return e;
  }

 private:
  std::vector<std::string> list() {
    std::vector<std::string> out;
    for (uint64_t n = below(4); n > 0; --n) out.push_back(kNames[below(std::size(kNames))]);
    return out;  // sometimes empty: nothing passes
  }
  std::string pick() { return kStrings[below(std::size(kStrings))]; }

  std::mt19937_64 rng_;
};

int count(const ir::Program& p, ir::Op op) {
  int n = 0;
  for (const ir::Inst& in : p.code) n += in.op == op;
  return n;
}

// `v` with its strings missing (null) where `mask` says so (bit 0 exe, 1 package, 2 app).
EventView missing(EventView v, uint64_t mask) {
  if (mask & 1) v.exe = StrRef{};
  if (mask & 2) v.package_id = StrRef{};
  if (mask & 4) v.app_id = StrRef{};
  return v;
}

// Every engine against the oracle on `events` (every fifth with some strings missing),
// with and without scope indexing; the number of events something disagreed on.
int check_case(const ProgramSpec& spec, const std::vector<Event>& events, bool jit,
               const std::string& what) {
  std::vector<EventView> views;
  views.reserve(events.size());
  for (size_t i = 0; i < events.size(); ++i)
    views.push_back(missing(events[i].view(), i % 5 == 0 ? i / 5 % 8 : 0));
  LowerOptions off;
  off.index_scopes = false;
  return check_lowerings(spec, views, LowerOptions{}, off, jit, what);
}

TEST(ScopeIndex, RandomSpecsAgreeWithOracle) {
  int indexed = 0, failures = 0;
  const bool jit = Jit::shared().has_value();
  for (uint64_t seed = 1; seed <= 400 && failures < 3; ++seed) {
    Gen g(seed);
    const ProgramSpec spec = g.spec();
    std::vector<Event> events;
    events.reserve(80);
    for (int i = 0; i < 80; ++i) events.push_back(g.event());
    auto prog = lower(spec);
    ASSERT_TRUE(prog.has_value()) << prog.error().message;
    indexed += count(*prog, ir::Op::StrIndex) > 0;
    failures += check_case(spec, events, jit && seed % 4 == 0, "seed " + std::to_string(seed)) > 0;
  }
  EXPECT_GT(indexed, 150);  // most cases index some kind
}

// Eight sessions with exe lists (five different ones): one str.index and one mask.map
// instead of five str.in; likewise four app lists (two different ones). Two sessions with
// the same package list keep its one str.in.
TEST(ScopeIndex, EightExeListsAreOneLookup) {
  ProgramSpec spec;
  spec.provider.name = "P";
  spec.provider.events = {EventDef{"E", {1, 0, 0, 4, 0, 0, 0}, {}}};
  const std::string names[] = {"a.exe", "b.exe", "c.exe", "d.exe", "e.exe"};
  for (uint32_t s = 0; s < 8; ++s) {
    EnableParams p;
    p.exe_names = std::vector<std::string>{names[s % 5], names[(s + 1) % 5]};
    if (s % 2) p.app_ids = std::vector<std::string>{s % 4 == 1 ? "App" : "Other"};
    if (s < 2) p.package_ids = std::vector<std::string>{"Pkg"};
    spec.sessions.emplace_back(s, std::move(p));
  }
  auto prog = lower(spec);
  ASSERT_TRUE(prog.has_value());
  EXPECT_EQ(count(*prog, ir::Op::StrIndex), 2);
  EXPECT_EQ(count(*prog, ir::Op::StrIn), 1);
  EXPECT_EQ(count(*prog, ir::Op::MaskMap), 2);
  LowerOptions off;
  off.index_scopes = false;
  auto plain = lower(spec, off);
  ASSERT_TRUE(plain.has_value());
  EXPECT_EQ(count(*plain, ir::Op::StrIndex), 0);
  EXPECT_EQ(count(*plain, ir::Op::StrIn), 5 + 2 + 1);  // distinct exe, app, package lists
  std::vector<Event> events;
  for (const std::string& n : names)
    for (const char* a : {"app", "OTHER", "x"})
      for (const char* pkg : {"PKG", "pk"}) {
        Event e;
        e.desc = {1, 0, 0, 4, 0, 0, 0};
        e.exe = "C:\\x\\" + n;
        e.app_id = a;
        e.package_id = pkg;
        events.push_back(e);
      }
  EXPECT_EQ(check_case(spec, events, Jit::shared().has_value(), "eight"), 0);
}

// One session, or every session with the same lists: nothing to index (one str.in per kind
// serves them all), so the program is the one without indexing.
TEST(ScopeIndex, OneListPerKindProgramUnchanged) {
  for (uint64_t seed = 1; seed <= 120; ++seed) {
    Gen g(seed);
    ProgramSpec spec = g.spec();
    if (seed % 2) spec.sessions.resize(1);
    for (SessionEntry& e : spec.sessions) {
      EnableParams p = *e.params;
      p.exe_names = spec.sessions[0].params->exe_names;
      p.package_ids = spec.sessions[0].params->package_ids;
      p.app_ids = spec.sessions[0].params->app_ids;
      e = SessionEntry{e.slot, std::move(p)};
    }
    LowerOptions off;
    off.index_scopes = false;
    auto a = lower(spec), b = lower(spec, off);
    ASSERT_TRUE(a && b);
    ASSERT_EQ(a->code.size(), b->code.size()) << "seed " << seed;
    for (size_t i = 0; i < a->code.size(); ++i)
      EXPECT_EQ(a->code[i].op, b->code[i].op) << "seed " << seed << " inst " << i;
    EXPECT_EQ(count(*a, ir::Op::StrIndex), 0) << "seed " << seed;
  }
}

}  // namespace
}  // namespace pfc
