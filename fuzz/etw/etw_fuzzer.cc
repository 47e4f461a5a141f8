// fuzz/etw/etw_fuzzer.cc — arbitrary EnableTraceEx2 calls on the ETW-compatible C API:
// control code, level, keywords, ENABLE_TRACE_PARAMETERS (v1, v2, bad versions, NULL) and
// EVENT_FILTER_DESCRIPTOR arrays whose data is built per filter type from the input
// (PID lists, UTF-16 name lists, EVENT_FILTER_EVENT_ID / _EVENT_NAME / _LEVEL_KW,
// schematized headers, payload blobs, unknown types; sizes that lie, NULL pointers).
// Every call must return success or an error code docs/etw.md documents for
// EnableTraceEx2, never crash; after a success an event is written so the converted
// filters are compiled and run. Payload-filter blobs are built with the TDH API
// (TdhCreatePayloadFilter + TdhAggregatePayloadFilters over a manifest loaded from memory,
// fuzzed field names, operators and values) and then possibly corrupted. Sessions,
// providers and the manifest are set up once per process. The sessions' engine is the
// interpreter unless PFC_ETW_ENGINE says otherwise (the JIT costs milliseconds per enable).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <fuzzer/FuzzedDataProvider.h>
#include "pfc/etw/evntcons.h"
#include "pfc/etw/evntprov.h"
#include "pfc/etw/evntrace.h"
#include "pfc/etw/tdh.h"

namespace {

struct Properties {
  EVENT_TRACE_PROPERTIES props;
  WCHAR name[64];
};

struct World {
  TRACEHANDLE sessions[2] = {0, 0};
  REGHANDLE provider = 0;
  GUID registered = {0x5A1E0001, 0, 0x4000, {0x80, 0, 0, 0, 0, 0, 0, 1}};
  GUID unregistered = {0x5A1E0002, 0, 0x4000, {0x80, 0, 0, 0, 0, 0, 0, 2}};
};

TRACEHANDLE start(const char16_t* name) {
  Properties p;
  std::memset(&p, 0, sizeof p);
  p.props.Wnode.BufferSize = sizeof p;
  p.props.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
  p.props.LogFileMode = EVENT_TRACE_REAL_TIME_MODE;
  p.props.LoggerNameOffset = offsetof(Properties, name);
  TRACEHANDLE h = 0;
  if (StartTraceW(&h, reinterpret_cast<LPCWSTR>(name), &p.props) != ERROR_SUCCESS) {
    std::fprintf(stderr, "etw_fuzzer: cannot start a session\n");
    std::abort();
  }
  return h;
}

// The fuzz provider's manifest: every predicate type (strings, integers, GUID) in two events.
constexpr char kManifest[] = R"(<?xml version="1.0" encoding="UTF-8"?>
<instrumentationManifest xmlns="http://schemas.microsoft.com/win/2004/08/events"
    xmlns:win="http://manifests.microsoft.com/win/2004/08/windows/events"
    xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <instrumentation><events>
    <provider name="Fuzz-Provider" guid="{5A1E0001-0000-4000-8000-000000000001}"
              symbol="FUZZ" resourceFileName="fuzz" messageFileName="fuzz">
      <events>
        <event value="1" version="0" level="win:Critical" template="T1" symbol="E1"/>
        <event value="2" version="0" level="win:Informational" template="T2" symbol="E2"/>
      </events>
      <templates>
        <template tid="T1">
          <data name="Initiator" inType="win:UnicodeString"/>
          <data name="Level" inType="win:UInt32"/>
          <data name="Small" inType="win:Int8"/>
        </template>
        <template tid="T2">
          <data name="Title" inType="win:AnsiString"/>
          <data name="InstanceId" inType="win:GUID"/>
          <data name="ErrorCode" inType="win:HexInt32"/>
        </template>
      </templates>
    </provider>
  </events></instrumentation>
</instrumentationManifest>
)";

