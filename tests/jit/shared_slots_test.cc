// tests/jit/shared_slots_test.cc — shared code reaches every kind of table slot (helpers, the
// values of a big int set, a string set, a sparse mask map, a big range map, an RE2 object,
// a string map) and routes as the interpreter on random events.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "compiler/interp.h"
#include "compiler/ir_wire.h"
#include "compiler/jit/codegen.h"
#include "compiler/jit/shared_code.h"
#include "compiler/regex_pred.h"
#include "compiler/str_match.h"
#include "runtime/casefold.h"
#include "runtime/glob.h"
#include "tests/jit/jit_test_util.h"

namespace pfc::testing {
namespace {

using ir::Op;

// One instruction of every pool kind shared code takes by address, each sized past the
// inline forms of codegen.h; every result is delivered as a mask.
ir::Program every_slot_kind() {
  ProgramBuilder b;
  ir::Program& p = b.program();
  p.int_sets.emplace_back();
  for (uint64_t v = 0; v < internal::kConstSetValues + 10; ++v)
    p.int_sets[0].values.push_back(3 * v);
  p.str_sets.push_back(ir::StrSet{{"a.exe", "c.exe"}, true});
  p.mask_maps.emplace_back();
  for (uint64_t k = 0; k < internal::kInlineMaskKeys + 4; ++k) {
    p.mask_maps[0].keys.push_back(k * (internal::kDenseMaskSpan + 7));
    p.mask_maps[0].masks.push_back(uint64_t{1} << (k % 60));
  }
  p.range_maps.emplace_back();
  for (uint64_t s = 0; s < internal::kInlineRangeStarts + 3; ++s)
    p.range_maps[0].starts.push_back(5 * s + 1);
  for (size_t i = 0; i <= p.range_maps[0].starts.size(); ++i)
    p.range_maps[0].masks.push_back(i * 0x9E37);
  p.range_maps[0].bad = 0x40;
  p.fields = {ir::FieldDesc{InType::UInt32, {}, {}}, ir::FieldDesc{InType::AnsiString, {}, {}}};
  p.str_preds.emplace_back(PayloadOp::Regex, "^x+y", U"",
                           internal::compile_regex("^x+y", false).re);
  p.str_preds.emplace_back(PayloadOp::Contains, "x", fold_utf8("x"));
  p.str_preds.emplace_back(PayloadOp::Matches, "*y", compile_glob("*y", true).code);
  p.str_maps.push_back(ir::StrMap{{1, 2}, {0x100, 0x200}, 0x400, nullptr});
  internal::attach_str_matchers(p);
  const uint32_t keyword = static_cast<uint32_t>(ir::HeaderField::Keyword);
  const uint32_t id = static_cast<uint32_t>(ir::HeaderField::Id);
  b.effect(Op::Deliver, b.emit(Op::InSet, b.emit(Op::LoadHeader, keyword), 0), 0);
  b.effect(Op::Deliver, b.emit(Op::StrIn, uint32_t(ir::HeaderString::ExeName), 0), 1);
  b.effect(Op::DeliverMask, b.emit(Op::MaskMap, b.emit(Op::LoadHeader, id), 0));
  const ir::Reg zero = b.constant(0);
  b.effect(Op::DeliverMask, b.emit(Op::MaskRange, zero, 0, 0));
  const ir::Reg text_at = b.emit(Op::Skip, zero, 0, ir::kNoReg, ir::kNoReg);
  b.effect(Op::Stack, b.emit(Op::PredStr, text_at, 1, 0, ir::kNoReg), 2);
  b.effect(Op::DeliverMask, b.emit(Op::MaskStrs, text_at, 1, 0, ir::kNoReg));
  return b.finish();
}

std::vector<Event> random_events(std::mt19937_64& rng, size_t n) {
  std::vector<Event> events;
  const char* exes[] = {"a.exe", "b.exe", "C:\\x\\C.EXE", ""};
  const char* texts[] = {"xxy", "xy", "y", "axy", ""};
  for (size_t i = 0; i < n; ++i) {
    Event e;
    e.desc.keyword = rng() % 3 == 0 ? 3 * (rng() % 5000) : rng() % 20000;
    e.desc.id = static_cast<uint16_t>(rng() % 4 == 0 ? (rng() % 20) * (internal::kDenseMaskSpan + 7)
                                                     : rng());
    e.exe = exes[rng() % 4];
    put_le(e.payload, rng() % 3 == 0 ? rng() % 30000 : rng(), 4);
    put_string(e.payload, texts[rng() % 5]);
    e.payload.resize(e.payload.size() - rng() % 3 * (rng() % e.payload.size()) / 2);
    events.push_back(e);
  }
  return events;
}

PFC_CALLS_JIT_CODE RouteResult call_shared(SharedRouteFn fn, const EventView& view) {
  uint64_t stack = 0;
  const uint64_t deliver = fn(&view, &stack);
  return RouteResult{deliver, stack};
}

TEST(SharedSlots, EveryKindIsReachedAndRoutesAsTheInterpreter) {
  const ir::Program program = every_slot_kind();
  auto interp = Interpreter::create(program);
  ASSERT_TRUE(interp.has_value()) << interp.error().message;
  std::mt19937_64 rng(7);
  const std::vector<Event> events = random_events(rng, 3000);
  for (OptLevel level : {OptLevel::O0, OptLevel::O1, OptLevel::O2}) {
    auto bytes = compile_shared(program, program_key(ir::encode_program(program)), level);
    ASSERT_TRUE(bytes.has_value()) << bytes.error().message;
    auto file = parse_native_file(*bytes);
    ASSERT_TRUE(file.has_value()) << file.error().message;
    std::set<TableSlotKind> kinds;
    for (const TableSlot& s : file->slots) kinds.insert(s.kind);
    EXPECT_EQ(kinds.size(), 7u) << opt_level_name(level);
    auto loaded = load_native(*file, program);
    ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
    std::set<std::pair<uint64_t, uint64_t>> distinct;
    for (const Event& e : events) {
      const RouteResult want = (*interp)->route(e.view());
      distinct.insert({want.deliver, want.stack});
      ASSERT_EQ(call_shared((*loaded)->fn(), e.view()), want) << opt_level_name(level);
    }
    EXPECT_GT(distinct.size(), 100u);
  }
}

}  // namespace
}  // namespace pfc::testing
