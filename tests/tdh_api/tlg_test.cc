// tests/tdh_api/tlg_test.cc — TraceLogging metadata (runtime/tlg.h) and TDH's view of
// TraceLogging events (etw/tdh_tlg.h, docs/etw.md "TraceLogging"): the parser on good and
// damaged blobs, the data walk, the record trailer, the out-type table and the counted
// in-types of TdhFormatProperty. Sources (cited per row):
//   [Dyn] microsoft/tracelogging etw/cpp/traceloggingdynamic/TraceLoggingDynamic.h: the
//         EventMetadata / FieldMetadata layout, InType and OutType values
//   [In]  learn.microsoft.com "InputType Complex Type" (manifest schema), Remarks table
//   [Out] learn.microsoft.com "OutputType Complex Type" and tdh.h's TDH_OUT_TYPE
//   [Tei] learn.microsoft.com "TRACE_EVENT_INFO structure (tdh.h)", "EVENT_PROPERTY_INFO
//         structure (tdh.h)"
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "etw/tdh_tlg.h"
#include "pfc/etw/tdh.h"
#include "runtime/tlg.h"

namespace {

using Bytes = std::vector<uint8_t>;

// An event metadata blob: size word, `body` (tags, name, fields) appended.
Bytes meta(const Bytes& body) {
  Bytes b(body.size() + 2, 0);
  std::copy(body.begin(), body.end(), b.begin() + 2);
  b[0] = static_cast<uint8_t>(b.size());
  b[1] = static_cast<uint8_t>(b.size() >> 8);
  return b;
}
void text(Bytes& b, const char* s) { b.insert(b.end(), s, s + std::strlen(s) + 1); }

// An extended item of `type` holding `blob`.
EVENT_HEADER_EXTENDED_DATA_ITEM item_of(USHORT type, const Bytes& blob) {
  EVENT_HEADER_EXTENDED_DATA_ITEM item{};
  item.ExtType = type;
  item.DataSize = static_cast<USHORT>(blob.size());
  item.DataPtr = reinterpret_cast<uintptr_t>(blob.data());
  return item;
}
// A record with `n` extended items and `data` as its payload.
EVENT_RECORD record_of(EVENT_HEADER_EXTENDED_DATA_ITEM* items, USHORT n, Bytes& data) {
  EVENT_RECORD r{};
  r.ExtendedDataCount = n;
  r.ExtendedData = items;
  r.UserData = data.data();
  r.UserDataLength = static_cast<USHORT>(data.size());
  return r;
}
// TdhGetEventInformation's TRACE_EVENT_INFO of `r` through the sizing protocol (empty when
// either call fails).
std::vector<uint8_t> event_info(EVENT_RECORD& r) {
  ULONG size = 0;
  if (TdhGetEventInformation(&r, 0, nullptr, nullptr, &size) != ERROR_INSUFFICIENT_BUFFER)
    return {};
  std::vector<uint8_t> buf(size);
  auto* info = reinterpret_cast<TRACE_EVENT_INFO*>(buf.data());
  if (TdhGetEventInformation(&r, 0, nullptr, info, &size) != ERROR_SUCCESS) return {};
  return buf;
}

TEST(TlgMetadata, ParsesNameTagsFieldsAndStructures) {  // [Dyn] EventMetadata
  Bytes body{0x82, 0x81, 0x00};  // tags 0x0204000 (two chained bytes, then the last)
  text(body, "Ev");
  text(body, "A");
  body.insert(body.end(), {0x07});  // Int32
  text(body, "S");
  body.insert(body.end(), {0x18 | 0x80, 0x02 | 0x80, 0x05});  // struct of 2, tags 5
  text(body, "X");
  body.insert(body.end(), {0x02 | 0x80, 0x23});  // AnsiString, out Utf8
  text(body, "Y");
  body.insert(body.end(), {0x04 | 0x20, 3, 0});  // UInt8 fixed count 3
  const Bytes b = meta(body);
  auto m = pfc::tlg::parse_event(b.data(), b.size());
  ASSERT_TRUE(m) << m.error();
  EXPECT_EQ(m->name, "Ev");
  EXPECT_EQ(m->tags, (2u << 21) | (1u << 14));
  ASSERT_EQ(m->fields.size(), 4u);
  EXPECT_EQ(m->fields[1].in_type, pfc::tlg::kInStruct);
  EXPECT_EQ(m->fields[1].out_type, 2);
  EXPECT_EQ(m->fields[1].tags, 5u << 21);
  EXPECT_EQ(m->fields[1].end, 4u);
  EXPECT_EQ(m->fields[2].parent, 2u);
  EXPECT_EQ(m->fields[2].out_type, pfc::tlg::kOutUtf8);
  EXPECT_EQ(m->fields[3].arity, pfc::tlg::kArityCcount);
  EXPECT_EQ(m->fields[3].ccount, 3);
}

TEST(TlgMetadata, DamagedBlobsNameTheByte) {
  struct Case {
    Bytes body;
    const char* error;
  };
  Bytes deep{0};
  text(deep, "E");
  for (int i = 0; i < 33; ++i) {
    text(deep, "s");
    deep.insert(deep.end(), {0x18 | 0x80, 1});
  }
  const Case cases[] = {
      {{0, 'E'}, "byte 3: expected a NUL-terminated UTF-8 name"},
      {{0, 'E', 0, 'F', 0, 0x00}, "byte 7: expected a known in-type for field 'F', not 0"},
      {{0, 'E', 0, 'F', 0, 0x10}, "byte 7: expected a known in-type for field 'F', not 16"},
      {{0, 'E', 0, 'F', 0, 0x1A}, "byte 7: expected a known in-type for field 'F', not 26"},
      {{0, 'E', 0, 'F', 0, 0x87}, "byte 8: expected the out-type of 'F'"},
      {{0, 'E', 0, 'F', 0, 0x18}, "byte 7: expected structure 'F' with a member count"},
      {{0, 'E', 0, 'F', 0, 0x98, 2, 'G', 0, 7}, "the members of structure 'F' (1 missing)"},
      {{0, 'E', 0, 'F', 0, 0x27, 1}, "byte 8: expected the element count of 'F'"},
      {{0x80, 0x80, 0x80, 0x80, 0, 'E', 0}, "byte 2: expected the event tags"},
      {{0, 'E', 0, 'F', 0, 0x87, 0x80, 0x80, 0x80, 0x80, 0x80}, "expected the tags of field"},
      {{0, 'E', 0, 'F', 0xFF, 0, 7}, "NUL-terminated UTF-8 field name"},
      {deep, "at most 32 nested structures"},
  };
  for (const Case& c : cases) {
    const Bytes b = meta(c.body);
    auto m = pfc::tlg::parse_event(b.data(), b.size());
    ASSERT_FALSE(m) << c.error;
    EXPECT_NE(m.error().find(c.error), std::string::npos) << m.error();
  }
  Bytes b = meta({0, 'E', 0});
  auto wrong = pfc::tlg::parse_event(b.data(), b.size() - 1);  // the size word disagrees
  ASSERT_FALSE(wrong);
  EXPECT_NE(wrong.error().find("byte 0: expected a size word equal"), std::string::npos);
  // Every truncation of a good blob is refused or ends before the first field, never
  // read past.
  Bytes good_body{0};
  text(good_body, "E");
  text(good_body, "S");
  good_body.insert(good_body.end(), {0x98, 1});
  text(good_body, "V");
  good_body.insert(good_body.end(), {0x27, 2, 0});
  const Bytes good = meta(good_body);
  for (size_t n = 0; n < good.size(); ++n) {
    Bytes cut(good.begin(), good.begin() + static_cast<long>(n));
    if (n >= 2) cut[0] = static_cast<uint8_t>(n), cut[1] = 0;
    auto m = pfc::tlg::parse_event(cut.data(), cut.size());
    EXPECT_TRUE(!m || m->fields.empty()) << n;
  }
}

// [Tlg] TraceLoggingProvider.h's TraceLoggingCustom: in-type byte protocol | 0x60, then a
// UINT16 schema size and the schema; the value is a UINT16 byte count and the bytes.
TEST(TlgMetadata, CustomFieldsKeepProtocolAndSchema) {
  Bytes body{0};
  text(body, "E");
  text(body, "C");
  body.insert(body.end(), {0x60 | 24, 2, 0, 0xAA, 0xBB});  // protocol 24: not a structure
  text(body, "Z");
  body.insert(body.end(), {0x60 | 0x80, 0x80, 0x80, 0x80, 0x80, 0x03, 0, 0});  // 0, tags
  const Bytes b = meta(body);
  auto m = pfc::tlg::parse_event(b.data(), b.size());
  ASSERT_TRUE(m) << m.error();
  ASSERT_EQ(m->fields.size(), 2u);
  EXPECT_EQ(m->fields[0].arity, pfc::tlg::kArityCustom);
  EXPECT_EQ(m->fields[0].protocol, 24);
  EXPECT_EQ(m->fields[0].in_type, pfc::tlg::kInBinary);
  EXPECT_EQ(m->fields[0].schema, "\xAA\xBB");
  EXPECT_EQ(m->fields[1].protocol, 0);
  EXPECT_EQ(m->fields[1].tags, 3u);
  EXPECT_EQ(m->fields[1].schema, "");
  const Bytes data{3, 0, 1, 2, 3, 0, 0};
  pfc::tlg::Walker w(*m, data.data(), data.size());
  uint64_t next = 0;
  ASSERT_TRUE(w.skip_field(0, 0, next));
  EXPECT_EQ(next, 5u);
  ASSERT_TRUE(w.skip_field(1, next, next));
  EXPECT_EQ(next, 7u);
  Bytes cut{0};
  text(cut, "E");
  text(cut, "C");
  cut.insert(cut.end(), {0x65, 5, 0, 0xAA});  // the schema claims 5 bytes, 1 is there
  const Bytes c = meta(cut);
  auto bad = pfc::tlg::parse_event(c.data(), c.size());
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("byte 8: expected the custom schema of 'C'"), std::string::npos)
      << bad.error();
}

