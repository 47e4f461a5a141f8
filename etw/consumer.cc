// etw/consumer.cc — the real-time consumer side of the ETW-compatible API: OpenTraceW,
// ProcessTrace and CloseTrace over a namespace session's rings (docs/namespace.md §4).
// ProcessTrace merges the rings of every writing process (and of every handle) by
// timestamp. A record is delivered once it is kLagNs old, so a writer that read its
// timestamp but has not reserved its record yet cannot be overtaken; once the session has
// stopped everything left is delivered at once. One consumer per session at a time.
#include <unistd.h>

#include <algorithm>
#include <map>
#include <set>
#include <thread>

#include "etw/counters.h"
#include "etw/state.h"
#include "trace/testpoint.h"

namespace pfc::etw {
namespace {

constexpr ULONG kMaxProcessHandles = 64;
constexpr uint64_t kLagNs = 2'000'000;    // merge horizon
constexpr uint64_t kScanNs = 10'000'000;  // new rings and session stop checked this often
constexpr uint64_t kStopDrainNs =
    2'000'000'000;  // after a stop, wait this long for in-flight writes
constexpr auto kIdleSleep = std::chrono::microseconds(500);

struct Consumer {
  uint64_t handle = 0;
  trace::SessionEntry entry;
  PEVENT_RECORD_CALLBACK callback = nullptr;
  void* context = nullptr;
  std::string marker;
  std::vector<std::unique_ptr<trace::RingReader>> rings;
  std::set<std::string> known;
  uint64_t next_scan_ns = 0;
  uint64_t stopped_at_ns = 0;  // 0: the session is live
  std::atomic<bool> closed{false};
  bool processing = false;  // guarded by table mutex
};

struct ConsumerTable {
  std::mutex mu;
  std::map<uint64_t, std::shared_ptr<Consumer>> by_handle;
  uint64_t next = 0x100;
};
ConsumerTable& consumers() {
  static auto* t = new ConsumerTable();  // never destroyed: consumers may run during exit
  return *t;
}

void fill_header(const trace::SessionEntry& e, const SessionCounters& n, EVENT_TRACE_LOGFILEW* f) {
  TRACE_LOGFILE_HEADER& h = f->LogfileHeader;
  h.BufferSize = e.buffer_kb * 1024;
  h.VersionDetail.MajorVersion = 10;
  h.NumberOfProcessors = static_cast<ULONG>(sysconf(_SC_NPROCESSORS_ONLN));
  h.TimerResolution = 1;  // 100 ns
  h.LogFileMode = e.log_file_mode;
  h.PointerSize = sizeof(void*);
  h.LoggerName = f->LoggerName;
  h.PerfFreq.QuadPart = 10000000;  // timestamps are FILETIME units
  h.StartTime.QuadPart = e.start_time;
  h.BuffersWritten = static_cast<ULONG>(n.buffers_written);
  h.EventsLost = static_cast<ULONG>(n.events_lost);
  f->IsKernelTrace = 0;
  f->CurrentTime = e.start_time;
}

// Opens rings that appeared since the last scan; notices the session's stop.
void scan(Runtime& rt, Consumer& c, uint64_t now) {
  if (now < c.next_scan_ns) return;
  c.next_scan_ns = now + kScanNs;
  if (c.stopped_at_ns == 0) {
    auto st = rt.link.store().read();
    if (st && st->session_by_instance(c.entry.instance) == nullptr) c.stopped_at_ns = now;
  }
  const std::string prefix = "r-" + std::to_string(c.entry.instance) + "-";
  for (const std::string& name : rt.link.dir().list(prefix)) {
    if (c.known.contains(name)) continue;
    auto ring = trace::RingReader::open(rt.link.dir(), name);
    if (!ring) continue;  // still being created: next scan
    c.known.insert(name);
    c.rings.push_back(std::make_unique<trace::RingReader>(std::move(*ring)));
  }
}

void deliver(const Consumer& c, const trace::RingReader::View& v) {
  if (c.callback == nullptr) return;
  const trace::EventRecord& e = v.header;
  GUID related = to_win(e.related);
  std::vector<uint64_t> stack(e.stack_count);
  if (!stack.empty()) std::memcpy(stack.data(), v.stack, stack.size() * 8);
  EVENT_HEADER_EXTENDED_DATA_ITEM items[2] = {};
  USHORT n = 0;
  if (e.has_related != 0) {
    items[n].ExtType = EVENT_HEADER_EXT_TYPE_RELATED_ACTIVITYID;
    items[n].DataSize = sizeof(GUID);
    items[n].DataPtr = reinterpret_cast<uintptr_t>(&related);
    ++n;
  }
  if (!stack.empty()) {
    items[n].ExtType = EVENT_HEADER_EXT_TYPE_STACK_TRACE64;
    items[n].DataSize = static_cast<USHORT>(stack.size() * sizeof(uint64_t));
    items[n].DataPtr = reinterpret_cast<uintptr_t>(stack.data());
    ++n;
  }
  EVENT_RECORD r{};
  EVENT_HEADER& h = r.EventHeader;
  h.Size = static_cast<USHORT>(std::min<uint64_t>(sizeof(EVENT_HEADER) + e.payload_len, 0xFFFF));
  h.Flags = static_cast<USHORT>(e.flags | (n != 0 ? EVENT_HEADER_FLAG_EXTENDED_INFO : 0));
  h.ThreadId = e.tid;
  h.ProcessId = e.pid;
  h.TimeStamp.QuadPart = e.filetime;
  h.ProviderId = to_win(e.provider);
  h.EventDescriptor =
      to_win(EventDescriptor{e.id, e.version, e.channel, e.level, e.opcode, e.task, e.keyword});
  h.ActivityId = to_win(e.activity);
  r.BufferContext.ProcessorIndex = e.cpu;
  r.BufferContext.LoggerId = static_cast<USHORT>(c.entry.slot + 1);
  r.ExtendedDataCount = n;
  r.ExtendedData = n != 0 ? items : nullptr;
  r.UserDataLength = static_cast<USHORT>(e.payload_len);
  // Never NULL, even for an empty payload: consumers compute `UserData + UserDataLength`.
  static uint8_t empty_payload[1] = {0};
  r.UserData = e.payload_len == 0 ? empty_payload : const_cast<uint8_t*>(v.payload);
  r.UserContext = c.context;
  c.callback(&r);
}

// True when the consumer will receive nothing more: closed, or its session stopped and
// every ring is drained (or the in-flight grace period is over).
bool finished(Consumer& c, uint64_t now) {
  if (c.closed.load()) return true;
  if (c.stopped_at_ns == 0 || now < c.stopped_at_ns + kScanNs)
    return false;  // one scan after the stop
  if (now >= c.stopped_at_ns + kStopDrainNs) return true;
  for (auto& r : c.rings)
    if (!r->finished() && !(r->peek() == nullptr && r->drained())) return false;
  return true;
}

ULONG process(Runtime& rt, const std::vector<Consumer*>& list) {
  for (;;) {
    const uint64_t now = trace::mono_ns();
    Consumer* best_c = nullptr;
    trace::RingReader* best_r = nullptr;
    const trace::RingReader::View* best = nullptr;
    bool all_done = true;
    for (Consumer* c : list) {
      if (c->closed.load()) continue;
      scan(rt, *c, now);
      for (auto& r : c->rings) {
        const auto* v = r->peek();
        if (v != nullptr && (best == nullptr || v->header.ts < best->header.ts)) {
          best = v;
          best_r = r.get();
          best_c = c;
        }
      }
      if (!finished(*c, now)) all_done = false;
    }
    if (best != nullptr && (best_c->stopped_at_ns != 0 || best->header.ts + kLagNs <= now)) {
      deliver(*best_c, *best);
      trace::testpoint("consumer.delivered");
      best_r->pop();
      continue;
    }
    if (best == nullptr && all_done) return ERROR_SUCCESS;
    std::this_thread::sleep_for(kIdleSleep);
  }
}

void release(Runtime& rt, Consumer& c) {
  rt.link.dir().remove(c.marker);
  if (c.stopped_at_ns != 0) reap_session(rt.link.dir(), c.entry.instance);
}

}  // namespace
}  // namespace pfc::etw

