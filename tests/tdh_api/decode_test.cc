// tests/tdh_api/decode_test.cc — TDH decoding (pfc/etw/tdh.h, docs/etw.md "TDH decoding"):
// Windows' layouts, TdhGetEventInformation's names, types, counts and lengths for a loaded
// manifest, TdhGetPropertySize / TdhGetProperty on scalars, arrays and length fields,
// TdhGetEventMapInformation, TdhEnumerateProviders, the error codes, and decoding with a
// published script schema (no manifest) inside a consumer callback.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "etw/tdh_context.h"
#include "pfc/etw/evntrace.h"
#include "pfc/etw/tdh.h"

// Layouts of the x64 Windows SDK tdh.h (learn.microsoft.com, "TRACE_EVENT_INFO structure
// (tdh.h)", "EVENT_PROPERTY_INFO structure (tdh.h)", "EVENT_MAP_INFO structure (tdh.h)",
// "PROPERTY_DATA_DESCRIPTOR structure (tdh.h)", "PROVIDER_ENUMERATION_INFO structure").
static_assert(sizeof(EVENT_PROPERTY_INFO) == 24);
static_assert(offsetof(EVENT_PROPERTY_INFO, NameOffset) == 4);
static_assert(offsetof(EVENT_PROPERTY_INFO, nonStructType.InType) == 8);
static_assert(offsetof(EVENT_PROPERTY_INFO, nonStructType.OutType) == 10);
static_assert(offsetof(EVENT_PROPERTY_INFO, nonStructType.MapNameOffset) == 12);
static_assert(offsetof(EVENT_PROPERTY_INFO, structType.StructStartIndex) == 8);
static_assert(offsetof(EVENT_PROPERTY_INFO, count) == 16);
static_assert(offsetof(EVENT_PROPERTY_INFO, length) == 18);
static_assert(offsetof(EVENT_PROPERTY_INFO, Reserved) == 20);
static_assert(sizeof(TRACE_EVENT_INFO) == 136);
static_assert(offsetof(TRACE_EVENT_INFO, EventDescriptor) == 32);
static_assert(offsetof(TRACE_EVENT_INFO, DecodingSource) == 48);
static_assert(offsetof(TRACE_EVENT_INFO, ProviderNameOffset) == 52);
static_assert(offsetof(TRACE_EVENT_INFO, KeywordsNameOffset) == 64);
static_assert(offsetof(TRACE_EVENT_INFO, BinaryXMLSize) == 88);
static_assert(offsetof(TRACE_EVENT_INFO, EventNameOffset) == 92);
static_assert(offsetof(TRACE_EVENT_INFO, PropertyCount) == 100);
static_assert(offsetof(TRACE_EVENT_INFO, TopLevelPropertyCount) == 104);
static_assert(offsetof(TRACE_EVENT_INFO, Flags) == 108);
static_assert(offsetof(TRACE_EVENT_INFO, EventPropertyInfoArray) == 112);
static_assert(sizeof(PROPERTY_DATA_DESCRIPTOR) == 16);
static_assert(sizeof(EVENT_MAP_ENTRY) == 8 && sizeof(EVENT_MAP_INFO) == 24);
static_assert(offsetof(EVENT_MAP_INFO, MapEntryArray) == 16);
static_assert(sizeof(TRACE_PROVIDER_INFO) == 24 && sizeof(PROVIDER_ENUMERATION_INFO) == 32);
static_assert(sizeof(TDH_CONTEXT) == 16);
static_assert(PropertyStruct == 1 && PropertyParamLength == 2 && PropertyParamCount == 4 &&
              PropertyParamFixedLength == 0x10 && PropertyParamFixedCount == 0x20 &&
              PropertyHasCustomSchema == 0x80);
static_assert(DecodingSourceXMLFile == 0 && DecodingSourceTlg == 3 &&
              EVENTMAP_INFO_FLAG_MANIFEST_BITMAP == 2 && TDH_CONTEXT_POINTERSIZE == 3);
static_assert(ERROR_EVT_INVALID_EVENT_DATA == 15005);

