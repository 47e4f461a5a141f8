// tests/tdh/encode_test.cc — encode_payload: byte layout per type, round trips through the
// TDH decoder, derived counts/lengths, defaults, and every user-value error.
#include "runtime/encode.h"

#include <gtest/gtest.h>

#include "payload_builder.h"
#include "pfc/enable.h"
#include "runtime/casefold.h"
#include "runtime/str_search.h"
#include "runtime/tdh.h"

namespace pfc {
namespace {

using testing::Payload;
using V = FieldValue;
using Values = std::vector<std::pair<std::string, FieldValue>>;

constexpr uint64_t kNoLen = PFC_TDH_NO_LENGTH;

Extent fixed(uint32_t v) { return {Extent::Kind::Fixed, v}; }
Extent ref(uint32_t v) { return {Extent::Kind::Field, v}; }

EventDef event(std::vector<FieldDef> fields) { return EventDef{"E", {}, std::move(fields)}; }

std::vector<uint8_t> encode_ok(const EventDef& e, const Values& v) {
  auto r = encode_payload(e, v);
  EXPECT_TRUE(r) << r.error().message;
  return r ? *r : std::vector<uint8_t>{};
}

std::string encode_err(const EventDef& e, const Values& v) {
  auto r = encode_payload(e, v);
  EXPECT_FALSE(r);
  return r ? "" : r.error().message;
}

TEST(Encode, ScalarLayouts) {
  const Guid g = *Guid::parse("{00112233-4455-6677-8899-AABBCCDDEEFF}");
  const EventDef e = event({{"a", InType::Int8},
                            {"b", InType::UInt16},
                            {"c", InType::Int32},
                            {"d", InType::UInt64},
                            {"f", InType::Float},
                            {"g", InType::Double},
                            {"h", InType::Boolean},
                            {"i", InType::Guid},
                            {"j", InType::Pointer},
                            {"k", InType::FileTime},
                            {"l", InType::HexInt32},
                            {"m", InType::HexInt64},
                            {"n", InType::UnicodeString},
                            {"o", InType::AnsiString},
                            {"p", InType::Int64},
                            {"q", InType::Guid}});
  const auto got = encode_ok(e, {{"a", V::of_int(-2)},
                                 {"b", V::of_uint(0x1234)},
                                 {"c", V::of_int(INT32_MIN)},
                                 {"d", V::of_uint(UINT64_MAX)},
                                 {"f", V::of_double(1.5)},
                                 {"g", V::of_int(-2)},
                                 {"h", V::of_bool(true)},
                                 {"i", V::of_guid(g)},
                                 {"j", V::of_string("0xDEADBEEF")},
                                 {"k", V::of_uint(1)},
                                 {"l", V::of_uint(0xFFFFFFFF)},
                                 {"m", V::of_string("0xFFFFFFFFFFFFFFFF")},
                                 {"n", V::of_string("h\xC3\xA9\xF0\x9F\x98\x80")},
                                 {"o", V::of_string("h\xC3\xA9")},
                                 {"p", V::of_string("-9223372036854775808")},
                                 {"q", V::of_string(g.to_string())}});
  Payload p;
  p.u8(0xFE).u16(0x1234).u32(0x80000000).u64(UINT64_MAX).u32(0x3FC00000).u64(0xC000000000000000);
  p.u32(1);
  const auto gb = g.to_bytes();
  p.bytes.insert(p.bytes.end(), gb.begin(), gb.end());
  p.u64(0xDEADBEEF).u64(1).u32(0xFFFFFFFF).u64(UINT64_MAX);
  p.wstr(u"h\u00e9\U0001F600").str("h\xC3\xA9").u64(0x8000000000000000);
  p.bytes.insert(p.bytes.end(), gb.begin(), gb.end());
  EXPECT_EQ(got, p.bytes);
}

TEST(Encode, StructuredTypes) {
  const EventDef e = event({{"sid", InType::Sid},
                            {"st", InType::SystemTime},
                            {"st2", InType::SystemTime},
                            {"bin", InType::Binary, {}, fixed(3)},
                            {"bin2", InType::Binary, {}, fixed(2)}});
  const auto got = encode_ok(
      e, {{"sid", V::of_bytes({1, 1, 0, 0, 0, 0, 0, 5, 18, 0, 0, 0})},
          {"st", V::of_array({V::of_uint(2024), V::of_uint(2), V::of_uint(4), V::of_uint(29),
                              V::of_uint(23), V::of_uint(59), V::of_uint(58), V::of_uint(999)})},
          {"st2", V::of_bytes(std::vector<uint8_t>(16, 7))},
          {"bin", V::of_array({V::of_uint(255), V::of_int(0), V::of_uint(1)})},
          {"bin2", V::of_bytes({9})}});
  Payload p;
  p.raw({1, 1, 0, 0, 0, 0, 0, 5, 18, 0, 0, 0});
  p.u16(2024).u16(2).u16(4).u16(29).u16(23).u16(59).u16(58).u16(999);
  p.bytes.insert(p.bytes.end(), 16, 7);
  p.raw({255, 0, 1}).raw({9, 0});  // a short binary is padded to its length
  EXPECT_EQ(got, p.bytes);
}

TEST(Encode, DefaultsForMissingAndNullFields) {
  const EventDef e = event({{"i", InType::Int32},
                            {"s", InType::UnicodeString},
                            {"a", InType::AnsiString},
                            {"g", InType::Guid},
                            {"sid", InType::Sid},
                            {"st", InType::SystemTime},
                            {"f", InType::Float},
                            {"arr", InType::UInt16, fixed(2)},
                            {"fs", InType::UnicodeString, {}, fixed(2)},
                            {"b", InType::Boolean}});
  Payload p;
  p.u32(0).u16(0).u8(0);
  p.bytes.insert(p.bytes.end(), 16, 0);
  p.raw({1, 0, 0, 0, 0, 0, 0, 0});
  p.bytes.insert(p.bytes.end(), 16, 0);
  p.u32(0).u16(0).u16(0).u16(0).u16(0).u32(0);
  EXPECT_EQ(encode_ok(e, {}), p.bytes);
  EXPECT_EQ(encode_ok(e, {{"i", V::null()}, {"sid", V::null()}}), p.bytes);
}

TEST(Encode, DerivedCountsAndLengths) {
  const EventDef e = event({{"N", InType::UInt8},
                            {"Items", InType::UInt16, ref(0)},
                            {"Len", InType::UInt32},
                            {"Name", InType::UnicodeString, {}, ref(2)},
                            {"BLen", InType::UInt16},
                            {"Blob", InType::Binary, {}, ref(4)},
                            {"SLen", InType::UInt8},
                            {"Tags", InType::AnsiString, fixed(2), ref(6)}});
  const auto got =
      encode_ok(e, {{"Items", V::of_array({V::of_uint(1), V::of_uint(2), V::of_uint(3)})},
                    {"Name", V::of_string("x\xF0\x9F\x98\x80")},  // 3 UTF-16 code units
                    {"Blob", V::of_bytes({7, 8})},
                    {"Tags", V::of_array({V::of_string("abc"), V::of_string("d")})}});
  Payload p;
  p.u8(3).u16(1).u16(2).u16(3).u32(3).wstr(u"x\U0001F600", false).u16(2).raw({7, 8});
  p.u8(3).str("abc", false).str("d", false).raw({0, 0});
  EXPECT_EQ(got, p.bytes);
  // Given sources that agree give the same bytes; a longer given length pads.
  EXPECT_EQ(encode_ok(e, {{"N", V::of_uint(3)},
                          {"Items", V::of_array({V::of_uint(1), V::of_uint(2), V::of_uint(3)})},
                          {"Len", V::of_uint(3)},
                          {"Name", V::of_string("x\xF0\x9F\x98\x80")},
                          {"Blob", V::of_bytes({7, 8})},
                          {"Tags", V::of_array({V::of_string("abc"), V::of_string("d")})}}),
            p.bytes);
  // A given source with the dependent missing: default elements / padding.
  Payload q;
  q.u8(2).u16(0).u16(0).u32(1).u16(0).u16(1).u8(0).u8(0);  // Tags: 2 strings of length 0
  EXPECT_EQ(encode_ok(e, {{"N", V::of_uint(2)}, {"Len", V::of_uint(1)}, {"BLen", V::of_uint(1)}}),
            q.bytes);
}

// Encodes, then walks the payload with the decoder and evaluates predicates on it.
TEST(Encode, RoundTripThroughDecoder) {
  const EventDef e = event({{"Initiator", InType::UnicodeString},
                            {"Level", InType::UInt32},
                            {"Count", InType::UInt16},
                            {"Names", InType::AnsiString, ref(2)},
                            {"Id", InType::Guid},
                            {"Delta", InType::Int16}});
  const Guid g = *Guid::parse("{0E95CFBC-58D4-44BA-BE40-E63A853536DF}");
  const auto bytes = encode_ok(
      e, {{"Delta", V::of_int(-300)},
          {"Initiator", V::of_string("User \xC3\x89t\xC3\xA9")},
          {"Level", V::of_uint(7)},
          {"Names", V::of_array({V::of_string("one"), V::of_string(""), V::of_string("three")})},
          {"Id", V::of_string("{0e95cfbc-58d4-44ba-be40-e63a853536df}")}});
  const uint8_t* p = bytes.data();
  const uint64_t n = bytes.size();
  const std::u32string needle = fold_utf8("user \xC3\xA9T\xC3\x89");
  EXPECT_EQ(pfc_tdh_str_pred(p, n, 0, 1, kNoLen, 30, needle.data(), needle.size(),
                             needle_links(needle).data()),
            1);
  uint64_t off = pfc_tdh_skip(p, n, 0, 1, 1, kNoLen);
  int ok = 0;
  EXPECT_EQ(pfc_tdh_load_int(p, n, off, 8, &ok), 7u);
  EXPECT_EQ(pfc_tdh_int_pred(static_cast<uint32_t>(PayloadOp::Between), 0, 7, 7, 16), 1);
  off = pfc_tdh_skip(p, n, off, 8, 1, kNoLen);
  const uint64_t count = pfc_tdh_load_int(p, n, off, 6, &ok);
  EXPECT_EQ(count, 3u);
  off = pfc_tdh_skip(p, n, off, 6, 1, kNoLen);
  off = pfc_tdh_skip(p, n, off, 2, count, kNoLen);
  EXPECT_EQ(pfc_tdh_guid_pred(p, n, off, 30, g.to_bytes().data()), 1);
  off = pfc_tdh_skip(p, n, off, 15, 1, kNoLen);
  EXPECT_EQ(static_cast<int64_t>(pfc_tdh_load_int(p, n, off, 5, &ok)), -300);
  EXPECT_EQ(pfc_tdh_skip(p, n, off, 5, 1, kNoLen), n);
}

TEST(Encode, IntegerRanges) {
  struct Row {
    InType t;
    FieldValue ok_lo, ok_hi, bad;
  };
  const Row rows[] = {
      {InType::Int8, V::of_int(-128), V::of_int(127), V::of_int(128)},
      {InType::Int8, V::of_int(-128), V::of_int(127), V::of_int(-129)},
      {InType::UInt8, V::of_uint(0), V::of_uint(255), V::of_uint(256)},
      {InType::UInt8, V::of_uint(0), V::of_uint(255), V::of_int(-1)},
      {InType::Int16, V::of_int(-32768), V::of_int(32767), V::of_int(32768)},
      {InType::UInt16, V::of_uint(0), V::of_uint(65535), V::of_uint(65536)},
      {InType::Int32, V::of_int(INT32_MIN), V::of_int(INT32_MAX),
       V::of_int(int64_t{INT32_MIN} - 1)},
      {InType::UInt32, V::of_uint(0), V::of_uint(UINT32_MAX), V::of_uint(uint64_t{UINT32_MAX} + 1)},
      {InType::HexInt32, V::of_uint(0), V::of_uint(UINT32_MAX),
       V::of_uint(uint64_t{UINT32_MAX} + 1)},
      {InType::Int64, V::of_int(INT64_MIN), V::of_int(INT64_MAX),
       V::of_uint(uint64_t{INT64_MAX} + 1)},
      {InType::UInt64, V::of_uint(0), V::of_uint(UINT64_MAX), V::of_int(-1)},
      {InType::Pointer, V::of_uint(0), V::of_uint(UINT64_MAX), V::of_int(-1)},
      {InType::FileTime, V::of_uint(0), V::of_uint(UINT64_MAX),
       V::of_string("0x10000000000000000")},
      {InType::Boolean, V::of_uint(0), V::of_uint(1), V::of_uint(2)},
  };
  for (const Row& r : rows) {
    SCOPED_TRACE(in_type_name(r.t));
    const EventDef e = event({{"F", r.t}});
    EXPECT_TRUE(encode_payload(e, {{"F", r.ok_lo}}));
    EXPECT_TRUE(encode_payload(e, {{"F", r.ok_hi}}));
    EXPECT_EQ(encode_err(e, {{"F", r.bad}}),
              "field 'F': " + r.bad.describe() + " does not fit " + std::string(in_type_name(r.t)));
  }
}

TEST(Encode, Errors) {
  const EventDef e = event({{"Level", InType::UInt8},
                            {"Name", InType::UnicodeString},
                            {"Tag", InType::AnsiString, {}, fixed(3)},
                            {"N", InType::UInt8},
                            {"Items", InType::UInt32, ref(3)},
                            {"Id", InType::Guid},
                            {"Blob", InType::Binary, {}, fixed(2)},
                            {"Sid", InType::Sid},
                            {"St", InType::SystemTime},
                            {"F", InType::Float},
                            {"Arr", InType::UInt8, fixed(2)},
                            {"B", InType::Boolean}});
  struct Row {
    Values values;
    std::string message;
  };
  const std::vector<Row> rows = {
      {{{"Level", V::of_uint(300)}}, "field 'Level': 300 does not fit uint8"},
      {{{"Level", V::of_string("abc")}},
       "field 'Level': expected an integer for uint8, got \"abc\""},
      {{{"Level", V::of_double(1.5)}}, "field 'Level': expected an integer for uint8, got 1.5"},
      {{{"Level", V::of_bool(true)}}, "field 'Level': expected an integer for uint8, got true"},
      {{{"Nope", V::of_uint(1)}}, "unknown field 'Nope' in event 'E'"},
      {{{"Level", V::of_uint(1)}, {"Level", V::of_uint(2)}}, "field 'Level' is given twice"},
      {{{"Name", V::of_uint(1)}}, "field 'Name': expected a string, got 1"},
      {{{"Name", V::of_string("a\xFF")}}, "field 'Name': the string is not valid UTF-8"},
      {{{"Name", V::of_string(std::string("a\0b", 3))}},
       "field 'Name': a NUL-terminated string cannot contain NUL"},
      {{{"Tag", V::of_string("abcd")}},
       "field 'Tag': the string has 4 bytes, more than its length 3"},
      {{{"N", V::of_uint(2)}, {"Items", V::of_array({V::of_uint(1)})}},
       "field 'Items': an array of 1 elements, but its count field 'N' is 2"},
      {{{"N", V::of_int(-1)}},
       "field 'N': expected a non-negative integer (it is the count of 'Items'), got -1"},
      {{{"Items", V::of_array(std::vector<V>(256, V::of_uint(0)))}},
       "field 'N': 256 does not fit uint8"},
      {{{"Items", V::of_uint(1)}}, "field 'Items': expected an array, got 1"},
      {{{"Items", V::of_array({V::of_uint(1), V::of_int(-1)})}},
       "field 'Items[1]': -1 does not fit uint32"},
      {{{"Id", V::of_string("0E95CFBC-58D4-44BA-BE40-E63A853536DF")}},
       "field 'Id': expected a GUID \"{...}\", got \"0E95CFBC-58D4-44BA-BE40-E63A853536DF\""},
      {{{"Blob", V::of_bytes({1, 2, 3})}}, "field 'Blob': 3 bytes, more than its length 2"},
      {{{"Blob", V::of_array({V::of_uint(256)})}},
       "field 'Blob': expected bytes (0..255), got 256"},
      {{{"Blob", V::of_string("ab")}}, "field 'Blob': expected bytes, got \"ab\""},
      {{{"Sid", V::of_bytes({1, 1, 0, 0, 0, 0, 0, 5})}},
       "field 'Sid': a SID of 8 bytes must be 8 + 4 * SubAuthorityCount (byte 1) bytes long"},
      {{{"Sid", V::of_bytes({1})}},
       "field 'Sid': a SID of 1 bytes must be 8 + 4 * SubAuthorityCount (byte 1) bytes long"},
      {{{"St", V::of_bytes({1, 2})}},
       "field 'St': expected 16 bytes or 8 integers for systemtime, got 2 bytes"},
      {{{"St", V::of_array(std::vector<V>(8, V::of_uint(65536)))}},
       "field 'St': 65536 does not fit a SYSTEMTIME member (0..65535)"},
      {{{"F", V::of_double(1e39)}}, "field 'F': 1e+39 does not fit float"},
      {{{"F", V::of_string("1")}}, "field 'F': expected a number for float, got \"1\""},
      {{{"Arr", V::of_array({V::of_uint(1)})}},
       "field 'Arr': an array of 1 elements, but its count is 2"},
      {{{"B", V::of_uint(2)}}, "field 'B': 2 does not fit bool"},
      {{{"B", V::of_string("yes")}}, "field 'B': expected an integer for bool, got \"yes\""},
  };
  for (const Row& r : rows) EXPECT_EQ(encode_err(e, r.values), r.message);
}

TEST(Encode, ConflictingDependentsAndHugeExtents) {
  const EventDef e = event({{"N", InType::UInt32},
                            {"A", InType::UInt8, ref(0)},
                            {"B", InType::UInt8, ref(0)},
                            {"L", InType::UInt64},
                            {"S", InType::AnsiString, {}, ref(3)}});
  // The first dependent derives N; the second must agree.
  EXPECT_EQ(encode_err(e, {{"A", V::of_array({V::of_uint(1)})},
                           {"B", V::of_array({V::of_uint(1), V::of_uint(2)})}}),
            "field 'B': an array of 2 elements, but its count field 'N' is 1");
  EXPECT_TRUE(encode_payload(e, {{"A", V::of_array({V::of_uint(1)})}}));  // B: 1 default element
  EXPECT_EQ(encode_err(e, {{"N", V::of_uint(UINT32_MAX)}}),
            "field 'A': 4294967295 elements would exceed the payload limit of 16777216 bytes");
  EXPECT_EQ(encode_err(e, {{"N", V::of_uint(10'000'000)}}),
            "field 'B': 10000000 elements would exceed the payload limit of 16777216 bytes");
  const EventDef big = event({{"S", InType::AnsiString, fixed(20)}});
  std::vector<V> strings(20, V::of_string(std::string(1'000'000, 'x')));
  EXPECT_EQ(encode_err(big, {{"S", V::of_array(strings)}}),
            "field 'S': the payload exceeds 16777216 bytes");
  EXPECT_EQ(
      encode_err(e, {{"L", V::of_uint(UINT64_MAX)}}),
      "field 'S': length 18446744073709551615 would exceed the payload limit of 16777216 bytes");
}

// The 16 MiB bound is on the whole payload, not on each field (issue B5): eight 16 MiB
// binaries are refused at the second one, before it is padded out.
TEST(Encode, PayloadBoundIsOnTheWholePayload) {
  std::vector<FieldDef> fields;
  for (int i = 1; i <= 8; ++i)
    fields.push_back({"B" + std::to_string(i), InType::Binary, {}, fixed(16u << 20)});
  EXPECT_EQ(encode_err(event(fields), {}),
            "field 'B2': length 16777216 would exceed the payload limit of 16777216 bytes");
  const EventDef two = event({{"W", InType::UnicodeString, {}, fixed(5u << 20)},
                              {"X", InType::UnicodeString, {}, fixed(5u << 20)}});
  EXPECT_EQ(encode_err(two, {}),
            "field 'X': length 5242880 would exceed the payload limit of 16777216 bytes");
  const EventDef fits = event(
      {{"A", InType::Binary, {}, fixed(8u << 20)}, {"B", InType::Binary, {}, fixed(8u << 20)}});
  const auto payload = encode_payload(fits, {});
  ASSERT_TRUE(payload);
  EXPECT_EQ(payload->size(), kMaxPayloadBytes);
  const EventDef arrays = event({{"N", InType::UInt32},  // no elements: any length fits
                                 {"A", InType::Binary, ref(0), fixed(8u << 20)},
                                 {"B", InType::Binary, ref(0), fixed(8u << 20)}});
  EXPECT_TRUE(encode_payload(arrays, {{"N", V::of_uint(0)}}));
  EXPECT_EQ(encode_err(arrays, {{"N", V::of_uint(1)}}),
            "field 'B': 1 elements would exceed the payload limit of 16777216 bytes");
}

TEST(Encode, DescribeValues) {
  EXPECT_EQ(V::null().describe(), "null");
  EXPECT_EQ(V::of_int(-7).describe(), "-7");
  EXPECT_EQ(V::of_bool(false).describe(), "false");
  EXPECT_EQ(V::of_guid(Guid{}).describe(), "{00000000-0000-0000-0000-000000000000}");
  EXPECT_EQ(V::of_bytes({1, 2}).describe(), "2 bytes");
  EXPECT_EQ(V::of_array({}).describe(), "an array of 0 elements");
  EXPECT_EQ(V::of_string(std::string(50, 'x')).describe(), "\"" + std::string(40, 'x') + "...\"");
}

}  // namespace
}  // namespace pfc