TEST(TlgMetadata, ProviderTraits) {  // [Dyn] ProviderMetadata: size, name, traits
  Bytes t{0, 0};
  text(t, "My.Provider");
  t.insert(t.end(), {19, 0, 1});  // a group trait: size 19, type 1, GUID
  t.insert(t.end(), 16, 0xAB);
  t[0] = static_cast<uint8_t>(t.size());
  auto name = pfc::tlg::parse_provider(t.data(), t.size());
  ASSERT_TRUE(name) << name.error();
  EXPECT_EQ(*name, "My.Provider");
  t[t.size() - 19] = 30;  // the trait claims more than the blob holds
  EXPECT_FALSE(pfc::tlg::parse_provider(t.data(), t.size()));
}

TEST(TlgWalker, SkipsArraysStructuresAndRefusesShortData) {
  Bytes body{0};
  text(body, "E");
  text(body, "V");
  body.insert(body.end(), {0x07 | 0x40});  // Int32 variable array
  text(body, "P");
  body.insert(body.end(), {0x18 | 0x40 | 0x80, 2});  // array of struct {String, Binary}
  text(body, "N");
  body.insert(body.end(), {0x02});
  text(body, "B");
  body.insert(body.end(), {0x0E});
  const Bytes b = meta(body);
  auto m = pfc::tlg::parse_event(b.data(), b.size());
  ASSERT_TRUE(m) << m.error();
  const Bytes data{2, 0, 1,   0, 0, 0, 2, 0,   0, 0,      // V: 2 elements
                   2, 0, 'a', 0, 1, 0, 9, 'b', 0, 0, 0};  // P: {"a", [9]}, {"b", []}
  pfc::tlg::Walker w(*m, data.data(), data.size());
  uint64_t next = 0;
  ASSERT_TRUE(w.skip_field(0, 0, next));
  EXPECT_EQ(next, 10u);
  ASSERT_TRUE(w.skip_field(1, 10, next));
  EXPECT_EQ(next, data.size());
  for (size_t n = 0; n < data.size(); ++n) {
    pfc::tlg::Walker cut(*m, data.data(), n);
    uint64_t a = 0, z = 0;
    EXPECT_FALSE(cut.skip_field(0, 0, a) && cut.skip_field(1, a, z)) << n;
  }
}

