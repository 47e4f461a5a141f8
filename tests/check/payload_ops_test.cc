// tests/check/payload_ops_test.cc — the operator/type table (base/payload_ops.h) against
// expectations written out by hand from docs/semantics.md §2.2–§2.3: every operator × every
// field type is accepted or gives the exact error, every integer type's range, the C API's
// PAYLOADFIELD_* codes, and the script spelling of every row (through parser and checker).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/payload_ops.h"
#include "compiler/convert.h"
#include "pfc/etw/tdh.h"
#include "tests/check/test_util.h"

namespace pfc::internal {
namespace {

// Every TDH in-type of the script language, with the operators docs/semantics.md §2.2
// allows on a scalar of that type (space-separated script spellings).
struct TypeRow {
  InType type;
  std::string_view accepted;
};
// `not in` is listed as not_in; the Field* rows share their literal form's spelling.
constexpr std::string_view kIntOps = "eq ne le gt lt ge between notbetween modulo in not_in";
constexpr std::string_view kStrOps =
    "contains doesntcontain is isnot in not_in startswith endswith matches regex is.cs isnot.cs "
    "contains.cs doesntcontain.cs startswith.cs endswith.cs matches.cs regex.cs";
const TypeRow kTypes[] = {
    {InType::Int8, kIntOps},       {InType::UInt8, kIntOps},
    {InType::Int16, kIntOps},      {InType::UInt16, kIntOps},
    {InType::Int32, kIntOps},      {InType::UInt32, kIntOps},
    {InType::Int64, kIntOps},      {InType::UInt64, kIntOps},
    {InType::Boolean, kIntOps},    {InType::HexInt32, kIntOps},
    {InType::HexInt64, kIntOps},   {InType::FileTime, kIntOps},
    {InType::Pointer, kIntOps},    {InType::UnicodeString, kStrOps},
    {InType::AnsiString, kStrOps}, {InType::Guid, "is isnot in not_in"},
    {InType::Float, ""},           {InType::Double, ""},
    {InType::Binary, ""},          {InType::Sid, ""},
    {InType::SystemTime, ""},
};

// Every operator: its PAYLOAD_OPERATOR code (the C API's constant) and spelling.
struct OpRow {
  uint16_t code;
  std::string_view name;
};
const OpRow kOps[] = {
    {PAYLOADFIELD_EQ, "eq"},
    {PAYLOADFIELD_NE, "ne"},
    {PAYLOADFIELD_LE, "le"},
    {PAYLOADFIELD_GT, "gt"},
    {PAYLOADFIELD_LT, "lt"},
    {PAYLOADFIELD_GE, "ge"},
    {PAYLOADFIELD_BETWEEN, "between"},
    {PAYLOADFIELD_NOTBETWEEN, "notbetween"},
    {PAYLOADFIELD_MODULO, "modulo"},
    {PAYLOADFIELD_CONTAINS, "contains"},
    {PAYLOADFIELD_DOESNTCONTAIN, "doesntcontain"},
    {PAYLOADFIELD_IS, "is"},
    {PAYLOADFIELD_ISNOT, "isnot"},
};

// pfc's script-only operators (docs/language.md §3.1): code and spelling.
const OpRow kExtOps[] = {
    {64, "in"},
    {65, "not in"},
    {66, "startswith"},
    {67, "endswith"},
    {68, "matches"},
    {69, "regex"},
    {80, "is.cs"},
    {81, "isnot.cs"},
    {82, "contains.cs"},
    {83, "doesntcontain.cs"},
    {84, "startswith.cs"},
    {85, "endswith.cs"},
    {86, "matches.cs"},
    {87, "regex.cs"},
    {96, "eq"},
    {97, "ne"},
    {98, "le"},
    {99, "gt"},
    {100, "lt"},
    {101, "ge"},
};

std::string token(std::string_view name) { return name == "not in" ? "not_in" : std::string(name); }

bool listed(std::string_view list, std::string_view name) {
  size_t at = 0;
  while (at <= list.size()) {
    size_t end = list.find(' ', at);
    if (end == std::string_view::npos) end = list.size();
    if (list.substr(at, end - at) == name) return true;
    at = end + 1;
  }
  return false;
}

// A value that converts for an accepted (type, operator) pair.
std::string good_value(InType type, std::string_view op) {
  if (type == InType::UnicodeString || type == InType::AnsiString) return "x";
  if (type == InType::Guid) return "{0E95CFBC-58D4-44BA-BE40-E63A853536DF}";
  return op == "between" || op == "notbetween" ? "0,1" : "1";
}

TEST(PayloadOps, CodesAndNamesMatchTheCApi) {
  ASSERT_EQ(std::size(kPayloadOps), std::size(kOps) + std::size(kExtOps));
  for (const OpRow& o : kExtOps) {
    const PayloadOpInfo* row = find_payload_op(o.code);
    ASSERT_NE(row, nullptr) << o.name;
    EXPECT_EQ(row->name, o.name);
    EXPECT_EQ(find_etw_payload_op(o.code), nullptr) << o.name;  // the ETW API's subset
    EXPECT_FALSE(payload_op_takes_pair(row->op));
  }
  for (const OpRow& o : kOps) {
    const PayloadOpInfo* row = find_payload_op(o.code);
    ASSERT_NE(row, nullptr) << o.name;
    EXPECT_EQ(find_etw_payload_op(o.code), row) << o.name;
    EXPECT_EQ(row->name, o.name);
    EXPECT_EQ(payload_op_name(row->op), o.name);
    EXPECT_EQ(payload_op_takes_pair(row->op), o.name == "between" || o.name == "notbetween")
        << o.name;
    EXPECT_EQ(row->nonzero, o.name == "modulo") << o.name;
  }
  for (uint16_t unknown : {9, 10, 19, 22, 29, 32, 0xFFFF})
    EXPECT_EQ(find_payload_op(unknown), nullptr) << unknown;
  EXPECT_EQ(payload_op_name(static_cast<PayloadOp>(PAYLOADFIELD_INVALID)), "?");
}

// Every operator × every type, through value conversion (the checker's and the TDH API's
// path): accepted, or exactly "operator 'OP' cannot be applied to field 'F' of type 'T'".
TEST(PayloadOps, EveryOperatorTimesEveryType) {
  ASSERT_EQ(std::size(kTypes), 21u);  // every InType
  std::vector<OpRow> all(std::begin(kOps), std::end(kOps));
  all.insert(all.end(), std::begin(kExtOps), std::end(kExtOps));
  for (const TypeRow& t : kTypes) {
    for (const OpRow& o : all) {
      const auto op = static_cast<PayloadOp>(o.code);
      const std::string type_name(in_type_name(t.type));
      SCOPED_TRACE(type_name + " " + std::string(o.name));
      const bool ok = listed(t.accepted, token(o.name));
      EXPECT_EQ(payload_op_applies(t.type, op), ok);
      const ConvertResult got = convert_value_text("F", t.type, op, good_value(t.type, o.name));
      if (ok) {
        EXPECT_TRUE(got.has_value()) << got.error();
      } else {
        ASSERT_FALSE(got.has_value());
        EXPECT_EQ(got.error(), "operator '" + std::string(o.name) +
                                   "' cannot be applied to field 'F' of type '" + type_name + "'");
      }
    }
  }
}

// The range of every integer-like type: both ends accepted, one beyond rejected exactly.
TEST(PayloadOps, IntegerRanges) {
  struct Row {
    InType type;
    std::string_view min, max, below, above, range;
  };
  const Row rows[] = {
      {InType::Int8, "-128", "127", "-129", "128", "-128..127"},
      {InType::Int16, "-32768", "32767", "-32769", "32768", "-32768..32767"},
      {InType::Int32, "-2147483648", "2147483647", "-2147483649", "2147483648",
       "-2147483648..2147483647"},
      {InType::Int64, "-9223372036854775808", "9223372036854775807", "-9223372036854775809",
       "9223372036854775808", "-9223372036854775808..9223372036854775807"},
      {InType::UInt8, "0", "255", "-1", "256", "0..255"},
      {InType::UInt16, "0", "65535", "-1", "65536", "0..65535"},
      {InType::UInt32, "0", "4294967295", "-1", "4294967296", "0..4294967295"},
      {InType::HexInt32, "0", "4294967295", "-1", "4294967296", "0..4294967295"},
      {InType::UInt64, "0", "18446744073709551615", "-1", "", "0..18446744073709551615"},
      {InType::HexInt64, "0", "18446744073709551615", "-1", "", "0..18446744073709551615"},
      {InType::FileTime, "0", "18446744073709551615", "-1", "", "0..18446744073709551615"},
      {InType::Pointer, "0", "18446744073709551615", "-1", "", "0..18446744073709551615"},
      {InType::Boolean, "0", "1", "-1", "2", "0..1"},
  };
  for (const Row& r : rows) {
    const std::string type_name(in_type_name(r.type));
    SCOPED_TRACE(type_name);
    EXPECT_TRUE(convert_value_text("F", r.type, PayloadOp::Eq, r.min).has_value());
    EXPECT_TRUE(convert_value_text("F", r.type, PayloadOp::Eq, r.max).has_value());
    for (std::string_view bad : {r.below, r.above}) {
      if (bad.empty()) continue;  // beyond 2^64 - 1 is not an integer at all
      const ConvertResult got = convert_value_text("F", r.type, PayloadOp::Eq, bad);
      ASSERT_FALSE(got.has_value()) << bad;
      EXPECT_EQ(got.error(), "value " + std::string(bad) +
                                 " is out of range for field 'F' of type '" + type_name + "' (" +
                                 std::string(r.range) + ")");
    }
  }
}

// Each row's spelling parses (grammar) and checks (PayloadOp → table by code) to that row.
TEST(PayloadOps, ScriptSpellingOfEveryRow) {
  for (const PayloadOpInfo& row : kPayloadOps) {
    SCOPED_TRACE(std::string(row.name));
    const bool for_ints = (row.kinds & kIntegerKind) != 0;
    const std::string field = for_ints ? "N" : "S";
    std::string value = for_ints ? (row.values == 2 ? "1,2" : "3") : "\"x\"";
    if ((row.flags & kFieldOp) != 0) value = "M";  // a field name: field-to-field
    std::string script =
        "provider P { event E (id=1) { N: uint32; S: wstring; M: uint16; } }\n"
        "session T { enable P { payload E where ";
    script.append(field).append(" ").append(row.name).append(" ").append(value);
    script += "; } }\n";
    const FrontendOutput out = test::compile_text(script);
    ASSERT_TRUE(out.ok()) << test::render_diagnostics(out);
    const EnableParams& params = *out.checked.script.sessions.at(0).enables.at(0).params;
    ASSERT_EQ(params.payload.size(), 1u);
    PayloadOp want = row.op;  // `in` / `not in` of one value: expanded to one eq / ne
    if (row.op == PayloadOp::In) want = PayloadOp::Eq;
    if (row.op == PayloadOp::NotIn) want = PayloadOp::Ne;
    EXPECT_EQ(params.payload[0].expr.preds.at(0).op, want);
  }
}

// The checker's own diagnostics for the table: operator on the wrong type (at the
// operator) and any operator on an array.
TEST(PayloadOps, CheckerDiagnostics) {
  const std::string prelude =
      "provider P { event E (id=1) { G: guid; D: double; A: uint8[2]; } }\n";
  struct Row {
    std::string_view pred, want;
  };
  const Row rows[] = {
      {"G eq 1",
       "2:42: error: operator 'eq' cannot be applied to field 'G' of type 'guid'; use 'is'"},
      {"D is \"1\"", "2:42: error: operator 'is' cannot be applied to field 'D' of type 'double'"},
      {"A eq 1", "2:40: error: field 'A' is an array; payload predicates need a scalar field"},
  };
  for (const Row& r : rows) {
    SCOPED_TRACE(std::string(r.pred));
    const std::string script =
        prelude + "session T { enable P { payload E where " + std::string(r.pred) + "; } }\n";
    EXPECT_EQ(test::render_diagnostics(test::compile_text(script)), r.want);
  }
}

}  // namespace
}  // namespace pfc::internal
