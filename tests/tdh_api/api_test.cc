// tests/tdh_api/api_test.cc — the TDH C API (pfc/etw/tdh.h) through its C functions:
// header layout and values, manifest loading errors, TdhCreatePayloadFilter's error
// mapping, aggregation, and EnableTraceEx2 with valid, copied, truncated and corrupted
// payload blobs (never a crash; ERROR_INVALID_PARAMETER for every damaged blob).
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "pfc/etw/evntrace.h"
#include "pfc/etw/tdh.h"

static_assert(sizeof(PAYLOAD_FILTER_PREDICATE) == 24);
static_assert(offsetof(PAYLOAD_FILTER_PREDICATE, FieldName) == 0);
static_assert(offsetof(PAYLOAD_FILTER_PREDICATE, CompareOp) == 8);
static_assert(offsetof(PAYLOAD_FILTER_PREDICATE, Value) == 16);
static_assert(PAYLOADFIELD_MODULO == 8 && PAYLOADFIELD_CONTAINS == 20 && PAYLOADFIELD_IS == 30 &&
              PAYLOADFIELD_ISNOT == 31 && PAYLOADFIELD_INVALID == 32 &&
              MAX_PAYLOAD_PREDICATES == 8);
static_assert(TDH_INTYPE_HEXINT64 == 21 && TDH_INTYPE_MANIFEST_COUNTEDBINARY == 25 &&
              TDH_INTYPE_WBEMSID == 310 && TDH_OUTTYPE_DATETIME_UTC == 38 &&
              TDH_OUTTYPE_NOPRINT == 301 && TDH_OUTYTPE_ERRORCODE == 29);