namespace {

const GUID kProvider = {0x5E1A0000, 0, 0x4000, {0x80, 0, 0, 0, 0, 0, 0, 0xD1}};

const char kManifest[] = R"MAN(<instrumentationManifest
    xmlns="http://schemas.microsoft.com/win/2004/08/events"
    xmlns:win="http://manifests.microsoft.com/win/2004/08/windows/events"
    xmlns:xs="http://www.w3.org/2001/XMLSchema">
 <instrumentation><events>
  <provider name="Pfc-Decode-Test" guid="{5E1A0000-0000-4000-8000-0000000000D1}"
            symbol="DECODE" message="$(string.Provider)">
   <channels><channel name="Pfc-Decode-Test/Operational" chid="Op" type="Operational"
                      message="$(string.Channel)"/></channels>
   <tasks><task name="Copy" value="7" message="$(string.Task)">
     <opcodes><opcode name="Chunk" value="20" message="$(string.Chunk)"/></opcodes>
   </task></tasks>
   <keywords>
    <keyword name="Io" mask="0x1" message="$(string.Io)"/>
    <keyword name="Net" mask="0x2"/>
    <keyword name="Disk" mask="0x4"/>
   </keywords>
   <maps>
    <valueMap name="Color">
     <map value="1" message="$(string.Red)"/><map value="2" message="$(string.Green)"/>
    </valueMap>
    <bitMap name="Access">
     <map value="0x1" message="$(string.Read)"/><map value="0x4" message="$(string.Exec)"/>
    </bitMap>
   </maps>
   <templates><template tid="All">
    <data name="Count" inType="win:UInt16"/>
    <data name="Items" inType="win:UInt32" count="Count"/>
    <data name="Name" inType="win:UnicodeString"/>
    <data name="Tag" inType="win:AnsiString" length="4"/>
    <data name="Id" inType="win:GUID"/>
    <data name="Flags" inType="win:UInt32" outType="win:HexInt32"/>
    <data name="Color" inType="win:UInt8" map="Color"/>
    <data name="Access" inType="win:UInt32" map="Access"/>
    <data name="Size" inType="win:UInt32"/>
    <data name="Blob" inType="win:Binary" length="Size"/>
    <data name="Pair" inType="win:Int16" count="2"/>
   </template></templates>
   <events>
    <event value="1" version="2" symbol="Copied" template="All" level="win:Informational"
           task="Copy" opcode="Chunk" keywords="Io Disk" channel="Op"
           message="$(string.Copied)"/>
    <event value="2" symbol="Empty" level="win:Error"/>
   </events>
  </provider>
 </events></instrumentation>
 <localization><resources culture="en-US"><stringTable>
  <string id="Provider" value="Decoding test provider"/>
  <string id="Channel" value="Operational channel"/>
  <string id="Task" value="Copying"/>
  <string id="Chunk" value="One chunk"/>
  <string id="Io" value="Input/output"/>
  <string id="Red" value="Red"/>
  <string id="Green" value="Green"/>
  <string id="Read" value="Read"/>
  <string id="Exec" value="Execute"/>
  <string id="Copied" value="Copied %1 items"/>
 </stringTable></resources></localization>
</instrumentationManifest>)MAN";

const GUID kId = {0x01234567, 0x89AB, 0xCDEF, {0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF}};

// Event 1's data: Count 2, Items {10, 20}, Name "hi", Tag "abcd", Id kId, Flags 0x1F,
// Color 2, Access 5, Size 3, Blob 01 02 03, Pair {-1, 2}.
std::vector<uint8_t> payload() {
  std::vector<uint8_t> out;
  auto put = [&](const void* p, size_t n) {
    out.insert(out.end(), static_cast<const uint8_t*>(p), static_cast<const uint8_t*>(p) + n);
  };
  const uint16_t count = 2;
  const uint32_t items[2] = {10, 20};
  const char16_t name[] = u"hi";
  const uint32_t flags = 0x1F, access = 5, size = 3;
  const uint8_t color = 2, blob[3] = {1, 2, 3};
  const int16_t pair[2] = {-1, 2};
  put(&count, 2);
  put(items, 8);
  put(name, sizeof name);
  put("abcd", 4);
  put(&kId, 16);
  put(&flags, 4);
  put(&color, 1);
  put(&access, 4);
  put(&size, 4);
  put(blob, 3);
  put(pair, 4);
  return out;
}