TEST(TlgRecord, TrailerSplitsAndRefusesSizesPastTheRecord) {
  Bytes r{1, 2, 3, 't', 't', 'm'};
  pfc::tlg::append_trailer(r, 2, 1);
  pfc::tlg::Split s;
  ASSERT_TRUE(pfc::tlg::split(r.data(), static_cast<uint32_t>(r.size()), s));
  EXPECT_EQ(s.payload_size, 3u);
  EXPECT_EQ(s.traits_size, 2);
  EXPECT_EQ(s.meta[0], 'm');
  r[r.size() - 2] = 200;  // a metadata size past the record
  EXPECT_FALSE(pfc::tlg::split(r.data(), static_cast<uint32_t>(r.size()), s));
  EXPECT_FALSE(pfc::tlg::split(r.data(), 3, s));
}

TEST(TlgTdh, OutTypesMapToTdhOutTypes) {
  using pfc::etw::tlg_tdh_out_type;
  struct Row {
    uint8_t in, out;
    uint16_t tdh;
  };
  const Row rows[] = {
      {4, 2, TDH_OUTTYPE_STRING},           // [Dyn] String "Use with Int8, UInt8, UInt16"
      {4, 3, TDH_OUTTYPE_BOOLEAN},          // [Dyn] Boolean; [Out] xs:boolean
      {4, 4, TDH_OUTTYPE_HEXINT8},          // [Dyn] Hex on UInt8; [Out] win:HexInt8
      {6, 4, TDH_OUTTYPE_HEXINT16},         // [Out] win:HexInt16
      {8, 4, TDH_OUTTYPE_HEXINT32},         // [Out] win:HexInt32
      {10, 4, TDH_OUTTYPE_HEXINT64},        // [Out] win:HexInt64
      {8, 5, TDH_OUTTYPE_PID},              // [Out] win:PID
      {8, 6, TDH_OUTTYPE_TID},              // [Out] win:TID
      {6, 7, TDH_OUTTYPE_PORT},             // [Out] win:Port
      {8, 8, TDH_OUTTYPE_IPV4},             // [Out] win:IPv4
      {14, 9, TDH_OUTTYPE_IPV6},            // [Out] win:IPv6
      {14, 10, TDH_OUTTYPE_SOCKETADDRESS},  // [Out] win:SocketAddress
      {1, 11, TDH_OUTTYPE_XML},             // [Out] win:Xml
      {2, 12, TDH_OUTTYPE_JSON},            // [Out] win:Json
      {8, 13, TDH_OUTTYPE_WIN32ERROR},      // [Out] win:Win32Error
      {8, 14, TDH_OUTTYPE_NTSTATUS},        // [Out] win:NTStatus
      {7, 15, TDH_OUTTYPE_HRESULT},         // [Out] win:HResult
      {17, 16, TDH_OUTTYPE_DATETIME},       // [Out] xs:dateTime
      {3, 17, TDH_OUTTYPE_BYTE},            // [Out] xs:byte
      {9, 17, TDH_OUTTYPE_LONG},            // [Out] xs:long
      {4, 18, TDH_OUTTYPE_UNSIGNEDBYTE},    // [Out] xs:unsignedByte
      {10, 18, TDH_OUTTYPE_UNSIGNEDLONG},   // [Out] xs:unsignedLong
      {17, 33, TDH_OUTTYPE_CULTURE_INSENSITIVE_DATETIME},  // [Out] win:DateTimeCultureInsensitive
      {2, 35, TDH_OUTTYPE_UTF8},                           // [Out] win:Utf8
      {14, 36, TDH_OUTTYPE_PKCS7_WITH_TYPE_INFO},          // [Out] win:Pkcs7WithTypeInfo
      {21, 37, TDH_OUTTYPE_CODE_POINTER},                  // [Out] win:CodePointer
      {18, 38, TDH_OUTTYPE_DATETIME_UTC},                  // [Out] win:DateTimeUtc
      {7, 1, TDH_OUTTYPE_NOPRINT},    // [Dyn] NoPrint "ignored by most decoders"
      {7, 0, TDH_OUTTYPE_INT},        // [In] win:Int32's default xs:int
      {21, 0, TDH_OUTTYPE_HEXINT64},  // [In] win:HexInt64's default win:HexInt64
      {15, 0, TDH_OUTTYPE_GUID},      // [In] win:GUID's default xs:GUID
  };
  for (const Row& r : rows)
    EXPECT_EQ(tlg_tdh_out_type(r.in, r.out), r.tdh) << int(r.in) << "/" << int(r.out);
}

