// tests/check/convert_test.cc — TDH-style value conversion and operator/type compatibility
// (compiler/convert.h), independent of the parser.
#include "compiler/convert.h"

#include <gtest/gtest.h>

namespace pfc::internal {
namespace {

constexpr uint64_t kMinus1 = ~uint64_t{0};

TEST(ParseIntText, Table) {
  struct Row {
    std::string_view text;
    bool ok;
    uint64_t magnitude;
    bool negative;
  };
  const Row rows[] = {
      {"0", true, 0, false},
      {"42", true, 42, false},
      {" \t42\r\n", true, 42, false},
      {"-7", true, 7, true},
      {"0x2A", true, 42, false},
      {"0X2a", true, 42, false},
      {"-0x10", true, 16, true},
      {"18446744073709551615", true, kMinus1, false},
      {"0xFFFFFFFFFFFFFFFF", true, kMinus1, false},
      {"18446744073709551616", false, 0, false},
      {"0x10000000000000000", false, 0, false},
      {"", false, 0, false},
      {"   ", false, 0, false},
      {"-", false, 0, false},
      {"0x", false, 0, false},
      {"+5", false, 0, false},
      {"--5", false, 0, false},
      {"- 5", false, 0, false},
      {"5 5", false, 0, false},
      {"12a", false, 0, false},
      {"0x-5", false, 0, false},
  };
  for (const Row& r : rows) {
    const std::optional<IntText> got = parse_int_text(r.text);
    ASSERT_EQ(got.has_value(), r.ok) << "'" << r.text << "'";
    if (got) {
      EXPECT_EQ(got->magnitude, r.magnitude) << r.text;
      EXPECT_EQ(got->negative, r.negative) << r.text;
    }
  }
}

TEST(OpApplies, DesignTable) {
  const InType ints[] = {InType::Int8,    InType::UInt8,    InType::Int16,    InType::UInt16,
                         InType::Int32,   InType::UInt32,   InType::Int64,    InType::UInt64,
                         InType::Boolean, InType::HexInt32, InType::HexInt64, InType::FileTime,
                         InType::Pointer};
  const PayloadOp int_ops[] = {PayloadOp::Eq,      PayloadOp::Ne,         PayloadOp::Le,
                               PayloadOp::Gt,      PayloadOp::Lt,         PayloadOp::Ge,
                               PayloadOp::Between, PayloadOp::NotBetween, PayloadOp::Modulo};
  const PayloadOp str_ops[] = {PayloadOp::Contains, PayloadOp::DoesntContain, PayloadOp::Is,
                               PayloadOp::IsNot};
  for (InType t : ints) {
    for (PayloadOp op : int_ops) EXPECT_TRUE(payload_op_applies(t, op));
    for (PayloadOp op : str_ops) EXPECT_FALSE(payload_op_applies(t, op));
  }
  for (InType t : {InType::UnicodeString, InType::AnsiString}) {
    for (PayloadOp op : int_ops) EXPECT_FALSE(payload_op_applies(t, op));
    for (PayloadOp op : str_ops) EXPECT_TRUE(payload_op_applies(t, op));
  }
  EXPECT_TRUE(payload_op_applies(InType::Guid, PayloadOp::Is));
  EXPECT_TRUE(payload_op_applies(InType::Guid, PayloadOp::IsNot));
  EXPECT_FALSE(payload_op_applies(InType::Guid, PayloadOp::Contains));
  EXPECT_FALSE(payload_op_applies(InType::Guid, PayloadOp::Eq));
  for (InType t :
       {InType::Float, InType::Double, InType::Binary, InType::Sid, InType::SystemTime}) {
    for (PayloadOp op : int_ops) EXPECT_FALSE(payload_op_applies(t, op));
    for (PayloadOp op : str_ops) EXPECT_FALSE(payload_op_applies(t, op));
  }
}

struct TextRow {
  InType type;
  PayloadOp op;
  std::string_view text;
  uint64_t lo, hi;         // expected bits (ignored on error)
  std::string_view error;  // "" = success
};

TEST(ConvertValueText, Integers) {
  const TextRow rows[] = {
      {InType::UInt32, PayloadOp::Eq, "0", 0, 0, ""},
      {InType::UInt32, PayloadOp::Eq, " 1214 ", 1214, 0, ""},
      {InType::UInt32, PayloadOp::Between, "7,16", 7, 16, ""},
      {InType::UInt32, PayloadOp::Between, " 7 , 16 ", 7, 16, ""},
      {InType::UInt32, PayloadOp::NotBetween, "0x10,0x20", 16, 32, ""},
      {InType::UInt32, PayloadOp::Between, "16,7", 0, 0,
       "'between' range is empty: 16 is greater than 7"},
      {InType::Int32, PayloadOp::Between, "-5,-1", uint64_t(-5), kMinus1, ""},
      {InType::Int32, PayloadOp::Between, "-1,-5", 0, 0,
       "'between' range is empty: -1 is greater than -5"},
      {InType::Int8, PayloadOp::Eq, "-128", uint64_t(-128), 0, ""},
      {InType::Int8, PayloadOp::Eq, "127", 127, 0, ""},
      {InType::Int8, PayloadOp::Eq, "128", 0, 0,
       "value 128 is out of range for field 'F' of type 'int8' (-128..127)"},
      {InType::Int8, PayloadOp::Eq, "-129", 0, 0,
       "value -129 is out of range for field 'F' of type 'int8' (-128..127)"},
      {InType::UInt16, PayloadOp::Eq, "65536", 0, 0,
       "value 65536 is out of range for field 'F' of type 'uint16' (0..65535)"},
      {InType::UInt32, PayloadOp::Eq, "-1", 0, 0,
       "value -1 is out of range for field 'F' of type 'uint32' (0..4294967295)"},
      {InType::UInt32, PayloadOp::Eq, "-0", 0, 0, ""},
      {InType::Boolean, PayloadOp::Eq, "1", 1, 0, ""},
      {InType::Boolean, PayloadOp::Eq, "2", 0, 0,
       "value 2 is out of range for field 'F' of type 'bool' (0..1)"},
      {InType::Int64, PayloadOp::Eq, "-9223372036854775808", uint64_t{1} << 63, 0, ""},
      {InType::Int64, PayloadOp::Eq, "9223372036854775808", 0, 0,
       "value 9223372036854775808 is out of range for field 'F' of type 'int64' "
       "(-9223372036854775808..9223372036854775807)"},
      {InType::Pointer, PayloadOp::Eq, "0xFFFFFFFFFFFFFFFF", kMinus1, 0, ""},
      {InType::FileTime, PayloadOp::Ge, "18446744073709551615", kMinus1, 0, ""},
      {InType::HexInt32, PayloadOp::Eq, "0x100000000", 0, 0,
       "value 4294967296 is out of range for field 'F' of type 'hexint32' (0..4294967295)"},
      {InType::UInt32, PayloadOp::Modulo, "0", 0, 0, "'modulo' by zero"},
      {InType::UInt32, PayloadOp::Modulo, "10", 10, 0, ""},
      {InType::UInt32, PayloadOp::Eq, "abc", 0, 0,
       "invalid integer 'abc' for field 'F' of type 'uint32'"},
      {InType::UInt32, PayloadOp::Eq, "", 0, 0,
       "invalid integer '' for field 'F' of type 'uint32'"},
      {InType::UInt32, PayloadOp::Eq, "7,16", 0, 0, "operator 'eq' takes one value, not a pair"},
      {InType::UInt32, PayloadOp::Between, "7", 0, 0,
       "operator 'between' needs two values 'lo,hi'"},
      {InType::UInt32, PayloadOp::Between, "7,16,20", 0, 0,
       "invalid integer '16,20' for field 'F' of type 'uint32'"},
      {InType::UInt32, PayloadOp::Contains, "x", 0, 0,
       "operator 'contains' cannot be applied to field 'F' of type 'uint32'"},
      {InType::Double, PayloadOp::Eq, "1", 0, 0,
       "operator 'eq' cannot be applied to field 'F' of type 'double'"},
  };
  for (const TextRow& r : rows) {
    const ConvertResult got = convert_value_text("F", r.type, r.op, r.text);
    if (r.error.empty()) {
      ASSERT_TRUE(got.has_value()) << r.text << ": " << got.error();
      EXPECT_EQ(got->lo, r.lo) << r.text;
      EXPECT_EQ(got->hi, r.hi) << r.text;
    } else {
      ASSERT_FALSE(got.has_value()) << r.text;
      EXPECT_EQ(got.error(), r.error) << r.text;
    }
  }
}

TEST(ConvertValueText, StringsAndGuids) {
  auto s = convert_value_text("T", InType::UnicodeString, PayloadOp::Contains, " UNI ");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->text, " UNI ");  // strings are not trimmed
  auto a = convert_value_text("T", InType::AnsiString, PayloadOp::Is, "caf\xc3\xa9");
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->text, "caf\xc3\xa9");
  auto bad = convert_value_text("T", InType::UnicodeString, PayloadOp::Is, "\xff");
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error(), "string value for field 'T' of type 'wstring' is not valid UTF-8");
  auto ansi_bytes = convert_value_text("T", InType::AnsiString, PayloadOp::Is, "\xff");
  EXPECT_TRUE(ansi_bytes.has_value());  // 8-bit strings take any bytes
  auto nul =
      convert_value_text("T", InType::AnsiString, PayloadOp::Is, std::string_view("a\0b", 3));
  ASSERT_FALSE(nul.has_value());
  EXPECT_EQ(nul.error(),
            "string value for field 'T' of type 'string' cannot contain NUL characters");

  auto g = convert_value_text("G", InType::Guid, PayloadOp::Is,
                              " {0E95CFBC-58D4-44BA-BE40-E63A853536DF}");
  ASSERT_TRUE(g.has_value()) << g.error();
  EXPECT_EQ(g->guid.to_string(), "{0E95CFBC-58D4-44BA-BE40-E63A853536DF}");
  auto g2 = convert_value_text("G", InType::Guid, PayloadOp::IsNot,
                               "{0e95cfbc-58d4-44ba-be40-e63a853536df}\n");
  ASSERT_TRUE(g2.has_value());
  EXPECT_EQ(g2->guid, g->guid);
  auto gbad =
      convert_value_text("G", InType::Guid, PayloadOp::Is, "0E95CFBC-58D4-44BA-BE40-E63A853536DF");
  ASSERT_FALSE(gbad.has_value());
  EXPECT_EQ(gbad.error(),
            "invalid GUID '0E95CFBC-58D4-44BA-BE40-E63A853536DF' for field 'G' of type 'guid'; "
            "expected {xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}");
  auto gop = convert_value_text("G", InType::Guid, PayloadOp::Contains, "{}");
  ASSERT_FALSE(gop.has_value());
  EXPECT_EQ(gop.error(), "operator 'contains' cannot be applied to field 'G' of type 'guid'");
}