World& world() {
  static World* w = [] {
    setenv("PFC_ETW_ENGINE", "interp", 0);
    if (TdhLoadManifestFromMemory(kManifest, sizeof kManifest - 1) != ERROR_SUCCESS) {
      std::fprintf(stderr, "etw_fuzzer: cannot load the manifest: %s\n",
                   PfcTdhGetLastErrorMessage());
      std::abort();
    }
    auto* x = new World;
    x->sessions[0] = start(u"fuzz_a");
    x->sessions[1] = start(u"fuzz_b");
    if (EventRegister(&x->registered, nullptr, nullptr, &x->provider) != ERROR_SUCCESS)
      std::abort();
    return x;
  }();
  return *w;
}

const ULONG kTypes[] = {EVENT_FILTER_TYPE_NONE,
                        EVENT_FILTER_TYPE_SCHEMATIZED,
                        EVENT_FILTER_TYPE_SYSTEM_FLAGS,
                        EVENT_FILTER_TYPE_TRACEHANDLE,
                        EVENT_FILTER_TYPE_PID,
                        EVENT_FILTER_TYPE_EXECUTABLE_NAME,
                        EVENT_FILTER_TYPE_PACKAGE_ID,
                        EVENT_FILTER_TYPE_PACKAGE_APP_ID,
                        EVENT_FILTER_TYPE_PAYLOAD,
                        EVENT_FILTER_TYPE_EVENT_ID,
                        EVENT_FILTER_TYPE_EVENT_NAME,
                        EVENT_FILTER_TYPE_STACKWALK,
                        EVENT_FILTER_TYPE_STACKWALK_NAME,
                        EVENT_FILTER_TYPE_STACKWALK_LEVEL_KW,
                        EVENT_FILTER_TYPE_CONTAINER};

void put16(std::vector<uint8_t>& b, uint16_t v) {
  b.push_back(uint8_t(v)), b.push_back(uint8_t(v >> 8));
}
void put32(std::vector<uint8_t>& b, uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(uint8_t(v >> (8 * i)));
}
void put64(std::vector<uint8_t>& b, uint64_t v) {
  for (int i = 0; i < 8; ++i) b.push_back(uint8_t(v >> (8 * i)));
}

// A ';'-separated UTF-16 name list, NUL-terminated (mostly well-formed).
void name_list(FuzzedDataProvider& in, std::vector<uint8_t>& b) {
  const std::string s = in.ConsumeRandomLengthString(64);
  for (unsigned char c : s) put16(b, in.ConsumeBool() ? c : uint16_t(0xD800 + c));
  if (in.ConsumeIntegralInRange(0, 9) != 0) put16(b, 0);
}

// EVENT_FILTER_EVENT_NAME: keywords, level, FilterIn, NameCount, then NUL-terminated names.
void event_names(FuzzedDataProvider& in, std::vector<uint8_t>& b) {
  put64(b, in.ConsumeIntegral<uint64_t>());
  put64(b, in.ConsumeIntegral<uint64_t>());
  b.push_back(in.ConsumeIntegral<uint8_t>());
  b.push_back(in.ConsumeIntegralInRange<uint8_t>(0, 2));
  const uint16_t n = in.ConsumeIntegralInRange<uint16_t>(0, 5);
  put16(b, in.ConsumeIntegralInRange(0, 9) == 0 ? in.ConsumeIntegral<uint16_t>() : n);
  for (uint16_t i = 0; i < n; ++i) {
    const std::string s = in.ConsumeRandomLengthString(16);
    b.insert(b.end(), s.begin(), s.end());
    b.push_back(0);
  }
}

bool tdh_documented(TDHSTATUS rc) {
  return rc == ERROR_SUCCESS || rc == ERROR_INVALID_PARAMETER || rc == ERROR_FILE_NOT_FOUND ||
         rc == ERROR_NOT_FOUND || rc == ERROR_INSUFFICIENT_BUFFER || rc == ERROR_NOT_ENOUGH_MEMORY;
}

void check_tdh(const char* what, TDHSTATUS rc) {
  if (tdh_documented(rc)) return;
  std::fprintf(stderr, "etw_fuzzer: %s returned undocumented code %u\n", what, rc);
  std::abort();
}

std::u16string widen(const std::string& s) { return std::u16string(s.begin(), s.end()); }