// TdhFormatProperty of one value with a TraceLogging (or manifest) TRACE_EVENT_INFO.
std::u16string format(DECODING_SOURCE source, USHORT in, USHORT out, const Bytes& data,
                      USHORT* consumed, ULONG* rc) {
  TRACE_EVENT_INFO info{};
  info.DecodingSource = source;
  WCHAR buf[128];
  ULONG size = sizeof buf;
  *rc = TdhFormatProperty(&info, nullptr, 8, in, out, 0, static_cast<USHORT>(data.size()),
                          const_cast<uint8_t*>(data.data()), &size, buf, consumed);
  return *rc == ERROR_SUCCESS ? std::u16string(buf) : u"";
}

TEST(TlgTdh, CountedInTypesFormatAfterTheirByteCount) {
  // [In] win:CountedUnicodeString / CountedAnsiString / CountedBinary: "the first two
  // bytes are the length"; [Dyn] Binary, CountedString: "UINT16 byte-count followed by".
  struct Row {
    DECODING_SOURCE source;
    USHORT in, out;
    Bytes data;
    std::u16string text;
    USHORT consumed;
  };
  const Row rows[] = {
      {DecodingSourceTlg, 22, 0, {4, 0, 'h', 0, 'i', 0, 'x', 0}, u"hi", 6},
      {DecodingSourceTlg, 23, 0, {3, 0, 'a', 'b', 'c', 'd'}, u"abc", 5},
      {DecodingSourceTlg, 23, 35, {2, 0, 0xC3, 0xA9}, u"é", 4},
      {DecodingSourceTlg, 25, 0, {2, 0, 0x0F, 0xA0}, u"0x0FA0", 4},
      {DecodingSourceTlg, 14, 0, {1, 0, 0x7F}, u"0x7F", 3},
      {DecodingSourceTlg, 22, 0, {0, 0}, u"", 2},
      {DecodingSourceXMLFile, 22, 0, {2, 0, 'z', 0}, u"z", 4},
  };
  for (const Row& r : rows) {
    USHORT consumed = 0;
    ULONG rc = 0;
    EXPECT_EQ(format(r.source, r.in, r.out, r.data, &consumed, &rc), r.text) << r.in;
    EXPECT_EQ(rc, ERROR_SUCCESS);
    EXPECT_EQ(consumed, r.consumed) << r.in;
  }
  USHORT consumed = 0;
  ULONG rc = 0;
  format(DecodingSourceTlg, 22, 0, {9, 0, 'a', 0}, &consumed, &rc);  // count past the data
  EXPECT_EQ(rc, ERROR_EVT_INVALID_EVENT_DATA);
  format(DecodingSourceTlg, 22, 0, {3, 0, 'a', 0, 0}, &consumed, &rc);  // odd UTF-16 size
  EXPECT_EQ(rc, ERROR_EVT_INVALID_EVENT_DATA);
  format(DecodingSourceTlg, 23, 0, {1}, &consumed, &rc);  // no count
  EXPECT_EQ(rc, ERROR_EVT_INVALID_EVENT_DATA);
}

