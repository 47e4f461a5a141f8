// etw/schema_ext.cc — PfcEnumerateTraceSchemas (pfc/etw/pfc_etw_ext.h, docs/etw.md "pfc
// extensions"): the provider schemas a real-time session's enables published (pfc enable
// extensions, etw/session_info.h) or a log file records (docs/logfile.md section 2,
// decoded as TDH decoding does: etw/tdh_context.h), as a PFC_TRACE_SCHEMA_ENUMERATION_INFO.
#include <fcntl.h>

#include <cerrno>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "etw/guard.h"
#include "etw/session_info.h"
#include "etw/tdh_context.h"
#include "etw/util.h"
#include "pfc/etw/pfc_etw_ext.h"
#include "trace/logfile.h"

namespace pfc::etw {
namespace {

// One entry of the enumeration: a provider, or (undecoded) a log-file schema that does not
// decode, by its GUID and kind only.
struct Entry {
  ProviderDef def;
  uint32_t kind = 0;
  bool undecoded = false;
};

struct Found {
  std::vector<Entry> entries;
  uint32_t left_out = 0;
};

// The log file's schemas in its order; ERROR_SUCCESS or why it cannot be read.
ULONG file_schemas(const std::string& path, Found& out) {
  trace::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) return errno == EACCES ? ERROR_ACCESS_DENIED : ERROR_FILE_NOT_FOUND;
  auto reader = trace::LogReader::open(trace::fd_input(std::move(fd)), path);
  if (!reader) return ERROR_BAD_FORMAT;
  for (const trace::ProviderSchema& s : reader->info().schemas) {
    std::vector<LoadedProvider> found = decode_log_schema(s);
    if (found.empty()) {
      Entry e;
      e.def.guid = s.provider;
      e.kind = s.kind;
      e.undecoded = true;
      out.entries.push_back(std::move(e));
    }
    for (LoadedProvider& p : found) out.entries.push_back(Entry{std::move(p.def), s.kind, false});
  }
  out.left_out = reader->info().schemas_left_out;
  return ERROR_SUCCESS;
}

// The enumeration's bytes, built in order: header and schema array, each schema's event
// array (8-aligned), each event's field array, then the texts.
class Writer {
 public:
  std::vector<uint8_t> bytes;

  ULONG at() const { return checked(bytes.size()); }
  void align8() { bytes.resize((bytes.size() + 7) & ~size_t{7}, 0); }
  ULONG reserve(size_t n) {
    const ULONG start = at();
    bytes.resize(checked(bytes.size() + n), 0);
    return start;
  }
  template <class T>
  void put(ULONG offset, const T& v) {
    std::memcpy(bytes.data() + offset, &v, sizeof v);
  }
  ULONG text(const std::string& s) {
    const ULONG start = reserve(s.size() + 1);
    std::memcpy(bytes.data() + start, s.data(), s.size());
    return start;
  }

