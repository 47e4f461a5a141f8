// cli/trace_export.cc — `pfc trace export FILE --format ctf -o DIR [--schema F ...]`: a log
// file read as `pfc trace show FILE` reads it (OpenTraceW + ProcessTrace, the same schemas:
// --schema files first, then the file's) and written as a CTF 1.8 trace directory
// (cli/ctf_writer.h) for babeltrace2 and other CTF viewers (docs/cli.md "pfc trace",
// docs/logfile.md "Viewing with babeltrace2").
//
// A damaged file exports the events before the damage (the directory is a complete trace
// of them) and exits 1 with the reader's error; a file never closed exports every complete
// buffer and warns, as `show` does.
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "base/etw_types.h"
#include "base/utf8.h"
#include "cli/ctf_writer.h"
#include "cli/exit_code.h"
#include "cli/trace_options.h"
#include "cli/trace_problem.h"
#include "cli/trace_schemas.h"
#include "pfc/etw/evntcons.h"
#include "pfc/etw/evntrace.h"
#include "runtime/tlg.h"

namespace pfc::cli {
namespace {

// The event class of a TraceLogging record (docs/logfile.md "Viewing with babeltrace2"):
// provider and event names from its traits and metadata, and its fields as an EventDef
// when every one is a top-level scalar of a type the schema language has (`typed`).
struct TlClass {
  std::string provider;
  EventDef def;
  bool typed = false;
};

struct ExportState {
  std::vector<ProviderDef> schemas;  // --schema files: looked up first
  std::vector<ProviderDef> in_file;  // the schemas the log file records
  CtfWriter* writer = nullptr;
  std::optional<Error> failed;  // the first write error; later events are skipped
  // The last (provider, id, version) looked up, as in `show`: a run of one kind costs one.
  bool cached = false;
  Guid guid;
  uint16_t id = 0;
  uint8_t version = 0;
  const ProviderDef* provider = nullptr;
  const EventDef* def = nullptr;
  // TraceLogging classes by their traits and metadata bytes: parsed once per distinct blob.
  std::map<std::string, std::unique_ptr<TlClass>, std::less<>> tl_classes;
};

// The schema type a TraceLogging field is written as, when it is one: a scalar whose
// in-type the schema language has with the same encoding (strings NUL-terminated; not
// binary or SID, whose TraceLogging encodings differ).
std::optional<InType> tl_field_type(const tlg::Field& f) {
  if (f.arity != 0 || f.parent != 0 || !in_type_known(f.in_type)) return std::nullopt;
  const auto t = static_cast<InType>(f.in_type);
  if (t == InType::Binary || t == InType::Sid || t == InType::Pointer) return std::nullopt;
  return t;
}

TlClass make_tl_class(const uint8_t* traits, uint32_t traits_size, const uint8_t* meta,
                      uint32_t meta_size) {
  TlClass c;
  if (traits != nullptr)
    if (auto name = tlg::parse_provider(traits, traits_size)) c.provider = std::move(*name);
  auto m = tlg::parse_event(meta, meta_size);
  if (!m) {  // damaged metadata: an untyped class named as the write path named the event
    c.def.name = std::string(tlg::event_name(meta, meta_size));
    return c;
  }
  c.def.name = m->name;
  c.typed = true;
  for (const tlg::Field& f : m->fields) {
    const std::optional<InType> t = tl_field_type(f);
    c.typed = c.typed && t.has_value();
    if (t) c.def.fields.push_back(FieldDef{f.name, *t, {}, {}});
  }
  return c;
}

// The class of `r` when it is a TraceLogging record (EVENT_SCHEMA_TL item), else null.
const TlClass* tl_class(ExportState& s, const EVENT_RECORD& r) {
  const uint8_t *traits = nullptr, *meta = nullptr;
  uint32_t traits_size = 0, meta_size = 0;
  for (USHORT i = 0; r.ExtendedData != nullptr && i < r.ExtendedDataCount; ++i) {
    const EVENT_HEADER_EXTENDED_DATA_ITEM& e = r.ExtendedData[i];
    const auto* p = reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(e.DataPtr));
    if (e.ExtType == EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL) meta = p, meta_size = e.DataSize;
    if (e.ExtType == EVENT_HEADER_EXT_TYPE_PROV_TRAITS) traits = p, traits_size = e.DataSize;
  }
  if (meta == nullptr) return nullptr;
  std::string key(reinterpret_cast<const char*>(meta), meta_size);
  key += '\0';
  if (traits != nullptr) key.append(reinterpret_cast<const char*>(traits), traits_size);
  auto it = s.tl_classes.find(key);
  if (it == s.tl_classes.end()) {
    auto c = std::make_unique<TlClass>(make_tl_class(traits, traits_size, meta, meta_size));
    it = s.tl_classes.emplace(std::move(key), std::move(c)).first;
  }
  return it->second.get();
}

const ProviderDef* find_guid(const std::vector<ProviderDef>& providers, const Guid& g) {
  for (const ProviderDef& p : providers)
    if (p.guid == g) return &p;
  return nullptr;
}

void look_up(ExportState& s, const Guid& g, const EventDescriptor& d) {
  if (s.cached && s.guid == g && s.id == d.id && s.version == d.version) return;
  s.cached = true;
  s.guid = g;
  s.id = d.id;
  s.version = d.version;
  s.provider = find_guid(s.schemas, g);
  if (s.provider == nullptr) s.provider = find_guid(s.in_file, g);
  s.def = s.provider != nullptr ? s.provider->find_event(d.id, d.version) : nullptr;
}

void WINAPI on_event(PEVENT_RECORD r) {
  auto* s = static_cast<ExportState*>(r->UserContext);
  if (s->failed) return;
  const EVENT_HEADER& h = r->EventHeader;
  CtfEvent e;
  e.provider = to_pfc(h.ProviderId);
  e.desc = to_pfc(h.EventDescriptor);
  look_up(*s, e.provider, e.desc);
  if (s->provider != nullptr) e.provider_name = s->provider->name;
  e.def = s->def;
  if (const TlClass* tl = tl_class(*s, *r)) {  // named and typed by its own metadata
    if (!tl->provider.empty()) e.provider_name = tl->provider;
    e.event_name = tl->def.name;
    e.def = tl->typed ? &tl->def : nullptr;
  }
  e.pid = h.ProcessId;
  e.tid = h.ThreadId;
  e.cpu = r->BufferContext.ProcessorIndex;
  e.filetime = h.TimeStamp.QuadPart;
  e.payload = static_cast<const uint8_t*>(r->UserData);
  e.payload_size = r->UserDataLength;
  if (auto ok = s->writer->add(e); !ok) s->failed = ok.error();
}

int usage(std::ostream& err, const std::string& message) {
  err << "pfc: error: " << message << "\nRun 'pfc trace export --help' for usage.\n";
  return kExitUsage;
}

// OpenTraceW failed on `path` with `e`: the message `show FILE` prints.
int open_failed(const std::string& path, ULONG e, std::ostream& err) {
  if (e == ERROR_BAD_FORMAT)  // the reader's text, as every reader prints it
    err << "pfc: error: " << open_problem() << '\n';
  else if (e == ERROR_FILE_NOT_FOUND)
    err << "pfc: error: cannot read " << path << ": no such file\n";
  else err << "pfc: error: cannot read " << path << ": OpenTraceW failed with " << e << '\n';
  return kExitInput;
}

}  // namespace

