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

// Four sessions with three distinct levels, keyword rules, PID lists and event-ID filters:
// the header checks become session-mask lookups (docs/ir.md §4 "Session masks").
ProgramSpec masks_spec() {
  ProgramSpec spec;
  spec.provider = plain_provider({1, 2, 3});
  for (uint32_t s = 0; s < 4; ++s) {
    EnableParams p;
    p.level = uint8_t(s % 3 + 1);
    p.any = uint64_t{0x20} << (s % 3);
    if (s == 3) p.properties = enable_property::kIgnoreKeyword0;
    if (s != 1) p.pids = std::vector<uint32_t>{100 + s, 7};
    if (s != 2) p.event_ids = EventIdFilter{s != 3, {uint16_t(s + 1), 3}};
    spec.sessions.emplace_back(s, p);
  }
  return spec;
}

// Three sessions' exe lists become one str.index over their union and one mask.map (slot
// 3 has none: set everywhere); slot 2's package list, the only one, stays a str.in
// (docs/ir.md §4 "Session masks").
ProgramSpec scopes_spec() {
  ProgramSpec spec;
  spec.provider = plain_provider({1});
  const std::vector<std::string> exes[] = {{"A.exe", "b.exe"}, {"b.EXE", "c.exe"}, {"D.exe"}};
  for (uint32_t s = 0; s < 4; ++s) {
    EnableParams p;
    if (s < 3) p.exe_names = exes[s];
    if (s == 2) p.package_ids = std::vector<std::string>{"Pkg"};
    spec.sessions.emplace_back(s, p);
  }
  return spec;
}