 private:
  static ULONG checked(size_t n) {
    if (n > std::numeric_limits<ULONG>::max())
      throw std::length_error("schema enumeration over 4 GiB");
    return static_cast<ULONG>(n);
  }
};

UCHAR extent_kind(const Extent& x) {
  switch (x.kind) {
    case Extent::Kind::Fixed: return PFC_TRACE_EXTENT_FIXED;
    case Extent::Kind::Field: return PFC_TRACE_EXTENT_FIELD;
    case Extent::Kind::None: break;
  }
  return PFC_TRACE_EXTENT_NONE;
}

// Writes the event tables of `def` and returns where the first event is.
ULONG write_events(Writer& w, const ProviderDef& def) {
  w.align8();
  const ULONG first = w.reserve(def.events.size() * sizeof(PFC_TRACE_SCHEMA_EVENT));
  for (size_t i = 0; i < def.events.size(); ++i) {
    const EventDef& ev = def.events[i];
    PFC_TRACE_SCHEMA_EVENT out{};
    out.Descriptor = to_win(ev.desc);
    out.FieldCount = static_cast<ULONG>(ev.fields.size());
    out.FieldsOffset = w.reserve(ev.fields.size() * sizeof(PFC_TRACE_SCHEMA_FIELD));
    for (size_t k = 0; k < ev.fields.size(); ++k) {
      const FieldDef& f = ev.fields[k];
      PFC_TRACE_SCHEMA_FIELD field{};
      field.InType = static_cast<USHORT>(f.type);
      field.CountKind = extent_kind(f.count);
      field.LengthKind = extent_kind(f.length);
      field.Count = f.count.value;
      field.Length = f.length.value;
      field.NameOffset = w.text(f.name);
      w.put(out.FieldsOffset + static_cast<ULONG>(k * sizeof field), field);
    }
    out.NameOffset = w.text(ev.name);
    w.put(first + static_cast<ULONG>(i * sizeof out), out);
  }
  return first;
}

std::vector<uint8_t> enumeration_bytes(const Found& found) {
  Writer w;
  const size_t head = offsetof(PFC_TRACE_SCHEMA_ENUMERATION_INFO, Schemas);
  w.reserve(head + found.entries.size() * sizeof(PFC_TRACE_SCHEMA_INFO));
  for (size_t i = 0; i < found.entries.size(); ++i) {
    const Entry& e = found.entries[i];
    PFC_TRACE_SCHEMA_INFO info{};
    info.ProviderId = to_win(e.def.guid);
    info.Kind = e.kind;
    info.Flags = (e.def.legacy ? PFC_TRACE_SCHEMA_LEGACY : 0) |
                 (e.def.tracelogging ? PFC_TRACE_SCHEMA_TRACELOGGING : 0) |
                 (e.undecoded ? PFC_TRACE_SCHEMA_UNDECODED : 0);
    info.EventCount = static_cast<ULONG>(e.def.events.size());
    info.EventsOffset = write_events(w, e.def);
    info.NameOffset = w.text(e.def.name);
    w.put(static_cast<ULONG>(head + i * sizeof info), info);
  }
  w.put(offsetof(PFC_TRACE_SCHEMA_ENUMERATION_INFO, NumberOfSchemas),
        static_cast<ULONG>(found.entries.size()));
  w.put(offsetof(PFC_TRACE_SCHEMA_ENUMERATION_INFO, SchemasLeftOut), ULONG{found.left_out});
  return std::move(w.bytes);
}

// The schemas of the one source named; ERROR_SUCCESS or the failure.
ULONG find_schemas(LPCWSTR logger, LPCWSTR file, Found& out) {
  if (logger != nullptr) {
    const size_t len = u16_length(logger, PFC_ETW_MAX_SESSION_NAME_CHARS);
    if (len == 0 || len > PFC_ETW_MAX_SESSION_NAME_CHARS) return ERROR_INVALID_PARAMETER;
    auto found = session_schemas(std::u16string(reinterpret_cast<const char16_t*>(logger), len));
    if (!found) return ERROR_ACCESS_DENIED;
    for (ProviderDef& p : *found) out.entries.push_back(Entry{std::move(p), 0, false});
    return ERROR_SUCCESS;
  }
  const size_t len = u16_length(file, PFC_ETW_MAX_LOG_FILE_NAME_CHARS);
  if (len == 0 || len > PFC_ETW_MAX_LOG_FILE_NAME_CHARS) return ERROR_INVALID_PARAMETER;
  return file_schemas(u16_to_utf8(std::u16string(reinterpret_cast<const char16_t*>(file), len)),
                      out);
}

}  // namespace
}  // namespace pfc::etw

using namespace pfc::etw;

extern "C" {

ULONG PfcEnumerateTraceSchemas(LPCWSTR LoggerName, LPCWSTR LogFileName,
                               PPFC_TRACE_SCHEMA_ENUMERATION_INFO Buffer, PULONG BufferSize) {
  return guarded([&]() -> ULONG {
    if ((LoggerName == nullptr) == (LogFileName == nullptr) || BufferSize == nullptr ||
        (Buffer == nullptr && *BufferSize != 0))
      return ERROR_INVALID_PARAMETER;
    Found found;
    if (const ULONG rc = find_schemas(LoggerName, LogFileName, found); rc != ERROR_SUCCESS)
      return rc;
    const std::vector<uint8_t> bytes = enumeration_bytes(found);
    return copy_bytes_out(bytes.data(), bytes.size(), Buffer, BufferSize);
  });
}

}  // extern "C"
