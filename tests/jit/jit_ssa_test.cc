// tests/jit/jit_ssa_test.cc — the parts of codegen that the lowering's regular shapes do not
// stress: SSA construction (compiler/jit/ssa.h) over random forward-jump graphs whose
// registers are read after joins they were not written on every path to, the branch-free
// `in.set` windows and binary search, and the reuse of loads and string ends inside a segment.
// Every program runs on the interpreter and on native code at O0, O1 and O2, which must agree.
#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/jit/jit_test_util.h"

namespace pfc::testing {
namespace {

using ir::HeaderField;
using ir::Op;

// A random verified program: single assignment, every read after a write in program order,
// but jz/jmp jump over writes, so many reads see "0 on some paths" (registers start at 0)
// and the JIT must place phis exactly where the paths disagree.
ir::Program random_program(std::mt19937_64& rng, size_t length) {
  ProgramBuilder b;
  std::vector<ir::Reg> regs{b.emit(Op::LoadHeader, uint32_t(HeaderField::Level))};
  std::vector<size_t> jumps;
  auto pick = [&] { return regs[rng() % regs.size()]; };
  b.program().int_sets.push_back({{1, 2, 3, 5, 8, 200, 70000}});
  for (size_t i = 0; i < length; ++i) {
    switch (rng() % 11) {
      case 0: regs.push_back(b.constant(rng() % 4)); break;
      case 1: regs.push_back(b.emit(Op::LoadHeader, uint32_t(rng() % 10))); break;
      case 2: regs.push_back(b.emit(Op::And, pick(), pick())); break;
      case 3: regs.push_back(b.emit(Op::Or, pick(), pick())); break;
      case 4: regs.push_back(b.emit(Op::Not, pick())); break;
      case 5: regs.push_back(b.emit(Op::Cmp, pick(), uint32_t(rng() % 10), 0, rng() % 6)); break;
      case 6: regs.push_back(b.emit(Op::InSet, pick(), 0)); break;
      case 7: regs.push_back(b.emit(Op::AndImm, pick(), 0, 0, rng() % 8)); break;
      case 8:
        jumps.push_back(rng() % 3 ? b.effect(Op::Jz, pick(), 0) : b.effect(Op::Jmp, 0, 0));
        break;
      case 9: b.effect(Op::Deliver, pick(), uint32_t(rng() % 64)); break;
      default: b.effect(Op::Stack, pick(), uint32_t(rng() % 64)); break;
    }
  }
  // A tail reading many registers: each read crosses every join before it.
  for (uint32_t bit = 0; bit < 16; ++bit) b.effect(Op::Deliver, pick(), bit);
  for (uint32_t bit = 0; bit < 8; ++bit) b.effect(Op::Stack, pick(), bit);
  const size_t end = b.here();  // the Return finish() appends
  for (size_t j : jumps) b.patch_target(j, j + 1 + rng() % (end - j));
  return b.finish();
}

Event random_event(std::mt19937_64& rng) {
  Event e;
  e.desc = EventDescriptor{
      uint16_t(rng() % 4), uint8_t(rng() % 3),  uint8_t(rng() % 2), uint8_t(rng() % 6),
      uint8_t(rng() % 3),  uint16_t(rng() % 3), rng() % 9};
  e.pid = uint32_t(rng() % 10);
  e.tid = uint32_t(rng() % 4);
  e.payload.resize(rng() % 4);
  return e;
}

TEST(JitSsa, RandomJumpGraphsMatchInterpreter) {
  std::mt19937_64 rng(20261121);
  for (int n = 0; n < 150; ++n) {
    ir::Program program = random_program(rng, 20 + rng() % 60);
    AllEngines engines(program);
    ASSERT_TRUE(engines.ok()) << "program " << n;
    for (int k = 0; k < 40; ++k) {
      Event e = random_event(rng);
      EngineResults r = engines.route(e.view());
      for (int l = 0; l < 3; ++l)
        ASSERT_EQ(r.native[l], r.interp) << "program " << n << " event " << k << " O" << l << ": "
                                         << describe(r.native[l]) << " vs " << describe(r.interp);
    }
  }
}

// A boolean computed in a region as an icmp (the compare of a 64-bit value: the keyword),
// read after the join with the skipping edge (where it is 0), becomes an i1 phi; a join of
// a boolean with a non-boolean stays an i64 phi. Both agree with the interpreter whether
// the region ran or not. (Compares of narrow values are 64-bit arithmetic, whose joins are
// i64 phis: JitBitArith in jit_bit_arith_test.cc.)
TEST(JitSsa, BooleanJoinsAreI1Phis) {
  for (bool mixed : {false, true}) {
    ProgramBuilder b;
    ir::Reg level = b.emit(Op::LoadHeader, uint32_t(HeaderField::Level));
    ir::Reg gate = b.emit(Op::Cmp, level, uint32_t(ir::Cond::ULe), 0, 3);
    ir::Reg pid = b.emit(Op::LoadHeader, uint32_t(HeaderField::Keyword));
    const size_t jz = b.effect(Op::Jz, gate, 0);
    ir::Reg in_region = mixed ? b.emit(Op::AndImm, pid, 0, 0, 6)
                              : b.emit(Op::Cmp, pid, uint32_t(ir::Cond::Eq), 0, 7);
    b.patch_target(jz, b.here());
    b.effect(Op::Deliver, in_region, 0);
    b.effect(Op::Deliver, b.emit(Op::Not, in_region), 1);
    b.effect(Op::Deliver, b.emit(Op::Or, in_region, gate), 2);
    ir::Program program = b.finish();
    auto ll = emit_llvm(program, OptLevel::O0);
    ASSERT_TRUE(ll.has_value());
    EXPECT_EQ(ll->find("phi i1") != std::string::npos, !mixed) << *ll;
    AllEngines engines(program);
    ASSERT_TRUE(engines.ok());
    for (uint8_t l : {uint8_t{1}, uint8_t{5}})
      for (uint32_t p : {0u, 6u, 7u}) {
        Event e;
        e.desc.level = l;
        e.desc.keyword = p;
        EngineResults r = engines.route(e.view());
        for (int o = 0; o < 3; ++o)
          ASSERT_EQ(r.native[o], r.interp) << "mixed " << mixed << " level " << int(l) << " kw "
                                           << p << " O" << o << ": " << describe(r.native[o]);
      }
  }
}

// `in.set keyword, values` (sorted, duplicate-free) on every engine, probed with each of
// `probes` and each value ± each of `deltas`: membership as std::binary_search says, and
// every native level equal to the interpreter.
void expect_in_set_matches(const std::vector<uint64_t>& values, std::vector<uint64_t> probes,
                           std::initializer_list<uint64_t> deltas) {
  ProgramBuilder b;
  b.program().int_sets.push_back({values});
  ir::Reg key = b.emit(Op::LoadHeader, uint32_t(HeaderField::Keyword));
  b.effect(Op::Deliver, b.emit(Op::InSet, key, 0), 0);
  ir::Program program = b.finish();
  AllEngines engines(program);
  ASSERT_TRUE(engines.ok());
  for (uint64_t x : values)
    for (uint64_t d : deltas) {
      probes.push_back(x + d);
      probes.push_back(x - d);
    }
  for (uint64_t x : probes) {
    Event e;
    e.desc.keyword = x;
    EngineResults r = engines.route(e.view());
    const bool member = std::binary_search(values.begin(), values.end(), x);
    ASSERT_EQ(r.interp.deliver, member ? 1u : 0u) << x;
    for (int l = 0; l < 3; ++l) ASSERT_EQ(r.native[l], r.interp) << "value " << x << " O" << l;
  }
}

// in.set on the 64-bit keyword: one window, window edges, several windows, the largest
// inline number of windows and one more (the binary search), values at both ends.
TEST(JitSsa, IntSetWindowsMatchInterpreter) {
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  std::vector<std::vector<uint64_t>> sets = {
      {7},
      {0, 63},
      {0, 64},
      {5, 6, 7, 68},
      {kMax - 1, kMax},
      {0, kMax},
      {kMax - 63, kMax},
      {1, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000},
      {1, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000},
  };
  for (uint64_t v = 0; v < 600; v += 3) sets.back().push_back(v);
  for (std::vector<uint64_t>& values : sets) {
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    SCOPED_TRACE(values.size());
    expect_in_set_matches(values, {0, 1, 63, 64, 65, kMax, kMax - 1, kMax - 63, kMax - 64},
                          {0, 1, 63, 64});
  }
}

// in.set beyond the windows: the unrolled branch-free binary search, for sizes around
// powers of two (every step count and remainder), 32-bit tables (values below 2^32, probed
// with keys above it too), 64-bit tables, and sets over kConstSetValues (searched in the
// program's own values). Every value, its neighbours and both ends are probed.
TEST(JitSsa, IntSetSearchMatchesInterpreter) {
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  const size_t sizes[] = {9, 10, 15, 16, 17, 31, 33, 100, 1000, 4096, 4097, 6000};
  for (size_t n : sizes) {
    for (int variant = 0; variant < 4; ++variant) {
      // 32-bit values; the same with a last 64-bit one; across 2^32; near the top.
      const uint64_t start = variant < 2 ? 5 : variant == 2 ? 0xFFFFFF00 : kMax - 1000 * n;
      std::vector<uint64_t> values;
      values.reserve(n);
      for (size_t i = 0; i < n; ++i) values.push_back(start + 100 * i + (i * i) % 7);
      if (variant == 1) values.back() = kMax;
      SCOPED_TRACE("n " + std::to_string(n) + " variant " + std::to_string(variant));
      expect_in_set_matches(values, {0, 1, kMax, kMax - 1, uint64_t{1} << 32, 0xFFFFFFFF},
                            {0, 1, 50});
    }
  }
}

// Several predicates on one field at one offset share a load, and `skip` after `pred.str`
// on the same field reuses the string's end; both only inside one segment. Payloads cover
// every truncation point.
TEST(JitSsa, SharedLoadsAndStringEndsMatchInterpreter) {
  ProgramBuilder b;
  b.program().fields = {{InType::UnicodeString, {}, {}}, {InType::UInt32, {}, {}}};
  b.program().str_preds.emplace_back(PayloadOp::Contains, "ab", U"ab");
  b.program().int_preds = {{PayloadOp::Between, 3, 9},
                           {PayloadOp::Gt, 5, 0},
                           {PayloadOp::NotBetween, 9, 3},
                           {PayloadOp::Modulo, 2, 0}};
  ir::Reg zero = b.constant(0);
  ir::Reg str = b.emit(Op::PredStr, zero, 0, 0, ir::kNoReg);
  ir::Reg next = b.emit(Op::Skip, zero, 0, ir::kNoReg, ir::kNoReg);
  b.effect(Op::Deliver, str, 0);
  for (uint32_t k = 0; k < 4; ++k) b.effect(Op::Deliver, b.emit(Op::PredInt, next, 1, k), 1 + k);
  size_t jz = b.effect(Op::Jz, str, 0);
  ir::Reg again = b.emit(Op::Skip, zero, 0, ir::kNoReg, ir::kNoReg);  // another segment
  b.effect(Op::Deliver, b.emit(Op::PredInt, again, 1, 0), 5);
  b.patch_target(jz, b.here());
  b.effect(Op::Deliver, b.emit(Op::LoadField, next, 1), 6);
  ir::Program program = b.finish();
  AllEngines engines(program);
  ASSERT_TRUE(engines.ok());
  for (uint32_t value : {0u, 3u, 4u, 6u, 9u, 10u}) {
    for (const std::u16string& text :
         {std::u16string(u""), std::u16string(u"xAbz"), std::u16string(u"no")}) {
      std::vector<uint8_t> full;
      put_wstring(full, text);
      put_le(full, value, 4);
      for (size_t size = 0; size <= full.size(); ++size) {
        Event e;
        e.payload.assign(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(size));
        EngineResults r = engines.route(e.view());
        for (int l = 0; l < 3; ++l)
          ASSERT_EQ(r.native[l], r.interp) << "value " << value << " size " << size << " O" << l;
      }
    }
  }
}

}  // namespace
}  // namespace pfc::testing
