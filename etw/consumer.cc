// etw/consumer.cc — the consumer side of the ETW-compatible API: OpenTraceW, ProcessTrace
// and CloseTrace over a namespace session's rings (docs/namespace.md §4) or over a log
// file (docs/logfile.md). ProcessTrace merges the rings of every writing process (and of
// every handle) by timestamp through trace::SessionRings (the same merge the log-file host
// uses): a record is delivered once it is kLagNs old, so a writer that read its timestamp
// but has not reserved its record yet cannot be overtaken; once the session has stopped
// everything left is delivered at once. One real-time consumer per ring session at a
// time. A log file is read to its end (or, with PROCESS_TRACE_MODE_REAL_TIME, followed
// until its writer closes it); a real-time consumer of a file session follows the
// session's file until the session stops (docs/etw.md "Log-file sessions"). Also the pfc
// extension PfcGetTraceProblem: why a log-file read was refused or ended early.
#include "etw/consumer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <set>
#include <thread>

#include "base/utf8.h"
#include "etw/counters.h"
#include "etw/guard.h"
#include "etw/state.h"
#include "etw/tdh_context.h"
#include "etw/tlg_read.h"
#include "pfc/etw/pfc_etw_ext.h"
#include "trace/host.h"
#include "trace/logfile.h"
#include "trace/merge.h"
#include "trace/testpoint.h"