// Four sessions' patterns on one wstring become one mask.strs: slots 0 and 2 share
// `contains "Ab"` (one pattern, both bits), slot 1 has startswith.cs "x", slot 3 matches
// "*z" (docs/ir.md §4 "String indexing").
ProgramSpec strs_spec() {
  ProviderDef prov;
  prov.name = "S";
  prov.events.push_back(event_def("E", 1, 0, {field("s", InType::UnicodeString)}));
  const PayloadPredicate preds[] = {
      pred_str(0, PayloadOp::Contains, "Ab"), pred_str(0, PayloadOp::StartsWithCs, "x"),
      pred_str(0, PayloadOp::Contains, "Ab"), pred_str(0, PayloadOp::Matches, "*z")};
  ProgramSpec spec;
  spec.provider = prov;
  for (uint32_t s = 0; s < 4; ++s) {
    EnableParams p;
    p.payload = {filter(1, {preds[s]})};
    spec.sessions.emplace_back(s, p);
  }
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
    {"header", header_spec, R"(code: 47 instructions, 44 registers
   0: %0 = str.in exe, sset#0
   1: %1 = load.hdr level
   2: %2 = cmp.ule %1, 2
   3: %3 = str.in event_name, sset#1
   4: %4 = not %3
   5: %5 = and %2, %4
   6: %6 = str.in event_name, sset#2
   7: %7 = not %6
   8: %8 = not %5
   9: %9 = or %7, %8
  10: %10 = and %0, %9
  11: %11 = cmp.ule %1, 4
  12: %12 = const 128
  13: %13 = mask.if %11, 0x2
  14: %14 = or %12, %13
  15: %15 = load.hdr keyword
  16: %16 = and.imm %15, 0x30
  17: %17 = cmp.ne %16, 0
  18: %18 = and.imm %15, 0x10
  19: %19 = cmp.eq %18, 16
  20: %20 = and %17, %19
  21: %21 = cmp.eq %15, 0
  22: %22 = or %20, %21
  23: %23 = cmp.ne %15, 0
  24: %24 = mask.if %22, 0x2
  25: %25 = mask.if %23, 0x80
  26: %26 = or %24, %25
  27: %27 = load.hdr pid
  28: %28 = in.set %27, iset#0
  29: %29 = mask.if %28, 0x2
  30: %30 = or %12, %29
  31: %31 = load.hdr id
  32: %32 = in.set %31, iset#1
  33: %33 = const 2
  34: %34 = mask.if %32, 0x80
  35: %35 = or %33, %34
  36: %36 = and %14, %26
  37: %37 = and %30, %35
  38: %38 = mask.if %10, 0x80
  39: %39 = or %33, %38
  40: %40 = and %36, %37
  41: %41 = and %39, %40
  42: deliver.mask %41
  43: %42 = in.set %31, iset#2
  44: %43 = not %42
  45: stack %43, bit 1
  46: ret
int_sets:
  iset#0 = {3, 9}
  iset#1 = {1, 3}
  iset#2 = {2}
str_sets:
  sset#0 = nocase {"tool.exe"}
  sset#1 = exact {""}
  sset#2 = exact {"Noisy"}
)"},
    {"masks", masks_spec, R"(code: 16 instructions, 14 registers
   0: %0 = load.hdr level
   1: %1 = mask.map %0, mmap#0
   2: %2 = load.hdr keyword
   3: %3 = mask.byte %2, byte 0, mmap#1
   4: %4 = cmp.eq %2, 0
   5: %5 = const 7
   6: %6 = select %4, %5, %3
   7: %7 = load.hdr pid
   8: %8 = mask.map %7, mmap#2
   9: %9 = load.hdr id
  10: %10 = mask.map %9, mmap#3
  11: %11 = and %1, %6
  12: %12 = and %8, %10
  13: %13 = and %11, %12
  14: deliver.mask %13
  15: ret
mask_maps:
  mmap#0 = {0..1: 0xf, 2: 0x6, 3: 0x4} else 0x0
  mmap#1 = {32..63: 0x9, 64..95: 0x2, 96..127: 0xb, 128..159: 0x4, 160..191: 0xd, 192..223: 0x6, 224..255: 0xf} else 0x0
  mmap#2 = {7: 0xf, 100: 0x3, 102: 0x6, 103: 0xa} else 0x2
  mmap#3 = {1: 0xd, 2: 0xe, 3: 0x7, 4: 0x4} else 0xc
)"},
    {"scopes", scopes_spec, R"(code: 9 instructions, 7 registers
   0: %0 = str.in package_id, sset#0
   1: %1 = str.index exe, sset#1
   2: %2 = mask.map %1, mmap#0
   3: %3 = const 11
   4: %4 = mask.if %0, 0x4
   5: %5 = or %3, %4
   6: %6 = and %2, %5
   7: deliver.mask %6
   8: ret
str_sets:
  sset#0 = nocase {"pkg"}
  sset#1 = nocase {"a.exe", "b.exe", "c.exe", "d.exe"}
mask_maps:
  mmap#0 = {1: 0x9, 2: 0xb, 3: 0xa, 4: 0xc} else 0x8
)"},
    {"strs", strs_spec, R"(code: 13 instructions, 10 registers
   0: %0 = load.hdr id
   1: %1 = cmp.eq %0, 1
   2: %2 = load.hdr version
   3: %3 = cmp.eq %2, 0
   4: %4 = and %1, %3
   5: jz %4, @8
   6: %5 = const 0
   7: %6 = mask.strs %5, field#0, smap#0
   8: %7 = not %4
   9: %8 = mask.if %7, 0xf
  10: %9 = or %6, %8
  11: deliver.mask %9
  12: ret
fields:
  field#0 = wstring
str_preds:
  spred#0 = contains "Ab"
  spred#1 = startswith.cs "x"
  spred#2 = matches "*z"
str_maps:
  smap#0 = {spred#0: 0x5, spred#1: 0x2, spred#2: 0x8} base 0x0
)"},
    {"layout", layout_spec, R"(code: 26 instructions, 23 registers
   0: %0 = load.hdr id
   1: %1 = cmp.eq %0, 5
   2: %2 = load.hdr version
   3: %3 = cmp.eq %2, 2
   4: %4 = and %1, %3
   5: jz %4, @21
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
  18: %17 = mask.if %12, 0x1
  19: %18 = mask.if %16, 0x2
  20: %19 = or %17, %18
  21: %20 = not %4
  22: %21 = mask.if %20, 0x3
  23: %22 = or %19, %21
  24: deliver.mask %22
  25: ret
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
