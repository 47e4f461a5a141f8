// cli/trace_command.cc — `pfc trace start|enable|disable|list|query|stop` over the public
// ETW C API (StartTraceW, EnableTraceEx2, ControlTraceW, QueryAllTracesW and
// EnumerateTraceGuidsEx for what the JSON objects report; the pfc extensions
// PfcQueryTraceEventCount for their event count, PfcEnumerateTraceProviders and
// PfcStopTrace for the final object STOP leaves, PfcGetNamespaceProblem and
// PfcGetStartTraceProblem for what a failure means; docs/cli.md "pfc trace").
#include <cstddef>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/enable_request.h"
#include "base/etw_types.h"
#include "base/scope_kinds.h"
#include "base/utf8.h"
#include "cli/exit_code.h"
#include "cli/output.h"
#include "cli/trace_options.h"
#include "cli/trace_problem.h"
#include "cli/trace_schemas.h"
#include "cli/trace_session.h"
#include "pfc/etw/evntprov.h"
#include "pfc/etw/evntrace.h"

namespace pfc::cli {

std::optional<std::string> namespace_reason(uint32_t rc) {
  if (rc != ERROR_ACCESS_DENIED) return std::nullopt;
  std::string why = namespace_problem();
  if (why.empty()) return std::nullopt;
  return why;
}

std::string api_error(const char* call, uint32_t rc) {
  if (auto reason = namespace_reason(rc)) return *reason;
  if (rc == ERROR_DISK_FULL) return std::string(call) + " failed: " + etw_error_text(rc);
  return std::string(call) + " failed with " + std::to_string(rc);
}

namespace {

constexpr ULONG kMaxSessions = 64;  // the most sessions a namespace holds (QueryAllTracesW)

std::u16string wide(const std::string& s) {
  std::u16string w;
  utf8_to_utf16(s, w);
  return w;
}

int usage(std::ostream& err, const std::string& message) {
  err << "pfc: error: " << message << "\nRun 'pfc trace --help' for usage.\n";
  return kExitUsage;
}

int failure(std::ostream& err, const std::string& message) {
  err << "pfc: error: " << message << '\n';
  return kExitInput;
}

int no_session(std::ostream& err, const std::string& name) {
  return failure(err, "no session named '" + name + "'");
}

// What the JSON object of a session reports (docs/cli.md "pfc trace").
struct SessionView {
  std::string name;
  std::string file;  // empty: no log file
  bool realtime = false;
  std::vector<Guid> providers;  // the GUIDs the session enables
  uint64_t events = 0;
  uint64_t events_lost = 0;
  uint64_t buffers_written = 0;
  uint64_t log_buffers_lost = 0;
  uint64_t realtime_buffers_lost = 0;
};

std::string info_json(const SessionView& s) {
  std::string out = "{\"name\":" + json_quote(s.name) + ",\"file\":";
  out += s.file.empty() ? std::string("null") : json_quote(s.file);
  out += s.realtime ? ",\"realtime\":true" : ",\"realtime\":false";
  out += ",\"providers\":[";
  for (size_t i = 0; i < s.providers.size(); ++i)
    out += (i == 0 ? "\"" : ",\"") + s.providers[i].to_string() + '"';
  out += "],\"events\":" + std::to_string(s.events) +
         ",\"events_lost\":" + std::to_string(s.events_lost) +
         ",\"buffers_written\":" + std::to_string(s.buffers_written) +
         ",\"log_buffers_lost\":" + std::to_string(s.log_buffers_lost) +
         ",\"realtime_buffers_lost\":" + std::to_string(s.realtime_buffers_lost) + "}\n";
  return out;
}

std::string narrow(const WCHAR* units, size_t capacity) {
  std::u16string_view w(reinterpret_cast<const char16_t*>(units), capacity);
  w = w.substr(0, w.find(u'\0'));
  std::string out;
  utf16_to_utf8(w, out, Unpaired::Replace);
  return out;
}

// EnumerateTraceGuidsEx's answer for `cls` (and the GUID `in` for TraceGuidQueryInfo),
// asked again while it grows; the code of another failure.
ULONG enumerate_guids(TRACE_QUERY_INFO_CLASS cls, GUID* in, std::vector<uint8_t>& out) {
  const ULONG in_size = in == nullptr ? 0 : sizeof(GUID);
  ULONG needed = 0;
  ULONG rc = EnumerateTraceGuidsEx(cls, in, in_size, nullptr, 0, &needed);
  while (rc == ERROR_INSUFFICIENT_BUFFER) {
    out.resize(needed);
    rc = EnumerateTraceGuidsEx(cls, in, in_size, out.data(), needed, &needed);
  }
  out.resize(rc == ERROR_SUCCESS ? needed : 0);
  return rc;
}

// Whether a TraceGuidQueryInfo answer holds an enable by the session `logger_id`.
bool enabled_by(const std::vector<uint8_t>& info, USHORT logger_id) {
  TRACE_GUID_INFO head;
  if (info.size() < sizeof head) return false;
  std::memcpy(&head, info.data(), sizeof head);
  size_t at = sizeof head;
  for (ULONG i = 0;
       i < head.InstanceCount && at + sizeof(TRACE_PROVIDER_INSTANCE_INFO) <= info.size(); ++i) {
    TRACE_PROVIDER_INSTANCE_INFO inst;
    std::memcpy(&inst, info.data() + at, sizeof inst);
    for (ULONG k = 0; k < inst.EnableCount; ++k) {
      const size_t e = at + sizeof inst + k * sizeof(TRACE_ENABLE_INFO);
      if (e + sizeof(TRACE_ENABLE_INFO) > info.size()) break;
      TRACE_ENABLE_INFO en;
      std::memcpy(&en, info.data() + e, sizeof en);
      if (en.IsEnabled != 0 && en.LoggerId == logger_id) return true;
    }
    if (inst.NextOffset == 0) break;
    at += inst.NextOffset;
  }
  return false;
}

// The provider GUIDs the session `logger_id` enables, in EnumerateTraceGuidsEx's order.
Result<std::vector<Guid>> enabled_providers(USHORT logger_id) {
  std::vector<uint8_t> list;
  if (const ULONG rc = enumerate_guids(TraceGuidQueryList, nullptr, list); rc != ERROR_SUCCESS)
    return make_error(api_error("EnumerateTraceGuidsEx", rc));
  std::vector<Guid> out;
  for (size_t at = 0; at + sizeof(GUID) <= list.size(); at += sizeof(GUID)) {
    GUID g;
    std::memcpy(&g, list.data() + at, sizeof g);
    std::vector<uint8_t> info;
    const ULONG rc = enumerate_guids(TraceGuidQueryInfo, &g, info);
    if (rc == ERROR_WMI_GUID_NOT_FOUND) continue;  // disabled since the list was made
    if (rc != ERROR_SUCCESS) return make_error(api_error("EnumerateTraceGuidsEx", rc));
    if (enabled_by(info, logger_id)) out.push_back(to_pfc(g));
  }
  return out;
}

// The object of the session `p` describes (filled by ControlTraceW or QueryAllTracesW);
// nullopt when it stopped since.
Result<std::optional<SessionView>> view(const Properties& p) {
  SessionView v;
  v.name = narrow(p.name, std::size(p.name));
  v.file = narrow(p.file, std::size(p.file));
  v.realtime = (p.props.LogFileMode & EVENT_TRACE_REAL_TIME_MODE) != 0;
  v.events_lost = p.props.EventsLost;
  v.buffers_written = p.props.BuffersWritten;
  v.log_buffers_lost = p.props.LogBuffersLost;
  v.realtime_buffers_lost = p.props.RealTimeBuffersLost;
  const TRACEHANDLE h = p.props.Wnode.HistoricalContext;
  ULONGLONG events = 0;
  const ULONG rc = PfcQueryTraceEventCount(h, &events);
  if (rc == ERROR_WMI_INSTANCE_NOT_FOUND) return std::optional<SessionView>{};
  if (rc != ERROR_SUCCESS) return make_error(api_error("PfcQueryTraceEventCount", rc));
  v.events = events;
  auto providers = enabled_providers(static_cast<USHORT>(h & 0xFFFF));
  if (!providers) return std::unexpected(providers.error());
  v.providers = std::move(*providers);
  return std::optional<SessionView>{std::move(v)};
}

std::unique_ptr<Properties> query_properties() {
  auto p = new_properties();
  p->props.LogFileNameOffset = offsetof(Properties, file);
  return p;
}

// Prints the session's object (query; and after start, enable, disable).
int print_query(const std::string& name, std::ostream& out, std::ostream& err) {
  auto p = query_properties();
  const std::u16string w = wide(name);
  const ULONG rc =
      ControlTraceW(0, reinterpret_cast<LPCWSTR>(w.c_str()), &p->props, EVENT_TRACE_CONTROL_QUERY);
  if (rc == ERROR_WMI_INSTANCE_NOT_FOUND) return no_session(err, name);
  if (rc != ERROR_SUCCESS) return failure(err, api_error("ControlTraceW(QUERY)", rc));
  auto v = view(*p);
  if (!v) return failure(err, v.error().message);
  if (!*v) return no_session(err, name);
  out << info_json(**v);
  return kExitOk;
}

// --file, --circular, --realtime as LogFileMode, LogFileName and MaximumFileSize.
std::string file_options(const TraceOptions& o, Properties& p) {
  if (o.file.empty()) {
    if (!o.circular.empty()) return "--circular needs --file";
    p.props.LogFileMode = EVENT_TRACE_REAL_TIME_MODE;
    return "";
  }
  const std::u16string path = wide(o.file);
  if (path.size() >= std::size(p.file))
    return "--file: the path is longer than the limit of " + std::to_string(std::size(p.file) - 1) +
           " UTF-16 units";
  std::memcpy(p.file, path.c_str(), (path.size() + 1) * sizeof(WCHAR));
  p.props.LogFileNameOffset = offsetof(Properties, file);
  p.props.LogFileMode =
      o.circular.empty() ? EVENT_TRACE_FILE_MODE_SEQUENTIAL : EVENT_TRACE_FILE_MODE_CIRCULAR;
  if (o.realtime) p.props.LogFileMode |= EVENT_TRACE_REAL_TIME_MODE;
  if (!o.circular.empty())
    return parse_count("--circular", o.circular, 1024 * 1024, p.props.MaximumFileSize);
  return "";
}

std::string start_error(const TraceOptions& o, ULONG rc) {
  if (auto reason = namespace_reason(rc)) return *reason;  // not the log file's fault
  // The library's reason where the code alone does not say it (the log file's owner, a
  // circular size too small: PfcGetStartTraceProblem).
  if (const std::string why = start_problem(); !why.empty())
    return "cannot start '" + o.name + "': " + why;
  const bool file = !o.file.empty();
  switch (rc) {
    case ERROR_ALREADY_EXISTS: return "a session named '" + o.name + "' already exists";
    case ERROR_NO_SYSTEM_RESOURCES:
      return "cannot start '" + o.name + "': 64 sessions are live, the most a namespace holds";
    case ERROR_PATH_NOT_FOUND:
      if (file) return "cannot create log file '" + o.file + "': no such directory";
      break;
    case ERROR_ACCESS_DENIED:
      if (file) return "cannot create log file '" + o.file + "': permission denied";
      break;
    case ERROR_BAD_PATHNAME:
      if (file) return "cannot create log file '" + o.file + "': bad path";
      break;
    case ERROR_FILE_NOT_FOUND:
      return "cannot start '" + o.name +
             "': the session host pfc-trace-host was not found (set PFC_TRACE_HOST)";
    case ERROR_DISK_FULL: return "cannot start '" + o.name + "': " + etw_error_text(rc);
    default: break;
  }
  return "cannot start '" + o.name + "': " + api_error("StartTraceW", rc);
}

int start(const TraceOptions& o, std::ostream& out, std::ostream& err) {
  auto p = new_properties();
  std::string bad = file_options(o, *p);
  if (bad.empty() && !o.buffer_kb.empty())
    bad = parse_count("--buffer-kb", o.buffer_kb, 1024 * 1024, p->props.BufferSize);
  if (bad.empty() && !o.buffers.empty())
    bad = parse_count("--buffers", o.buffers, 65536, p->props.MaximumBuffers);
  if (!bad.empty()) return usage(err, bad);
  const std::u16string w = wide(o.name);
  if (w.empty() || w.size() >= std::size(p->name))
    return usage(err,
                 "NAME: expected 1 to " + std::to_string(std::size(p->name) - 1) + " UTF-16 units");
  if (always_a_path(o.name))
    return usage(err, "NAME '" + o.name +
                          "': a session name may not hold a '/' or be '.' or '..' (pfc trace "
                          "show NAME reads such a NAME as a log file's path)");
  TRACEHANDLE h = 0;
  const ULONG rc = StartTraceW(&h, reinterpret_cast<LPCWSTR>(w.c_str()), &p->props);
  if (rc != ERROR_SUCCESS) return failure(err, start_error(o, rc));
  return print_query(o.name, out, err);
}

std::string enable_error(ULONG rc) {
  if (rc == ERROR_NO_SYSTEM_RESOURCES) return "the provider is already enabled by 8 sessions";
  if (rc == ERROR_INVALID_PARAMETER) return "EnableTraceEx2 refused the arguments (error 87)";
  if (rc == ERROR_DISK_FULL) return "cannot change the session: " + etw_error_text(rc);
  return api_error("EnableTraceEx2", rc);
}

}  // namespace

int apply_enable(const std::string& name, const EnableRequest& r, bool on, std::ostream& err) {
  const Result<TRACEHANDLE> handle = session_handle(name);
  if (!handle) return failure(err, handle.error().message);
  const TRACEHANDLE h = *handle;
  if (h == 0) return no_session(err, name);
  std::vector<std::vector<uint8_t>> bodies;
  std::vector<EVENT_FILTER_DESCRIPTOR> f = enable_descriptors(r, bodies);
  ENABLE_TRACE_PARAMETERS params = enable_parameters(r, f);
  const GUID g = to_win(r.provider);
  const ULONG rc = EnableTraceEx2(
      h, &g, on ? EVENT_CONTROL_CODE_ENABLE_PROVIDER : EVENT_CONTROL_CODE_DISABLE_PROVIDER, r.level,
      r.any, r.all, kEnableTimeoutMs, on ? &params : nullptr);
  return enable_outcome(name, rc, err);
}

int enable_outcome(const std::string& name, uint32_t rc, std::ostream& err) {
  if (rc == ERROR_WMI_INSTANCE_NOT_FOUND) return no_session(err, name);
  if (rc == ERROR_TIMEOUT)
    err << "pfc: warning: some provider processes did not apply the change within 10 s\n";
  else if (rc != ERROR_SUCCESS) return failure(err, enable_error(rc));
  return kExitOk;
}

namespace {

int enable(const TraceOptions& o, bool on, std::ostream& out, std::ostream& err) {
  if (!o.script.empty()) {
    if (!o.provider.empty()) return usage(err, "give PROVIDER or --script, not both");
    if (!o.schemas.empty())
      return usage(err, "--schema is for PROVIDER names; --script has its own");
    const int rc = enable_script(o, err);
    return rc != kExitOk ? rc : print_query(o.name, out, err);
  }
  if (o.provider.empty()) return usage(err, "PROVIDER is required");
  std::vector<ProviderDef> schemas;
  if (auto rc = load_trace_schemas(o.schemas, schemas, err)) return *rc;
  EnableRequest r;
  if (const std::string bad = build_enable(o, schemas, r); !bad.empty()) return usage(err, bad);
  const int rc = apply_enable(o.name, r, on, err);
  return rc != kExitOk ? rc : print_query(o.name, out, err);
}

int list(std::ostream& out, std::ostream& err) {
  std::vector<std::unique_ptr<Properties>> all;
  std::vector<PEVENT_TRACE_PROPERTIES> array;
  for (uint32_t i = 0; i < kMaxSessions; ++i) {
    all.push_back(query_properties());
    array.push_back(&all.back()->props);
  }
  ULONG count = 0;
  const ULONG rc = QueryAllTracesW(array.data(), kMaxSessions, &count);
  if (rc != ERROR_SUCCESS) return failure(err, api_error("QueryAllTracesW", rc));
  for (ULONG i = 0; i < count; ++i) {
    auto v = view(*all[i]);
    if (!v) return failure(err, v.error().message);
    if (*v) out << info_json(**v);  // else stopped since
  }
  return kExitOk;
}

// The GUIDs the session `h` enables, in enable order (PfcEnumerateTraceProviders).
Result<std::vector<Guid>> providers_in_enable_order(TRACEHANDLE h) {
  std::vector<GUID> guids;
  ULONG size = 0;
  ULONG rc = PfcEnumerateTraceProviders(h, nullptr, &size);
  while (rc == ERROR_INSUFFICIENT_BUFFER) {
    guids.resize(size / sizeof(GUID));
    rc = PfcEnumerateTraceProviders(h, guids.data(), &size);
  }
  if (rc == ERROR_WMI_INSTANCE_NOT_FOUND) return std::vector<Guid>{};
  if (rc != ERROR_SUCCESS) return make_error(api_error("PfcEnumerateTraceProviders", rc));
  std::vector<Guid> out(size / sizeof(GUID));
  for (size_t i = 0; i < out.size(); ++i) out[i] = to_pfc(guids[i]);
  return out;
}

// Stops the session with PfcStopTrace (ControlTraceW(STOP) and its final event count) and
// prints its object: the providers it enabled, asked just before, and its final counters.
int stop(const TraceOptions& o, std::ostream& out, std::ostream& err) {
  auto p = query_properties();
  const std::u16string w = wide(o.name);
  ULONG rc =
      ControlTraceW(0, reinterpret_cast<LPCWSTR>(w.c_str()), &p->props, EVENT_TRACE_CONTROL_QUERY);
  if (rc == ERROR_WMI_INSTANCE_NOT_FOUND) return no_session(err, o.name);
  if (rc != ERROR_SUCCESS) return failure(err, api_error("ControlTraceW(QUERY)", rc));
  const std::string stored = narrow(p->name, std::size(p->name));  // the name as started
  const TRACEHANDLE h = p->props.Wnode.HistoricalContext;
  auto providers = providers_in_enable_order(h);
  if (!providers) return failure(err, providers.error().message);
  ULONGLONG events = 0;
  rc = PfcStopTrace(h, nullptr, &p->props, &events);
  if (rc == ERROR_WMI_INSTANCE_NOT_FOUND) return no_session(err, o.name);
  if (rc == ERROR_DISK_FULL)
    return failure(err, "cannot stop '" + stored + "': " + etw_error_text(rc));
  if (rc != ERROR_SUCCESS) return failure(err, api_error("ControlTraceW(STOP)", rc));
  out << info_json(
      SessionView{narrow(p->name, std::size(p->name)), narrow(p->file, std::size(p->file)),
                  (p->props.LogFileMode & EVENT_TRACE_REAL_TIME_MODE) != 0, std::move(*providers),
                  events, p->props.EventsLost, p->props.BuffersWritten, p->props.LogBuffersLost,
                  p->props.RealTimeBuffersLost});
  return kExitOk;
}

}  // namespace

int command_trace(const TraceOptions& o, std::ostream& out, std::ostream& err) {
  if (o.action == "start") return start(o, out, err);
  if (o.action == "enable") return enable(o, true, out, err);
  if (o.action == "disable") return enable(o, false, out, err);
  if (o.action == "list") return list(out, err);
  if (o.action == "query") return print_query(o.name, out, err);
  if (o.action == "stop") return stop(o, out, err);
  if (o.action == "show") return command_trace_show(o, out, err);
  if (o.action == "export") return command_trace_export(o, err);
  if (o.action == "programs") return command_trace_programs(out, err);
  return usage(err,
               "pfc trace: give a subcommand (start, enable, disable, list, query, stop, "
               "show, export, programs)");
}

}  // namespace pfc::cli
