// tests/compiler/mask_accumulator_test.cc — MaskAccumulator (compiler/lower_mask.h): the
// same session mask as MaskLowering::from_bools for every mix of distinct, repeated and
// constant booleans, with each boolean folded into the mask before the next-but-one
// boolean is computed (what keeps the O1 register allocator from spilling), and one
// boolean left as `cond ? bits : 0`.
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "compiler/interp.h"
#include "compiler/lower_builder.h"
#include "compiler/lower_mask.h"
#include "pfc/event.h"

namespace pfc::testing {
namespace {

using internal::IrBuilder;
using internal::kFalse;
using internal::kTrue;
using internal::MaskAccumulator;
using internal::MaskLowering;
using internal::MaskVal;
using ir::Reg;

// Booleans by kind: 'T' kTrue, 'F' kFalse, '0'..'9' the boolean `level == digit` (the same
// digit twice is the same register), one per session slot in order.
struct Built {
  ir::Program program;
  std::vector<Reg> defs;  // the register of each digit's boolean, in order of definition
};

Built build(const std::string& kinds, bool accumulate, bool* cond_form = nullptr) {
  IrBuilder b;
  MaskLowering ml(b, (kinds.size() == 64 ? 0 : uint64_t{1} << kinds.size()) - 1);
  MaskAccumulator acc(ml);
  std::vector<std::pair<uint32_t, Reg>> per_slot;
  Built out;
  const Reg level = b.header(ir::HeaderField::Level);
  for (uint32_t slot = 0; slot < kinds.size(); ++slot) {
    const char k = kinds[slot];
    Reg v = k == 'T' ? kTrue : k == 'F' ? kFalse : b.cmp(level, ir::Cond::Eq, uint64_t(k - '0'));
    if (v != kTrue && v != kFalse && (out.defs.empty() || v > out.defs.back()))
      out.defs.push_back(v);
    if (accumulate) acc.add(slot, v);
    else per_slot.push_back({slot, v});
  }
  const MaskVal m = accumulate ? acc.value() : ml.from_bools(per_slot, /*unlisted_pass=*/false);
  if (cond_form != nullptr) *cond_form = m.is_cond();
  b.deliver_mask(ml.reg(m));
  out.program = b.finish();
  return out;
}

uint64_t run(const ir::Program& program, uint8_t level) {
  auto interp = Interpreter::create(program);
  EXPECT_TRUE(interp.has_value());
  Event e;
  e.desc.level = level;
  return (*interp)->route(e.view()).deliver;
}

TEST(MaskAccumulator, SameMaskAsFromBools) {
  for (const char* kinds : {"", "T", "F", "3", "33", "3T", "F3", "34", "343", "3443T", "0123456789",
                            "TF5F5T55", "12121212", "9876543210123"}) {
    const Built eager = build(kinds, true), all_at_end = build(kinds, false);
    for (uint8_t level = 0; level < 11; ++level)
      ASSERT_EQ(run(eager.program, level), run(all_at_end.program, level))
          << "'" << kinds << "' level " << int(level);
  }
}

TEST(MaskAccumulator, OneBooleanStaysACondition) {
  for (const char* kinds : {"3", "33", "3F", "F33F"}) {
    bool cond = false;
    build(kinds, true, &cond);
    EXPECT_TRUE(cond) << kinds;
  }
  bool cond = true;
  build("34", true, &cond);
  EXPECT_FALSE(cond);
}

// The mask.if of boolean i comes before the definition of boolean i + 2: at most two
// booleans and the accumulator are live at once.
TEST(MaskAccumulator, FoldsEachBooleanAtOnce) {
  const Built built = build("0123456789", true);
  const std::vector<ir::Inst>& code = built.program.code;
  auto index_of = [&](auto pred) {
    for (size_t i = 0; i < code.size(); ++i)
      if (pred(code[i])) return i;
    return code.size();
  };
  ASSERT_EQ(built.defs.size(), 10u);
  for (size_t i = 0; i + 2 < built.defs.size(); ++i) {
    const Reg r = built.defs[i], later = built.defs[i + 2];
    const size_t mask_if =
        index_of([r](const ir::Inst& in) { return in.op == ir::Op::MaskIf && in.a == r; });
    const size_t def = index_of([later](const ir::Inst& in) { return in.dst == later; });
    EXPECT_LT(mask_if, def) << "boolean " << i;
  }
}

}  // namespace
}  // namespace pfc::testing