TEST(TlgTdh, EventInformationFromTheRecordsItems) {  // [Tei]
  Bytes body{0};
  text(body, "Ev");
  text(body, "A");
  body.insert(body.end(), {0x07 | 0x40 | 0x80, 0x80 | 4, 0x05});  // Int32[] hex, tags
  text(body, "S");
  body.insert(body.end(), {0x98, 1});
  text(body, "M");
  body.insert(body.end(), {0x04});
  text(body, "T");
  body.insert(body.end(), {0x02});
  const Bytes m = meta(body);
  Bytes traits{0, 0};
  text(traits, "P");
  traits[0] = static_cast<uint8_t>(traits.size());
  EVENT_HEADER_EXTENDED_DATA_ITEM items[2] = {item_of(EVENT_HEADER_EXT_TYPE_PROV_TRAITS, traits),
                                              item_of(EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL, m)};
  Bytes data{1, 0, 0xAA, 0, 0, 0, 7, 'z', 0};
  EVENT_RECORD r = record_of(items, 2, data);
  std::vector<uint8_t> buf = event_info(r);
  ASSERT_FALSE(buf.empty()) << PfcTdhGetLastErrorMessage();
  auto* info = reinterpret_cast<TRACE_EVENT_INFO*>(buf.data());
  EXPECT_EQ(info->DecodingSource, DecodingSourceTlg);
  EXPECT_EQ(info->PropertyCount, 4u);
  EXPECT_EQ(info->TopLevelPropertyCount, 3u);  // A, S, T; then S's member M
  const EVENT_PROPERTY_INFO* p = info->EventPropertyInfoArray;
  EXPECT_EQ(p[0].Flags, PropertyParamCount | PropertyHasTags);
  EXPECT_EQ(p[0].countPropertyIndex, 0);  // the property itself: the UINT16 before it
  EXPECT_EQ(p[0].nonStructType.OutType, TDH_OUTTYPE_HEXINT32);
  EXPECT_EQ(p[0].Tags, 5u << 21);
  EXPECT_EQ(p[1].Flags, PropertyStruct);
  EXPECT_EQ(p[1].structType.StructStartIndex, 3);
  EXPECT_EQ(p[1].structType.NumOfStructMembers, 1);
  EXPECT_EQ(std::u16string(reinterpret_cast<const char16_t*>(buf.data() + p[3].NameOffset)), u"M");
  EXPECT_EQ(std::u16string(reinterpret_cast<const char16_t*>(buf.data() + info->EventNameOffset)),
            u"Ev");
  PROPERTY_DATA_DESCRIPTOR d{reinterpret_cast<uintptr_t>(u"T"), 0xFFFFFFFF, 0};
  ULONG psize = 0;
  EXPECT_EQ(TdhGetPropertySize(&r, 0, nullptr, 1, &d, &psize), ERROR_SUCCESS);
  EXPECT_EQ(psize, 2u);  // "z" and its NUL, after A's 6 bytes and S's 1
  Bytes damaged = m;
  damaged[damaged.size() - 1] = 0x1F;  // T's in-type: unknown
  items[1].DataPtr = reinterpret_cast<uintptr_t>(damaged.data());
  ULONG size = static_cast<ULONG>(buf.size());
  EXPECT_EQ(TdhGetEventInformation(&r, 0, nullptr, info, &size), ERROR_EVT_INVALID_EVENT_DATA);
  EXPECT_NE(std::string(PfcTdhGetLastErrorMessage()).find("metadata is damaged: byte"),
            std::string::npos);
}