namespace {

// {37a59b93-bb25-4cee-97aa-8b6acd0c4df8}
const GUID kExample = {
    0x37a59b93, 0xbb25, 0x4cee, {0x97, 0xaa, 0x8b, 0x6a, 0xcd, 0x0c, 0x4d, 0xf8}};
const GUID kOther = {0x37a59b93, 0xbb25, 0x4cee, {0x97, 0xaa, 0x8b, 0x6a, 0xcd, 0x0c, 0x4d, 0xf9}};

std::u16string u16(const std::string& s) { return std::u16string(s.begin(), s.end()); }

struct Loaded {
  Loaded() {
    path = u16(PFC_EXAMPLE_MAN);
    EXPECT_EQ(TdhLoadManifest(path.data()), ERROR_SUCCESS) << PfcTdhGetLastErrorMessage();
  }
  ~Loaded() { EXPECT_EQ(TdhUnloadManifest(path.data()), ERROR_SUCCESS); }
  std::u16string path;
};

EVENT_DESCRIPTOR event(USHORT id) {
  EVENT_DESCRIPTOR d;
  EventDescCreate(&d, id, 0, 0, 1, 0, 0, 0);
  return d;
}

// One predicate with owned strings.
struct Pred {
  std::u16string field, value;
  USHORT op;
};

ULONG create(const GUID& provider, USHORT id, bool any, std::vector<Pred> preds, PVOID* out) {
  std::vector<PAYLOAD_FILTER_PREDICATE> raw;
  raw.reserve(preds.size());
  for (Pred& p : preds) raw.push_back({p.field.data(), p.op, p.value.data()});
  const EVENT_DESCRIPTOR d = event(id);
  return TdhCreatePayloadFilter(&provider, &d, any, static_cast<ULONG>(raw.size()), raw.data(),
                                out);
}

// The documentation sample's two filters, aggregated.
EVENT_FILTER_DESCRIPTOR sample_blob() {
  PVOID f[2] = {};
  EXPECT_EQ(
      create(kExample, 1, false,
             {{u"Initiator", u"User", PAYLOADFIELD_IS}, {u"Level", u"7,16", PAYLOADFIELD_BETWEEN}},
             &f[0]),
      ERROR_SUCCESS)
      << PfcTdhGetLastErrorMessage();
  EXPECT_EQ(create(kExample, 2, true,
                   {{u"Title", u"UNI", PAYLOADFIELD_CONTAINS},
                    {u"InstanceId", u" {0E95CFBC-58D4-44BA-BE40-E63A853536DF}", PAYLOADFIELD_IS},
                    {u"ErrorCode", u"0", PAYLOADFIELD_NE}},
                   &f[1]),
            ERROR_SUCCESS)
      << PfcTdhGetLastErrorMessage();
  EVENT_FILTER_DESCRIPTOR desc{};
  EXPECT_EQ(TdhAggregatePayloadFilters(2, f, nullptr, &desc), ERROR_SUCCESS);
  EXPECT_EQ(TdhDeletePayloadFilter(&f[0]), ERROR_SUCCESS);
  EXPECT_EQ(TdhDeletePayloadFilter(&f[1]), ERROR_SUCCESS);
  EXPECT_EQ(f[0], nullptr);
  return desc;
}

struct Session {
  Session() {
    std::memset(&buf, 0, sizeof buf);
    buf.props.Wnode.BufferSize = sizeof buf;
    buf.props.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
    buf.props.Wnode.ClientContext = 1;
    buf.props.LogFileMode = EVENT_TRACE_REAL_TIME_MODE;
    buf.props.LoggerNameOffset = offsetof(Buf, name);
    EXPECT_EQ(StartTraceW(&handle, u"tdh_api_test", &buf.props), ERROR_SUCCESS);
  }
  ~Session() {
    EXPECT_EQ(ControlTraceW(handle, nullptr, &buf.props, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS);
  }
  ULONG enable(const GUID& provider, const uint8_t* data, ULONG size) {
    EVENT_FILTER_DESCRIPTOR d{reinterpret_cast<uintptr_t>(data), size, EVENT_FILTER_TYPE_PAYLOAD};
    ENABLE_TRACE_PARAMETERS p{};
    p.Version = ENABLE_TRACE_PARAMETERS_VERSION_2;
    p.EnableFilterDesc = &d;
    p.FilterDescCount = 1;
    return EnableTraceEx2(handle, &provider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, &p);
  }
  struct Buf {
    EVENT_TRACE_PROPERTIES props;
    WCHAR name[64];
  } buf;
  TRACEHANDLE handle = 0;
};

TEST(TdhApi, LoadErrors) {
  EXPECT_EQ(TdhLoadManifest(nullptr), ERROR_INVALID_PARAMETER);
  std::u16string longp(300, u'a');
  EXPECT_EQ(TdhLoadManifest(longp.data()), ERROR_INVALID_PARAMETER);
  std::u16string missing = u"/nonexistent/x.man";
  EXPECT_EQ(TdhLoadManifest(missing.data()), ERROR_FILE_NOT_FOUND);
  EXPECT_NE(std::string(PfcTdhGetLastErrorMessage()).find("/nonexistent/x.man"), std::string::npos);
  EXPECT_EQ(TdhUnloadManifest(missing.data()), ERROR_FILE_NOT_FOUND);
  const std::string bad = testing::TempDir() + "tdh_bad.man";
  std::ofstream(bad) << "<instrumentationManifest>\n<oops></instrumentationManifest>";
  std::u16string badp = u16(bad);
  EXPECT_EQ(TdhLoadManifest(badp.data()), ERROR_XML_PARSE_ERROR);
  EXPECT_NE(std::string(PfcTdhGetLastErrorMessage()).find(bad + ":2:"), std::string::npos)
      << PfcTdhGetLastErrorMessage();
  Loaded ok;
  EXPECT_STREQ(PfcTdhGetLastErrorMessage(), "");
}

TEST(TdhApi, LoadFromMemoryAndBinary) {
  std::ifstream in(PFC_EXAMPLE_MAN, std::ios::binary);
  std::string xml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(TdhLoadManifestFromMemory(nullptr, 3), ERROR_INVALID_PARAMETER);
  EXPECT_EQ(TdhLoadManifestFromMemory("<x/>", 4), ERROR_XML_PARSE_ERROR);
  ASSERT_EQ(TdhLoadManifestFromMemory(xml.data(), static_cast<ULONG>(xml.size())), ERROR_SUCCESS);
  PVOID f = nullptr;
  EXPECT_EQ(create(kExample, 1, false, {{u"Level", u"3", PAYLOADFIELD_GT}}, &f), ERROR_SUCCESS);
  EXPECT_EQ(TdhDeletePayloadFilter(&f), ERROR_SUCCESS);
  EXPECT_EQ(TdhUnloadManifestFromMemory(xml.data(), static_cast<ULONG>(xml.size())), ERROR_SUCCESS);
  EXPECT_EQ(TdhUnloadManifestFromMemory(xml.data(), static_cast<ULONG>(xml.size())),
            ERROR_NOT_FOUND);
  EXPECT_EQ(create(kExample, 1, false, {{u"Level", u"3", PAYLOADFIELD_GT}}, &f),
            ERROR_FILE_NOT_FOUND);

  const std::string bin = testing::TempDir() + "tdh_embedded.bin";
  std::ofstream(bin, std::ios::binary) << std::string(
                                              "\x7f"
                                              "ELF\x02\x01\0\0",
                                              8)
                                       << xml << std::string("\0\0\x90\x90", 4);
  std::u16string binp = u16(bin);
  ASSERT_EQ(TdhLoadManifestFromBinary(binp.data()), ERROR_SUCCESS) << PfcTdhGetLastErrorMessage();
  EXPECT_EQ(create(kExample, 1, false, {{u"Level", u"3", PAYLOADFIELD_GT}}, &f), ERROR_SUCCESS);
  EXPECT_EQ(TdhDeletePayloadFilter(&f), ERROR_SUCCESS);
  EXPECT_EQ(TdhUnloadManifest(binp.data()), ERROR_SUCCESS);
}

struct CreateCase {
  GUID provider;
  USHORT id;
  std::vector<Pred> preds;
  ULONG rc;
};

TEST(TdhApi, CreatePayloadFilterErrors) {
  Loaded loaded;
  const std::u16string big(5000, u'x');
  const std::u16string fits(4000, u'x');
  const std::u16string too_big(4050, u'x');
  const Pred lvl{u"Level", u"5", PAYLOADFIELD_EQ};
  const std::vector<CreateCase> cases = {
      {kExample, 1, {lvl}, ERROR_SUCCESS},
      {kOther, 1, {lvl}, ERROR_FILE_NOT_FOUND},
      {kExample, 9, {lvl}, ERROR_NOT_FOUND},
      {kExample, 1, {{u"event_id", u"1", PAYLOADFIELD_EQ}}, ERROR_NOT_FOUND},
      {kExample, 1, {{u"level", u"1", PAYLOADFIELD_EQ}}, ERROR_NOT_FOUND},  // names are exact
      {kExample, 1, {}, ERROR_INVALID_PARAMETER},
      {kExample, 1, std::vector<Pred>(9, lvl), ERROR_INVALID_PARAMETER},
      {kExample, 1, std::vector<Pred>(8, lvl), ERROR_SUCCESS},
      {kExample, 1, {{u"Level", u"5", 9}}, ERROR_INVALID_PARAMETER},
      {kExample, 1, {{u"Level", u"5", PAYLOADFIELD_INVALID}}, ERROR_INVALID_PARAMETER},
      {kExample, 1, {{u"Level", u"x", PAYLOADFIELD_CONTAINS}}, ERROR_INVALID_PARAMETER},
      {kExample, 1, {{u"Initiator", u"1", PAYLOADFIELD_GT}}, ERROR_INVALID_PARAMETER},
      {kExample, 1, {{u"Level", u"abc", PAYLOADFIELD_EQ}}, ERROR_INVALID_PARAMETER},
      {kExample, 1, {{u"Level", u"7,16", PAYLOADFIELD_EQ}}, ERROR_INVALID_PARAMETER},
      {kExample, 1, {{u"Level", u"16,7", PAYLOADFIELD_BETWEEN}}, ERROR_INVALID_PARAMETER},
      {kExample, 1, {{u"Level", u"4294967296", PAYLOADFIELD_EQ}}, ERROR_INVALID_PARAMETER},
      {kExample, 1, {{u"Level", u"0", PAYLOADFIELD_MODULO}}, ERROR_INVALID_PARAMETER},
      {kExample, 1, {{u"Level", u"0x10", PAYLOADFIELD_MODULO}}, ERROR_SUCCESS},
      {kExample,
       2,
       {{u"InstanceId", u"0E95CFBC-58D4-44BA-BE40-E63A853536DF", PAYLOADFIELD_IS}},
       ERROR_INVALID_PARAMETER},
      {kExample,
       2,
       {{u"InstanceId", u"{0E95CFBC-58D4-44BA-BE40-E63A853536DF}", PAYLOADFIELD_EQ}},
       ERROR_INVALID_PARAMETER},
      {kExample,
       1,
       {{u"Initiator", std::u16string(1, char16_t(0xD800)), PAYLOADFIELD_IS}},
       ERROR_INVALID_PARAMETER},
      {kExample, 1, {{u"Initiator", fits, PAYLOADFIELD_IS}}, ERROR_SUCCESS},
      {kExample, 1, {{u"Initiator", too_big, PAYLOADFIELD_IS}}, ERROR_INSUFFICIENT_BUFFER},
      {kExample, 1, {{u"Initiator", big, PAYLOADFIELD_IS}}, ERROR_INSUFFICIENT_BUFFER},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    PVOID f = nullptr;
    const ULONG rc = create(cases[i].provider, cases[i].id, false, cases[i].preds, &f);
    EXPECT_EQ(rc, cases[i].rc) << "case " << i << ": " << PfcTdhGetLastErrorMessage();
    EXPECT_EQ(rc == ERROR_SUCCESS, f != nullptr) << "case " << i;
    EXPECT_EQ(rc == ERROR_SUCCESS, *PfcTdhGetLastErrorMessage() == 0) << "case " << i;
    if (f != nullptr) {
      EXPECT_EQ(TdhDeletePayloadFilter(&f), ERROR_SUCCESS);
    }
  }
  PAYLOAD_FILTER_PREDICATE p{nullptr, PAYLOADFIELD_EQ, nullptr};
  const EVENT_DESCRIPTOR d = event(1);
  PVOID f = nullptr;
  EXPECT_EQ(TdhCreatePayloadFilter(&kExample, &d, FALSE, 1, &p, &f), ERROR_INVALID_PARAMETER);
  EXPECT_EQ(TdhCreatePayloadFilter(nullptr, &d, FALSE, 1, &p, &f), ERROR_INVALID_PARAMETER);
  EXPECT_EQ(TdhCreatePayloadFilter(&kExample, &d, FALSE, 1, &p, nullptr), ERROR_INVALID_PARAMETER);
  EXPECT_EQ(TdhDeletePayloadFilter(nullptr), ERROR_INVALID_PARAMETER);
  PVOID bogus = &p;
  EXPECT_EQ(TdhDeletePayloadFilter(&bogus), ERROR_INVALID_PARAMETER);
}

TEST(TdhApi, AggregateAndCleanup) {
  Loaded loaded;
  EVENT_FILTER_DESCRIPTOR desc = sample_blob();
  EXPECT_EQ(desc.Type, EVENT_FILTER_TYPE_PAYLOAD);
  EXPECT_GT(desc.Size, 48u);
  EXPECT_LE(desc.Size, static_cast<ULONG>(MAX_EVENT_FILTER_PAYLOAD_SIZE));
  EXPECT_EQ(TdhCleanupPayloadEventFilterDescriptor(&desc), ERROR_SUCCESS);
  EXPECT_EQ(desc.Ptr, 0u);
  EXPECT_EQ(desc.Type, static_cast<ULONG>(EVENT_FILTER_TYPE_NONE));
  EXPECT_EQ(TdhCleanupPayloadEventFilterDescriptor(&desc), ERROR_INVALID_PARAMETER);
  EXPECT_EQ(TdhCleanupPayloadEventFilterDescriptor(nullptr), ERROR_INVALID_PARAMETER);

  // Several filters of one event, EventMatchALLFlags, one provider only, size limit.
  std::vector<PVOID> f(3, nullptr);
  const std::u16string long_text(1340, u'y');
  for (PVOID& p : f)
    ASSERT_EQ(create(kExample, 1, false, {{u"Initiator", long_text, PAYLOADFIELD_IS}}, &p),
              ERROR_SUCCESS);
  BOOLEAN flags[3] = {TRUE, FALSE, TRUE};
  EXPECT_EQ(TdhAggregatePayloadFilters(3, f.data(), flags, &desc), ERROR_INSUFFICIENT_BUFFER);
  EXPECT_EQ(TdhAggregatePayloadFilters(2, f.data(), flags, &desc), ERROR_SUCCESS);
  EXPECT_EQ(TdhCleanupPayloadEventFilterDescriptor(&desc), ERROR_SUCCESS);
  EXPECT_EQ(TdhAggregatePayloadFilters(0, f.data(), nullptr, &desc), ERROR_INVALID_PARAMETER);
  EXPECT_EQ(TdhAggregatePayloadFilters(1, nullptr, nullptr, &desc), ERROR_INVALID_PARAMETER);
  EXPECT_EQ(TdhAggregatePayloadFilters(1, f.data(), nullptr, nullptr), ERROR_INVALID_PARAMETER);
  PVOID stranger = &desc;
  EXPECT_EQ(TdhAggregatePayloadFilters(1, &stranger, nullptr, &desc), ERROR_INVALID_PARAMETER);
  for (PVOID& p : f) EXPECT_EQ(TdhDeletePayloadFilter(&p), ERROR_SUCCESS);
  EXPECT_EQ(TdhAggregatePayloadFilters(1, f.data(), nullptr, &desc), ERROR_INVALID_PARAMETER);

  // A second provider's manifest: mixing providers is refused.
  const std::string other = testing::TempDir() + "tdh_other.man";
  std::ifstream in(PFC_EXAMPLE_MAN, std::ios::binary);
  std::string xml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  xml.replace(xml.find("4df8"), 4, "4df9");
  xml.replace(xml.find("name=\"Example-Provider\""), 23, "name=\"Other-Provider\"");
  std::ofstream(other) << xml;
  std::u16string otherp = u16(other);
  ASSERT_EQ(TdhLoadManifest(otherp.data()), ERROR_SUCCESS) << PfcTdhGetLastErrorMessage();
  PVOID two[2] = {};
  ASSERT_EQ(create(kExample, 1, false, {{u"Level", u"1", PAYLOADFIELD_EQ}}, &two[0]),
            ERROR_SUCCESS);
  ASSERT_EQ(create(kOther, 1, false, {{u"Level", u"1", PAYLOADFIELD_EQ}}, &two[1]), ERROR_SUCCESS);
  EXPECT_EQ(TdhAggregatePayloadFilters(2, two, nullptr, &desc), ERROR_INVALID_PARAMETER);
  for (PVOID& p : two) EXPECT_EQ(TdhDeletePayloadFilter(&p), ERROR_SUCCESS);
  EXPECT_EQ(TdhUnloadManifest(otherp.data()), ERROR_SUCCESS);
}

TEST(TdhApi, EnableWithBlobs) {
  Loaded loaded;
  EVENT_FILTER_DESCRIPTOR desc = sample_blob();
  const auto* p = reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(desc.Ptr));
  const std::vector<uint8_t> blob(p, p + desc.Size);
  ASSERT_EQ(TdhCleanupPayloadEventFilterDescriptor(&desc), ERROR_SUCCESS);
  Session s;
  EXPECT_EQ(s.enable(kExample, blob.data(), static_cast<ULONG>(blob.size())),
            ERROR_SUCCESS);  // a copy
  EXPECT_EQ(s.enable(kOther, blob.data(), static_cast<ULONG>(blob.size())),
            ERROR_INVALID_PARAMETER);
  EXPECT_EQ(s.enable(kExample, nullptr, static_cast<ULONG>(blob.size())), ERROR_INVALID_PARAMETER);
  std::vector<uint8_t> big(4097, 0);
  EXPECT_EQ(s.enable(kExample, big.data(), 4097), ERROR_INVALID_PARAMETER);
  for (size_t n = 0; n < blob.size(); ++n) {  // truncation at every byte
    std::vector<uint8_t> cut(blob.begin(), blob.begin() + static_cast<ptrdiff_t>(n));
    cut.push_back(0);  // a valid pointer even for n == 0
    EXPECT_EQ(s.enable(kExample, cut.data(), static_cast<ULONG>(n)), ERROR_INVALID_PARAMETER) << n;
  }
  for (uint32_t seed = 1; seed <= 300; ++seed) {  // random corruption, fixed seeds
    std::mt19937 rng(seed);
    std::vector<uint8_t> bad = blob;
    const int flips = 1 + static_cast<int>(rng() % 4);
    for (int k = 0; k < flips; ++k)
      bad[rng() % bad.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
    EXPECT_EQ(s.enable(kExample, bad.data(), static_cast<ULONG>(bad.size())),
              ERROR_INVALID_PARAMETER)
        << "seed " << seed;
  }
  // A blob carries its events' layouts: it stays valid after the manifest is unloaded.
  std::u16string path = u16(PFC_EXAMPLE_MAN);
  ASSERT_EQ(TdhUnloadManifest(path.data()), ERROR_SUCCESS);
  EXPECT_EQ(s.enable(kExample, blob.data(), static_cast<ULONG>(blob.size())), ERROR_SUCCESS);
  ASSERT_EQ(TdhLoadManifest(path.data()), ERROR_SUCCESS);
  EXPECT_EQ(s.enable(kExample, blob.data(), static_cast<ULONG>(blob.size())), ERROR_SUCCESS);
}

}  // namespace