class Decode : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(TdhLoadManifestFromMemory(kManifest, sizeof kManifest - 1), ERROR_SUCCESS)
        << PfcTdhGetLastErrorMessage();
    data_ = payload();
    record_ = record(1, 2, data_);
  }
  void TearDown() override {
    EXPECT_EQ(TdhUnloadManifestFromMemory(kManifest, sizeof kManifest - 1), ERROR_SUCCESS);
  }
  static EVENT_RECORD record(USHORT id, UCHAR version, std::vector<uint8_t>& data) {
    EVENT_RECORD r{};
    r.EventHeader.ProviderId = kProvider;
    r.EventHeader.EventDescriptor.Id = id;
    r.EventHeader.EventDescriptor.Version = version;
    r.UserData = data.data();
    r.UserDataLength = static_cast<USHORT>(data.size());
    return r;
  }
  // TdhGetEventInformation with the sizing call first.
  std::vector<uint8_t> info(EVENT_RECORD& r) {
    ULONG size = 0;
    EXPECT_EQ(TdhGetEventInformation(&r, 0, nullptr, nullptr, &size), ERROR_INSUFFICIENT_BUFFER);
    std::vector<uint8_t> buf(size);
    ULONG small = size - 1;
    EXPECT_EQ(TdhGetEventInformation(&r, 0, nullptr,
                                     reinterpret_cast<PTRACE_EVENT_INFO>(buf.data()), &small),
              ERROR_INSUFFICIENT_BUFFER);
    EXPECT_EQ(small, size);
    EXPECT_EQ(TdhGetEventInformation(&r, 0, nullptr,
                                     reinterpret_cast<PTRACE_EVENT_INFO>(buf.data()), &size),
              ERROR_SUCCESS);
    EXPECT_EQ(size, buf.size());
    return buf;
  }
  std::vector<uint8_t> data_;
  EVENT_RECORD record_{};
};

std::u16string text_at(const void* base, ULONG offset) {
  if (offset == 0) return u"<none>";
  return std::u16string(
      reinterpret_cast<const char16_t*>(static_cast<const uint8_t*>(base) + offset));
}

TEST_F(Decode, EventInformationNamesTheEventAsTheManifestDoes) {
  const std::vector<uint8_t> buf = info(record_);
  const auto* i = reinterpret_cast<const TRACE_EVENT_INFO*>(buf.data());
  EXPECT_EQ(std::memcmp(&i->ProviderGuid, &kProvider, sizeof(GUID)), 0);
  const GUID zero{};
  EXPECT_EQ(std::memcmp(&i->EventGuid, &zero, sizeof(GUID)), 0);  // GUID_NULL for manifests
  EXPECT_EQ(i->DecodingSource, DecodingSourceXMLFile);
  EXPECT_EQ(i->EventDescriptor.Id, 1);
  EXPECT_EQ(i->EventDescriptor.Version, 2);
  EXPECT_EQ(i->EventDescriptor.Task, 7);
  EXPECT_EQ(i->EventDescriptor.Opcode, 20);
  EXPECT_EQ(i->EventDescriptor.Level, 4);
  EXPECT_EQ(i->EventDescriptor.Keyword, 5u);
  EXPECT_EQ(i->EventDescriptor.Channel, 16);
  EXPECT_EQ(text_at(i, i->ProviderNameOffset), u"Pfc-Decode-Test");
  EXPECT_EQ(text_at(i, i->LevelNameOffset), u"Information");  // winmeta's win:Informational
  EXPECT_EQ(text_at(i, i->ChannelNameOffset), u"Operational channel");
  EXPECT_EQ(text_at(i, i->TaskNameOffset), u"Copying");
  EXPECT_EQ(text_at(i, i->OpcodeNameOffset), u"One chunk");
  EXPECT_EQ(text_at(i, i->EventMessageOffset), u"Copied %1 items");
  EXPECT_EQ(text_at(i, i->ProviderMessageOffset), u"Decoding test provider");
  // Keywords: a list of names ending with an empty one (TRACE_EVENT_INFO, KeywordsNameOffset).
  const auto* kw = reinterpret_cast<const char16_t*>(buf.data() + i->KeywordsNameOffset);
  EXPECT_EQ(std::u16string(kw), u"Input/output");
  kw += std::u16string(kw).size() + 1;
  EXPECT_EQ(std::u16string(kw), u"Disk");  // no message: its name
  kw += std::u16string(kw).size() + 1;
  EXPECT_EQ(*kw, 0);
  EXPECT_EQ(i->PropertyCount, 11u);
  EXPECT_EQ(i->TopLevelPropertyCount, 11u);
}

