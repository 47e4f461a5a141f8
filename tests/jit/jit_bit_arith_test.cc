// tests/jit/jit_bit_arith_test.cc — comparisons of narrow values as 0/1 64-bit arithmetic
// (compiler/jit/bit_arith.h): `cmp` of 8/16/32-bit header fields and `pred.int` of 1/2/4-byte
// unsigned payload fields against constants at and around every boundary (0, the type's
// maximum, 2^32 − 1, 2^32, 2^63, 2^64 − 1), combined with not/and/or/mask.if/deliver and
// carried across joins. Every program runs on the interpreter and on native code at O0, O1
// and O2, which must agree on every event.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/jit/jit_test_util.h"

namespace pfc::testing {
namespace {

using ir::HeaderField;
using ir::Op;

// Constants around the boundaries of a field of `bits` bits and of the narrow range.
std::vector<uint64_t> edge_constants(unsigned bits, std::mt19937_64& rng) {
  const uint64_t max = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  std::vector<uint64_t> out = {0,
                               1,
                               2,
                               max - 1,
                               max,
                               max + 1,
                               0xFFFFFFFE,
                               0xFFFFFFFF,
                               uint64_t{1} << 32,
                               ~uint64_t{0},
                               uint64_t{1} << 63};
  for (int i = 0; i < 4; ++i) out.push_back(rng() & max);
  return out;
}

// Values of a field of `bits` bits: the edges of `constants` ± 1, inside the type.
std::vector<uint64_t> probe_values(unsigned bits, const std::vector<uint64_t>& constants) {
  const uint64_t max = (uint64_t{1} << bits) - 1;
  std::vector<uint64_t> out;
  for (uint64_t k : constants)
    for (uint64_t d : {~uint64_t{0}, uint64_t{0}, uint64_t{1}}) out.push_back((k + d) & max);
  return out;
}

void expect_all_agree(const AllEngines& engines, const Event& e, const std::string& what) {
  EngineResults r = engines.route(e.view());
  for (int l = 0; l < 3; ++l)
    ASSERT_EQ(r.native[l], r.interp)
        << what << " O" << l << ": " << describe(r.native[l]) << " vs " << describe(r.interp);
}

// Every condition of `cmp` (the signed ones stay icmp) on the level (8 bits), the ID (16) and the
// PID (32) against every edge constant, each delivered, negated and combined with its neighbour.
TEST(JitBitArith, HeaderComparesMatchInterpreter) {
  std::mt19937_64 rng(181);
  struct Field {
    HeaderField field;
    unsigned bits;
  };
  for (Field f :
       {Field{HeaderField::Level, 8}, Field{HeaderField::Id, 16}, Field{HeaderField::Pid, 32}}) {
    const std::vector<uint64_t> ks = edge_constants(f.bits, rng);
    for (uint32_t cond = 0; cond < 10; ++cond) {
      ProgramBuilder b;
      ir::Reg v = b.emit(Op::LoadHeader, uint32_t(f.field));
      ir::Reg prev = b.constant(1);
      uint32_t bit = 0;
      for (uint64_t k : ks) {
        ir::Reg c = b.emit(Op::Cmp, v, cond, 0, k);
        b.effect(Op::Deliver, c, bit++);
        b.effect(Op::Deliver, b.emit(Op::Not, c), bit++);
        b.effect(Op::Deliver, b.emit(Op::And, c, prev), bit++);
        b.effect(Op::Stack, b.emit(Op::Or, c, prev), bit % 64);
        b.effect(Op::DeliverMask, b.emit(Op::MaskIf, c, 0, 0, 0x5000000000000000ull >> bit));
        prev = c;
      }
      ir::Program program = b.finish();
      AllEngines engines(program);
      ASSERT_TRUE(engines.ok());
      for (uint64_t value : probe_values(f.bits, ks)) {
        Event e;
        if (f.field == HeaderField::Level) e.desc.level = uint8_t(value);
        if (f.field == HeaderField::Id) e.desc.id = uint16_t(value);
        if (f.field == HeaderField::Pid) e.pid = uint32_t(value);
        expect_all_agree(engines, e,
                         "field " + std::to_string(f.bits) + " cond " + std::to_string(cond) +
                             " value " + std::to_string(value));
      }
    }
  }
}

// Every integer operator on 1/2/4-byte unsigned fields (narrow arithmetic) and on their
// signed and 8-byte counterparts (icmp), at offset 2 of payloads of every length up to the
// full one (a field that does not fit is false for every operator).
TEST(JitBitArith, PayloadPredicatesMatchInterpreter) {
  std::mt19937_64 rng(1818);
  const PayloadOp ops[] = {PayloadOp::Eq, PayloadOp::Ne, PayloadOp::Lt,      PayloadOp::Le,
                           PayloadOp::Gt, PayloadOp::Ge, PayloadOp::Between, PayloadOp::NotBetween};
  for (InType type : {InType::UInt8, InType::UInt16, InType::UInt32, InType::Int8, InType::Int32,
                      InType::UInt64}) {
    const unsigned bytes = unsigned(in_type_fixed_size(type));
    const std::vector<uint64_t> ks = edge_constants(8 * bytes, rng);
    for (PayloadOp op : ops) {
      ProgramBuilder b;
      b.program().fields.push_back({type, {}, {}});
      for (uint64_t lo : ks) {
        const uint64_t hi =
            op == PayloadOp::Between || op == PayloadOp::NotBetween ? ks[rng() % ks.size()] : 0;
        b.program().int_preds.push_back({op, lo, hi});
      }
      ir::Reg off = b.constant(2);
      ir::Reg prev = b.constant(0);
      for (uint32_t k = 0; k < b.program().int_preds.size(); ++k) {
        ir::Reg p = b.emit(Op::PredInt, off, 0, k);
        b.effect(Op::Deliver, p, 2 * k);
        b.effect(Op::Deliver, b.emit(Op::Or, p, b.emit(Op::Not, prev)), 2 * k + 1);
        b.effect(Op::DeliverMask, b.emit(Op::MaskIf, p, 0, 0, uint64_t{3} << (40 + k)));
        prev = p;
      }
      ir::Program program = b.finish();
      AllEngines engines(program);
      ASSERT_TRUE(engines.ok());
      for (uint64_t value : probe_values(std::min(8 * bytes, 63u), ks)) {
        std::vector<uint8_t> full = {0xAA, 0xBB};
        put_le(full, value, int(bytes));
        for (size_t size : {full.size(), full.size() - 1, size_t{2}, size_t{0}}) {
          Event e;
          e.payload.assign(full.begin(), full.begin() + std::ptrdiff_t(size));
          expect_all_agree(engines, e,
                           "type " + std::to_string(int(type)) + " op " + std::to_string(int(op)) +
                               " value " + std::to_string(value) + " size " + std::to_string(size));
        }
      }
    }
  }
}

// Every unsigned operator on an 8-byte field (icmp) against constants around 2^63 and 2^64,
// probed with full 64-bit values — each constant ± 1 (wrapping), both sides of 2^63, the
// extremes and random values — on whole and cut payloads (the test above probes 8-byte
// fields only below 2^63).
TEST(JitBitArith, WidePayloadPredicatesMatchInterpreter) {
  std::mt19937_64 rng(1820);
  const uint64_t top = uint64_t{1} << 63;
  std::vector<uint64_t> ks = {0,          1,         2,       top - 2,      top - 1,
                              top,        top + 1,   top + 2, ~uint64_t{1}, ~uint64_t{0},
                              0xFFFFFFFF, 1ull << 32};
  for (int i = 0; i < 4; ++i) ks.push_back(rng());
  const PayloadOp ops[] = {PayloadOp::Eq, PayloadOp::Ne, PayloadOp::Lt,      PayloadOp::Le,
                           PayloadOp::Gt, PayloadOp::Ge, PayloadOp::Between, PayloadOp::NotBetween};
  std::vector<uint64_t> values = {0, 1, top - 1, top, top + 1, ~uint64_t{0}};
  for (uint64_t k : ks)
    for (uint64_t d : {~uint64_t{0}, uint64_t{0}, uint64_t{1}}) values.push_back(k + d);
  for (int i = 0; i < 8; ++i) values.push_back(rng());
  for (PayloadOp op : ops) {
    ProgramBuilder b;
    b.program().fields.push_back({InType::UInt64, {}, {}});
    for (uint64_t lo : ks) {
      // BETWEEN: a random upper bound, and the widths just under and at 2^63.
      for (uint64_t hi : {ks[rng() % ks.size()], lo + top - 1, lo + top}) {
        b.program().int_preds.push_back({op, lo, hi});
        if (op != PayloadOp::Between && op != PayloadOp::NotBetween) break;
      }
    }
    ASSERT_LE(b.program().int_preds.size(), 64u);
    ir::Reg off = b.constant(1);
    for (uint32_t k = 0; k < b.program().int_preds.size(); ++k) {
      ir::Reg p = b.emit(Op::PredInt, off, 0, k);
      b.effect(Op::DeliverMask, b.emit(Op::MaskIf, p, 0, 0, uint64_t{1} << k));
      if (k % 2) b.effect(Op::Stack, b.emit(Op::Not, p), k);
    }
    ir::Program program = b.finish();
    AllEngines engines(program);
    ASSERT_TRUE(engines.ok());
    for (uint64_t value : values) {
      std::vector<uint8_t> full = {0xAA};
      put_le(full, value, 8);
      for (size_t size : {full.size(), full.size() - 1}) {
        Event e;
        e.payload.assign(full.begin(), full.begin() + std::ptrdiff_t(size));
        expect_all_agree(engines, e,
                         "op " + std::to_string(int(op)) + " value " + std::to_string(value) +
                             " size " + std::to_string(size));
      }
    }
  }
}

// A narrow compare made in a region is 0 on the edge that skipped it: the join is a phi of
// 0/1 values, and not / mask.if / deliver / and after it must still treat it as a boolean.
TEST(JitBitArith, BooleanJoinsOfNarrowComparesMatchInterpreter) {
  ProgramBuilder b;
  ir::Reg level = b.emit(Op::LoadHeader, uint32_t(HeaderField::Level));
  ir::Reg gate = b.emit(Op::Cmp, level, uint32_t(ir::Cond::ULe), 0, 3);
  ir::Reg pid = b.emit(Op::LoadHeader, uint32_t(HeaderField::Pid));
  const size_t jz = b.effect(Op::Jz, gate, 0);
  ir::Reg eq = b.emit(Op::Cmp, pid, uint32_t(ir::Cond::Eq), 0, 7);
  ir::Reg gt = b.emit(Op::Cmp, pid, uint32_t(ir::Cond::UGt), 0, 5);
  ir::Reg both = b.emit(Op::And, eq, gt);
  b.patch_target(jz, b.here());
  b.effect(Op::Deliver, eq, 0);
  b.effect(Op::Deliver, b.emit(Op::Not, eq), 1);
  b.effect(Op::Deliver, b.emit(Op::Or, gt, gate), 2);
  b.effect(Op::Deliver, b.emit(Op::Not, both), 3);
  b.effect(Op::DeliverMask, b.emit(Op::MaskIf, gt, 0, 0, 0xF0));
  b.effect(Op::DeliverMask, b.emit(Op::MaskIf, b.emit(Op::Not, gt), 0, 0, uint64_t{1} << 63));
  ir::Program program = b.finish();
  AllEngines engines(program);
  ASSERT_TRUE(engines.ok());
  for (uint8_t l : {uint8_t{1}, uint8_t{5}})
    for (uint32_t p : {0u, 5u, 6u, 7u, 0xFFFFFFFFu}) {
      Event e;
      e.desc.level = l;
      e.pid = p;
      expect_all_agree(engines, e, "level " + std::to_string(l) + " pid " + std::to_string(p));
    }
}

// `and` of payload predicates on different fields keeps the fields-fit bits apart and
// combines them once per segment (codegen's guarded_and, and guarded_mask for the
// mask.if / or of such results): random conjunctions of
// predicates on three fields, with header compares, before and after a jump (a new
// segment reusing the earlier results), on payloads cut at every length.
TEST(JitBitArith, ConjunctionsOfPayloadPredicatesMatchInterpreter) {
  std::mt19937_64 rng(1819);
  for (int n = 0; n < 20; ++n) {
    ProgramBuilder b;
    b.program().fields = {
        {InType::UInt16, {}, {}}, {InType::UInt32, {}, {}}, {InType::UInt64, {}, {}}};
    b.program().int_preds = {{PayloadOp::Ne, 0, 0},
                             {PayloadOp::Gt, 5, 0},
                             {PayloadOp::Between, 2, 900},
                             {PayloadOp::Le, 7, 0}};
    const ir::Reg offs[] = {b.constant(0), b.constant(2), b.constant(6)};
    std::vector<ir::Reg> regs{b.emit(Op::Cmp, b.emit(Op::LoadHeader, uint32_t(HeaderField::Level)),
                                     uint32_t(ir::Cond::ULe), 0, 3)};
    auto pick = [&] { return regs[rng() % regs.size()]; };
    uint32_t bit = 0;
    size_t jz = 0;
    for (int i = 0; i < 40; ++i) {
      if (i == 20) jz = b.effect(Op::Jz, pick(), 0);
      const uint32_t f = uint32_t(rng() % 3);
      if (rng() % 2) regs.push_back(b.emit(Op::PredInt, offs[f], f, uint32_t(rng() % 4)));
      else regs.push_back(b.emit(Op::And, pick(), pick()));
      if (rng() % 3 == 0) b.effect(Op::Deliver, regs.back(), bit++ % 64);
    }
    b.patch_target(jz, b.here());
    for (int i = 0; i < 10; ++i) b.effect(Op::Deliver, b.emit(Op::And, pick(), pick()), bit++ % 64);
    b.effect(Op::DeliverMask, b.emit(Op::MaskIf, b.emit(Op::And, pick(), pick()), 0, 0, 0xF00));
    // A region's mask as lowering builds it: mask.if of each conjunction, or-ed together
    // (the guarded masks of codegen when the conjunctions share their fields).
    ir::Reg mask = b.emit(Op::MaskIf, pick(), 0, 0, uint64_t{1} << 40);
    for (uint32_t k = 41; k < 60; ++k) {
      ir::Reg m = b.emit(Op::MaskIf, b.emit(Op::And, pick(), pick()), 0, 0,
                         rng() % 4 ? uint64_t{1} << k : 0x3ull << k);
      mask = b.emit(Op::Or, mask, m);
    }
    b.effect(Op::DeliverMask, mask);
    ir::Program program = b.finish();
    AllEngines engines(program);
    ASSERT_TRUE(engines.ok());
    for (int k = 0; k < 12; ++k) {
      std::vector<uint8_t> full;
      put_le(full, rng() % 3, 2);
      put_le(full, rng() % 10, 4);
      put_le(full, rng() % 1000, 8);
      for (size_t size = 0; size <= full.size(); ++size) {
        Event e;
        e.desc.level = uint8_t(rng() % 6);
        e.payload.assign(full.begin(), full.begin() + std::ptrdiff_t(size));
        expect_all_agree(engines, e,
                         "program " + std::to_string(n) + " size " + std::to_string(size));
      }
    }
  }
}

}  // namespace
}  // namespace pfc::testing