// One TdhCreatePayloadFilter call with fuzzed predicates; null when it is rejected.
PVOID payload_filter(FuzzedDataProvider& in, const World& w) {
  static const char* const kFields[] = {"Initiator",  "Level",     "Small", "Title",
                                        "InstanceId", "ErrorCode", "Nope",  ""};
  static const char* const kValues[] = {
      "User", "7,16", "0", "-1", "16,7", "0x10", " 5 ", "{0E95CFBC-58D4-44BA-BE40-E63A853536DF}",
      "",     "UNI"};
  static const USHORT kOps[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 20, 21, 30, 31, 32};
  const uint32_t n = in.ConsumeIntegralInRange<uint32_t>(0, 9);
  std::vector<std::u16string> names(n), values(n);
  std::vector<PAYLOAD_FILTER_PREDICATE> preds(n);
  for (uint32_t i = 0; i < n; ++i) {
    names[i] = widen(kFields[in.ConsumeIntegralInRange<size_t>(0, std::size(kFields) - 1)]);
    values[i] = in.ConsumeBool()
                    ? widen(kValues[in.ConsumeIntegralInRange<size_t>(0, std::size(kValues) - 1)])
                    : widen(in.ConsumeRandomLengthString(24));
    preds[i].FieldName = reinterpret_cast<LPWSTR>(names[i].data());
    preds[i].CompareOp = in.ConsumeIntegralInRange(0, 15) == 0
                             ? in.ConsumeIntegral<USHORT>()
                             : kOps[in.ConsumeIntegralInRange<size_t>(0, std::size(kOps) - 1)];
    preds[i].Value = reinterpret_cast<LPWSTR>(values[i].data());
  }
  EVENT_DESCRIPTOR d{};
  d.Id = in.ConsumeIntegralInRange<USHORT>(1, 3);
  const GUID* provider = in.ConsumeIntegralInRange(0, 15) == 0 ? &w.unregistered : &w.registered;
  PVOID filter = nullptr;
  const TDHSTATUS rc =
      TdhCreatePayloadFilter(provider, &d, in.ConsumeBool(), n, preds.data(), &filter);
  check_tdh("TdhCreatePayloadFilter", rc);
  return rc == ERROR_SUCCESS ? filter : nullptr;
}

// A TdhAggregatePayloadFilters blob (copied, then possibly corrupted), or raw bytes.
std::vector<uint8_t> payload_blob(FuzzedDataProvider& in, const World& w) {
  std::vector<PVOID> filters;
  std::vector<BOOLEAN> all;
  for (int i = in.ConsumeIntegralInRange(1, 3); i > 0; --i) {
    if (PVOID f = payload_filter(in, w)) filters.push_back(f), all.push_back(in.ConsumeBool());
  }
  std::vector<uint8_t> blob;
  EVENT_FILTER_DESCRIPTOR d{};
  if (!filters.empty()) {
    const TDHSTATUS rc = TdhAggregatePayloadFilters(static_cast<ULONG>(filters.size()),
                                                    filters.data(), all.data(), &d);
    check_tdh("TdhAggregatePayloadFilters", rc);
    if (rc == ERROR_SUCCESS) {
      const auto* p = reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(d.Ptr));
      blob.assign(p, p + d.Size);
      check_tdh("TdhCleanupPayloadEventFilterDescriptor",
                TdhCleanupPayloadEventFilterDescriptor(&d));
    }
  }
  for (PVOID& f : filters) check_tdh("TdhDeletePayloadFilter", TdhDeletePayloadFilter(&f));
  for (int i = in.ConsumeIntegralInRange(0, 3) == 0 ? in.ConsumeIntegralInRange(1, 4) : 0;
       i > 0 && !blob.empty(); --i) {
    blob[in.ConsumeIntegralInRange<size_t>(0, blob.size() - 1)] ^=
        in.ConsumeIntegralInRange<uint8_t>(1, 255);
  }
  return blob;
}