struct PropertyRow {
  const char16_t* name;
  USHORT in, out;
  ULONG flags;
  USHORT count, length;  // or the index of the count / length property
  const char16_t* map;
};

TEST_F(Decode, EventInformationGivesEachPropertysTypesCountsAndLengths) {
  const std::vector<uint8_t> buf = info(record_);
  const auto* i = reinterpret_cast<const TRACE_EVENT_INFO*>(buf.data());
  // Out-types: as the manifest gives them, else the in-type's first one (InputType complex
  // type, "Remarks": "If you do not specify an output type ... the first output type").
  const PropertyRow rows[] = {
      {u"Count", TDH_INTYPE_UINT16, TDH_OUTTYPE_UNSIGNEDSHORT, 0, 1, 2, u"<none>"},
      {u"Items", TDH_INTYPE_UINT32, TDH_OUTTYPE_UNSIGNEDINT, PropertyParamCount, 0, 4, u"<none>"},
      {u"Name", TDH_INTYPE_UNICODESTRING, TDH_OUTTYPE_STRING, 0, 1, 0, u"<none>"},
      {u"Tag", TDH_INTYPE_ANSISTRING, TDH_OUTTYPE_STRING, PropertyParamFixedLength, 1, 4,
       u"<none>"},
      {u"Id", TDH_INTYPE_GUID, TDH_OUTTYPE_GUID, 0, 1, 16, u"<none>"},
      {u"Flags", TDH_INTYPE_UINT32, TDH_OUTTYPE_HEXINT32, 0, 1, 4, u"<none>"},
      {u"Color", TDH_INTYPE_UINT8, TDH_OUTTYPE_UNSIGNEDBYTE, 0, 1, 1, u"Color"},
      {u"Access", TDH_INTYPE_UINT32, TDH_OUTTYPE_UNSIGNEDINT, 0, 1, 4, u"Access"},
      {u"Size", TDH_INTYPE_UINT32, TDH_OUTTYPE_UNSIGNEDINT, 0, 1, 4, u"<none>"},
      {u"Blob", TDH_INTYPE_BINARY, TDH_OUTTYPE_HEXBINARY, PropertyParamLength, 1, 8, u"<none>"},
      {u"Pair", TDH_INTYPE_INT16, TDH_OUTTYPE_SHORT, PropertyParamFixedCount, 2, 2, u"<none>"},
  };
  for (size_t k = 0; k < std::size(rows); ++k) {
    const EVENT_PROPERTY_INFO& p = i->EventPropertyInfoArray[k];
    SCOPED_TRACE(k);
    EXPECT_EQ(text_at(i, p.NameOffset), rows[k].name);
    EXPECT_EQ(p.nonStructType.InType, rows[k].in);
    EXPECT_EQ(p.nonStructType.OutType, rows[k].out);
    EXPECT_EQ(static_cast<ULONG>(p.Flags), rows[k].flags);
    EXPECT_EQ(p.count, rows[k].count);
    EXPECT_EQ(p.length, rows[k].length);
    EXPECT_EQ(text_at(i, p.nonStructType.MapNameOffset), rows[k].map);
  }
}

