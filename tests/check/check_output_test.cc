// tests/check/check_output_test.cc — what the checker produces: Schema (GUIDs, descriptors,
// types, extents) and each session's EnableParams (options, filters, converted payload values,
// group flags, expression shapes).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "tests/check/test_util.h"

namespace pfc::test {
namespace {

// The EnableTraceEx2 example (examples/etw-sample.pfs).
constexpr std::string_view kSample = R"(
provider Example-Provider {37a59b93-bb25-4cee-97aa-8b6acd0c4df8} {
    event Example_Event_1 (id=1, level=1) { Initiator: wstring; Level: uint32; }
    event Example_Event_2 (id=2, level=1) { Title: wstring; InstanceId: guid; ErrorCode: uint32; }
}
session MyTrace {
    enable Example-Provider level=verbose {
        payload Example_Event_1 all { Initiator is "User"; Level between 7,16 }
        payload Example_Event_2 any { Title contains "UNI";
                                      InstanceId is {0E95CFBC-58D4-44BA-BE40-E63A853536DF};
                                      ErrorCode ne 0 }
    }
}
)";

// A script without errors (warnings allowed: a predicate at a type's limit may be one that
// always or never passes, check_dead_test.cc).
CheckedScript checked_clean(std::string_view text) {
  const FrontendOutput out = compile_text(text);
  EXPECT_EQ(render_diagnostics(out).find("error"), std::string::npos) << text;
  EXPECT_TRUE(out.ok());
  return out.checked.script;
}

// "and(p0 p1)" style dump of a post-order PayloadExpr, built with an explicit stack.
std::string shape(const PayloadExpr& e) {
  std::vector<std::string> done(e.nodes.size());
  for (size_t i = 0; i < e.nodes.size(); ++i) {
    const PayloadExpr::Node& n = e.nodes[i];
    switch (n.kind) {
      case PayloadExpr::Node::Kind::Pred: done[i] = "p" + std::to_string(n.index); break;
      case PayloadExpr::Node::Kind::Not: done[i] = "not(" + done[e.kids[n.index]] + ")"; break;
      default: {
        std::string s = n.kind == PayloadExpr::Node::Kind::And ? "and(" : "or(";
        for (uint32_t k = 0; k < n.count; ++k) s += (k ? " " : "") + done[e.kids[n.index + k]];
        done[i] = s + ")";
      }
    }
  }
  return e.nodes.empty() ? "" : done.back();
}

TEST(CheckOutput, SampleSchema) {
  const CheckedScript s = checked_clean(kSample);
  ASSERT_EQ(s.schema.providers.size(), 1u);
  const ProviderDef& p = s.schema.providers[0];
  EXPECT_EQ(p.name, "Example-Provider");
  EXPECT_EQ(p.guid.to_string(), "{37A59B93-BB25-4CEE-97AA-8B6ACD0C4DF8}");
  EXPECT_FALSE(p.legacy);
  ASSERT_EQ(p.events.size(), 2u);
  EXPECT_EQ(p.events[0].name, "Example_Event_1");
  EXPECT_EQ(p.events[0].desc.id, 1);
  EXPECT_EQ(p.events[0].desc.level, 1);
  ASSERT_EQ(p.events[1].fields.size(), 3u);
  EXPECT_EQ(p.events[1].fields[1].name, "InstanceId");
  EXPECT_EQ(p.events[1].fields[1].type, InType::Guid);
  EXPECT_EQ(p.events[1].fields[0].type, InType::UnicodeString);
}

TEST(CheckOutput, SampleSession) {
  const CheckedScript s = checked_clean(kSample);
  ASSERT_EQ(s.sessions.size(), 1u);
  EXPECT_EQ(s.sessions[0].name, "MyTrace");
  ASSERT_EQ(s.sessions[0].enables.size(), 1u);
  const EnableParams& e = *s.sessions[0].enables[0].params;
  EXPECT_EQ(s.sessions[0].enables[0].provider, 0u);
  EXPECT_EQ(e.level, 5);
  EXPECT_EQ(e.any, 0u);
  ASSERT_EQ(e.payload.size(), 2u);
  const PayloadFilter& f1 = e.payload[0];
  EXPECT_EQ(f1.event_id, 1);
  EXPECT_FALSE(f1.group_all);
  EXPECT_EQ(shape(f1.expr), "and(p0 p1)");
  EXPECT_EQ(f1.expr.preds[0].op, PayloadOp::Is);
  EXPECT_EQ(f1.expr.preds[0].value.text, "User");
  EXPECT_EQ(f1.expr.preds[1].field, 1u);
  EXPECT_EQ(f1.expr.preds[1].op, PayloadOp::Between);
  EXPECT_EQ(f1.expr.preds[1].value.lo, 7u);
  EXPECT_EQ(f1.expr.preds[1].value.hi, 16u);
  const PayloadFilter& f2 = e.payload[1];
  EXPECT_EQ(f2.event_id, 2);
  EXPECT_EQ(shape(f2.expr), "or(p0 p1 p2)");
  EXPECT_EQ(f2.expr.preds[0].op, PayloadOp::Contains);
  EXPECT_EQ(f2.expr.preds[1].value.guid.to_string(), "{0E95CFBC-58D4-44BA-BE40-E63A853536DF}");
  EXPECT_EQ(f2.expr.preds[2].op, PayloadOp::Ne);
  EXPECT_EQ(f2.expr.preds[2].field, 2u);
}

TEST(CheckOutput, ExampleFileChecksClean) {
  std::ifstream in(std::string(PFC_SOURCE_DIR) + "/examples/etw-sample.pfs");
  if (!in) GTEST_SKIP() << "examples/etw-sample.pfs not present";
  std::stringstream text;
  text << in.rdbuf();
  const CheckedScript s = checked_clean(text.str());
  EXPECT_FALSE(s.sessions.empty());
}

TEST(CheckOutput, DerivedGuidAndLegacy) {
  const CheckedScript s = checked_clean(
      "provider My-Provider {}\nprovider Old legacy {}\n"
      "session A { enable Old any=0xFF; }\n");
  EXPECT_EQ(s.schema.providers[0].guid, Guid::from_provider_name("My-Provider"));
  EXPECT_TRUE(s.schema.providers[1].legacy);
  EXPECT_EQ(s.sessions[0].enables[0].provider, 1u);
  EXPECT_EQ(s.sessions[0].enables[0].params->any, 0xFFu);
}

TEST(CheckOutput, LegacyEnablesAreAllKept) {
  const FrontendOutput out = compile_text(
      "provider Old legacy {}\nsession A { enable Old; }\nsession B { enable Old; }\n");
  EXPECT_TRUE(out.ok());
  ASSERT_EQ(out.checked.script.sessions.size(), 2u);
  EXPECT_EQ(out.checked.script.sessions[0].enables.size(), 1u);
  EXPECT_EQ(out.checked.script.sessions[1].enables.size(), 1u);
}

TEST(CheckOutput, Descriptor) {
  const CheckedScript s = checked_clean(
      "provider P { event E (id=513, version=2, level=critical, keyword=0x8000000000000001,\n"
      "  opcode=11, task=700, channel=16) {} }\n");
  const EventDescriptor& d = s.schema.providers[0].events[0].desc;
  EXPECT_EQ(d.id, 513);
  EXPECT_EQ(d.version, 2);
  EXPECT_EQ(d.level, 1);
  EXPECT_EQ(d.keyword, 0x8000000000000001u);
  EXPECT_EQ(d.opcode, 11);
  EXPECT_EQ(d.task, 700);
  EXPECT_EQ(d.channel, 16);
}

TEST(CheckOutput, Extents) {
  const CheckedScript s = checked_clean(
      "provider P { event E (id=1) { N: uint16; L: int8; V: uint32[N]; S: string length=L;\n"
      "  W: wstring[2] length=3; B: binary length=N; F: filetime; T: systemtime; I: sid; } }\n");
  const std::vector<FieldDef>& f = s.schema.providers[0].events[0].fields;
  ASSERT_EQ(f.size(), 9u);
  EXPECT_EQ(f[0].count.kind, Extent::Kind::None);
  EXPECT_EQ(f[2].count.kind, Extent::Kind::Field);
  EXPECT_EQ(f[2].count.value, 0u);
  EXPECT_EQ(f[3].type, InType::AnsiString);
  EXPECT_EQ(f[3].length.kind, Extent::Kind::Field);
  EXPECT_EQ(f[3].length.value, 1u);
  EXPECT_EQ(f[4].count.kind, Extent::Kind::Fixed);
  EXPECT_EQ(f[4].count.value, 2u);
  EXPECT_EQ(f[4].length.kind, Extent::Kind::Fixed);
  EXPECT_EQ(f[4].length.value, 3u);
  EXPECT_EQ(f[5].type, InType::Binary);
  EXPECT_EQ(f[5].length.value, 0u);
  EXPECT_EQ(f[6].type, InType::FileTime);
  EXPECT_EQ(f[7].type, InType::SystemTime);
  EXPECT_EQ(f[8].type, InType::Sid);
}

TEST(CheckOutput, Options) {
  const CheckedScript s = checked_clean(
      "provider P {}\nprovider Q {}\n"
      "session A { enable P level=200 any=0xF0 all=0x30\n"
      "  properties=(ignore_keyword_0, stack_trace, sid, ts_id, process_start_key, event_key);\n"
      "  enable Q; }\n");
  const EnableParams& e = *s.sessions[0].enables[0].params;
  EXPECT_EQ(e.level, 200);
  EXPECT_EQ(e.any, 0xF0u);
  EXPECT_EQ(e.all, 0x30u);
  EXPECT_EQ(e.properties, enable_property::kIgnoreKeyword0 | enable_property::kStackTrace |
                              enable_property::kSid | enable_property::kTsId |
                              enable_property::kProcessStartKey | enable_property::kEventKey);
  const EnableParams& q = *s.sessions[0].enables[1].params;
  EXPECT_EQ(s.sessions[0].enables[1].provider, 1u);
  EXPECT_EQ(q.level, 0);
  EXPECT_EQ(q.any, 0u);
  EXPECT_EQ(q.properties, 0u);
  EXPECT_FALSE(q.pids || q.exe_names || q.package_ids || q.app_ids || q.event_ids || q.stack_ids);
  EXPECT_TRUE(q.payload.empty());
}

TEST(CheckOutput, ScopeAndIdFilters) {
  const CheckedScript s = checked_clean(
      "provider P {}\n"
      "session A { enable P properties=(stack_trace) {\n"
      "  pid 4, 0xFFFFFFFF, 4;\n  exe \"cmd.exe;svchost.exe;cmd.exe\";\n"
      "  package_id \"Pkg_1\";\n  app_id \"App;Other\";\n"
      "  event_id not in 7, 3, 7, 65535;\n  stack_id in 1;\n} }\n");
  const EnableParams& e = *s.sessions[0].enables[0].params;
  ASSERT_TRUE(e.pids);
  EXPECT_EQ(*e.pids, (std::vector<uint32_t>{4, 0xFFFFFFFF}));
  ASSERT_TRUE(e.exe_names);
  EXPECT_EQ(*e.exe_names, (std::vector<std::string>{"cmd.exe", "svchost.exe"}));
  EXPECT_EQ(*e.package_ids, (std::vector<std::string>{"Pkg_1"}));
  EXPECT_EQ(*e.app_ids, (std::vector<std::string>{"App", "Other"}));
  ASSERT_TRUE(e.event_ids);
  EXPECT_FALSE(e.event_ids->filter_in);
  EXPECT_EQ(e.event_ids->ids, (std::vector<uint16_t>{7, 3, 65535}));
  ASSERT_TRUE(e.stack_ids);
  EXPECT_TRUE(e.stack_ids->filter_in);
  EXPECT_EQ(e.stack_ids->ids, (std::vector<uint16_t>{1}));
}

constexpr std::string_view kTypes =
    "provider P { event E (id=9, version=3) {\n"
    "  I8: int8; U8: uint8; I16: int16; U16: uint16; I32: int32; U32: uint32; I64: int64;\n"
    "  U64: uint64; B: bool; H32: hexint32; H64: hexint64; FT: filetime; Ptr: pointer;\n"
    "  S: string; W: wstring; G: guid; } }\n";

const PayloadPredicate& only_pred(const CheckedScript& s, size_t filter = 0) {
  const PayloadExpr& e = s.sessions.at(0).enables.at(0).params->payload.at(filter).expr;
  EXPECT_EQ(e.preds.size(), 1u);
  return e.preds.at(0);
}

TEST(CheckOutput, PayloadValues) {
  struct Row {
    std::string_view pred;
    uint32_t field;
    PayloadOp op;
    uint64_t lo, hi;
  };
  const Row rows[] = {
      {"I8 eq -1", 0, PayloadOp::Eq, ~uint64_t{0}, 0},
      {"I8 lt \"-128\"", 0, PayloadOp::Lt, uint64_t(-128), 0},
      {"U8 == 0xFF", 1, PayloadOp::Eq, 255, 0},
      {"I16 between -300,300", 2, PayloadOp::Between, uint64_t(-300), 300},
      {"U16 not between \"7,16\"", 3, PayloadOp::NotBetween, 7, 16},
      {"I32 >= \" -0x10 \"", 4, PayloadOp::Ge, uint64_t(-16), 0},
      {"U32 modulo 3", 5, PayloadOp::Modulo, 3, 0},
      {"I64 != -9223372036854775808", 6, PayloadOp::Ne, uint64_t{1} << 63, 0},
      {"U64 <= 18446744073709551615", 7, PayloadOp::Le, ~uint64_t{0}, 0},
      {"B eq 1", 8, PayloadOp::Eq, 1, 0},
      {"H32 gt 0xFFFFFFFF", 9, PayloadOp::Gt, 0xFFFFFFFF, 0},
      {"H64 notbetween 0x10,0x20", 10, PayloadOp::NotBetween, 16, 32},
      {"FT ge \"132000000000000000\"", 11, PayloadOp::Ge, 132000000000000000u, 0},
      {"Ptr ne 0", 12, PayloadOp::Ne, 0, 0},
  };
  for (const Row& r : rows) {
    SCOPED_TRACE(r.pred);
    const CheckedScript s =
        checked_clean(std::string(kTypes) + "session A { enable P { payload E any { " +
                      std::string(r.pred) + " } } }\n");
    const PayloadPredicate& p = only_pred(s);
    EXPECT_EQ(p.field, r.field);
    EXPECT_EQ(p.op, r.op);
    EXPECT_EQ(p.value.lo, r.lo);
    EXPECT_EQ(p.value.hi, r.hi);
    EXPECT_EQ(s.sessions[0].enables[0].params->payload[0].event_id, 9);
    EXPECT_EQ(s.sessions[0].enables[0].params->payload[0].event_version, 3);
  }
}

TEST(CheckOutput, PayloadStringsAndGuids) {
  const CheckedScript s = checked_clean(
      std::string(kTypes) +
      "session A { enable P {\n"
      "  payload E all { S contains \" caf\\u{E9} \" }\n"
      "  payload E all { W doesntcontain \"\" }\n"
      "  payload E all { G is \" {0E95CFBC-58D4-44BA-BE40-E63A853536DF}\" }\n"
      "  payload id=9 version=3 all { G isnot {0e95cfbc-58d4-44ba-be40-e63a853536df} }\n"
      "  payload E all { W isnot \"7,16\" }\n"
      "} }\n");
  EXPECT_EQ(only_pred(s, 0).value.text, " caf\xc3\xa9 ");
  EXPECT_EQ(only_pred(s, 0).op, PayloadOp::Contains);
  EXPECT_EQ(only_pred(s, 1).value.text, "");
  EXPECT_EQ(only_pred(s, 1).op, PayloadOp::DoesntContain);
  EXPECT_EQ(only_pred(s, 2).value.guid.to_string(), "{0E95CFBC-58D4-44BA-BE40-E63A853536DF}");
  EXPECT_EQ(only_pred(s, 3).value.guid, only_pred(s, 2).value.guid);
  EXPECT_EQ(only_pred(s, 3).op, PayloadOp::IsNot);
  EXPECT_EQ(only_pred(s, 4).value.text, "7,16");
}

TEST(CheckOutput, GroupFlags) {
  const CheckedScript s = checked_clean(std::string(kTypes) +
                                        "session A { enable P {\n"
                                        "  payload E all { U8 eq 1 } group=all;\n"
                                        "  payload E any { U8 eq 2 } group=any\n"
                                        "  payload E all { U8 eq 3 }\n"
                                        "} }\n");
  const std::vector<PayloadFilter>& f = s.sessions[0].enables[0].params->payload;
  ASSERT_EQ(f.size(), 3u);
  EXPECT_TRUE(f[0].group_all);
  EXPECT_FALSE(f[1].group_all);
  EXPECT_FALSE(f[2].group_all);
  EXPECT_EQ(f[2].expr.preds[0].value.lo, 3u);
}

TEST(CheckOutput, WhereShapes) {
  struct Row {
    std::string_view expr;
    std::string_view shape;
  };
  const Row rows[] = {
      {"U8 eq 1", "p0"},
      {"U8 eq 1 and U16 eq 2", "and(p0 p1)"},
      {"U8 eq 1 or U16 eq 2 and U32 eq 3", "or(p0 and(p1 p2))"},
      {"(U8 eq 1 or U16 eq 2) and not U32 eq 3", "and(or(p0 p1) not(p2))"},
      {"not not U8 eq 1", "not(not(p0))"},
      {"U8 eq 1 or U8 eq 2 or U8 eq 3", "or(p0 p1 p2)"},
  };
  for (const Row& r : rows) {
    SCOPED_TRACE(r.expr);
    const CheckedScript s =
        checked_clean(std::string(kTypes) + "session A { enable P { payload E where " +
                      std::string(r.expr) + "; } }\n");
    const PayloadExpr& e = s.sessions[0].enables[0].params->payload[0].expr;
    EXPECT_EQ(shape(e), r.shape);
    for (size_t i = 0; i < e.nodes.size(); ++i) {
      const PayloadExpr::Node& n = e.nodes[i];
      if (n.kind == PayloadExpr::Node::Kind::Pred) continue;
      for (uint32_t k = 0; k < n.count; ++k) EXPECT_LT(e.kids[n.index + k], i);
    }
  }
}

TEST(CheckOutput, SessionsInOrder) {
  const CheckedScript s = checked_clean(
      "provider P {}\nsession B { enable P; }\nsession A {}\nsession C { enable P level=1; }\n");
  ASSERT_EQ(s.sessions.size(), 3u);
  EXPECT_EQ(s.sessions[0].name, "B");
  EXPECT_EQ(s.sessions[1].name, "A");
  EXPECT_TRUE(s.sessions[1].enables.empty());
  EXPECT_EQ(s.sessions[2].enables[0].params->level, 1);
}

}  // namespace
}  // namespace pfc::test
