// tests/tdh/guid_schema_test.cc — Guid parsing/printing/byte order/provider-name hash and
// the schema helpers (in-type names and properties, lookups).
#include <gtest/gtest.h>

#include <cctype>
#include <string>

#include "pfc/guid.h"
#include "pfc/schema.h"

namespace pfc {
namespace {

TEST(Guid, ParsePrintRoundTrip) {
  const auto g = Guid::parse("{0e95cfbc-58d4-44ba-BE40-e63a853536df}");
  ASSERT_TRUE(g);
  EXPECT_EQ(g->data1, 0x0E95CFBCu);
  EXPECT_EQ(g->data2, 0x58D4);
  EXPECT_EQ(g->data3, 0x44BA);
  EXPECT_EQ(g->data4[0], 0xBE);
  EXPECT_EQ(g->data4[7], 0xDF);
  EXPECT_EQ(g->to_string(), "{0E95CFBC-58D4-44BA-BE40-E63A853536DF}");
  EXPECT_EQ(Guid::parse(g->to_string()), g);
  EXPECT_FALSE(g->is_null());
  EXPECT_TRUE(Guid::parse("{00000000-0000-0000-0000-000000000000}")->is_null());
}

TEST(Guid, ParseRejects) {
  for (const char* bad : {
           "", "{}", "0E95CFBC-58D4-44BA-BE40-E63A853536DF",  // no braces
           " {0E95CFBC-58D4-44BA-BE40-E63A853536DF}",         // leading space
           "{0E95CFBC-58D4-44BA-BE40-E63A853536DF} ",         // trailing space
           "{0E95CFBC-58D4-44BA-BE40-E63A853536D}",           // short
           "{0E95CFBC-58D4-44BA-BE40-E63A853536DFF}",         // long
           "{0E95CFBC-58D4-44BA-BE40+E63A853536DF}",          // wrong separator
           "{0E95CFBC58D4-44BA-BE40-E63A853536DF0}",          // dash misplaced
           "{0E95CFBG-58D4-44BA-BE40-E63A853536DF}",          // non-hex
           "(0E95CFBC-58D4-44BA-BE40-E63A853536DF)",          // wrong brackets
       }) {
    EXPECT_FALSE(Guid::parse(bad)) << bad;
  }
}

// Every character position of a valid GUID, replaced by every byte: accepted exactly when
// the position holds a hex digit and the byte is one (Guid::parse reads digits by table).
TEST(Guid, ParseChecksEveryPositionForEveryByte) {
  const std::string good = "{0123ABCD-4567-89ef-aBcD-0123456789aB}";
  const auto is_hex = [](int c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  };
  for (size_t i = 0; i < good.size(); ++i) {
    for (int c = 0; c < 256; ++c) {
      std::string text = good;
      text[i] = char(c);
      const bool digit_place = is_hex(good[i]);
      const bool accept = digit_place ? is_hex(c) : char(c) == good[i];
      const auto g = Guid::parse(text);
      ASSERT_EQ(g.has_value(), accept) << "position " << i << " byte " << c;
      if (!accept) continue;
      std::string upper = text;
      for (char& ch : upper) ch = char(std::toupper(static_cast<unsigned char>(ch)));
      ASSERT_EQ(g->to_string(), upper) << "position " << i << " byte " << c;
    }
  }
  const auto g = Guid::parse(good);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->to_string(), "{0123ABCD-4567-89EF-ABCD-0123456789AB}");
}

TEST(Guid, PayloadBytesAreLittleEndianData1To3) {
  const Guid g = *Guid::parse("{00112233-4455-6677-8899-AABBCCDDEEFF}");
  const std::array<uint8_t, 16> expected = {0x33, 0x22, 0x11, 0x00, 0x55, 0x44, 0x77, 0x66,
                                            0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF};
  EXPECT_EQ(g.to_bytes(), expected);
  EXPECT_EQ(Guid::from_bytes(expected.data()), g);
}

// Pairs confirmed from public sources: the TraceLogging documentation's example provider
// (TRACELOGGING_DEFINE_PROVIDER) and .NET's HttpEventSource, whose declared GUID is
// asserted equal to EventSource.GetGuid in the dotnet tests.
TEST(Guid, FromProviderName) {
  EXPECT_EQ(Guid::from_provider_name("MyCompany.MyComponent"),
            *Guid::parse("{ce5fa4ea-ab00-5402-8b76-9f76ac858fb5}"));
  EXPECT_EQ(Guid::from_provider_name("Microsoft-System-Net-Http"),
            *Guid::parse("{bdd9a83e-1929-5482-0d73-2fe5e1c0e16d}"));
  // The name is upper-cased before hashing.
  EXPECT_EQ(Guid::from_provider_name("mycompany.mycomponent"),
            Guid::from_provider_name("MyCompany.MyComponent"));
  EXPECT_NE(Guid::from_provider_name("MyCompany.MyComponent2"),
            Guid::from_provider_name("MyCompany.MyComponent"));
  // Version nibble 5.
  EXPECT_EQ(Guid::from_provider_name("Example-Provider").data3 >> 12, 5);
}

TEST(Schema, TypeNamesRoundTrip) {
  const char* names[] = {"int8",    "uint8",    "int16",      "uint16", "int32",    "uint32",
                         "int64",   "uint64",   "float",      "double", "bool",     "guid",
                         "pointer", "filetime", "systemtime", "sid",    "hexint32", "hexint64",
                         "wstring", "string",   "binary"};
  for (const char* name : names) {
    const auto t = in_type_from_name(name);
    ASSERT_TRUE(t) << name;
    EXPECT_EQ(in_type_name(*t), name);
  }
  EXPECT_EQ(in_type_from_name("wstring"), InType::UnicodeString);
  EXPECT_EQ(in_type_from_name("bool"), InType::Boolean);
  EXPECT_FALSE(in_type_from_name("Int8"));
  EXPECT_FALSE(in_type_from_name("char"));
  EXPECT_FALSE(in_type_from_name(""));
}

TEST(Schema, TypeProperties) {
  struct Row {
    InType t;
    uint32_t size;
    bool integer, is_signed, string;
  };
  const Row rows[] = {
      {InType::Int8, 1, true, true, false},           {InType::UInt8, 1, true, false, false},
      {InType::Int16, 2, true, true, false},          {InType::UInt16, 2, true, false, false},
      {InType::Int32, 4, true, true, false},          {InType::UInt32, 4, true, false, false},
      {InType::Int64, 8, true, true, false},          {InType::UInt64, 8, true, false, false},
      {InType::Float, 4, false, false, false},        {InType::Double, 8, false, false, false},
      {InType::Boolean, 4, true, false, false},       {InType::Guid, 16, false, false, false},
      {InType::Pointer, 8, true, false, false},       {InType::FileTime, 8, true, false, false},
      {InType::SystemTime, 16, false, false, false},  {InType::Sid, 0, false, false, false},
      {InType::HexInt32, 4, true, false, false},      {InType::HexInt64, 8, true, false, false},
      {InType::UnicodeString, 0, false, false, true}, {InType::AnsiString, 0, false, false, true},
      {InType::Binary, 0, false, false, false},
  };
  for (const Row& r : rows) {
    SCOPED_TRACE(in_type_name(r.t));
    EXPECT_EQ(in_type_fixed_size(r.t), r.size);
    EXPECT_EQ(in_type_is_integer(r.t), r.integer);
    EXPECT_EQ(in_type_is_signed(r.t), r.is_signed);
    EXPECT_EQ(in_type_is_string(r.t), r.string);
  }
}

TEST(Schema, Lookups) {
  Schema schema;
  ProviderDef p;
  p.name = "Example-Provider";
  p.guid = *Guid::parse("{37a59b93-bb25-4cee-97aa-8b6acd0c4df8}");
  EventDef e1{
      "Example_Event_1", {}, {{"Initiator", InType::UnicodeString}, {"Level", InType::UInt32}}};
  e1.desc.id = 1;
  EventDef e2{"Example_Event_2", {}, {}};
  e2.desc.id = 1;
  e2.desc.version = 2;
  p.events = {e1, e2};
  schema.providers.push_back(p);
  ProviderDef q;
  q.name = "Other";
  q.guid = Guid::from_provider_name("Other");
  schema.providers.push_back(q);

  EXPECT_EQ(schema.find_provider("Example-Provider"), &schema.providers[0]);
  EXPECT_EQ(schema.find_provider("example-provider"), nullptr);  // names are case-sensitive
  EXPECT_EQ(schema.find_provider(Guid::from_provider_name("Other")), &schema.providers[1]);
  EXPECT_EQ(schema.find_provider(Guid{}), nullptr);
  const ProviderDef& pp = schema.providers[0];
  EXPECT_EQ(pp.find_event("Example_Event_2"), &pp.events[1]);
  EXPECT_EQ(pp.find_event("Nope"), nullptr);
  EXPECT_EQ(pp.find_event(1, 0), &pp.events[0]);
  EXPECT_EQ(pp.find_event(1, 2), &pp.events[1]);
  EXPECT_EQ(pp.find_event(1, 1), nullptr);
  EXPECT_EQ(pp.events[0].find_field("Level"), 1u);
  EXPECT_EQ(pp.events[0].find_field("level"), std::nullopt);
}

}  // namespace
}  // namespace pfc