using namespace pfc::etw;

extern "C" {

TRACEHANDLE OpenTraceW(PEVENT_TRACE_LOGFILEW Logfile) {
  if (Logfile == nullptr || Logfile->LoggerName == nullptr) {
    set_last_error(ERROR_INVALID_PARAMETER);
    return INVALID_PROCESSTRACE_HANDLE;
  }
  const ULONG mode = Logfile->ProcessTraceMode;
  if ((Logfile->LogFileName != nullptr && Logfile->LogFileName[0] != 0) ||
      (mode & PROCESS_TRACE_MODE_REAL_TIME) == 0 || (mode & PROCESS_TRACE_MODE_EVENT_RECORD) == 0) {
    set_last_error(ERROR_NOT_SUPPORTED);  // log files and EVENT_TRACE callbacks
    return INVALID_PROCESSTRACE_HANDLE;
  }
  Runtime& rt = Runtime::get();
  if (!rt.link.ensure()) {
    set_last_error(ERROR_ACCESS_DENIED);
    return INVALID_PROCESSTRACE_HANDLE;
  }
  std::u16string name(Logfile->LoggerName, u16_length(Logfile->LoggerName, 1023));
  ConsumerTable& t = consumers();
  std::lock_guard<std::mutex> lock(t.mu);
  auto st = rt.link.store().read();
  const pfc::trace::SessionEntry* e = st ? st->session_by_name(name) : nullptr;
  if (e == nullptr) {
    set_last_error(ERROR_WMI_INSTANCE_NOT_FOUND);
    return INVALID_PROCESSTRACE_HANDLE;
  }
  if (has_live_consumer(rt.link.dir(), e->instance)) {
    set_last_error(ERROR_BUSY);
    return INVALID_PROCESSTRACE_HANDLE;
  }
  auto c = std::make_shared<Consumer>();
  c->handle = t.next++;
  c->entry = *e;
  c->callback = Logfile->EventRecordCallback;
  c->context = Logfile->Context;
  c->marker = consumer_marker(e->instance, rt.link.self()) + "-" + std::to_string(c->handle);
  if (!rt.link.dir().open_file(c->marker, true)) {
    set_last_error(ERROR_ACCESS_DENIED);
    return INVALID_PROCESSTRACE_HANDLE;
  }
  fill_header(*e, count_session(rt.link.dir(), *e), Logfile);
  t.by_handle[c->handle] = c;
  return c->handle;
}

ULONG ProcessTrace(PTRACEHANDLE HandleArray, ULONG HandleCount, LPFILETIME StartTime,
                   LPFILETIME EndTime) {
  (void)StartTime;
  (void)EndTime;
  if (HandleArray == nullptr || HandleCount == 0 || HandleCount > kMaxProcessHandles)
    return ERROR_INVALID_PARAMETER;
  ConsumerTable& t = consumers();
  std::vector<std::shared_ptr<Consumer>> owned;
  std::vector<Consumer*> list;
  {
    std::lock_guard<std::mutex> lock(t.mu);
    for (ULONG i = 0; i < HandleCount; ++i) {
      auto it = t.by_handle.find(HandleArray[i]);
      if (it == t.by_handle.end() || it->second->closed.load()) return ERROR_INVALID_HANDLE;
      if (it->second->processing) return ERROR_BUSY;
      owned.push_back(it->second);
      list.push_back(it->second.get());
    }
    for (Consumer* c : list) c->processing = true;
  }
  Runtime& rt = Runtime::get();
  const ULONG rc = process(rt, list);
  std::lock_guard<std::mutex> lock(t.mu);
  for (Consumer* c : list) {
    c->processing = false;
    if (c->closed.load()) {
      release(rt, *c);
      t.by_handle.erase(c->handle);
    }
  }
  return rc;
}

ULONG CloseTrace(TRACEHANDLE TraceHandle) {
  ConsumerTable& t = consumers();
  std::lock_guard<std::mutex> lock(t.mu);
  auto it = t.by_handle.find(TraceHandle);
  if (it == t.by_handle.end() || it->second->closed.load()) return ERROR_INVALID_HANDLE;
  Consumer* c = it->second.get();
  c->closed.store(true);
  if (c->processing) return ERROR_CTX_CLOSE_PENDING;  // ProcessTrace returns soon and frees it
  release(Runtime::get(), *c);
  t.by_handle.erase(it);
  return ERROR_SUCCESS;
}

}  // extern "C"