namespace pfc::etw {
namespace {

constexpr ULONG kMaxProcessHandles = 64;
constexpr auto kIdleSleep = std::chrono::microseconds(500);

// How a log-file consumer treats the end of what is written so far.
enum class Follow : uint8_t {
  None,          // ProcessTrace returns (ETW's log-file reading)
  UntilClosed,   // LogFileName + PROCESS_TRACE_MODE_REAL_TIME: until the writer closes it
  WhileSession,  // a real-time consumer of a file session: until the session stopped
};

struct Consumer {
  uint64_t handle = 0;
  trace::SessionEntry entry;
  PEVENT_RECORD_CALLBACK callback = nullptr;
  void* context = nullptr;
  std::string marker;                          // ring sessions: the consumer marker
  std::unique_ptr<trace::SessionRings> rings;  // ring sessions
  std::unique_ptr<trace::LogReader> log;       // log files
  Follow follow = Follow::None;
  trace::RingReader::View view;  // log files: the next event, when has_view
  bool has_view = false;
  bool log_done = false;
  uint64_t next_try_ns = 0;
  ConsumerProblem problem;
  std::u16string logger_name;             // log files: what LogfileHeader.LoggerName points to
  std::shared_ptr<TraceSchemas> schemas;  // what TDH decodes the trace's events with
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

void deliver(const Consumer& c, const trace::RingReader::View& v) {
  if (c.callback == nullptr) return;
  const trace::EventRecord& e = v.header;
  GUID related = to_win(e.related);
  std::vector<uint64_t> stack(e.stack_count);
  if (!stack.empty()) std::memcpy(stack.data(), v.stack, stack.size() * 8);
  EVENT_HEADER_EXTENDED_DATA_ITEM items[4] = {};
  USHORT n = 0;
  const TlgPayload tl = tlg_payload(e.flags, v.payload, e.payload_len, items, n);
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
  h.Size = static_cast<USHORT>(std::min<uint64_t>(sizeof(EVENT_HEADER) + tl.size, 0xFFFF));
  h.Flags = static_cast<USHORT>(tl.flags | (n != 0 ? EVENT_HEADER_FLAG_EXTENDED_INFO : 0));
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
  r.UserDataLength = static_cast<USHORT>(tl.size);
  // Never NULL, even for an empty payload: consumers compute `UserData + UserDataLength`.
  static uint8_t empty_payload[1] = {0};
  r.UserData = tl.size == 0 ? empty_payload : const_cast<uint8_t*>(tl.data);
  r.UserContext = c.context;
  DeliveryScope decoding(c.schemas.get());
  c.callback(&r);
}

// The session a follower of a file session waits for is gone and so is its host.
bool session_over(Runtime& rt, const Consumer& c) {
  auto st = rt.link.store().read();
  if (st && st->session_by_instance(c.entry.instance) != nullptr) return false;
  auto host = trace::find_host(rt.link.dir(), c.entry.instance);
  return !host || !trace::process_alive(host->key);
}

// The next event of a log-file consumer (nullptr: none now).
const trace::RingReader::View* file_peek(Runtime& rt, Consumer& c, uint64_t now) {
  if (c.has_view) return &c.view;
  if (c.log_done || now < c.next_try_ns) return nullptr;
  switch (c.log->next(c.view)) {
    case trace::LogReader::Step::Event: c.has_view = true; return &c.view;
    case trace::LogReader::Step::End:
      c.log_done = true;
      if (c.log->buffers_overwritten() != 0) c.problem = {c.log->overwritten_warning(), false};
      return nullptr;
    case trace::LogReader::Step::Damaged:
      c.log_done = true;
      c.problem = {c.log->problem(), true};
      return nullptr;
    case trace::LogReader::Step::Pending: break;
  }
  if (c.follow == Follow::WhileSession && session_over(rt, c)) {
    // The session may have written and closed its file since `next` looked: the file is
    // whole now (its host is gone), so it is read once more, to its end, before the end.
    c.follow = Follow::None;
    if (auto r = c.log->refresh(); !r) {
      c.log_done = true;
      c.problem = {r.error().message, true};
      return nullptr;
    }
    return file_peek(rt, c, now);
  }
  if (c.follow == Follow::None) {
    // Records held back for the merge (the file ends unfinished) come first.
    if (c.log->release_held()) return file_peek(rt, c, now);
    c.log_done = true;
    c.problem = {c.log->not_closed_warning(), false};
    return nullptr;
  }
  c.next_try_ns = now + trace::kScanNs;
  if (auto r = c.log->refresh(); !r) {
    c.log_done = true;
    c.problem = {r.error().message, true};
  }
  return nullptr;
}

struct Best {
  Consumer* c = nullptr;
  trace::RingReader* ring = nullptr;  // null for a log file
  const trace::RingReader::View* view = nullptr;
  uint64_t key = 0;
};

// Offers `c`'s next event to the merge; true when `c` is finished.
bool offer(Runtime& rt, Consumer& c, uint64_t now, Best& best) {
  if (c.log != nullptr) {
    const auto* v = file_peek(rt, c, now);
    // Files carry their writers' wall clock: they merge by it (a file may come from
    // another boot, whose monotonic clock means nothing here).
    if (v != nullptr && (best.view == nullptr || uint64_t(v->header.filetime) < best.key))
      best = Best{&c, nullptr, v, uint64_t(v->header.filetime)};
    return c.log_done && !c.has_view;
  }
  c.rings->scan(rt.link.dir(), rt.link.store(), now);
  const auto pick = c.rings->oldest();
  if (pick.view != nullptr && c.rings->ready(*pick.view, now) &&
      (best.view == nullptr || pick.view->header.ts < best.key))
    best = Best{&c, pick.ring, pick.view, pick.view->header.ts};
  return pick.view == nullptr && c.rings->finished(now);
}

// One ring consumer alone (the usual ProcessTrace): its rings' ready records through
// SessionRings::drain. Adds to `delivered`; true when the consumer is finished.
bool drain_alone(Runtime& rt, Consumer& c, uint64_t now, size_t& delivered) {
  c.rings->scan(rt.link.dir(), rt.link.store(), now);
  delivered += c.rings->drain(now, trace::kDrainBatch,
                              [&c](trace::RingReader&, const trace::RingReader::View& v) {
                                deliver(c, v);
                                trace::testpoint("consumer.delivered");
                              });
  return delivered < trace::kDrainBatch && c.rings->oldest().view == nullptr &&
         c.rings->finished(now);
}

// Several handles (or a log file): the oldest offered event at a time, all judged ready
// against the same `now`, up to kDrainBatch. Adds to `delivered`; true when every open
// consumer is finished.
bool merge_round(Runtime& rt, const std::vector<Consumer*>& list, uint64_t now, size_t& delivered) {
  while (delivered < trace::kDrainBatch) {
    Best best;
    bool all_done = true;
    for (Consumer* c : list) {
      if (c->closed.load()) continue;
      if (!offer(rt, *c, now, best)) all_done = false;
    }
    if (best.view == nullptr) return all_done;
    deliver(*best.c, *best.view);
    trace::testpoint("consumer.delivered");
    if (best.ring != nullptr) {
      best.ring->pop();
    } else {
      best.c->has_view = false;
    }
    ++delivered;
  }
  return false;
}

// Reads the clock once per batch: everything ready at that instant is delivered before
// the next read; an incomplete batch means nothing more was ready then, and the loop
// sleeps unless the batch was large (trace::kDrainSleepBelow).
ULONG process(Runtime& rt, const std::vector<Consumer*>& list) {
  for (;;) {
    const uint64_t now = trace::mono_ns();
    size_t delivered = 0;
    bool all_done = true;
    if (list.size() == 1 && list[0]->rings != nullptr) {
      if (!list[0]->closed.load()) all_done = drain_alone(rt, *list[0], now, delivered);
    } else {
      all_done = merge_round(rt, list, now, delivered);
    }
    if (delivered == trace::kDrainBatch) continue;
    if (all_done) {
      for (Consumer* c : list)
        if (c->problem.damaged) return ERROR_FILE_CORRUPT;
      return ERROR_SUCCESS;
    }
    if (delivered < trace::kDrainSleepBelow) std::this_thread::sleep_for(kIdleSleep);
  }
}

void release(Runtime& rt, Consumer& c) {
  if (c.rings == nullptr) return;
  rt.link.dir().remove(c.marker);
  if (c.rings->stopped_at() != 0) reap_session(rt.link.dir(), c.entry.instance);
}

std::string& open_problem_text() {
  thread_local std::string text;
  return text;
}

// Opens the log file `path` for reading; sets the ETW error (and the open problem
// PfcGetTraceProblem reads) on failure.
std::unique_ptr<trace::LogReader> open_reader(const std::string& path) {
  open_problem_text().clear();
  trace::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) {
    set_last_error(errno == ENOENT ? ERROR_FILE_NOT_FOUND : ERROR_ACCESS_DENIED);
    return nullptr;
  }
  auto r = trace::LogReader::open(trace::fd_input(std::move(fd)), path);
  if (!r) {
    open_problem_text() = r.error().message;
    set_last_error(ERROR_BAD_FORMAT);
    return nullptr;
  }
  return std::make_unique<trace::LogReader>(std::move(*r));
}

// LogfileHeader from a file's header. An unclosed file's counters are not final:
// BuffersWritten is then what the file's size holds.
void fill_file_header(Consumer& c, const std::string& path, EVENT_TRACE_LOGFILEW* f) {
  const trace::LogInfo& i = c.log->info();
  c.entry.name = i.session;
  c.entry.start_time = i.start_time;
  c.entry.buffer_kb = i.buffer_size / 1024;
  c.entry.log_file_mode = i.log_file_mode;
  SessionCounters n;
  n.buffers_written = i.buffers_written;
  n.events_lost = i.events_lost;
  struct stat st;
  if (!i.closed && ::stat(path.c_str(), &st) == 0 && uint64_t(st.st_size) > i.data_offset)
    n.buffers_written = (uint64_t(st.st_size) - i.data_offset) / i.buffer_size;
  fill_header(c.entry, n, f);
  c.logger_name = i.session;
  c.logger_name.push_back(u'\0');
  TRACE_LOGFILE_HEADER& h = f->LogfileHeader;
  h.LoggerName = reinterpret_cast<LPWSTR>(c.logger_name.data());
  h.LogFileName = f->LogFileName;
  h.EndTime.QuadPart = i.end_time;
  h.BufferSize = i.buffer_size;
  h.MaximumFileSize = static_cast<ULONG>(i.max_bytes >> 20);
  h.PointerSize = i.pointer_size;
  h.BuffersLost = static_cast<ULONG>(i.log_buffers_lost);
  f->CurrentTime = i.end_time;
}

TRACEHANDLE add_file_consumer(ConsumerTable& t, std::unique_ptr<trace::LogReader> log,
                              const std::string& path, Follow follow, EVENT_TRACE_LOGFILEW* f) {
  auto c = std::make_shared<Consumer>();
  c->handle = t.next++;
  c->log = std::move(log);
  c->follow = follow;
  c->callback = f->EventRecordCallback;
  c->context = f->Context;
  fill_file_header(*c, path, f);
  c->schemas = log_file_schemas(c->log->info());
  t.by_handle[c->handle] = c;
  return c->handle;
}

std::string utf8(const WCHAR* s) {
  std::string out;
  utf16_to_utf8(std::u16string_view(s, u16_length(s, trace::kMaxPathUnits)), out,
                Unpaired::Replace);
  return out;
}

// OpenTraceW(LogFileName): read the file (PROCESS_TRACE_MODE_REAL_TIME: follow it).
TRACEHANDLE open_log_file(EVENT_TRACE_LOGFILEW* f) {
  const std::string path = utf8(f->LogFileName);
  auto log = open_reader(path);
  if (log == nullptr) return INVALID_PROCESSTRACE_HANDLE;
  const bool follow = (f->ProcessTraceMode & PROCESS_TRACE_MODE_REAL_TIME) != 0;
  ConsumerTable& t = consumers();
  std::lock_guard<std::mutex> lock(t.mu);
  return add_file_consumer(t, std::move(log), path, follow ? Follow::UntilClosed : Follow::None, f);
}

// OpenTraceW(LoggerName) of a file session: follow its file (a circular one from its oldest
// surviving buffer; buffers the host overwrites before they are read are skipped and
// reported, docs/logfile.md). t.mu held.
TRACEHANDLE follow_session_file(ConsumerTable& t, const trace::SessionEntry& e,
                                EVENT_TRACE_LOGFILEW* f) {
  std::string path;
  utf16_to_utf8(e.log_file, path, Unpaired::Replace);
  auto log = open_reader(path);
  if (log == nullptr) return INVALID_PROCESSTRACE_HANDLE;
  const TRACEHANDLE h = add_file_consumer(t, std::move(log), path, Follow::WhileSession, f);
  t.by_handle[h]->entry = e;
  return h;
}

}  // namespace

}  // namespace pfc::etw

