// tests/compiler/ir_dump_test.cc — golden IR dumps: {spec, expected dump_ir text}. The
// programs also pass the verifier.
#include "test_util.h"

namespace pfc::testing {
namespace {

ProviderDef example_provider() {
  ProviderDef prov;
  prov.name = "Example-Provider";
  prov.events.push_back(
      event_def("Example_Event_1", 1, 0,
                {field("Initiator", InType::UnicodeString), field("Level", InType::UInt32)}, 1));
  prov.events.push_back(
      event_def("Example_Event_2", 2, 0,
                {field("Title", InType::UnicodeString), field("InstanceId", InType::Guid),
                 field("ErrorCode", InType::UInt32)},
                1));
  return prov;
}

ProgramSpec example_spec() {
  EnableParams p;
  p.level = 5;
  Guid g = *Guid::parse("{0E95CFBC-58D4-44BA-BE40-E63A853536DF}");
  p.payload = {filter(1, {pred_str(0, PayloadOp::Is, "User"), pred(1, PayloadOp::Between, 7, 16)}),
               filter(2,
                      {pred_str(0, PayloadOp::Contains, "UNI"), pred_guid(1, PayloadOp::Is, g),
                       pred(2, PayloadOp::Ne, 0)},
                      true)};
  return one_session(example_provider(), p);
}

ProgramSpec header_spec() {
  ProgramSpec spec;
  spec.provider = plain_provider({1, 2, 3});
  EnableParams a;
  a.level = 4;
  a.any = 0x30;
  a.all = 0x10;
  a.properties = enable_property::kStackTrace;
  a.pids = std::vector<uint32_t>{9, 3};
  a.stack_ids = EventIdFilter{false, {2}};
  EnableParams b;
  b.properties = enable_property::kIgnoreKeyword0;
  b.exe_names = std::vector<std::string>{"Tool.EXE"};
  b.event_ids = EventIdFilter{true, {3, 1}};
  b.event_names = EventNameFilter{2, 0, 0, false, {"Noisy"}};
  spec.sessions = {SessionEntry{7, b}, SessionEntry{1, a}};
  return spec;
}

ProgramSpec layout_spec() {
  ProviderDef prov;
  prov.name = "L";
  prov.events.push_back(
      event_def("E", 5, 2,
                {field("a", InType::UInt16), field("b", InType::UInt64, fixed(2)),
                 field("n", InType::UInt8), field("s", InType::AnsiString, {}, from(2)),
                 field("arr", InType::Int32, from(2)), field("t", InType::Int32)}));
  EnableParams p;
  p.payload = {
      filter(5, {pred(5, PayloadOp::Lt, uint64_t(int64_t{-1})), pred_str(3, PayloadOp::IsNot, "x")},
             false, true, 2)};
  p.payload[0].event_version = 2;
  EnableParams q = p;
  q.payload.push_back(not_filter(5, pred(0, PayloadOp::Modulo, 4)));
  q.payload.back().event_version = 2;
  ProgramSpec spec;
  spec.provider = prov;
  spec.sessions = {SessionEntry{0, p}, SessionEntry{1, q}};
  return spec;
}

struct Golden {
  const char* name;
  ProgramSpec (*spec)();
  const char* dump;
};

const Golden kGolden[] = {
    {"example", example_spec, R"(code: 33 instructions, 29 registers
   0: %0 = load.hdr level
   1: %1 = cmp.ule %0, 5
   2: %2 = load.hdr id
   3: %3 = cmp.eq %2, 1
   4: %4 = load.hdr version
   5: %5 = cmp.eq %4, 0
   6: %6 = and %3, %5
   7: %7 = and %1, %6
   8: jz %7, @14
   9: %8 = const 0
  10: %9 = pred.str %8, field#0, spred#0
  11: %10 = skip %8, field#0
  12: %11 = pred.int %10, field#1, ipred#0
  13: %12 = and %9, %11
  14: %13 = cmp.eq %2, 2
  15: %14 = and %5, %13
  16: %15 = and %1, %14
  17: jz %15, @26
  18: %16 = const 0
  19: %17 = pred.str %16, field#0, spred#1
  20: %18 = skip %16, field#0
  21: %19 = pred.guid %18, field#2, gpred#0
  22: %20 = skip %18, field#2
  23: %21 = pred.int %20, field#1, ipred#1
  24: %22 = or %17, %19
  25: %23 = or %21, %22
  26: %24 = or %12, %23
  27: %25 = or %6, %14
  28: %26 = not %25
  29: %27 = or %24, %26
  30: %28 = and %1, %27
  31: deliver %28, bit 0
  32: ret
fields:
  field#0 = wstring
  field#1 = uint32
  field#2 = guid
int_preds:
  ipred#0 = between 7, 16
  ipred#1 = ne 0
str_preds:
  spred#0 = is "User"
  spred#1 = contains "UNI"
guid_preds:
  gpred#0 = is {0E95CFBC-58D4-44BA-BE40-E63A853536DF}
)"},
    {"header", header_spec, R"(code: 32 instructions, 28 registers
   0: %0 = load.hdr level
   1: %1 = cmp.ule %0, 4
   2: %2 = load.hdr keyword
   3: %3 = and.imm %2, 0x30
   4: %4 = cmp.ne %3, 0
   5: %5 = and.imm %2, 0x10
   6: %6 = cmp.eq %5, 16
   7: %7 = and %4, %6
   8: %8 = cmp.eq %2, 0
   9: %9 = or %7, %8
  10: %10 = and %1, %9
  11: %11 = load.hdr pid
  12: %12 = in.set %11, iset#0
  13: %13 = and %10, %12
  14: %14 = cmp.ne %2, 0
  15: %15 = str.in exe, sset#0
  16: %16 = and %14, %15
  17: %17 = load.hdr id
  18: %18 = in.set %17, iset#1
  19: %19 = and %16, %18
  20: %20 = cmp.ule %0, 2
  21: %21 = str.in event_name, sset#1
  22: %22 = not %21
  23: %23 = not %20
  24: %24 = or %22, %23
  25: %25 = and %19, %24
  26: deliver %13, bit 1
  27: deliver %25, bit 7
  28: %26 = in.set %17, iset#2
  29: %27 = not %26
  30: stack %27, bit 1
  31: ret
int_sets:
  iset#0 = {3, 9}
  iset#1 = {1, 3}
  iset#2 = {2}
str_sets:
  sset#0 = nocase {"tool.exe"}
  sset#1 = exact {"Noisy"}
)"},
    {"layout", layout_spec, R"(code: 24 instructions, 20 registers
   0: %0 = load.hdr id
   1: %1 = cmp.eq %0, 5
   2: %2 = load.hdr version
   3: %3 = cmp.eq %2, 2
   4: %4 = and %1, %3
   5: jz %4, @18
   6: %5 = const 18
   7: %6 = load.field %5, field#0
   8: %7 = const 19
   9: %8 = skip %7, field#1, length %6
  10: %9 = skip %8, field#2, count %6
  11: %10 = pred.int %9, field#3, ipred#0
  12: %11 = pred.str %7, field#1, spred#0, length %6
  13: %12 = and %10, %11
  14: %13 = const 0
  15: %14 = pred.int %13, field#4, ipred#1
  16: %15 = not %14
  17: %16 = and %12, %15
  18: %17 = not %4
  19: %18 = or %12, %17
  20: deliver %18, bit 0
  21: %19 = or %16, %17
  22: deliver %19, bit 1
  23: ret
fields:
  field#0 = uint8
  field#1 = string length=f2
  field#2 = int32[f2]
  field#3 = int32
  field#4 = uint16
int_preds:
  ipred#0 = lt 0xffffffffffffffff
  ipred#1 = modulo 4
str_preds:
  spred#0 = isnot "x"
)"},
};

TEST(IrDump, Golden) {
  for (const Golden& g : kGolden) {
    auto prog = lower(g.spec());
    ASSERT_TRUE(prog.has_value()) << g.name;
    auto ok = verify(*prog);
    EXPECT_TRUE(ok.has_value()) << g.name << ": " << ok.error().message;
    EXPECT_EQ(dump_ir(*prog), g.dump) << g.name;
  }
}

TEST(IrDump, EmptyProgramAndOddOperands) {
  ir::Program p;
  p.code = {ir::Inst{ir::Op::Const, 0, 0, 0, 0, 0x12345}, ir::Inst{ir::Op::Cmp, 1, 0, 99, 0, 7},
            ir::Inst{ir::Op::Return}};
  p.num_regs = 2;
  EXPECT_EQ(dump_ir(p),
            "code: 3 instructions, 2 registers\n"
            "   0: %0 = const 0x12345\n"
            "   1: %1 = cmp.? %0, 7\n"
            "   2: ret\n");
}

}  // namespace
}  // namespace pfc::testing