ast::Value int_value(uint64_t m, bool neg = false) {
  ast::Value v;
  v.kind = ast::Value::Kind::Int;
  v.lo = ast::Int{m, neg, {}};
  return v;
}

TEST(ConvertValue, Literals) {
  ast::Value pair;
  pair.kind = ast::Value::Kind::IntPair;
  pair.lo = ast::Int{7, false, {}};
  pair.hi = ast::Int{16, false, {}};
  auto p = convert_value("L", InType::UInt32, PayloadOp::Between, pair);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->lo, 7u);
  EXPECT_EQ(p->hi, 16u);
  auto p_eq = convert_value("L", InType::UInt32, PayloadOp::Eq, pair);
  ASSERT_FALSE(p_eq.has_value());
  EXPECT_EQ(p_eq.error(), "operator 'eq' takes one value, not a pair");
  auto single = convert_value("L", InType::UInt32, PayloadOp::NotBetween, int_value(3));
  ASSERT_FALSE(single.has_value());
  EXPECT_EQ(single.error(), "operator 'notbetween' needs two values 'lo,hi'");
  auto neg = convert_value("L", InType::Int16, PayloadOp::Lt, int_value(300, true));
  ASSERT_TRUE(neg.has_value());
  EXPECT_EQ(neg->lo, uint64_t(-300));
  auto str_int = convert_value("T", InType::UnicodeString, PayloadOp::Is, int_value(5));
  ASSERT_FALSE(str_int.has_value());
  EXPECT_EQ(str_int.error(), "field 'T' of type 'wstring' needs a string value");
  auto guid_int = convert_value("G", InType::Guid, PayloadOp::Is, int_value(5));
  ASSERT_FALSE(guid_int.has_value());
  EXPECT_EQ(guid_int.error(), "field 'G' of type 'guid' needs a GUID value");
  ast::Value g;
  g.kind = ast::Value::Kind::Guid;
  g.text = "{37a59b93-bb25-4cee-97aa-8b6acd0c4df8}";
  auto gi = convert_value("L", InType::UInt32, PayloadOp::Eq, g);
  ASSERT_FALSE(gi.has_value());
  EXPECT_EQ(gi.error(), "field 'L' of type 'uint32' needs an integer value");
  auto gg = convert_value("G", InType::Guid, PayloadOp::Is, g);
  ASSERT_TRUE(gg.has_value());
  EXPECT_EQ(gg->guid.to_string(), "{37A59B93-BB25-4CEE-97AA-8B6ACD0C4DF8}");
  ast::Value s;
  s.kind = ast::Value::Kind::String;
  s.text = "7,16";
  auto sp = convert_value("L", InType::UInt8, PayloadOp::Between, s);
  ASSERT_TRUE(sp.has_value());
  EXPECT_EQ(sp->lo, 7u);
  EXPECT_EQ(sp->hi, 16u);
}

}  // namespace
}  // namespace pfc::internal
