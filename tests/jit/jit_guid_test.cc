// tests/jit/jit_guid_test.cc — IS / ISNOT of GUID fields, which the JIT compares inline (two
// 64-bit loads) while the interpreter calls pfc_tdh_guid_pred: the GUID itself, GUIDs that
// differ in one byte (each of the 16), random ones, at random offsets after a string (so
// the offset may be bad), on payloads cut at every length. Every engine (interpreter,
// native O0/O1/O2) must agree on every event.
#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "tests/jit/jit_test_util.h"

namespace pfc::testing {
namespace {

using ir::Op;

TEST(JitGuid, InlineCompareMatchesInterpreter) {
  std::mt19937_64 rng(16);
  const Guid g{0x0E95CFBC, 0x58D4, 0x44BA, {0xBE, 0x40, 0xE6, 0x3A, 0x85, 0x35, 0x36, 0xDF}};
  const std::array<uint8_t, 16> bytes = g.to_bytes();
  ProgramBuilder b;
  b.program().fields = {{InType::AnsiString, {}, {}}, {InType::Guid, {}, {}}};
  b.program().guid_preds = {{PayloadOp::Is, g}, {PayloadOp::IsNot, g}};
  ir::Reg zero = b.constant(0);
  ir::Reg after = b.emit(Op::Skip, zero, 0, ir::kNoReg, ir::kNoReg);
  ir::Reg is = b.emit(Op::PredGuid, after, 1, 0);
  ir::Reg is_not = b.emit(Op::PredGuid, after, 1, 1);
  b.effect(Op::Deliver, is, 0);
  b.effect(Op::Deliver, is_not, 1);
  b.effect(Op::Deliver, b.emit(Op::And, is, b.emit(Op::Not, is_not)), 2);
  b.effect(Op::DeliverMask, b.emit(Op::MaskIf, is_not, 0, 0, 0xF0));
  ir::Program program = b.finish();
  AllEngines engines(program);
  ASSERT_TRUE(engines.ok());
  for (int n = 0; n < 300; ++n) {
    std::vector<uint8_t> full;
    put_string(full, std::string(rng() % 5, 'x'), rng() % 10 != 0);
    std::array<uint8_t, 16> value = bytes;
    if (n % 3 == 1) value[rng() % 16] ^= uint8_t(1 + rng() % 255);
    if (n % 3 == 2)
      for (uint8_t& v : value) v = uint8_t(rng());
    full.insert(full.end(), value.begin(), value.end());
    for (size_t size = 0; size <= full.size(); ++size) {
      Event e;
      e.payload.assign(full.begin(), full.begin() + std::ptrdiff_t(size));
      EngineResults r = engines.route(e.view());
      for (int l = 0; l < 3; ++l)
        ASSERT_EQ(r.native[l], r.interp) << "event " << n << " size " << size << " O" << l;
    }
  }
}

}  // namespace
}  // namespace pfc::testing
