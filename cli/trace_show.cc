// cli/trace_show.cc — `pfc trace show NAME|FILE [--schema FILE.pfs|FILE.man ...] [--follow]`:
// a real-time consumer or a log-file reader (OpenTraceW + ProcessTrace, the public C API)
// printing one events-file line per event plus "ts" and "cpu" (docs/cli.md "pfc trace
// show"), fields decoded with the --schema files (first) or the schemas published with the
// session's enables or recorded in the log file (docs/logfile.md, section 2). An argument that
// names an existing file, or holds a '/', is a log file: read to its end, or with --follow until
// its writer closes it.
//
// Without --follow it prints what the session holds and returns once the session has been
// quiet for kQuietMs (no event delivered for that long: every ring is drained, since the
// consumer delivers a committed record at most ~12 ms after its commit). With --follow it
// returns when the session stops, on SIGINT/SIGTERM, or when standard output fails.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <ctime>
#include <optional>
#include <sstream>
#include <thread>

#include <sys/stat.h>

#include "base/hex.h"
#include "base/utf8.h"
#include "cli/event_decode.h"
#include "cli/exit_code.h"
#include "cli/output.h"
#include "cli/trace_options.h"
#include "cli/trace_schemas.h"
#include "etw/consumer.h"
#include "etw/util.h"
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
  std::string session;
  std::vector<ProviderDef> schemas;    // --schema files: looked up first
  std::vector<ProviderDef> published;  // published with the session's enables, or the file's
  std::vector<Guid> refreshed;         // GUIDs `published` was re-read for
  std::atomic<uint64_t> last_ms{0};
  std::atomic<bool> write_failed{false};
  std::atomic<bool> closed{false};  // the watcher closed the trace
  std::string line;
  bool file = false;  // reading a log file
  bool follow = false;
};

bool is_log_file_argument(const std::string& name) {
  struct stat st;
  return name.find('/') != std::string::npos || ::stat(name.c_str(), &st) == 0;
}

// OpenTraceW failed on the log file `path`: exit 1 with the reason.
int file_open_error(const std::string& path, ULONG e, std::ostream& err) {
  if (e == ERROR_FILE_NOT_FOUND) {
    err << "pfc: error: cannot read " << path << ": no such file\n";
  } else if (e == ERROR_BAD_FORMAT) {
    err << "pfc: error: " << path << " is not a pfc trace log file (docs/logfile.md)\n";
  } else {
    err << "pfc: error: cannot read " << path << ": OpenTraceW failed with " << e << '\n';
  }
  return kExitInput;
}

// FILETIME (100 ns since 1601) as RFC 3339 UTC with 7 fraction digits.
std::string rfc3339(int64_t filetime) {
  constexpr int64_t kEpochDelta = 116444736000000000;  // 1601 → 1970 in 100 ns
  int64_t t = filetime - kEpochDelta;
  int64_t secs = t / 10000000, frac = t % 10000000;
  if (frac < 0) frac += 10000000, --secs;
  const std::time_t tt = static_cast<std::time_t>(secs);
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%07lldZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<long long>(frac));
  return buf;
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

void format_event(ShowState& s, const EVENT_RECORD& r) {
  const EVENT_HEADER& h = r.EventHeader;
  const Guid g = etw::to_pfc(h.ProviderId);
  const EventDescriptor d = etw::to_pfc(h.EventDescriptor);
  const auto [provider, def] = lookup(s, g, d);
  std::string& out = s.line;
  out = "{\"provider\":" + json_quote(provider != nullptr ? provider->name : g.to_string());
  if (def != nullptr) out += ",\"event\":" + json_quote(def->name);
  out += ",\"id\":" + std::to_string(d.id) + ",\"version\":" + std::to_string(d.version);
  out += ",\"level\":" + std::to_string(d.level) + ",\"keyword\":\"" + to_hex(d.keyword) +
         "\",\"opcode\":" + std::to_string(d.opcode) + ",\"task\":" + std::to_string(d.task) +
         ",\"channel\":" + std::to_string(d.channel) + ",\"pid\":" + std::to_string(h.ProcessId) +
         ",\"tid\":" + std::to_string(h.ThreadId) + ",\"ts\":\"" + rfc3339(h.TimeStamp.QuadPart) +
         "\",\"cpu\":" + std::to_string(r.BufferContext.ProcessorIndex);
  EventView view;
  view.desc = d;
  view.payload = static_cast<const uint8_t*>(r.UserData);
  view.payload_size = r.UserDataLength;
  view.pid = h.ProcessId;
  view.tid = h.ThreadId;
  append_payload_json(out, def, view);
  out += "}\n";
}

void WINAPI on_event(PEVENT_RECORD r) {
  auto* s = static_cast<ShowState*>(r->UserContext);
  s->last_ms.store(now_ms());
  if (s->write_failed.load()) return;
  format_event(*s, *r);
  s->out->write(s->line.data(), static_cast<std::streamsize>(s->line.size()));
  if (!s->file || s->follow) s->out->flush();  // live events at once; a whole file in bulk
  if (!s->out->good()) s->write_failed.store(true);
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
  s.session = o.name;
  if (auto rc = load_trace_schemas(o.schemas, s.schemas, err)) return *rc;
  s.file = is_log_file_argument(o.name);
  s.published = s.file ? log_file_schemas(o.name, err) : published_schemas(o.name);
  std::u16string name;
  utf8_to_utf16(o.name, name);
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
  if (h == INVALID_PROCESSTRACE_HANDLE) {
    const ULONG e = GetLastError();
    if (s.file) return file_open_error(o.name, e, err);
    if (e == ERROR_WMI_INSTANCE_NOT_FOUND) {
      err << "pfc: error: no session named '" << o.name << "'\n";
    } else if (e == ERROR_BUSY) {
      err << "pfc: error: session '" << o.name << "' already has a consumer (one per session)\n";
    } else {
      err << "pfc: error: cannot attach to session '" << o.name << "': OpenTraceW failed with " << e
          << '\n';
    }
    return kExitInput;
  }
  g_interrupted.store(false);
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  s.last_ms.store(now_ms());
  std::atomic<bool> done{false};
  std::thread watcher([&] { watch(h, s, o.follow, done); });
  const ULONG rc = ProcessTrace(&h, 1, nullptr, nullptr);
  done.store(true);
  watcher.join();
  const etw::ConsumerProblem problem = etw::consumer_problem(h);
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