TEST_F(Decode, UnknownProvidersAndEventsAreNotFound) {
  EVENT_RECORD other = record_;
  other.EventHeader.ProviderId.Data1 ^= 1;
  ULONG size = 0;
  EXPECT_EQ(TdhGetEventInformation(&other, 0, nullptr, nullptr, &size), ERROR_NOT_FOUND);
  EXPECT_NE(std::string(PfcTdhGetLastErrorMessage()).find("no loaded manifest"), std::string::npos);
  EVENT_RECORD version = record_;
  version.EventHeader.EventDescriptor.Version = 1;
  EXPECT_EQ(TdhGetEventInformation(&version, 0, nullptr, nullptr, &size), ERROR_NOT_FOUND);
  EXPECT_EQ(TdhGetEventInformation(nullptr, 0, nullptr, nullptr, &size), ERROR_INVALID_PARAMETER);
  EXPECT_EQ(TdhGetEventInformation(&record_, 0, nullptr, nullptr, nullptr),
            ERROR_INVALID_PARAMETER);
}

TEST_F(Decode, AnEventWithoutTemplateHasNoProperties) {
  std::vector<uint8_t> none;
  EVENT_RECORD r = record(2, 0, none);
  const std::vector<uint8_t> buf = info(r);
  const auto* i = reinterpret_cast<const TRACE_EVENT_INFO*>(buf.data());
  EXPECT_GE(buf.size(), sizeof(TRACE_EVENT_INFO));
  EXPECT_EQ(i->PropertyCount, 0u);
  EXPECT_EQ(text_at(i, i->ProviderNameOffset), u"Pfc-Decode-Test");  // after the whole struct
  EXPECT_GE(i->ProviderNameOffset, sizeof(TRACE_EVENT_INFO));
  EXPECT_EQ(text_at(i, i->LevelNameOffset), u"Error");
  EXPECT_EQ(text_at(i, i->TaskNameOffset), u"<none>");
  EXPECT_EQ(text_at(i, i->KeywordsNameOffset), u"<none>");
}

// TdhGetPropertySize, then TdhGetProperty into a buffer of that size.
std::vector<uint8_t> property(EVENT_RECORD& r, const char16_t* name, ULONG index, ULONG& rc) {
  PROPERTY_DATA_DESCRIPTOR d{reinterpret_cast<ULONGLONG>(name), index, 0};
  ULONG size = 0;
  rc = TdhGetPropertySize(&r, 0, nullptr, 1, &d, &size);
  if (rc != ERROR_SUCCESS) return {};
  std::vector<uint8_t> out(size);
  rc = TdhGetProperty(&r, 0, nullptr, 1, &d, size, out.data());
  return out;
}

uint64_t value_of(const std::vector<uint8_t>& bytes) {
  uint64_t v = 0;
  std::memcpy(&v, bytes.data(), std::min<size_t>(bytes.size(), 8));
  return v;
}

TEST_F(Decode, PropertiesAreFoundThroughCountsAndLengths) {
  ULONG rc = 0;
  constexpr ULONG kAll = 0xFFFFFFFF;
  EXPECT_EQ(value_of(property(record_, u"Count", kAll, rc)), 2u);
  EXPECT_EQ(property(record_, u"Items", kAll, rc).size(), 8u);  // the whole array
  EXPECT_EQ(value_of(property(record_, u"Items", 1, rc)), 20u);
  EXPECT_EQ(rc, ERROR_SUCCESS);
  property(record_, u"Items", 2, rc);
  EXPECT_EQ(rc, ERROR_INVALID_PARAMETER);                      // past the array's 2 elements
  EXPECT_EQ(property(record_, u"Name", kAll, rc).size(), 6u);  // "hi" and its NUL
  EXPECT_EQ(property(record_, u"Tag", kAll, rc).size(), 4u);
  EXPECT_EQ(value_of(property(record_, u"Color", kAll, rc)), 2u);
  const std::vector<uint8_t> blob = property(record_, u"Blob", kAll, rc);
  EXPECT_EQ(blob, (std::vector<uint8_t>{1, 2, 3}));
  EXPECT_EQ(static_cast<int16_t>(value_of(property(record_, u"Pair", 0, rc))), -1);
  EXPECT_EQ(value_of(property(record_, u"Pair", 1, rc)), 2u);
  property(record_, u"Nope", kAll, rc);
  EXPECT_EQ(rc, ERROR_NOT_FOUND);
}

