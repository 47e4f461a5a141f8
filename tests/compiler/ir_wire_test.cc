// tests/compiler/ir_wire_test.cc — the IR wire form (compiler/ir_wire.h): encode → decode →
// encode is byte-equal and routes alike on the golden corpus and generated programs; every
// malformed input is an Error naming its byte offset, never a crash.
#include "compiler/ir_wire.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/le.h"
#include "compiler/interp.h"
#include "compiler/ir_dump.h"
#include "tests/compiler/corpus.h"

namespace pfc::testing {
namespace {

std::vector<Event> all_generated_events(const std::vector<CorpusProgram>& programs) {
  std::vector<Event> events;
  for (const CorpusProgram& p : programs)
    events.insert(events.end(), p.events.begin(), p.events.end());
  return events;
}

void expect_round_trip(const CorpusProgram& c, const std::vector<Event>& events) {
  const std::string bytes = ir::encode_program(c.program);
  auto decoded = ir::decode_program(bytes);
  ASSERT_TRUE(decoded.has_value()) << c.name << ": " << decoded.error().message;
  EXPECT_EQ(ir::encode_program(*decoded), bytes) << c.name;
  EXPECT_EQ(dump_ir(*decoded), dump_ir(c.program)) << c.name;
  auto before = Interpreter::create(c.program);
  auto after = Interpreter::create(std::move(*decoded));
  ASSERT_TRUE(before && after) << c.name;
  for (const Event& e : events)
    ASSERT_EQ((*before)->route(e.view()), (*after)->route(e.view())) << c.name;
}

TEST(IrWire, GoldenAndGeneratedProgramsRoundTrip) {
  std::vector<CorpusProgram> generated = generated_programs(1, 300);
  ASSERT_GT(generated.size(), 250u);
  const std::vector<Event> events = all_generated_events(generated);
  size_t golden_events = 0;
  for (const CorpusProgram& c : golden_programs()) {
    expect_round_trip(c, events);
    expect_round_trip(c, c.events);
    golden_events += c.events.size();
  }
  EXPECT_GT(golden_events, 100u);
  for (const CorpusProgram& c : generated) expect_round_trip(c, c.events);
}

TEST(IrWire, EncodingIsDeterministic) {
  for (const CorpusProgram& c : golden_programs())
    EXPECT_EQ(ir::encode_program(c.program), ir::encode_program(ir::Program(c.program))) << c.name;
}

TEST(IrWire, EveryTruncationIsAnErrorWithItsOffset) {
  for (const CorpusProgram& c : golden_programs()) {
    const std::string bytes = ir::encode_program(c.program);
    if (bytes.size() > 20000) continue;
    for (size_t n = 0; n < bytes.size(); ++n) {
      auto r = ir::decode_program(std::string_view(bytes).substr(0, n));
      ASSERT_FALSE(r.has_value()) << c.name << " truncated to " << n;
      ASSERT_EQ(r.error().message.rfind("IR wire form, byte ", 0), 0u) << r.error().message;
    }
  }
}

// A program using one entry of most pools, whose wire layout the offsets below follow.
ir::Program small_program() {
  ir::Program p;
  p.code = {ir::Inst{ir::Op::Const, 0, 0, 0, 0, 1}, ir::Inst{}};
  p.num_regs = 1;
  p.str_sets = {ir::StrSet{{"a"}, true}};
  p.fields = {ir::FieldDesc{InType::UInt32, {}, {}}};
  p.int_preds = {ir::IntPred{PayloadOp::Eq, 1, 0}};
  p.str_preds.emplace_back(PayloadOp::Is, "x", U"x");
  p.guid_preds = {ir::GuidPred{PayloadOp::Is, Guid{}}};
  p.checks = {ir::CheckNote{0, ir::Check::Level, ir::kNoReg, true, 0}};
  return p;
}

std::string decode_error(const std::string& bytes) {
  auto r = ir::decode_program(bytes);
  return r ? "decoded" : r.error().message;
}

std::string patched(size_t at, std::initializer_list<uint8_t> with) {
  std::string b = ir::encode_program(small_program());
  for (uint8_t v : with) b.at(at++) = static_cast<char>(v);
  return b;
}

TEST(IrWire, SmallProgramDecodes) {
  const std::string b = ir::encode_program(small_program());
  ASSERT_EQ(b.size(), 194u);  // the layout the offsets of the next tests assume
  EXPECT_EQ(decode_error(b), "decoded");
}

TEST(IrWire, EnumsOutOfRangeNameTheirOffset) {
  const std::string prefix = "IR wire form, byte ";
  EXPECT_EQ(decode_error(patched(20, {28})), prefix + "20: expected an opcode");
  EXPECT_EQ(decode_error(patched(78, {2})),
            prefix + "78: expected a string set's case flag (0 or 1)");
  EXPECT_EQ(decode_error(patched(92, {0, 0})), prefix + "92: expected a field type (1 to 21)");
  EXPECT_EQ(decode_error(patched(92, {22, 0})), prefix + "92: expected a field type (1 to 21)");
  EXPECT_EQ(decode_error(patched(94, {3})),
            prefix + "94: expected a field's count extent (kind 0 to 2)");
  EXPECT_EQ(decode_error(patched(99, {3})),
            prefix + "99: expected a field's length extent (kind 0 to 2)");
  EXPECT_EQ(decode_error(patched(108, {9, 0})),
            prefix + "108: expected an int predicate's operator");
  EXPECT_EQ(decode_error(patched(130, {0xFF, 0xFF})),
            prefix + "130: expected a string predicate's operator");
  EXPECT_EQ(decode_error(patched(149, {1, 1})),
            prefix + "149: expected a GUID predicate's operator");
  EXPECT_EQ(decode_error(patched(187, {9})), prefix + "187: expected a check note's check");
  EXPECT_EQ(decode_error(patched(192, {2})),
            prefix + "192: expected a check note's constant (0 or 1)");
}

TEST(IrWire, HugeCountsTrailingBytesAndHeaders) {
  const std::string prefix = "IR wire form, byte ";
  EXPECT_EQ(decode_error(patched(16, {0xFF, 0xFF, 0xFF, 0xFF})),
            prefix + "16: expected an instruction count that fits the input");
  EXPECT_EQ(decode_error(patched(79, {0xFF, 0xFF, 0xFF, 0x7F})),
            prefix + "79: expected a string set's value count that fits the input");
  EXPECT_EQ(decode_error(patched(83, {0xFF, 0xFF, 0xFF, 0xFF})),
            prefix + "83: expected a string set value that fits the input");
  EXPECT_EQ(decode_error(patched(12, {3})),
            prefix + "12: expected no more registers than instructions");
  EXPECT_EQ(decode_error(ir::encode_program(small_program()) + '\0'),
            prefix + "194: expected the end of the program");
  EXPECT_EQ(decode_error(patched(0, {'X'})), prefix + "0: expected the IR wire magic");
  EXPECT_EQ(decode_error(patched(8, {1})), prefix + "8: expected IR wire format 2");
  EXPECT_EQ(decode_error(""), prefix + "0: expected the IR wire magic");
}

TEST(IrWire, BadRegexAndVerifierFailures) {
  ir::Program p = small_program();
  p.str_preds[0] = ir::StrPred(PayloadOp::Regex, "(", U"");
  EXPECT_EQ(decode_error(ir::encode_program(p)),
            "IR wire form, byte 130: expected a regex RE2 accepts ('missing ): (')");
  // RE2's message quotes the pattern: its control bytes are escaped, the refusal stays one line.
  p.str_preds[0] = ir::StrPred(PayloadOp::Regex, "a\n(", U"");
  EXPECT_EQ(decode_error(ir::encode_program(p)),
            "IR wire form, byte 130: expected a regex RE2 accepts ('missing ): a\\x0a(')");
  p = small_program();
  p.code[0].dst = 5;  // no such register
  EXPECT_EQ(decode_error(ir::encode_program(p)).rfind("IR wire form: inst 0 (const): ", 0), 0u);
}

// A string map (mask.strs) round-trips with its matcher rebuilt; a pattern index past
// str_preds is the verifier's error, found before any matcher is built.
TEST(IrWire, StringMapsRebuildTheirMatchers) {
  ir::Program p = small_program();
  p.fields.push_back(ir::FieldDesc{InType::UnicodeString, {}, {}});
  p.str_preds.emplace_back(PayloadOp::Contains, "ab", U"ab");
  p.str_maps = {ir::StrMap{{0, 1}, {1, 2}, 4, nullptr}};
  p.code = {ir::Inst{ir::Op::Const, 0, 0, 0, 0, 0},
            ir::Inst{ir::Op::MaskStrs, 1, 0, 1, 0, ir::kNoReg},
            ir::Inst{ir::Op::DeliverMask, ir::kNoReg, 1, 0, 0, 0}, ir::Inst{}};
  p.num_regs = 2;
  p.checks.clear();
  auto decoded = ir::decode_program(ir::encode_program(p));
  ASSERT_TRUE(decoded.has_value()) << decoded.error().message;
  ASSERT_EQ(decoded->str_maps.size(), 1u);
  EXPECT_NE(decoded->str_maps[0].matcher, nullptr);
  auto interp = Interpreter::create(std::move(*decoded));
  ASSERT_TRUE(interp.has_value()) << interp.error().message;
  Event e;
  e.payload = {'x', 0, 'A', 0, 'B', 0, 0, 0};
  EXPECT_EQ((*interp)->route(e.view()).deliver, 6u);  // contains "ab", base; not is "x"
  p.str_maps[0].preds[1] = 7;
  EXPECT_EQ(decode_error(ir::encode_program(p)),
            "IR wire form: pool: string map 0: string predicate out of range");
}

TEST(IrWire, EveryByteChangedNeverCrashes) {
  const std::string good = ir::encode_program(small_program());
  for (size_t i = 0; i < good.size(); ++i) {
    for (uint8_t v : {uint8_t{0}, uint8_t{1}, uint8_t{0x7F}, uint8_t{0xFF}}) {
      std::string b = good;
      b[i] = static_cast<char>(v);
      auto r = ir::decode_program(b);
      if (r) {
        EXPECT_EQ(ir::encode_program(*r), b) << "byte " << i;  // a valid variant
      }
    }
  }
}

}  // namespace
}  // namespace pfc::testing
