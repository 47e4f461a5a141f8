// cli/trace_show.cc — `pfc trace show NAME|FILE|--session NAME [--schema F ...] [--follow]`:
// a real-time consumer or a log-file reader (OpenTraceW + ProcessTrace, the public C API)
// printing one events-file line per event plus "ts" and "cpu" (docs/cli.md "pfc trace
// show"), fields decoded with the --schema files (first) or the schemas published with the
// session's enables or recorded in the log file (docs/logfile.md, section 2). An argument that
// names an existing file, or holds a '/', is a log file: read to its end, or with --follow until
// its writer closes it; `--session NAME` is always a session's name (one holding a '/', say).
//
// Without --follow it prints what the session holds and returns once the session has been
// quiet for kQuietMs (no event delivered for that long: every ring is drained, since the
// consumer delivers a committed record at most ~12 ms after its commit). With --follow it
// returns when the session stops, on SIGINT/SIGTERM, or when standard output fails.
#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <csignal>
#include <ctime>
#include <optional>
#include <sstream>
#include <thread>

#include <sys/stat.h>

#include "base/etw_types.h"
#include "base/hex.h"
#include "base/utf8.h"
#include "cli/exit_code.h"
#include "cli/output.h"
#include "cli/trace_options.h"
#include "cli/trace_problem.h"
#include "cli/trace_schemas.h"
#include "cli/trace_session.h"
#include "cli/trace_tlg.h"
#include "cli/trace_traits.h"
#include "io/event_line.h"
#include "pfc/etw/evntcons.h"
#include "pfc/etw/evntrace.h"

