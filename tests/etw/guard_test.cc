// tests/etw/guard_test.cc — the C boundary of libpfc_etw (docs/etw.md "Error codes"): every
// export of etw/exports.map has a row here. An allocating export is called with the calling
// thread's N-th and every later allocation failing, for N = 0, 1, 2, ... until the call
// succeeds: each failed call must return the documented out-of-memory result, and the next
// attempt must still work (nothing half-registered is left behind). A row that allocates
// nothing must succeed with every allocation failing. The table must name exactly the
// exports of exports.map, so a new export without a row (and a guard) fails here. Run with
// PFC_ETW_ENGINE=interp (tests/etw/CMakeLists.txt): LLVM is not exception-safe.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <new>
#include <regex>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "pfc/etw/evntcons.h"
#include "pfc/etw/evntprov.h"
#include "pfc/etw/evntrace.h"
#include "pfc/etw/pfc_etw_ext.h"
#include "pfc/etw/tdh.h"

// ---- failing allocations: this thread's allocations fail from the N-th on while armed ----
namespace {
thread_local long tl_allow = -1;  // -1: disarmed; else how many more allocations succeed

void* allocate(std::size_t n, std::size_t align) {
  if (tl_allow == 0) throw std::bad_alloc();
  if (tl_allow > 0) --tl_allow;
  void* p = align <= alignof(std::max_align_t)
                ? std::malloc(n == 0 ? 1 : n)
                : std::aligned_alloc(align, (n + align - 1) / align * align);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
}  // namespace

// The static analyzer takes `delete` to have freed the memory before these replacements
// run, and reports their free() as a double free.
// NOLINTBEGIN(clang-analyzer-cplusplus.NewDelete)
void* operator new(std::size_t n) { return allocate(n, 0); }
void* operator new[](std::size_t n) { return allocate(n, 0); }
void* operator new(std::size_t n, std::align_val_t a) {
  return allocate(n, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t n, std::align_val_t a) {
  return allocate(n, static_cast<std::size_t>(a));
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
// NOLINTEND(clang-analyzer-cplusplus.NewDelete)

namespace {

GUID guid(ULONG n) { return GUID{0x6A4D0000u + n, 0x1, 0x4000, {0x80, 0, 0, 0, 0, 0, 0, 0}}; }
const GUID kProvider = guid(1);
const GUID kClassic = guid(2);
const WCHAR kSession[] = u"pfc-guard-test";

struct Props {
  EVENT_TRACE_PROPERTIES p;
  WCHAR name[64];
  WCHAR file[128];  // a log file's name (LogFileNameOffset set only for one)
};
Props props() {
  Props x{};
  x.p.Wnode.BufferSize = sizeof x;
  x.p.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
  x.p.LogFileMode = EVENT_TRACE_REAL_TIME_MODE;
  x.p.LoggerNameOffset = offsetof(Props, name);
  return x;
}
ULONG start_session() {
  Props p = props();
  TRACEHANDLE h = 0;
  return StartTraceW(&h, kSession, &p.p);
}
// Starts the session and keeps its handle in g_session.
TRACEHANDLE g_session = 0;
void start() {
  Props p = props();
  ASSERT_EQ(StartTraceW(&g_session, kSession, &p.p), ERROR_SUCCESS);
}
ULONG stop_session() {
  Props p = props();
  return StopTraceW(0, kSession, &p.p);
}
ULONG enable(const GUID& g) {
  return EnableTraceEx2(g_session, &g, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, INFINITE,
                        nullptr);
}

std::string manifest() {
  char text[1024];
  std::snprintf(text, sizeof text,
                "<instrumentationManifest xmlns=\"http://schemas.microsoft.com/win/2004/08/"
                "events\" xmlns:win=\"http://manifests.microsoft.com/win/2004/08/windows/"
                "events\"><instrumentation><events><provider name=\"Guard\" "
                "guid=\"{%08lX-0001-4000-8000-000000000000}\"><maps><valueMap name=\"M\"><map "
                "value=\"7\" message=\"seven\"/></valueMap></maps><templates><template "
                "tid=\"T\"><data name=\"N\" inType=\"win:UInt32\" map=\"M\"/></template>"
                "</templates>"
                "<events><event value=\"1\" symbol=\"E\" template=\"T\"/></events></provider>"
                "</events></instrumentation></instrumentationManifest>",
                static_cast<unsigned long>(kProvider.Data1));
  return text;
}
const std::string kManifest = manifest();

// A temporary file holding kManifest, as a UTF-16 path; removed by TearDown.
std::string g_file;
std::u16string g_file16;
void write_manifest_file() {
  char path[] = "/tmp/pfc-guard-XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, kManifest.data(), kManifest.size()), static_cast<ssize_t>(kManifest.size()));
  close(fd);
  g_file = path;
  g_file16.assign(g_file.begin(), g_file.end());
}
PVOID g_filter = nullptr;
void create_filter() {
  ASSERT_EQ(TdhLoadManifestFromMemory(kManifest.data(), static_cast<ULONG>(kManifest.size())),
            ERROR_SUCCESS);
  PAYLOAD_FILTER_PREDICATE p{const_cast<LPWSTR>(u"N"), PAYLOADFIELD_EQ, const_cast<LPWSTR>(u"7")};
  EVENT_DESCRIPTOR e;
  EventDescCreate(&e, 1, 0, 0, 0, 0, 0, 0);
  ASSERT_EQ(TdhCreatePayloadFilter(&kProvider, &e, TRUE, 1, &p, &g_filter), ERROR_SUCCESS);
}
EVENT_FILTER_DESCRIPTOR g_blob{};

// An event of kManifest's event 1 (N = 7) for the decoding rows, and their buffers.
UINT32 g_n = 7;
EVENT_RECORD decoded_event() {
  EVENT_RECORD r{};
  r.EventHeader.ProviderId = kProvider;
  r.EventHeader.EventDescriptor.Id = 1;
  r.UserData = &g_n;
  r.UserDataLength = sizeof g_n;
  return r;
}
EVENT_RECORD g_record = decoded_event();
alignas(8) BYTE g_out[4096];
ULONG g_out_size = 0;
PROPERTY_DATA_DESCRIPTOR g_property{reinterpret_cast<ULONGLONG>(u"N"), 0xFFFFFFFFu, 0};
void load_manifest() {
  ASSERT_EQ(TdhLoadManifestFromMemory(kManifest.data(), static_cast<ULONG>(kManifest.size())),
            ERROR_SUCCESS);
  g_out_size = sizeof g_out;
}

// A modern provider the session enables (the write rows), and a classic one with its
// logger handle.
REGHANDLE g_reg = 0;
void enabled_provider() {
  start();
  ASSERT_EQ(EventRegister(&kProvider, nullptr, nullptr, &g_reg), ERROR_SUCCESS);
  ASSERT_EQ(enable(kProvider), ERROR_SUCCESS);
}
TRACEHANDLE g_logger = 0;
ULONG control(WMIDPREQUESTCODE code, PVOID, ULONG*, PVOID buffer) {
  if (code == WMI_ENABLE_EVENTS) g_logger = GetTraceLoggerHandle(buffer);
  return ERROR_SUCCESS;
}
ULONG register_classic() {
  TRACEHANDLE h = 0;
  TRACE_GUID_REGISTRATION reg{&kClassic, nullptr};
  return RegisterTraceGuidsW(control, nullptr, &kClassic, 1, &reg, nullptr, nullptr, &h);
}
TRACEHANDLE g_consumer = 0;
void record(PEVENT_RECORD) {}
// A real-time consumer of the running session, calling `callback`.
void open_consumer_of(PEVENT_RECORD_CALLBACK callback = record) {
  EVENT_TRACE_LOGFILEW f{};
  f.LoggerName = const_cast<LPWSTR>(kSession);
  f.ProcessTraceMode = PROCESS_TRACE_MODE_REAL_TIME | PROCESS_TRACE_MODE_EVENT_RECORD;
  f.EventRecordCallback = callback;
  g_consumer = OpenTraceW(&f);
  ASSERT_NE(g_consumer, INVALID_PROCESSTRACE_HANDLE);
}
void open_consumer() {
  start();
  open_consumer_of();
}

// Two data descriptors: the payload is assembled into an allocated buffer.
ULONG a = 1, b = 2;
EVENT_DESCRIPTOR kEvent{1, 0, 0, 4, 0, 0, 0};
EVENT_DATA_DESCRIPTOR g_data[2];
void write_setup() {
  enabled_provider();
  EventDataDescCreate(&g_data[0], &a, sizeof a);
  EventDataDescCreate(&g_data[1], &b, sizeof b);
}

// A TraceLogging event (docs/etw.md "TraceLogging"): its event metadata blob (size 8, no
// tags, name "G", one field "A" of in-type UInt32 = 8) and the field's value. The blob is
// copied behind the payload into a buffer of its own (etw/tlg_write.cc).
const uint8_t kTlgMeta[] = {8, 0, 0, 'G', 0, 'A', 0, 8};
EVENT_DATA_DESCRIPTOR g_tlg[2];
// A provider traits blob: size, name "P", a group trait (docs/etw.md "Provider traits").
const uint8_t kTraits[] = {23, 0, 'P', 0, 19, 0,  1,  1,  2,  3,  4, 5,
                           6,  7, 8,   9, 10, 11, 12, 13, 14, 15, 16};
void tlg_write_setup() {
  enabled_provider();
  BOOLEAN types = TRUE;
  ASSERT_EQ(EventSetInformation(g_reg, EventProviderUseDescriptorType, &types, sizeof types),
            ERROR_SUCCESS);
  EventDataDescCreate(&g_tlg[0], kTlgMeta, sizeof kTlgMeta);
  g_tlg[0].Type = EVENT_DATA_DESCRIPTOR_TYPE_EVENT_METADATA;
  EventDataDescCreate(&g_tlg[1], &a, sizeof a);
}

struct ClassicEvent {
  EVENT_TRACE_HEADER header;
  ULONG value;
};

// One export: `call` calls it once (with the same arguments each time) and returns its
// result as an ETW code; `setup` prepares what the call needs, with allocations working.
struct Row {
  const char* name;
  bool allocates;  // false: must succeed while every allocation fails
  std::function<void()> setup;
  std::function<ULONG()> call;
};
void none() {}

const std::vector<Row>& rows() {
  static const std::vector<Row> table = {
      {"GetLastError", false, none, [] { return GetLastError() == 77 ? 0u : 1u; }},
      {"SetLastError", false, none,
       [] {
         SetLastError(77);
         return GetLastError() == 77 ? 0u : 1u;
       }},
      {"EventRegister", true, none,
       [] {
         REGHANDLE r = 0;
         return EventRegister(&kProvider, nullptr, nullptr, &r);
       }},
      {"EventUnregister", false,
       [] { ASSERT_EQ(EventRegister(&kProvider, nullptr, nullptr, &g_reg), ERROR_SUCCESS); },
       [] { return EventUnregister(g_reg); }},
      {"EventEnabled", false, enabled_provider,
       [] { return EventEnabled(g_reg, &kEvent) ? 0u : 1u; }},
      {"EventProviderEnabled", false, enabled_provider,
       [] { return EventProviderEnabled(g_reg, 4, 0) ? 0u : 1u; }},
      {"EventWrite", true, write_setup, [] { return EventWrite(g_reg, &kEvent, 2, g_data); }},
      {"EventWriteTransfer", true, write_setup,
       [] { return EventWriteTransfer(g_reg, &kEvent, nullptr, nullptr, 2, g_data); }},
      {"EventWriteEx", true, write_setup,
       [] { return EventWriteEx(g_reg, &kEvent, 0, 0, nullptr, nullptr, 2, g_data); }},
      {"EventWriteString", true, write_setup,
       [] { return EventWriteString(g_reg, 4, 0, u"guarded"); }},
      {"EventSetInformation", true,
       [] { ASSERT_EQ(EventRegister(&kProvider, nullptr, nullptr, &g_reg), ERROR_SUCCESS); },
       [] {
         return EventSetInformation(g_reg, EventProviderSetTraits, const_cast<uint8_t*>(kTraits),
                                    sizeof kTraits);
       }},
      {"EventSetInformation_UseDescriptorType", false,
       [] { ASSERT_EQ(EventRegister(&kProvider, nullptr, nullptr, &g_reg), ERROR_SUCCESS); },
       [] {
         BOOLEAN types = TRUE;
         return EventSetInformation(g_reg, EventProviderUseDescriptorType, &types, sizeof types);
       }},
      {"EventActivityIdControl", true, none,
       [] {
         GUID id{};
         return EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_SET_ID, &id);
       }},
      {"StartTraceW", true, none, start_session},
      {"ControlTraceW", true, start,
       [] {
         Props p = props();
         return ControlTraceW(0, kSession, &p.p, EVENT_TRACE_CONTROL_QUERY);
       }},
      {"StopTraceW", true, start, stop_session},
      {"QueryTraceW", true, start,
       [] {
         Props p = props();
         return QueryTraceW(0, kSession, &p.p);
       }},
      {"QueryAllTracesW", true, start,
       [] {
         Props p = props();
         PEVENT_TRACE_PROPERTIES array[] = {&p.p};
         ULONG count = 0;
         return QueryAllTracesW(array, 1, &count);
       }},
      {"EnableTraceEx2", true, start, [] { return enable(kProvider); }},
      {"EnumerateTraceGuidsEx", true,
       [] {
         start();
         ASSERT_EQ(enable(kProvider), ERROR_SUCCESS);
       },
       [] {
         GUID g = kProvider;
         ULONG needed = 0;
         return EnumerateTraceGuidsEx(TraceGuidQueryInfo, &g, sizeof g, g_out, sizeof g_out,
                                      &needed);
       }},
      {"OpenTraceW", true, start,
       [] {
         EVENT_TRACE_LOGFILEW f{};
         f.LoggerName = const_cast<LPWSTR>(kSession);
         f.ProcessTraceMode = PROCESS_TRACE_MODE_REAL_TIME | PROCESS_TRACE_MODE_EVENT_RECORD;
         f.EventRecordCallback = record;
         g_consumer = OpenTraceW(&f);
         return g_consumer == INVALID_PROCESSTRACE_HANDLE ? GetLastError() : 0u;
       }},
      {"ProcessTrace", true,
       [] {
         open_consumer();
         ASSERT_EQ(stop_session(), ERROR_SUCCESS);
       },
       [] { return ProcessTrace(&g_consumer, 1, nullptr, nullptr); }},
      {"CloseTrace", false, open_consumer, [] { return CloseTrace(g_consumer); }},
      {"RegisterTraceGuidsW", true, none, register_classic},
      {"UnregisterTraceGuids", false,
       [] {
         TRACE_GUID_REGISTRATION reg{&kClassic, nullptr};
         ASSERT_EQ(
             RegisterTraceGuidsW(control, nullptr, &kClassic, 1, &reg, nullptr, nullptr, &g_logger),
             ERROR_SUCCESS);
       },
       [] { return UnregisterTraceGuids(g_logger); }},
      {"GetTraceLoggerHandle", false, none,
       [] {
         WNODE_HEADER w{};
         w.HistoricalContext = 5;
         return GetTraceLoggerHandle(&w) == 5 ? 0u : 1u;
       }},
      {"GetTraceEnableLevel", false, none,
       [] { return GetTraceEnableLevel(0x0000000000040000ull) == 4 ? 0u : 1u; }},
      {"GetTraceEnableFlags", false, none,
       [] { return GetTraceEnableFlags(0x000000F000000000ull) == 0xF0 ? 0u : 1u; }},
      {"TraceEvent", true,
       [] {
         start();
         ASSERT_EQ(register_classic(), ERROR_SUCCESS);
         ASSERT_EQ(enable(kClassic), ERROR_SUCCESS);
         ASSERT_NE(g_logger, 0u);
       },
       [] {
         ClassicEvent e{};
         e.header.Size = sizeof e;
         e.header.Flags = WNODE_FLAG_TRACED_GUID;
         e.header.Guid = kClassic;
         e.header.Class.Level = 4;
         return TraceEvent(g_logger, &e.header);
       }},
      {"TdhLoadManifest", true, write_manifest_file,
       [] { return TdhLoadManifest(const_cast<PWSTR>(g_file16.c_str())); }},
      {"TdhUnloadManifest", true,
       [] {
         write_manifest_file();
         ASSERT_EQ(TdhLoadManifest(const_cast<PWSTR>(g_file16.c_str())), ERROR_SUCCESS);
       },
       [] { return TdhUnloadManifest(const_cast<PWSTR>(g_file16.c_str())); }},
      {"TdhLoadManifestFromBinary", true, write_manifest_file,
       [] { return TdhLoadManifestFromBinary(const_cast<PWSTR>(g_file16.c_str())); }},
      {"TdhLoadManifestFromMemory", true, none,
       [] {
         return TdhLoadManifestFromMemory(kManifest.data(), static_cast<ULONG>(kManifest.size()));
       }},
      {"TdhUnloadManifestFromMemory", true,
       [] {
         ASSERT_EQ(
             TdhLoadManifestFromMemory(kManifest.data(), static_cast<ULONG>(kManifest.size())),
             ERROR_SUCCESS);
       },
       [] {
         return TdhUnloadManifestFromMemory(kManifest.data(), static_cast<ULONG>(kManifest.size()));
       }},
      {"TdhCreatePayloadFilter", true,
       [] {
         ASSERT_EQ(
             TdhLoadManifestFromMemory(kManifest.data(), static_cast<ULONG>(kManifest.size())),
             ERROR_SUCCESS);
       },
       [] {
         PAYLOAD_FILTER_PREDICATE p{const_cast<LPWSTR>(u"N"), PAYLOADFIELD_EQ,
                                    const_cast<LPWSTR>(u"7")};
         EVENT_DESCRIPTOR e;
         EventDescCreate(&e, 1, 0, 0, 0, 0, 0, 0);
         return TdhCreatePayloadFilter(&kProvider, &e, TRUE, 1, &p, &g_filter);
       }},
      {"TdhDeletePayloadFilter", false, create_filter,
       [] { return TdhDeletePayloadFilter(&g_filter); }},
      {"TdhAggregatePayloadFilters", true, create_filter,
       [] { return TdhAggregatePayloadFilters(1, &g_filter, nullptr, &g_blob); }},
      {"TdhCleanupPayloadEventFilterDescriptor", false,
       [] {
         create_filter();
         ASSERT_EQ(TdhAggregatePayloadFilters(1, &g_filter, nullptr, &g_blob), ERROR_SUCCESS);
       },
       [] { return TdhCleanupPayloadEventFilterDescriptor(&g_blob); }},
      // More ways into the allocating exports ("<export>_<case>").
      {"EnableTraceEx2_PayloadFilter", true,
       [] {
         create_filter();  // loads the manifest: the registration gets its schema
         ASSERT_EQ(TdhAggregatePayloadFilters(1, &g_filter, nullptr, &g_blob), ERROR_SUCCESS);
         ASSERT_EQ(EventRegister(&kProvider, nullptr, nullptr, &g_reg), ERROR_SUCCESS);
         start();
       },
       [] {
         ENABLE_TRACE_PARAMETERS params{};
         params.Version = ENABLE_TRACE_PARAMETERS_VERSION_2;
         params.EnableFilterDesc = &g_blob;
         params.FilterDescCount = 1;
         return EnableTraceEx2(g_session, &kProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0,
                               INFINITE, &params);
       }},
      {"EventWrite_TraceLogging", true, tlg_write_setup,
       [] { return EventWrite(g_reg, &kEvent, 2, g_tlg); }},
      {"ProcessTrace_Events", true,
       [] {
         write_setup();
         open_consumer_of();
         for (int i = 0; i < 8; ++i) ASSERT_EQ(EventWrite(g_reg, &kEvent, 2, g_data), 0u);
         ASSERT_EQ(stop_session(), ERROR_SUCCESS);
       },
       [] { return ProcessTrace(&g_consumer, 1, nullptr, nullptr); }},
      {"TdhGetEventInformation", true, load_manifest,
       [] {
         return TdhGetEventInformation(&g_record, 0, nullptr,
                                       reinterpret_cast<PTRACE_EVENT_INFO>(g_out), &g_out_size);
       }},
      {"TdhGetEventMapInformation", true, load_manifest,
       [] {
         return TdhGetEventMapInformation(&g_record, const_cast<PWSTR>(u"M"),
                                          reinterpret_cast<PEVENT_MAP_INFO>(g_out), &g_out_size);
       }},
      {"TdhGetPropertySize", true, load_manifest,
       [] { return TdhGetPropertySize(&g_record, 0, nullptr, 1, &g_property, &g_out_size); }},
      {"TdhGetProperty", true, load_manifest,
       [] { return TdhGetProperty(&g_record, 0, nullptr, 1, &g_property, sizeof g_out, g_out); }},
      {"TdhEnumerateProviders", true, load_manifest,
       [] {
         return TdhEnumerateProviders(reinterpret_cast<PPROVIDER_ENUMERATION_INFO>(g_out),
                                      &g_out_size);
       }},
      {"TdhFormatProperty", true, none,
       [] {
         TRACE_EVENT_INFO info{};
         ULONG size = sizeof g_out;
         USHORT used = 0;
         GUID value = kProvider;  // its 38-character text does not fit a short string
         return TdhFormatProperty(&info, nullptr, 8, TDH_INTYPE_GUID, TDH_OUTTYPE_NULL, 0,
                                  sizeof value, reinterpret_cast<PBYTE>(&value), &size,
                                  reinterpret_cast<PWCHAR>(g_out), &used);
       }},
      {"PfcTdhGetLastErrorMessage", false, none,
       [] { return PfcTdhGetLastErrorMessage()[0] == 0 ? 0u : 1u; }},
      {"PfcGetTraceProblem", true,
       [] {  // a manifest is no log file: the thread's open problem names it
         write_manifest_file();
         EVENT_TRACE_LOGFILEW f{};
         f.LogFileName = const_cast<LPWSTR>(g_file16.c_str());
         f.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
         f.EventRecordCallback = record;
         ASSERT_EQ(OpenTraceW(&f), INVALID_PROCESSTRACE_HANDLE);
         ASSERT_EQ(GetLastError(), ERROR_BAD_FORMAT);
       },
       [] {
         ULONG size = 0;
         return PfcGetTraceProblem(INVALID_PROCESSTRACE_HANDLE, reinterpret_cast<PCHAR>(g_out),
                                   sizeof g_out, &size, nullptr);
       }},
      {"PfcGetNamespaceProblem", true, none,
       [] {
         ULONG size = 0;
         return PfcGetNamespaceProblem(reinterpret_cast<PCHAR>(g_out), sizeof g_out, &size);
       }},
      {"PfcGetStartTraceProblem", true,
       [] {  // a log file with two names: StartTraceW says why
         write_manifest_file();
         const std::string second = g_file + "-link";
         ASSERT_EQ(link(g_file.c_str(), second.c_str()), 0);
         Props x = props();
         ASSERT_LT(g_file16.size(), std::size(x.file));
         std::copy(g_file16.begin(), g_file16.end(), x.file);
         x.p.LogFileMode = EVENT_TRACE_FILE_MODE_SEQUENTIAL;
         x.p.LogFileNameOffset = offsetof(Props, file);
         TRACEHANDLE h = 0;
         ASSERT_EQ(StartTraceW(&h, kSession, &x.p), ERROR_ACCESS_DENIED);
         unlink(second.c_str());
       },
       [] {
         ULONG size = 0;
         return PfcGetStartTraceProblem(reinterpret_cast<PCHAR>(g_out), sizeof g_out, &size);
       }},
      {"PfcQueryTraceEventCount", true, start,
       [] {
         ULONGLONG events = 0;
         return PfcQueryTraceEventCount(g_session, &events);
       }},
      {"PfcEnumerateTracePrograms", true, none,
       [] {
         ULONG size = sizeof g_out;
         return PfcEnumerateTracePrograms(
             reinterpret_cast<PPFC_TRACE_PROGRAM_ENUMERATION_INFO>(g_out), &size);
       }},
      {"PfcStopTrace", true, start,
       [] {
         Props p = props();
         ULONGLONG events = 0;
         return PfcStopTrace(0, kSession, &p.p, &events);
       }},
      {"PfcEnumerateTraceProviders", true,
       [] {
         start();
         ASSERT_EQ(enable(kProvider), ERROR_SUCCESS);
       },
       [] {
         ULONG size = sizeof g_out;
         return PfcEnumerateTraceProviders(g_session, reinterpret_cast<LPGUID>(g_out), &size);
       }},
      {"PfcEnableTraceScript", true, start,
       [] {
         static const char script[] =
             "provider G { event E (id=1) { N: uint32; } }\n"
             "session S { enable G { pid 7; payload E where N gt 2; } }\n";
         return PfcEnableTraceScript(g_session, script, sizeof script - 1, "g.pfs", "S", INFINITE);
       }},
      {"PfcGetEnableTraceScriptProblem", false,
       [] {  // a script without the session asked for: the problem says so
         ASSERT_EQ(PfcEnableTraceScript(0, "", 0, nullptr, "S", 0), ERROR_NOT_FOUND);
       },
       [] {
         ULONG size = 0;
         return PfcGetEnableTraceScriptProblem(reinterpret_cast<PCHAR>(g_out), sizeof g_out, &size);
       }},
      {"PfcEnumerateTraceSchemas", true, start,
       [] {
         ULONG size = sizeof g_out;
         return PfcEnumerateTraceSchemas(
             kSession, nullptr, reinterpret_cast<PPFC_TRACE_SCHEMA_ENUMERATION_INFO>(g_out), &size);
       }},
  };
  return table;
}

// The exported symbols that are data, not functions.
const std::set<std::string> kData = {"GUID_NULL", "PfcEtwEnableTable"};

// The export a row calls: its name up to "_<case>".
std::string export_of(const std::string& row_name) {
  return row_name.substr(0, row_name.find('_'));
}

std::vector<std::string> row_names() {
  std::vector<std::string> out;
  for (const Row& r : rows()) out.emplace_back(r.name);
  return out;
}

const Row& row(const std::string& name) {
  for (const Row& r : rows())
    if (name == r.name) return r;
  throw std::logic_error("no row " + name);
}

class Export : public ::testing::TestWithParam<std::string> {
 protected:
  void TearDown() override {
    if (!g_file.empty()) unlink(g_file.c_str());
  }
};

// Each failed call returns ERROR_NOT_ENOUGH_MEMORY (OpenTraceW: INVALID_PROCESSTRACE_HANDLE
// and GetLastError 8) and leaves nothing behind: the same call, retried with one more
// allocation allowed, fails the same way or succeeds.
TEST_P(Export, FailsAllocationWithTheDocumentedCode) {
  const Row& r = row(GetParam());
  SetLastError(77);
  r.setup();
  ASSERT_FALSE(HasFatalFailure());
  long allowed = 0;
  for (;; ++allowed) {
    tl_allow = allowed;
    ULONG rc = ERROR_SUCCESS;
    try {
      rc = r.call();
    } catch (...) {
      tl_allow = -1;
      FAIL() << "an exception left " << r.name << " with allocation " << allowed << " failing";
    }
    tl_allow = -1;
    if (rc == ERROR_SUCCESS) break;
    ASSERT_EQ(rc, ERROR_NOT_ENOUGH_MEMORY) << "with allocation " << allowed << " failing";
    if (export_of(r.name).starts_with("Tdh")) {
      EXPECT_STREQ(PfcTdhGetLastErrorMessage(), "out of memory");
    }
    ASSERT_LT(allowed, 100000) << "never succeeded";
  }
  if (r.allocates) {
    EXPECT_GT(allowed, 0) << r.name << " allocated nothing: the row does not reach its guard";
  } else {
    EXPECT_EQ(allowed, 0) << r.name << " needs an allocation";
  }
}

INSTANTIATE_TEST_SUITE_P(Etw, Export, ::testing::ValuesIn(row_names()),
                         [](const auto& info) { return info.param; });

// The rows name exactly the functions etw/exports.map exports.
TEST(ExportTable, MatchesExportsMap) {
  std::ifstream in(PFC_TEST_EXPORTS_MAP);
  ASSERT_TRUE(in) << PFC_TEST_EXPORTS_MAP;
  const std::regex symbol(R"(^\s*([A-Za-z_][A-Za-z0-9_]*);\s*$)");
  std::set<std::string> exported;
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_match(line, m, symbol) && !kData.contains(m[1])) exported.insert(m[1]);
  }
  const std::vector<std::string> names = row_names();
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size())
      << "a row is listed twice";
  std::set<std::string> listed;
  for (const std::string& name : names) listed.insert(export_of(name));
  EXPECT_EQ(listed, exported);
}

// Any other exception becomes ERROR_INTERNAL_ERROR, here one the caller's own
// EventRecordCallback throws through ProcessTrace; the handle stays usable.
void throwing_record(PEVENT_RECORD) { throw std::runtime_error("the caller's callback"); }
TEST(Guard, OtherExceptionsAreInternalErrors) {
  write_setup();
  open_consumer_of(throwing_record);
  ASSERT_EQ(EventWrite(g_reg, &kEvent, 2, g_data), 0u);
  ASSERT_EQ(stop_session(), ERROR_SUCCESS);
  EXPECT_EQ(ProcessTrace(&g_consumer, 1, nullptr, nullptr), ERROR_INTERNAL_ERROR);
  EXPECT_EQ(CloseTrace(g_consumer), ERROR_SUCCESS);
}

}  // namespace