// The data for one descriptor of type `type`, shaped like what that type expects.
std::vector<uint8_t> filter_data(FuzzedDataProvider& in, ULONG type, const World& w) {
  std::vector<uint8_t> b;
  switch (type) {
    case EVENT_FILTER_TYPE_PAYLOAD: b = payload_blob(in, w); break;
    case EVENT_FILTER_TYPE_PID:
      for (int i = in.ConsumeIntegralInRange(0, 10); i > 0; --i)
        put32(b, in.ConsumeIntegralInRange<uint32_t>(0, 3));
      break;
    case EVENT_FILTER_TYPE_EXECUTABLE_NAME:
    case EVENT_FILTER_TYPE_PACKAGE_ID:
    case EVENT_FILTER_TYPE_PACKAGE_APP_ID: name_list(in, b); break;
    case EVENT_FILTER_TYPE_EVENT_ID:
    case EVENT_FILTER_TYPE_STACKWALK: {
      b.push_back(in.ConsumeIntegralInRange<uint8_t>(0, 2));
      b.push_back(0);
      const uint16_t n = in.ConsumeIntegralInRange<uint16_t>(0, 70);
      put16(b, in.ConsumeIntegralInRange(0, 9) == 0 ? in.ConsumeIntegral<uint16_t>() : n);
      for (uint16_t i = 0; i < n; ++i) put16(b, in.ConsumeIntegralInRange<uint16_t>(0, 5));
      break;
    }
    case EVENT_FILTER_TYPE_EVENT_NAME:
    case EVENT_FILTER_TYPE_STACKWALK_NAME: event_names(in, b); break;
    case EVENT_FILTER_TYPE_STACKWALK_LEVEL_KW:
      put64(b, in.ConsumeIntegral<uint64_t>());
      put64(b, in.ConsumeIntegral<uint64_t>());
      b.push_back(in.ConsumeIntegral<uint8_t>());
      b.push_back(in.ConsumeIntegralInRange<uint8_t>(0, 2));
      b.resize(24, 0);
      break;
    case EVENT_FILTER_TYPE_SCHEMATIZED:
      put16(b, in.ConsumeIntegral<uint16_t>());
      b.resize(16, in.ConsumeIntegral<uint8_t>());
      put32(b, in.ConsumeIntegralInRange<uint32_t>(0, 64));
      put32(b, 0);
      break;
    default: break;
  }
  const std::vector<uint8_t> tail = in.ConsumeBytes<uint8_t>(in.ConsumeIntegralInRange(0, 16));
  b.insert(b.end(), tail.begin(), tail.end());  // payload blobs and unknown types: raw bytes
  return b;
}

// Descriptors + their data blocks; sizes never exceed the allocated block (a Size larger
// than the buffer is a caller bug no API can detect), but may be smaller or zero.
struct Filters {
  std::vector<EVENT_FILTER_DESCRIPTOR> desc;
  std::vector<std::vector<uint8_t>> data;
};

Filters make_filters(FuzzedDataProvider& in, const World& w) {
  Filters f;
  const int n = in.ConsumeIntegralInRange(0, 15);
  f.data.resize(n);
  for (int i = 0; i < n; ++i) {
    const ULONG type = in.ConsumeIntegralInRange(0, 19) == 0
                           ? in.ConsumeIntegral<uint32_t>()
                           : kTypes[in.ConsumeIntegralInRange<size_t>(0, std::size(kTypes) - 1)];
    f.data[i] = filter_data(in, type, w);
    EVENT_FILTER_DESCRIPTOR d{};
    d.Type = type;
    d.Size = static_cast<ULONG>(f.data[i].size());
    const int mode = in.ConsumeIntegralInRange(0, 15);
    if (mode == 0) d.Size = in.ConsumeIntegralInRange<ULONG>(0, d.Size);  // short Size
    d.Ptr = mode == 1 && d.Size == 0 ? 0 : reinterpret_cast<uintptr_t>(f.data[i].data());
    f.desc.push_back(d);
  }
  return f;
}

bool documented(ULONG rc) {
  return rc == ERROR_SUCCESS || rc == ERROR_INVALID_PARAMETER || rc == ERROR_NOT_SUPPORTED ||
         rc == ERROR_NO_SYSTEM_RESOURCES || rc == ERROR_WMI_INSTANCE_NOT_FOUND ||
         rc == ERROR_TIMEOUT;
}