TEST_F(Decode, PropertyErrors) {
  ULONG rc = 0;
  std::vector<uint8_t> cut(data_.begin(), data_.end() - 3);  // Pair does not fit
  EVENT_RECORD short_record = record(1, 2, cut);
  property(short_record, u"Pair", 0xFFFFFFFF, rc);
  EXPECT_EQ(rc, ERROR_EVT_INVALID_EVENT_DATA);
  EXPECT_EQ(value_of(property(short_record, u"Size", 0xFFFFFFFF, rc)), 3u);  // before the cut
  PROPERTY_DATA_DESCRIPTOR d{reinterpret_cast<ULONGLONG>(u"Items"), 0xFFFFFFFF, 0};
  uint8_t small[7];
  EXPECT_EQ(TdhGetProperty(&record_, 0, nullptr, 1, &d, sizeof small, small),
            ERROR_INSUFFICIENT_BUFFER);
  ULONG size = 0;
  PROPERTY_DATA_DESCRIPTOR two[2] = {d, d};
  EXPECT_EQ(TdhGetPropertySize(&record_, 0, nullptr, 2, two, &size), ERROR_INVALID_PARAMETER);
  PROPERTY_DATA_DESCRIPTOR unnamed{0, 0xFFFFFFFF, 0};
  EXPECT_EQ(TdhGetPropertySize(&record_, 0, nullptr, 1, &unnamed, &size), ERROR_INVALID_PARAMETER);
}

// Every property of the event cut after each byte: found (within the cut) or 15005.
TEST_F(Decode, TruncatedDataIsReportedNeverReadPast) {
  const char16_t* names[] = {u"Count", u"Items",  u"Name", u"Tag",  u"Id",  u"Flags",
                             u"Color", u"Access", u"Size", u"Blob", u"Pair"};
  for (size_t cut = 0; cut < data_.size(); ++cut) {
    std::vector<uint8_t> part(data_.begin(), data_.begin() + static_cast<ptrdiff_t>(cut));
    EVENT_RECORD r = record(1, 2, part);
    for (const char16_t* name : names) {
      PROPERTY_DATA_DESCRIPTOR d{reinterpret_cast<ULONGLONG>(name), 0xFFFFFFFF, 0};
      ULONG size = 0;
      const ULONG rc = TdhGetPropertySize(&r, 0, nullptr, 1, &d, &size);
      ASSERT_TRUE(rc == ERROR_SUCCESS || rc == ERROR_EVT_INVALID_EVENT_DATA) << cut << " " << rc;
      if (rc != ERROR_SUCCESS) continue;
      std::vector<uint8_t> out(size);
      ASSERT_EQ(TdhGetProperty(&r, 0, nullptr, 1, &d, size, out.data()), ERROR_SUCCESS);
    }
  }
}

// Every in-type on every short data length: formatted within the data, or 15005.
TEST(DecodeFormat, ShortDataForEveryInType) {
  TRACE_EVENT_INFO info{};
  const uint8_t bytes[24] = {1, 2, 0, 0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14};
  for (USHORT in = 1; in <= TDH_INTYPE_WBEMSID; ++in) {
    for (USHORT n = 0; n <= static_cast<USHORT>(sizeof bytes); ++n) {
      std::vector<uint8_t> data(bytes, bytes + n);  // exactly n bytes: past them is unowned
      WCHAR text[128];
      ULONG size = sizeof text;
      USHORT used = 0;
      const ULONG rc = TdhFormatProperty(&info, nullptr, 8, in, TDH_OUTTYPE_NULL, 0, n, data.data(),
                                         &size, text, &used);
      ASSERT_TRUE(rc == ERROR_SUCCESS || rc == ERROR_EVT_INVALID_EVENT_DATA ||
                  rc == ERROR_INVALID_PARAMETER)
          << in << " " << n << " " << rc;
      if (rc == ERROR_SUCCESS) {
        EXPECT_LE(used, n) << in;
      }
    }
  }
}

