// tests/io/event_fields_test.cc — io/event_fields_simple.h against the general path of
// encode_json_fields on random "fields" objects: whenever the simple path encodes, the
// general one must give the same bytes; the simple path must take the plain cases (values
// of the right kind, in declaration order) and decline every other shape.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include <simdjson.h>

#include "io/event_fields.h"
#include "io/event_fields_simple.h"

namespace pfc::io {
namespace {

EventDef simple_event() {
  EventDef e;
  e.name = "E";
  const std::pair<const char*, InType> fields[] = {
      {"I8", InType::Int8},      {"U8", InType::UInt8},        {"I16", InType::Int16},
      {"U16", InType::UInt16},   {"I32", InType::Int32},       {"U32", InType::UInt32},
      {"I64", InType::Int64},    {"U64", InType::UInt64},      {"B", InType::Boolean},
      {"H32", InType::HexInt32}, {"H64", InType::HexInt64},    {"P", InType::Pointer},
      {"FT", InType::FileTime},  {"W", InType::UnicodeString}, {"S", InType::AnsiString},
      {"G", InType::Guid},
  };
  for (const auto& [name, type] : fields) e.fields.push_back(FieldDef{name, type, {}, {}});
  return e;
}

// JSON texts of values: integer boundaries of every width, bools, null, strings (ASCII,
// 2-, 3- and 4-byte UTF-8, an escaped NUL, integer text), GUIDs good and bad, a double, an
// array, an object.
const std::vector<std::string>& value_pool() {
  static const std::vector<std::string> pool = {
      "0",
      "1",
      "-1",
      "127",
      "128",
      "-128",
      "-129",
      "255",
      "256",
      "32767",
      "32768",
      "-32768",
      "-32769",
      "65535",
      "65536",
      "2147483647",
      "2147483648",
      "-2147483648",
      "-2147483649",
      "4294967295",
      "4294967296",
      "9223372036854775807",
      "9223372036854775808",
      "-9223372036854775808",
      "18446744073709551615",
      "true",
      "false",
      "null",
      "\"\"",
      "\"abc\"",
      "\"\\u00e9\\u4e2d\\ud83d\\ude00x\"",
      "\"a\\u0000b\"",
      "\"0x10\"",
      "\"12\"",
      "\"{0E95CFBC-58D4-44BA-BE40-E63A853536DF}\"",
      "\"{0e95cfbc-58d4-44ba-be40-e63a853536df}\"",
      "\"{0E95CFBC-58D4-44BA-BE40-E63A853536DG}\"",
      "1.5",
      "[1,2]",
      "{}",
  };
  return pool;
}

// A value that suits `type` (the simple path must take objects made of these).
std::string plain_value(InType type, std::mt19937& rng) {
  switch (type) {
    case InType::UnicodeString: return rng() % 2 ? "\"abc\"" : "\"\\u00e9\\u4e2d\\ud83d\\ude00x\"";
    case InType::AnsiString: return "\"text\"";
    case InType::Guid: return "\"{0E95CFBC-58D4-44BA-BE40-E63A853536DF}\"";
    case InType::Boolean: return rng() % 2 ? "true" : "1";
    case InType::Int8: return "-128";
    case InType::UInt8: return "255";
    case InType::Int16: return "-32768";
    case InType::UInt16: return "65535";
    case InType::Int32: return "-2147483648";
    default: return "4294967295";
  }
}

struct Outcome {
  bool simple = false;
  std::vector<uint8_t> simple_bytes;
  std::expected<void, std::string> general;
  std::vector<uint8_t> general_bytes;
};

Outcome encode_both(const EventDef& e, const std::string& json) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(json);
  Outcome o;
  o.simple = encode_simple_fields(e, doc.get_object(), o.simple_bytes);
  o.general = encode_json_fields_general(e, doc.get_object(), o.general_bytes);
  return o;
}

TEST(EventFieldsSimple, PlainObjectsTakeTheSimplePathWithTheGeneralBytes) {
  const EventDef e = simple_event();
  std::mt19937 rng(11);
  for (int round = 0; round < 200; ++round) {
    std::string json = "{";
    for (size_t i = 0; i < e.fields.size(); ++i)
      json +=
          (i ? "," : "") + ("\"" + e.fields[i].name + "\":") + plain_value(e.fields[i].type, rng);
    json += "}";
    const Outcome o = encode_both(e, json);
    ASSERT_TRUE(o.simple) << json;
    ASSERT_TRUE(o.general) << json << ": " << o.general.error();
    ASSERT_EQ(o.simple_bytes, o.general_bytes) << json;
  }
}

TEST(EventFieldsSimple, RandomObjectsNeverDisagree) {
  const EventDef e = simple_event();
  const auto& pool = value_pool();
  std::mt19937 rng(12);
  int simple = 0, declined = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string json = "{";
    bool first = true;
    const auto add = [&](const std::string& key, const std::string& value) {
      json.append(first ? "\"" : ",\"").append(key).append("\":").append(value);
      first = false;
    };
    for (size_t i = 0; i < e.fields.size(); ++i) {
      const unsigned r = rng() % 320;
      const std::string& name = e.fields[i].name;
      if (r == 0) continue;                                                   // missing
      if (r == 1) add("Unknown", "1");                                        // unknown name
      if (r == 2 && i + 1 < e.fields.size()) add(e.fields[i + 1].name, "0");  // out of order
      add(name, r < 280 ? plain_value(e.fields[i].type, rng) : pool[rng() % pool.size()]);
      if (r == 3) add(name, "0");  // repeated
    }
    json += "}";
    const Outcome o = encode_both(e, json);
    if (!o.simple) {
      ++declined;
      continue;
    }
    ++simple;
    ASSERT_TRUE(o.general) << json << ": " << o.general.error();
    ASSERT_EQ(o.simple_bytes, o.general_bytes) << json;
  }
  EXPECT_GT(simple, 100);
  EXPECT_GT(declined, 100);
}

TEST(EventFieldsSimple, OtherShapesAreDeclined) {
  EventDef counted = simple_event();
  counted.fields.push_back(FieldDef{"Items", InType::UInt32, Extent{Extent::Kind::Fixed, 2}, {}});
  EventDef real = simple_event();
  real.fields.push_back(FieldDef{"D", InType::Double, {}, {}});
  std::vector<uint8_t> out;
  simdjson::dom::parser parser;
  simdjson::dom::element empty = parser.parse(std::string("{}"));
  EXPECT_FALSE(encode_simple_fields(counted, empty.get_object(), out));
  EXPECT_FALSE(encode_simple_fields(real, empty.get_object(), out));
  EventDef none;
  EXPECT_TRUE(encode_simple_fields(none, empty.get_object(), out));
  EXPECT_TRUE(out.empty());
}

}  // namespace
}  // namespace pfc::io
