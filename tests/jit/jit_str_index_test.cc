// tests/jit/jit_str_index_test.cc — str.index (docs/ir.md §2, §4 "Session masks"): random
// string sets of 0, 1, 2, 7 and 300 values, case-insensitive and exact, on every event
// string, probed with every member in other cases and behind paths, with non-members, the
// empty string and a missing string (null StrRef). The interpreter must give the position a
// linear scan gives (1-based, 0 = absent), and native code at O0, O1 and O2 the
// interpreter's; str.in must agree with str.index != 0. Plus a mask.map keyed by the
// position on both sides of the JIT's dense-table bound, the verifier's rejections and the
// text form.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "compiler/ir_dump.h"
#include "compiler/jit/codegen.h"
#include "compiler/verify.h"
#include "tests/jit/jit_test_util.h"

namespace pfc::testing {
namespace {

using ir::HeaderString;
using ir::Op;

constexpr HeaderString kStrings[] = {HeaderString::ExeName, HeaderString::PackageId,
                                     HeaderString::AppId, HeaderString::EventName};

// Letters of both cases, digits, separators and a two-byte UTF-8 letter (é / É: not ASCII,
// so never folded).
std::string random_string(std::mt19937_64& rng, bool allow_empty) {
  static const std::string_view kParts[] = {"a", "B", "c", "D",        "x",        "Y",  "0",
                                            ".", "-", "_", "\xC3\xA9", "\xC3\x89", "exe"};
  std::string s;
  for (size_t n = (allow_empty ? 0 : 1) + rng() % 5; n > 0; --n)
    s += kParts[rng() % std::size(kParts)];
  return s;
}

std::string lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return s;
}

std::string flip_case(std::string s, std::mt19937_64& rng) {
  for (char& c : s) {
    if (rng() % 2 == 0) continue;
    if (c >= 'a' && c <= 'z') c = char(c - 'a' + 'A');
    else if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  }
  return s;
}

// A valid set: sorted, duplicate-free, lower-case when case-insensitive; "" now and then.
ir::StrSet random_set(size_t n, bool ci, std::mt19937_64& rng) {
  ir::StrSet set{{}, ci};
  for (size_t i = 0; i < 3 * n; ++i) {
    std::string s = random_string(rng, i == 0 && rng() % 4 == 0);
    set.values.push_back(ci ? lower(s) : s);
  }
  std::sort(set.values.begin(), set.values.end());
  set.values.erase(std::unique(set.values.begin(), set.values.end()), set.values.end());
  std::shuffle(set.values.begin(), set.values.end(), rng);
  set.values.resize(std::min(n, set.values.size()));
  std::sort(set.values.begin(), set.values.end());
  return set;
}

// What the event string `s` (already its final path component for ExeName) should find.
uint64_t brute_force(const ir::StrSet& set, std::string_view s) {
  const std::string cand = set.case_insensitive ? lower(std::string(s)) : std::string(s);
  for (size_t i = 0; i < set.values.size(); ++i)
    if (set.values[i] == cand) return i + 1;
  return 0;
}

StrRef& string_of(EventView& v, HeaderString which) {
  switch (which) {
    case HeaderString::ExeName: return v.exe;
    case HeaderString::PackageId: return v.package_id;
    case HeaderString::AppId: return v.app_id;
    case HeaderString::EventName: break;
  }
  return v.name;
}

// str.index and str.in of set 0 on `which`: deliver = the position | str.in << 63.
ir::Program index_program(const ir::StrSet& set, HeaderString which) {
  ProgramBuilder b;
  b.program().str_sets = {set};
  b.expose(b.emit(Op::StrIndex, uint32_t(which), 0));
  b.effect(Op::Deliver, b.emit(Op::StrIn, uint32_t(which), 0), 63);
  return b.finish();
}

TEST(JitStrIndex, EverySetSizeMatchesInterpreterAndBruteForce) {
  std::mt19937_64 rng(1818);
  for (HeaderString which : kStrings) {
    for (bool ci : {true, false}) {
      for (size_t n : {0, 1, 2, 7, 300}) {
        const ir::StrSet set = random_set(n, ci, rng);
        const ir::Program prog = index_program(set, which);
        AllEngines engines(prog);
        ASSERT_TRUE(engines.ok());
        // Probes: each member as stored, in other cases, and random strings; ExeName ones
        // also behind a path, and the path alone.
        std::vector<std::string> probes = {"", "exe", "A"};
        for (const std::string& v : set.values) {
          probes.push_back(v);
          probes.push_back(flip_case(v, rng));
          probes.push_back(v + "x");
        }
        for (int i = 0; i < 20; ++i) probes.push_back(random_string(rng, true));
        for (const auto& s : probes) {
          std::vector<std::pair<std::string, std::string>> texts = {{s, s}};  // {text, string}
          if (which == HeaderString::ExeName) {
            texts.emplace_back("C:\\dir\\" + s, s);
            texts.emplace_back("/usr/bin/" + s, s);
            texts.emplace_back(s + "/", "");
            texts.emplace_back("a\\b/" + s, s);
          }
          for (const auto& [text, str] : texts) {
            Event e;
            EventView v = e.view();
            string_of(v, which) = StrRef::of(text);
            const uint64_t at = brute_force(set, str);
            const uint64_t want = at | uint64_t(at != 0) << 63;
            const std::string what = std::string("which=") + std::to_string(int(which)) +
                                     " ci=" + std::to_string(ci) + " n=" + std::to_string(n) +
                                     " text='" + text + "'";
            EngineResults r = engines.route(v);
            ASSERT_EQ(r.interp.deliver, want) << what;
            for (int l = 0; l < 3; ++l) ASSERT_EQ(r.native[l], r.interp) << what << " O" << l;
          }
        }
        // A missing string (null data) reads as the empty string.
        EventView v = Event().view();
        string_of(v, which) = StrRef{};
        EngineResults r = engines.route(v);
        const uint64_t at = brute_force(set, "");
        ASSERT_EQ(r.interp.deliver, at | uint64_t(at != 0) << 63) << "missing, n=" << n;
        for (int l = 0; l < 3; ++l) ASSERT_EQ(r.native[l], r.interp) << "missing O" << l;
      }
    }
  }
}

// The lowering's pattern, mask.map keyed by str.index, on both sides of the JIT's dense
// table bound (keys 1…n: a table while n ≤ kDenseMaskSpan, else pfc_ir_mask_map).
TEST(JitStrIndex, PositionKeysAMaskMap) {
  std::mt19937_64 rng(1819);
  for (size_t n : {size_t{1}, size_t{16}, size_t{17}, size_t{internal::kDenseMaskSpan},
                   size_t{internal::kDenseMaskSpan + 1}}) {
    ir::StrSet set{{}, true};
    for (size_t i = 0; i < n; ++i) set.values.push_back("n" + std::to_string(1000000 + i));
    std::sort(set.values.begin(), set.values.end());
    ir::MaskMap map;
    for (size_t k = 1; k <= n; ++k) {
      map.keys.push_back(k);
      map.masks.push_back(rng());
    }
    map.other = rng();
    ProgramBuilder b;
    b.program().str_sets = {set};
    b.program().mask_maps = {map};
    const ir::Reg at = b.emit(Op::StrIndex, uint32_t(HeaderString::AppId), 0);
    b.effect(Op::DeliverMask, b.emit(Op::MaskMap, at, 0));
    const ir::Program prog = b.finish();
    AllEngines engines(prog);
    ASSERT_TRUE(engines.ok());
    std::vector<std::string> probes = {"", "n", "N999999", "n" + std::to_string(1000000 + n)};
    for (size_t i = 0; i < 40; ++i) probes.push_back(set.values[rng() % n]);
    probes.push_back(set.values.front());
    probes.push_back("N" + set.values.back().substr(1));
    for (const std::string& s : probes) {
      Event e;
      e.app_id = s;
      const uint64_t pos = brute_force(set, s);
      const uint64_t want = pos == 0 ? map.other : map.masks[pos - 1];
      EngineResults r = engines.route(e.view());
      ASSERT_EQ(r.interp.deliver, want) << "n=" << n << " '" << s << "'";
      for (int l = 0; l < 3; ++l) ASSERT_EQ(r.native[l], r.interp) << "n=" << n << " O" << l;
    }
  }
}

TEST(JitStrIndex, VerifierRejectsBadOperands) {
  struct Row {
    const char* name;
    uint32_t which;
    uint32_t set;
    ir::StrSet pool;
    const char* message;
  };
  const Row rows[] = {
      {"unknown string", 4, 0, {{"a"}, true}, "unknown header string"},
      {"set index", 0, 1, {{"a"}, true}, "string set index out of range"},
      {"upper case", 0, 0, {{"A"}, true}, "upper-case value"},
      {"unsorted", 0, 0, {{"b", "a"}, false}, "not sorted"},
      {"duplicate", 0, 0, {{"a", "a"}, false}, "not sorted"},
  };
  for (const Row& row : rows) {
    ProgramBuilder b;
    b.program().str_sets = {row.pool};
    b.effect(Op::DeliverMask, b.emit(Op::StrIndex, row.which, row.set));
    const ir::Program prog = b.finish();
    auto ok = verify(prog);
    ASSERT_FALSE(ok.has_value()) << row.name;
    EXPECT_NE(ok.error().message.find(row.message), std::string::npos)
        << row.name << ": " << ok.error().message;
    EXPECT_FALSE(Interpreter::create(prog).has_value()) << row.name;
  }
  ProgramBuilder b;  // str.index has a result: no dst is an error
  b.program().str_sets = {{{"a"}, true}};
  b.program().code.push_back(ir::Inst{Op::StrIndex, ir::kNoReg, 0, 0, 0, 0});
  EXPECT_FALSE(verify(b.finish()).has_value());
}

TEST(JitStrIndex, TextForm) {
  ProgramBuilder b;
  b.program().str_sets = {{{"a.exe", "b.exe"}, true}};
  b.effect(Op::DeliverMask, b.emit(Op::StrIndex, uint32_t(HeaderString::PackageId), 0));
  const std::string text = dump_ir(b.finish());
  EXPECT_NE(text.find("   0: %0 = str.index package_id, sset#0\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace pfc::testing