using namespace pfc::etw;

extern "C" {

TRACEHANDLE OpenTraceW(PEVENT_TRACE_LOGFILEW Logfile) {
  return guarded(
      [&]() -> TRACEHANDLE {
        if (Logfile == nullptr) {
          set_last_error(ERROR_INVALID_PARAMETER);
          return INVALID_PROCESSTRACE_HANDLE;
        }
        const ULONG mode = Logfile->ProcessTraceMode;
        if ((mode & PROCESS_TRACE_MODE_EVENT_RECORD) == 0) {
          set_last_error(ERROR_NOT_SUPPORTED);  // EVENT_TRACE callbacks
          return INVALID_PROCESSTRACE_HANDLE;
        }
        if (Logfile->LogFileName != nullptr && Logfile->LogFileName[0] != 0)
          return open_log_file(Logfile);
        if (Logfile->LoggerName == nullptr) {
          set_last_error(ERROR_INVALID_PARAMETER);
          return INVALID_PROCESSTRACE_HANDLE;
        }
        if ((mode & PROCESS_TRACE_MODE_REAL_TIME) == 0) {
          set_last_error(ERROR_NOT_SUPPORTED);  // a session read without real-time mode
          return INVALID_PROCESSTRACE_HANDLE;
        }
        Runtime& rt = Runtime::get();
        if (!rt.link.ensure()) {
          set_last_error(namespace_error(rt.link.failure_errno()));
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
        if (!e->log_file.empty()) return follow_session_file(t, *e, Logfile);
        if (has_live_consumer(rt.link.dir(), e->instance)) {
          set_last_error(ERROR_BUSY);
          return INVALID_PROCESSTRACE_HANDLE;
        }
        auto c = std::make_shared<Consumer>();
        c->handle = t.next++;
        c->entry = *e;
        c->rings = std::make_unique<pfc::trace::SessionRings>(e->instance);
        c->callback = Logfile->EventRecordCallback;
        c->context = Logfile->Context;
        c->schemas = session_trace_schemas(name);
        c->schemas->prefetch();
        c->marker = consumer_marker(e->instance, rt.link.self()) + "-" + std::to_string(c->handle);
        const SessionCounters counters = count_session(rt.link.dir(), *e);
        t.by_handle[c->handle] = c;
        UndoOnThrow undo([&] {
          t.by_handle.erase(c->handle);
          rt.link.dir().remove(c->marker);
        });
        if (!rt.link.dir().open_file(c->marker, true)) {
          t.by_handle.erase(c->handle);
          set_last_error(ERROR_ACCESS_DENIED);
          return INVALID_PROCESSTRACE_HANDLE;
        }
        fill_header(*e, counters, Logfile);
        return c->handle;
      },
      fail_handle);
}

ULONG ProcessTrace(PTRACEHANDLE HandleArray, ULONG HandleCount, LPFILETIME StartTime,
                   LPFILETIME EndTime) {
  return guarded([&]() -> ULONG {
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
    UndoOnThrow unmark([&] {  // a failed ProcessTrace leaves the handles usable
      std::lock_guard<std::mutex> lock(t.mu);
      for (Consumer* c : list) c->processing = false;
    });
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
  });
}

ULONG CloseTrace(TRACEHANDLE TraceHandle) {
  return guarded([&]() -> ULONG {
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
  });
}

ULONG PfcGetTraceProblem(TRACEHANDLE TraceHandle, PCHAR Buffer, ULONG BufferSize, PULONG TextSize,
                         PBOOLEAN Damaged) {
  return guarded([&]() -> ULONG {
    if (TextSize == nullptr || (Buffer == nullptr && BufferSize != 0))
      return ERROR_INVALID_PARAMETER;
    ConsumerProblem problem;
    if (TraceHandle == INVALID_PROCESSTRACE_HANDLE) {
      problem.text = open_problem_text();
    } else {
      ConsumerTable& t = consumers();
      std::lock_guard<std::mutex> lock(t.mu);
      auto it = t.by_handle.find(TraceHandle);
      if (it == t.by_handle.end() || it->second->closed.load()) return ERROR_INVALID_HANDLE;
      problem = it->second->problem;
    }
    const size_t needed = problem.text.size() + 1;
    if (needed > ULONG(-1)) return ERROR_INTERNAL_ERROR;  // texts are one line
    *TextSize = ULONG(needed);
    if (Damaged != nullptr) *Damaged = problem.damaged ? TRUE : FALSE;
    if (Buffer == nullptr || BufferSize < needed) return ERROR_MORE_DATA;  // null: size 0
    std::memcpy(Buffer, problem.text.c_str(), needed);
    return ERROR_SUCCESS;
  });
}

}  // extern "C"
