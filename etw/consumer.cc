// etw/consumer.cc — the real-time consumer side of the ETW-compatible API: OpenTraceW,
// ProcessTrace (EVENT_RECORD delivery with extended items, in timestamp order, until the
// sessions stop) and CloseTrace.
#include <unistd.h>

#include <map>

#include "etw/state.h"

namespace pfc::etw {
namespace {

constexpr ULONG kMaxProcessHandles = 64;

// Guarded by hub().mu.
struct ConsumerTable {
  std::map<uint64_t, std::shared_ptr<Consumer>> by_handle;
  uint64_t next = 0x100;
};
ConsumerTable& consumers() {
  static auto* t = new ConsumerTable();  // never destroyed, like hub()
  return *t;
}

void fill_header(const Session& s, EVENT_TRACE_LOGFILEW* f) {
  TRACE_LOGFILE_HEADER& h = f->LogfileHeader;
  h.BufferSize = s.config().buffer_size_kb * 1024;
  h.VersionDetail.MajorVersion = 10;
  h.NumberOfProcessors = static_cast<ULONG>(sysconf(_SC_NPROCESSORS_ONLN));
  h.TimerResolution = 1;  // 100 ns
  h.LogFileMode = s.config().log_file_mode;
  h.PointerSize = sizeof(void*);
  h.LoggerName = f->LoggerName;
  h.PerfFreq.QuadPart = 10000000;  // timestamps are FILETIME units
  h.StartTime.QuadPart = s.config().start_time;
  f->IsKernelTrace = 0;
  f->CurrentTime = s.config().start_time;
}

// Calls the consumer's callback for one event; hub().mu is not held.
void deliver(const Consumer& c, const QueuedEvent& e) {
  if (c.callback == nullptr) return;
  const EventBody& b = *e.body;
  EVENT_HEADER_EXTENDED_DATA_ITEM items[2] = {};
  USHORT n = 0;
  if (b.has_related) {
    items[n].ExtType = EVENT_HEADER_EXT_TYPE_RELATED_ACTIVITYID;
    items[n].DataSize = sizeof(GUID);
    items[n].DataPtr = reinterpret_cast<uintptr_t>(&b.related);
    ++n;
  }
  if (e.with_stack && !b.stack.empty()) {
    items[n].ExtType = EVENT_HEADER_EXT_TYPE_STACK_TRACE64;
    items[n].DataSize = static_cast<USHORT>(b.stack.size() * sizeof(uint64_t));
    items[n].DataPtr = reinterpret_cast<uintptr_t>(b.stack.data());
    ++n;
  }
  EVENT_RECORD r{};
  r.EventHeader = b.header;
  if (n != 0) r.EventHeader.Flags |= EVENT_HEADER_FLAG_EXTENDED_INFO;
  r.BufferContext.ProcessorIndex = b.cpu;
  r.BufferContext.LoggerId = e.logger_id;
  r.ExtendedDataCount = n;
  r.ExtendedData = n != 0 ? items : nullptr;
  r.UserDataLength = static_cast<USHORT>(b.payload.size());
  // Never NULL, even for an empty payload: consumers compute `UserData + UserDataLength`.
  static uint8_t empty_payload[1] = {0};
  r.UserData = b.payload.empty() ? empty_payload : const_cast<uint8_t*>(b.payload.data());
  r.UserContext = c.context;
  c.callback(&r);
}

// The consumer whose next event is the oldest, or null.
Consumer* next_ready(const std::vector<Consumer*>& list) {
  Consumer* best = nullptr;
  for (Consumer* c : list) {
    if (c->closed || c->queue.empty()) continue;
    if (best == nullptr || c->queue.front().body->header.TimeStamp.QuadPart <
                               best->queue.front().body->header.TimeStamp.QuadPart)
      best = c;
  }
  return best;
}

bool all_done(const std::vector<Consumer*>& list) {
  for (const Consumer* c : list)
    if (!c->closed && !(c->session->stopped() && c->queue.empty())) return false;
  return true;
}

void release_consumer(Consumer* c) {  // hub().mu held
  c->session->detach(c);
  consumers().by_handle.erase(c->handle);
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
  std::u16string name(Logfile->LoggerName, u16_length(Logfile->LoggerName, 1023));
  std::shared_ptr<Session> s = Runtime::get().session_by_name(name);
  if (!s) {
    set_last_error(ERROR_WMI_INSTANCE_NOT_FOUND);
    return INVALID_PROCESSTRACE_HANDLE;
  }
  auto c = std::make_shared<Consumer>();
  c->session = s;
  c->callback = Logfile->EventRecordCallback;
  c->context = Logfile->Context;
  fill_header(*s, Logfile);
  std::lock_guard<std::mutex> lock(hub().mu);
  if (s->stopped()) {  // stopped between the lookup and now
    set_last_error(ERROR_WMI_INSTANCE_NOT_FOUND);
    return INVALID_PROCESSTRACE_HANDLE;
  }
  c->handle = consumers().next++;
  s->attach(c.get());
  consumers().by_handle[c->handle] = c;
  return c->handle;
}

ULONG ProcessTrace(PTRACEHANDLE HandleArray, ULONG HandleCount, LPFILETIME StartTime,
                   LPFILETIME EndTime) {
  (void)StartTime;
  (void)EndTime;
  if (HandleArray == nullptr || HandleCount == 0 || HandleCount > kMaxProcessHandles)
    return ERROR_INVALID_PARAMETER;
  Hub& h = hub();
  std::unique_lock<std::mutex> lock(h.mu);
  std::vector<std::shared_ptr<Consumer>> owned;
  std::vector<Consumer*> list;
  for (ULONG i = 0; i < HandleCount; ++i) {
    auto it = consumers().by_handle.find(HandleArray[i]);
    if (it == consumers().by_handle.end() || it->second->closed) return ERROR_INVALID_HANDLE;
    if (it->second->processing) return ERROR_BUSY;
    owned.push_back(it->second);
    list.push_back(it->second.get());
  }
  for (Consumer* c : list) c->processing = true;
  for (;;) {
    if (Consumer* c = next_ready(list)) {
      QueuedEvent e = std::move(c->queue.front());
      c->queue.pop_front();
      c->session->release(e);
      lock.unlock();
      deliver(*c, e);
      lock.lock();
      continue;
    }
    if (all_done(list)) break;
    h.cv.wait(lock);
  }
  for (Consumer* c : list) {
    c->processing = false;
    if (c->closed) release_consumer(c);
  }
  return ERROR_SUCCESS;
}

ULONG CloseTrace(TRACEHANDLE TraceHandle) {
  Hub& h = hub();
  std::lock_guard<std::mutex> lock(h.mu);
  auto it = consumers().by_handle.find(TraceHandle);
  if (it == consumers().by_handle.end() || it->second->closed) return ERROR_INVALID_HANDLE;
  Consumer* c = it->second.get();
  if (c->processing) {
    c->closed = true;  // ProcessTrace returns soon and frees it
    h.cv.notify_all();
    return ERROR_CTX_CLOSE_PENDING;
  }
  release_consumer(c);
  return ERROR_SUCCESS;
}

}  // extern "C"