namespace pfc::cli {
namespace {

constexpr int kQuietMs = 200;
constexpr int kPollMs = 10;

std::atomic<bool> g_interrupted{false};
extern "C" void on_signal(int) { g_interrupted.store(true); }

uint64_t now_ms() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

struct ShowState {
  std::ostream* out = nullptr;
  std::string session;                 // the session's name, or the log file's path
  std::vector<ProviderDef> schemas;    // --schema files: looked up first
  std::vector<ProviderDef> published;  // published with the session's enables, or the file's
  std::vector<Guid> refreshed;         // GUIDs `published` was re-read for
  std::atomic<uint64_t> last_ms{0};
  std::atomic<bool> write_failed{false};
  std::atomic<bool> closed{false};  // the watcher closed the trace
  std::string lines;  // formatted lines not yet written (a file read writes in chunks)
  bool file = false;  // reading a log file
  bool follow = false;
  // The line's start up to "version" for the last (provider, id, version) seen, and its
  // event definition: events of one kind in a row cost no lookup and no quoting.
  struct Head {
    bool valid = false;
    Guid guid;
    uint16_t id = 0;
    uint8_t version = 0;
    const EventDef* def = nullptr;
    bool named = false;  // a schema names the provider (else `text` holds its GUID)
    std::string text;
  } head;
  // "YYYY-MM-DDTHH:MM:SS." of the last second formatted (FILETIME seconds since 1601).
  int64_t ts_second = -1;
  std::string ts_text;
};

constexpr size_t kWriteChunk = 64u << 10;

bool is_log_file_argument(const std::string& name) {
  struct stat st;
  return always_a_path(name) || ::stat(name.c_str(), &st) == 0;
}

// OpenTraceW failed on the log file `path`: exit 1 with the reason, and when a live
// session has that name (one holding a '/', or naming a file), how to show it instead.
int file_open_error(const std::string& path, ULONG e, std::ostream& err) {
  if (e == ERROR_FILE_NOT_FOUND) {
    err << "pfc: error: cannot read " << path << ": no such file\n";
  } else if (e == ERROR_BAD_FORMAT) {  // the reader's text, as every reader prints it
    err << "pfc: error: " << open_problem() << '\n';
  } else {
    err << "pfc: error: cannot read " << path << ": OpenTraceW failed with " << e << '\n';
  }
  if (auto live = session_handle(path); live && *live != 0)
    err << "pfc: note: a session is named '" << path << "': pfc trace show --session '" << path
        << "'\n";
  return kExitInput;
}

// OpenTraceW failed on what `s` shows with GetLastError `e`: exit 1 with the reason.
int open_error(const ShowState& s, ULONG e, std::ostream& err) {
  if (s.file) return file_open_error(s.session, e, err);
  if (auto reason = namespace_reason(e)) err << "pfc: error: " << *reason << '\n';
  else if (e == ERROR_WMI_INSTANCE_NOT_FOUND)
    err << "pfc: error: no session named '" << s.session << "'\n";
  else if (e == ERROR_BUSY)
    err << "pfc: error: session '" << s.session << "' already has a consumer (one per session)\n";
  else
    err << "pfc: error: cannot attach to session '" << s.session << "': OpenTraceW failed with "
        << e << '\n';
  return kExitInput;
}

// Appends FILETIME (100 ns since 1601) as RFC 3339 UTC with 7 fraction digits; the
// date and time of day are formatted once per second.
void append_rfc3339(ShowState& s, int64_t filetime) {
  constexpr int64_t kEpochDelta = 116444736000000000;  // 1601 → 1970 in 100 ns
  int64_t t = filetime - kEpochDelta;
  int64_t secs = t / 10000000, frac = t % 10000000;
  if (frac < 0) frac += 10000000, --secs;
  if (secs != s.ts_second) {
    const std::time_t tt = static_cast<std::time_t>(secs);
    std::tm tm{};
    gmtime_r(&tt, &tm);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.", tm.tm_year + 1900,
                  tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
    s.ts_second = secs;
    s.ts_text = buf;
  }
  s.lines += s.ts_text;
  char digits[7];
  for (int i = 6; i >= 0; --i, frac /= 10) digits[i] = static_cast<char>('0' + frac % 10);
  s.lines.append(digits, sizeof digits);
  s.lines += 'Z';
}

template <typename T>
void append_number(std::string& out, T v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

const ProviderDef* find_guid(const std::vector<ProviderDef>& providers, const Guid& g) {
  for (const ProviderDef& p : providers)
    if (p.guid == g) return &p;
  return nullptr;
}

// The provider and event for the record: from a --schema, else from the schemas published
// with the session's enables or recorded in the log file (re-read once per GUID not found,
// for providers enabled after `show` started).
std::pair<const ProviderDef*, const EventDef*> lookup(ShowState& s, const Guid& g,
                                                      const EventDescriptor& d) {
  const ProviderDef* p = find_guid(s.schemas, g);
  if (p == nullptr) p = find_guid(s.published, g);
  if (p == nullptr && std::find(s.refreshed.begin(), s.refreshed.end(), g) == s.refreshed.end()) {
    s.refreshed.push_back(g);
    std::ostringstream warned_before;
    s.published =
        s.file ? log_file_schemas(s.session, warned_before) : published_schemas(s.session);
    p = find_guid(s.published, g);
  }
  return {p, p != nullptr ? p->find_event(d.id, d.version) : nullptr};
}

// The line's head for (g, d): from the cache, or looked up and quoted once.
const ShowState::Head& head_of(ShowState& s, const Guid& g, const EventDescriptor& d) {
  ShowState::Head& h = s.head;
  if (h.valid && h.guid == g && h.id == d.id && h.version == d.version) return h;
  const auto [provider, def] = lookup(s, g, d);  // may re-read s.published: cache rebuilt
  h.valid = true;
  h.guid = g;
  h.id = d.id;
  h.version = d.version;
  h.def = def;
  h.named = provider != nullptr;
  h.text = io::event_line_head(provider != nullptr ? provider->name : g.to_string(), def, d, true);
  return h;
}

// Appends the event's line to s.lines. A TraceLogging event is named and decoded from its
// own metadata (cli/trace_tlg.h), whatever the schemas say. An event with provider traits
// (cli/trace_traits.h) is named by them when no schema names its provider, and shows their
// group as "group" after "cpu".
void format_event(ShowState& s, EVENT_RECORD& r) {
  const EVENT_HEADER& h = r.EventHeader;
  const Guid g = to_pfc(h.ProviderId);
  const EventDescriptor d = to_pfc(h.EventDescriptor);
  TlgLine tl;
  const bool is_tlg = decode_tlg(r, tl);
  const std::optional<ProviderTraits> traits = traits_of(r);
  const ShowState::Head& head = head_of(s, g, d);
  std::string& out = s.lines;
  EventView view;
  view.desc = d;
  view.payload = static_cast<const uint8_t*>(r.UserData);
  view.payload_size = r.UserDataLength;
  view.pid = h.ProcessId;
  view.tid = h.ThreadId;
  if (is_tlg) {
    EventDef named;
    named.name = tl.event;
    out += io::event_line_head(tl.provider.empty() ? g.to_string() : tl.provider, &named, d, true);
  } else if (traits && !traits->name.empty() && !head.named) {
    out += io::event_line_head(traits->name, head.def, d, true);
  } else {
    out += head.text;
  }
  io::append_event_descriptor(out, view);
  out += ",\"ts\":\"";
  append_rfc3339(s, h.TimeStamp.QuadPart);
  out += "\",\"cpu\":";
  append_number(out, r.BufferContext.ProcessorIndex);
  if (traits && traits->group) out += ",\"group\":\"" + traits->group->to_string() + '"';
  if (is_tlg) {
    out += ",\"fields\":" + tl.fields + "}\n";
    return;
  }
  io::append_event_tail(out, head.def, view, 0, {});
}

// Writes the formatted lines; false when standard output failed.
bool write_lines(ShowState& s) {
  if (!s.lines.empty()) {
    s.out->write(s.lines.data(), static_cast<std::streamsize>(s.lines.size()));
    s.lines.clear();
  }
  s.out->flush();
  return s.out->good();
}

void WINAPI on_event(PEVENT_RECORD r) {
  auto* s = static_cast<ShowState*>(r->UserContext);
  if (!s->file) s->last_ms.store(now_ms());  // the quiet check of a session (watch)
  if (s->write_failed.load(std::memory_order_relaxed)) return;
  format_event(*s, *r);
  // live events at once; a whole file in chunks (the rest after ProcessTrace)
  if ((!s->file || s->follow || s->lines.size() >= kWriteChunk) && !write_lines(*s))
    s->write_failed.store(true);
}

// Closes the trace (ProcessTrace then returns) on a signal, a failed write, or — without
// --follow — once the session has been quiet for kQuietMs.
void watch(TRACEHANDLE h, ShowState& s, bool follow, const std::atomic<bool>& done) {
  if (s.file) follow = true;  // a file read ends by itself
  while (!done.load()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(kPollMs));
    const bool quiet = !follow && now_ms() - s.last_ms.load() >= kQuietMs;
    if (g_interrupted.load() || s.write_failed.load() || quiet) {
      s.closed.store(true);
      CloseTrace(h);
      return;
    }
  }
}

}  // namespace

int command_trace_show(const TraceOptions& o, std::ostream& out, std::ostream& err) {
  ShowState s;
  s.out = &out;
  if (o.name.empty() == o.session.empty()) {
    err << "pfc: error: give NAME|FILE or --session NAME (one of them)\n"
           "Run 'pfc trace show --help' for usage.\n";
    return kExitUsage;
  }
  s.session = o.session.empty() ? o.name : o.session;  // --session: a name, whatever it holds
  if (auto rc = load_trace_schemas(o.schemas, s.schemas, err)) return *rc;
  s.file = o.session.empty() && is_log_file_argument(o.name);
  s.published = s.file ? log_file_schemas(s.session, err) : published_schemas(s.session);
  std::u16string name;
  utf8_to_utf16(s.session, name);
  EVENT_TRACE_LOGFILEW f{};
  s.follow = o.follow;
  if (s.file) {  // PROCESS_TRACE_MODE_REAL_TIME with a file: follow it
    f.LogFileName = reinterpret_cast<LPWSTR>(name.data());
    f.ProcessTraceMode =
        PROCESS_TRACE_MODE_EVENT_RECORD | (o.follow ? PROCESS_TRACE_MODE_REAL_TIME : 0);
  } else {
    f.LoggerName = reinterpret_cast<LPWSTR>(name.data());
    f.ProcessTraceMode = PROCESS_TRACE_MODE_REAL_TIME | PROCESS_TRACE_MODE_EVENT_RECORD;
  }
  f.EventRecordCallback = on_event;
  f.Context = &s;
  TRACEHANDLE h = OpenTraceW(&f);
  if (h == INVALID_PROCESSTRACE_HANDLE) return open_error(s, GetLastError(), err);
  g_interrupted.store(false);
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  s.last_ms.store(now_ms());
  std::atomic<bool> done{false};
  std::thread watcher([&] { watch(h, s, o.follow, done); });
  const ULONG rc = ProcessTrace(&h, 1, nullptr, nullptr);
  if (!s.write_failed.load() && !write_lines(s)) s.write_failed.store(true);
  done.store(true);
  watcher.join();
  const TraceProblem problem = trace_problem(h);
  if (!s.closed.load()) CloseTrace(h);  // the session stopped
  if (!problem.text.empty())
    err << (problem.damaged ? "pfc: error: " : "pfc: warning: ") << problem.text << '\n';
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  out.flush();
  if (s.write_failed.load() || !out.good()) return kExitInput;
  if (problem.damaged) return kExitInput;
  if (rc != ERROR_SUCCESS && !s.closed.load()) {
    err << "pfc: error: ProcessTrace failed with " << rc << '\n';
    return kExitInput;
  }
  return kExitOk;
}

}  // namespace pfc::cli