std::vector<uint8_t> map_info(EVENT_RECORD& r, const char16_t* name, ULONG& rc) {
  ULONG size = 0;
  rc = TdhGetEventMapInformation(&r, const_cast<PWSTR>(name), nullptr, &size);
  if (rc != ERROR_INSUFFICIENT_BUFFER) return {};
  std::vector<uint8_t> buf(size);
  rc = TdhGetEventMapInformation(&r, const_cast<PWSTR>(name),
                                 reinterpret_cast<PEVENT_MAP_INFO>(buf.data()), &size);
  return buf;
}

TEST_F(Decode, MapsComeWithWindowsTrailingSpace) {
  ULONG rc = 0;
  const std::vector<uint8_t> color = map_info(record_, u"Color", rc);
  ASSERT_EQ(rc, ERROR_SUCCESS);
  const auto* m = reinterpret_cast<const EVENT_MAP_INFO*>(color.data());
  EXPECT_EQ(text_at(m, m->NameOffset), u"Color");
  EXPECT_EQ(m->Flag, EVENTMAP_INFO_FLAG_MANIFEST_VALUEMAP);
  EXPECT_EQ(m->MapEntryValueType, EVENTMAP_ENTRY_VALUETYPE_ULONG);
  ASSERT_EQ(m->EntryCount, 2u);
  EXPECT_EQ(m->MapEntryArray[1].Value, 2u);
  // "The mapped string values defined in a manifest will contain a trailing space"
  // (learn.microsoft.com, "Using TdhFormatProperty to Consume Event Data").
  EXPECT_EQ(text_at(m, m->MapEntryArray[1].OutputOffset), u"Green ");
  const std::vector<uint8_t> access = map_info(record_, u"Access", rc);
  ASSERT_EQ(rc, ERROR_SUCCESS);
  EXPECT_EQ(reinterpret_cast<const EVENT_MAP_INFO*>(access.data())->Flag,
            EVENTMAP_INFO_FLAG_MANIFEST_BITMAP);
  map_info(record_, u"Shape", rc);
  EXPECT_EQ(rc, ERROR_NOT_FOUND);
}

TEST_F(Decode, EnumerateProvidersListsLoadedManifests) {
  ULONG size = 0;
  ASSERT_EQ(TdhEnumerateProviders(nullptr, &size), ERROR_INSUFFICIENT_BUFFER);
  std::vector<uint8_t> buf(size);
  auto* e = reinterpret_cast<PROVIDER_ENUMERATION_INFO*>(buf.data());
  ASSERT_EQ(TdhEnumerateProviders(e, &size), ERROR_SUCCESS);
  bool found = false;
  for (ULONG k = 0; k < e->NumberOfProviders; ++k) {
    const TRACE_PROVIDER_INFO& p = e->TraceProviderInfoArray[k];
    if (std::memcmp(&p.ProviderGuid, &kProvider, sizeof(GUID)) != 0) continue;
    found = true;
    EXPECT_EQ(p.SchemaSource, 0u);
    EXPECT_EQ(text_at(e, p.ProviderNameOffset), u"Pfc-Decode-Test");
  }
  EXPECT_TRUE(found);
  EXPECT_EQ(TdhEnumerateProviders(nullptr, nullptr), ERROR_INVALID_PARAMETER);
}