int command_trace_export(const TraceOptions& o, std::ostream& err) {
  if (o.format != "ctf")
    return usage(err, "--format " + o.format + ": the one format is ctf (a CTF 1.8 directory)");
  ExportState s;
  if (auto rc = load_trace_schemas(o.schemas, s.schemas, err)) return *rc;
  std::u16string name;
  utf8_to_utf16(o.name, name);
  EVENT_TRACE_LOGFILEW f{};
  f.LogFileName = reinterpret_cast<LPWSTR>(name.data());
  f.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
  f.EventRecordCallback = on_event;
  f.Context = &s;
  TRACEHANDLE h = OpenTraceW(&f);  // before the directory: a bad FILE leaves no DIR
  if (h == INVALID_PROCESSTRACE_HANDLE) return open_failed(o.name, GetLastError(), err);
  s.in_file = log_file_schemas(o.name, err);
  auto writer = CtfWriter::create(o.output, o.name);
  if (!writer) {
    CloseTrace(h);
    err << "pfc: error: " << writer.error().message << '\n';
    return kExitInput;
  }
  s.writer = writer->get();
  const ULONG rc = ProcessTrace(&h, 1, nullptr, nullptr);
  const TraceProblem problem = trace_problem(h);
  CloseTrace(h);
  auto done = (*writer)->finish();
  if (!s.failed && !done) s.failed = done.error();
  if (s.failed) {
    err << "pfc: error: " << s.failed->message << '\n';
    return kExitInput;
  }
  if (const uint64_t n = (*writer)->times_adjusted(); n != 0)
    err << "pfc: warning: " << o.name << ": " << n
        << " event(s) have a time before the previous event's or outside 1970-2262; written "
           "with the previous event's time\n";
  if (!problem.text.empty())
    err << (problem.damaged ? "pfc: error: " : "pfc: warning: ") << problem.text << '\n';
  if (problem.damaged) return kExitInput;
  if (rc != ERROR_SUCCESS) {
    err << "pfc: error: ProcessTrace failed with " << rc << '\n';
    return kExitInput;
  }
  return kExitOk;
}

}  // namespace pfc::cli