// [Tei] EVENT_PROPERTY_INFO customSchemaType: PropertyHasCustomSchema; CustomSchemaOffset
// points to the UINT16 protocol, the UINT16 schema size and the schema. The value is
// formatted as Binary (a TraceLogging event's counted bytes).
TEST(TlgTdh, CustomFieldsCarryTheirSchema) {
  Bytes body{0};
  text(body, "Ev");
  text(body, "C");
  body.insert(body.end(), {0x60 | 5, 3, 0, 1, 2, 3});
  text(body, "N");
  body.insert(body.end(), {0x07});
  const Bytes m = meta(body);
  EVENT_HEADER_EXTENDED_DATA_ITEM item = item_of(EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL, m);
  Bytes data{2, 0, 0xAB, 0xCD, 9, 0, 0, 0};
  EVENT_RECORD r = record_of(&item, 1, data);
  std::vector<uint8_t> buf = event_info(r);
  ASSERT_FALSE(buf.empty()) << PfcTdhGetLastErrorMessage();
  auto* info = reinterpret_cast<TRACE_EVENT_INFO*>(buf.data());
  const EVENT_PROPERTY_INFO& p = info->EventPropertyInfoArray[0];
  EXPECT_EQ(p.Flags, PropertyHasCustomSchema);
  EXPECT_EQ(p.customSchemaType.InType, TDH_INTYPE_BINARY);
  const uint8_t* c = buf.data() + p.customSchemaType.CustomSchemaOffset;
  EXPECT_EQ(Bytes(c, c + 7), (Bytes{5, 0, 3, 0, 1, 2, 3}));
  EXPECT_EQ(std::u16string(reinterpret_cast<const char16_t*>(
                buf.data() + info->EventPropertyInfoArray[1].NameOffset)),
            u"N");  // the name after the odd-sized schema stays readable
  WCHAR text16[32];
  ULONG bytes = sizeof text16;
  USHORT used = 0;
  ASSERT_EQ(
      TdhFormatProperty(info, nullptr, 8, p.customSchemaType.InType, p.customSchemaType.OutType, 0,
                        r.UserDataLength, data.data(), &bytes, text16, &used),
      ERROR_SUCCESS);
  EXPECT_EQ(std::u16string(text16), u"0xABCD");
  EXPECT_EQ(used, 4);
  PROPERTY_DATA_DESCRIPTOR d{reinterpret_cast<uintptr_t>(u"N"), 0xFFFFFFFF, 0};
  ULONG psize = 0;
  EXPECT_EQ(TdhGetPropertySize(&r, 0, nullptr, 1, &d, &psize), ERROR_SUCCESS);
  EXPECT_EQ(psize, 4u);  // N, after C's count word and 2 bytes
}

}  // namespace