// What the documentation's consumer does with every property: the map (its trailing space
// removed), TdhFormatProperty, UserDataConsumed to the next one.
TEST_F(Decode, EveryPropertyFormatsInTurn) {
  const std::vector<uint8_t> buf = info(record_);
  auto* i = reinterpret_cast<TRACE_EVENT_INFO*>(const_cast<uint8_t*>(buf.data()));
  const uint8_t* at = data_.data();
  const uint8_t* end = data_.data() + data_.size();
  std::vector<std::u16string> lines;
  for (ULONG k = 0; k < i->TopLevelPropertyCount; ++k) {
    const EVENT_PROPERTY_INFO& p = i->EventPropertyInfoArray[k];
    USHORT count = p.count, length = p.length;
    if (p.Flags & PropertyParamCount) count = static_cast<USHORT>(value_of(data_));  // Count
    if (p.Flags & PropertyParamLength) length = 3;                                   // Size
    std::vector<uint8_t> map;
    if (p.nonStructType.MapNameOffset != 0) {
      ULONG rc = 0;
      map = map_info(record_, text_at(i, p.nonStructType.MapNameOffset).c_str(), rc);
      ASSERT_EQ(rc, ERROR_SUCCESS);
      auto* m = reinterpret_cast<EVENT_MAP_INFO*>(map.data());
      for (ULONG e = 0; e < m->EntryCount; ++e) {
        auto* s = reinterpret_cast<char16_t*>(map.data() + m->MapEntryArray[e].OutputOffset);
        s[std::u16string(s).size() - 1] = 0;
      }
    }
    for (USHORT n = 0; n < count; ++n) {
      WCHAR text[256];
      ULONG size = sizeof text;
      USHORT used = 0;
      ASSERT_EQ(TdhFormatProperty(
                    i, map.empty() ? nullptr : reinterpret_cast<EVENT_MAP_INFO*>(map.data()), 8,
                    p.nonStructType.InType, p.nonStructType.OutType, length,
                    static_cast<USHORT>(end - at), const_cast<PBYTE>(at), &size, text, &used),
                ERROR_SUCCESS)
          << PfcTdhGetLastErrorMessage();
      lines.push_back(text_at(i, p.NameOffset) + u": " + std::u16string(text));
      at += used;
    }
  }
  EXPECT_EQ(at, end);
  const std::vector<std::u16string> expected = {
      u"Count: 2",    u"Items: 10",      u"Items: 20",
      u"Name: hi",    u"Tag: abcd",      u"Id: {01234567-89AB-CDEF-0123-456789ABCDEF}",
      u"Flags: 0x1F", u"Color: Green",   u"Access: Read, Execute",
      u"Size: 3",     u"Blob: 0x010203", u"Pair: -1",
      u"Pair: 2"};
  EXPECT_EQ(lines, expected);
}

// A provider without a loaded manifest, described by the schema a `pfc trace enable
// --script` publishes, decodes inside a consumer's callback (tdh_context.h): event names
// from the script, out-types the in-types' defaults.
TEST(DecodeScript, PublishedSchemaDecodesInsideACallback) {
  pfc::ProviderDef def;
  def.name = "Scripted";
  def.guid = pfc::Guid::from_provider_name("Scripted");
  pfc::EventDef ev;
  ev.name = "Opened";
  ev.desc.id = 3;
  ev.fields.push_back(pfc::FieldDef{"Path", pfc::InType::UnicodeString, {}, {}});
  ev.fields.push_back(pfc::FieldDef{"Mode", pfc::InType::HexInt32, {}, {}});
  def.events.push_back(ev);
  pfc::etw::TraceSchemas schemas([&] {
    return std::vector<pfc::etw::LoadedProvider>{pfc::etw::LoadedProvider{def, {}}};
  });
  EVENT_RECORD r{};
  r.EventHeader.ProviderId = pfc::etw::to_win(def.guid);
  r.EventHeader.EventDescriptor.Id = 3;
  ULONG size = 0;
  EXPECT_EQ(TdhGetEventInformation(&r, 0, nullptr, nullptr, &size), ERROR_NOT_FOUND);
  pfc::etw::DeliveryScope scope(&schemas);
  std::vector<uint8_t> buf(1024);
  size = static_cast<ULONG>(buf.size());
  ASSERT_EQ(TdhGetEventInformation(&r, 0, nullptr, reinterpret_cast<PTRACE_EVENT_INFO>(buf.data()),
                                   &size),
            ERROR_SUCCESS)
      << PfcTdhGetLastErrorMessage();
  const auto* i = reinterpret_cast<const TRACE_EVENT_INFO*>(buf.data());
  EXPECT_EQ(text_at(i, i->ProviderNameOffset), u"Scripted");
  EXPECT_EQ(text_at(i, i->EventNameOffset), u"Opened");
  ASSERT_EQ(i->PropertyCount, 2u);
  EXPECT_EQ(text_at(i, i->EventPropertyInfoArray[1].NameOffset), u"Mode");
  EXPECT_EQ(i->EventPropertyInfoArray[1].nonStructType.OutType, TDH_OUTTYPE_HEXINT32);
}

}  // namespace
