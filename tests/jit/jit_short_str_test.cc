// tests/jit/jit_short_str_test.cc — IS / ISNOT / CONTAINS / DOESNTCONTAIN of 1..4 ASCII
// characters on NUL-terminated UTF-16 fields, which the JIT routes to
// pfc_tdh_wstr_short_pred_next (runtime/tdh.h) while the interpreter keeps the general
// pfc_tdh_str_pred_next: random strings mixing ASCII in both cases, the non-ASCII code
// points that fold to ASCII letters (ſ → s, KELVIN SIGN → k), other non-ASCII letters,
// surrogate pairs and lone surrogates, at random offsets, with and without terminator and
// truncated anywhere; the field after the string is read too (the helper's end offset).
// Every engine (interpreter, native O0/O1/O2) must agree on every event.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/jit/jit_test_util.h"

namespace pfc::testing {
namespace {

using ir::Op;

constexpr char16_t kUnits[] = {u'u',   u'U',   u's',   u'S',   u'e',   u'E',  u'r',   u'k',
                               u'K',   u'n',   u'i',   u'I',   u'1',   u'_',  0x017F, 0x212A,
                               0x00E9, 0x0130, 0xD83D, 0xDE00, 0xDC00, 0xFFFF};

std::u16string random_text(std::mt19937_64& rng, const std::u32string& needle) {
  std::u16string s;
  const size_t n = rng() % 9;
  for (size_t i = 0; i < n; ++i) {
    if (rng() % 4 == 0 && !needle.empty()) {  // a copy of the needle, maybe upper-cased
      for (char32_t c : needle) s.push_back(char16_t(rng() % 2 ? c : c & ~0x20u));
    } else {
      s.push_back(kUnits[rng() % std::size(kUnits)]);
    }
  }
  return s;
}

const std::u32string kNeedles[] = {U"s", U"k", U"user", U"uni", U"ke", U"1_", U"ss", U"isk"};

TEST(JitShortStr, MatchesInterpreter) {
  std::mt19937_64 rng(20261124);
  for (PayloadOp op :
       {PayloadOp::Is, PayloadOp::IsNot, PayloadOp::Contains, PayloadOp::DoesntContain}) {
    ProgramBuilder b;
    b.program().fields = {{InType::UnicodeString, {}, {}}, {InType::UInt16, {}, {}}};
    for (const std::u32string& needle : kNeedles)
      b.program().str_preds.emplace_back(op, "", needle);
    ir::Reg off = b.emit(Op::LoadHeader, uint32_t(ir::HeaderField::Opcode));
    for (uint32_t k = 0; k < std::size(kNeedles); ++k) {
      ir::Reg hit = b.emit(Op::PredStr, off, 0, k, ir::kNoReg);
      ir::Reg next = b.emit(Op::Skip, off, 0, ir::kNoReg, ir::kNoReg);
      b.effect(Op::Deliver, hit, k);
      b.effect(Op::Deliver, b.emit(Op::PredInt, next, 1, 0), 16 + k);
    }
    b.program().int_preds.push_back({PayloadOp::Ne, 0x4242, 0});
    ir::Program program = b.finish();
    AllEngines engines(program);
    ASSERT_TRUE(engines.ok());
    for (int n = 0; n < 3000; ++n) {
      const std::u32string& needle = kNeedles[rng() % std::size(kNeedles)];
      std::vector<uint8_t> full;
      for (uint64_t i = rng() % 3; i > 0; --i) full.push_back(uint8_t(rng()));
      const uint8_t start = uint8_t(full.size() + (rng() % 8 == 0 ? rng() % 4 : 0));
      put_wstring(full, random_text(rng, needle), rng() % 8 != 0);
      put_le(full, rng() % 2 ? 0x4242 : rng() % 65536, 2);
      const size_t size = rng() % 4 == 0 ? rng() % (full.size() + 1) : full.size();
      Event e;
      e.desc.opcode = start;
      e.payload.assign(full.begin(), full.begin() + std::ptrdiff_t(size));
      EngineResults r = engines.route(e.view());
      for (int l = 0; l < 3; ++l)
        ASSERT_EQ(r.native[l], r.interp) << "op " << int(op) << " event " << n << " O" << l << ": "
                                         << describe(r.native[l]) << " vs " << describe(r.interp);
    }
  }
}

// Needles the short path must leave to the general helper (non-ASCII, too long, or a
// case-sensitive operator): still identical on every engine.
TEST(JitShortStr, OtherNeedlesMatchInterpreter) {
  std::mt19937_64 rng(7);
  const std::pair<PayloadOp, std::u32string> preds[] = {{PayloadOp::Is, U"users"},
                                                        {PayloadOp::Contains, U"é"},
                                                        {PayloadOp::IsCs, U"User"},
                                                        {PayloadOp::ContainsCs, U"K"},
                                                        {PayloadOp::StartsWith, U"us"}};
  ProgramBuilder b;
  b.program().fields = {{InType::UnicodeString, {}, {}}};
  for (const auto& [op, needle] : preds) b.program().str_preds.emplace_back(op, "", needle);
  ir::Reg off = b.constant(0);
  for (uint32_t k = 0; k < std::size(preds); ++k)
    b.effect(Op::Deliver, b.emit(Op::PredStr, off, 0, k, ir::kNoReg), k);
  ir::Program program = b.finish();
  AllEngines engines(program);
  ASSERT_TRUE(engines.ok());
  for (int n = 0; n < 1000; ++n) {
    std::vector<uint8_t> full;
    put_wstring(full, random_text(rng, U"users"), rng() % 8 != 0);
    Event e;
    e.payload = full;
    EngineResults r = engines.route(e.view());
    for (int l = 0; l < 3; ++l) ASSERT_EQ(r.native[l], r.interp) << "event " << n << " O" << l;
  }
}

}  // namespace
}  // namespace pfc::testing