// Writes one event with fuzzed descriptor and payload through the registered provider.
void write_event(FuzzedDataProvider& in, World& w) {
  EVENT_DESCRIPTOR d{};
  d.Id = in.ConsumeIntegralInRange<USHORT>(0, 5);
  d.Level = in.ConsumeIntegralInRange<UCHAR>(0, 6);
  d.Keyword = in.ConsumeIntegral<uint64_t>();
  const std::vector<uint8_t> payload = in.ConsumeBytes<uint8_t>(in.ConsumeIntegralInRange(0, 64));
  EVENT_DATA_DESCRIPTOR data;
  EventDataDescCreate(&data, payload.data(), static_cast<ULONG>(payload.size()));
  const ULONG rc =
      EventWrite(w.provider, &d, payload.empty() ? 0 : 1, payload.empty() ? nullptr : &data);
  if (rc != ERROR_SUCCESS) {
    std::fprintf(stderr, "etw_fuzzer: EventWrite returned %u\n", rc);
    std::abort();
  }
}

}  // namespace

// Sessions live in a trace namespace (docs/namespace.md): each fuzzer process gets a
// private one, removed at exit, so runs never see each other's sessions.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  static std::string dir = [] {
    char tmpl[] = "/tmp/pfc-etw-fuzz-XXXXXX";
    const char* made = ::mkdtemp(tmpl);
    return std::string(made != nullptr ? made : "/tmp");
  }();
  ::setenv("PFC_TRACE_DIR", dir.c_str(), 1);
  std::atexit([] { std::filesystem::remove_all(dir); });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 8192) return 0;  // budget: more bytes only make more descriptors of the same kinds
  World& w = world();
  FuzzedDataProvider in(data, size);
  const int which = in.ConsumeIntegralInRange(0, 7);
  TRACEHANDLE trace = which < 4   ? w.sessions[0]
                      : which < 7 ? w.sessions[1]
                                  : in.ConsumeIntegral<uint64_t>();
  const int pick = in.ConsumeIntegralInRange(0, 9);
  const GUID* provider = pick == 0 ? nullptr : pick == 1 ? &w.unregistered : &w.registered;
  const ULONG code = in.ConsumeIntegralInRange(0, 15) == 0 ? in.ConsumeIntegral<uint32_t>()
                                                           : in.ConsumeIntegralInRange<ULONG>(0, 2);
  const UCHAR level = in.ConsumeIntegral<UCHAR>();
  const ULONGLONG any = in.ConsumeIntegral<uint64_t>();
  const ULONGLONG all = in.ConsumeIntegralInRange(0, 3) == 0 ? in.ConsumeIntegral<uint64_t>() : 0;
  Filters filters = make_filters(in, w);
  ENABLE_TRACE_PARAMETERS params{};
  const int version = in.ConsumeIntegralInRange(0, 9);
  params.Version = version < 5 ? 2 : version < 8 ? 1 : in.ConsumeIntegral<uint32_t>();
  params.EnableProperty = in.ConsumeIntegral<uint32_t>() & (in.ConsumeBool() ? 0x7FFu : 0x214u);
  params.SourceId.Data1 = in.ConsumeIntegral<uint32_t>();
  params.EnableFilterDesc = filters.desc.empty() ? nullptr : filters.desc.data();
  params.FilterDescCount = static_cast<ULONG>(filters.desc.size());
  if (in.ConsumeIntegralInRange(0, 15) == 0)
    params.FilterDescCount = in.ConsumeIntegral<uint32_t>() | 16;  // too many
  if (params.FilterDescCount > filters.desc.size() && params.EnableFilterDesc != nullptr) {
    params.FilterDescCount = static_cast<ULONG>(filters.desc.size());  // never past the array
  }
  PENABLE_TRACE_PARAMETERS p = in.ConsumeIntegralInRange(0, 9) == 0 ? nullptr : &params;
  const ULONG rc = EnableTraceEx2(trace, provider, code, level, any, all, 0, p);
  if (!documented(rc)) {
    std::fprintf(stderr, "etw_fuzzer: EnableTraceEx2 returned undocumented code %u\n", rc);
    std::abort();
  }
  write_event(in, w);
  return 0;
}
