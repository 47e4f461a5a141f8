// cli/trace_schemas.cc — see trace_schemas.h.
#include "cli/trace_schemas.h"

#include <cstring>

#include "base/etw_types.h"
#include "base/utf8.h"
#include "cli/exit_code.h"
#include "cli/files.h"
#include "cli/script_loader.h"
#include "pfc/etw/pfc_etw_ext.h"
#include "runtime/manifest.h"

namespace pfc::cli {
namespace {

std::optional<int> load_manifest(const std::string& path, std::vector<ProviderDef>& out,
                                 std::ostream& err) {
  auto text = read_whole_file(path, kMaxManifestBytes, "a manifest's limit");
  if (!text) {
    err << "pfc: error: " << text.error().message << '\n';
    return kExitInput;
  }
  auto parsed = parse_manifest(*text);
  if (!parsed) {
    err << "pfc: error: " << parsed.error().to_string(path) << '\n';
    return kExitInput;
  }
  out.insert(out.end(), parsed->begin(), parsed->end());
  return std::nullopt;
}

// PfcEnumerateTraceSchemas of the session `logger` or the log file `file` (one of them
// null), asked again while it grows; empty when it fails.
std::vector<uint8_t> enumerate_schemas(const std::u16string* logger, const std::u16string* file) {
  const auto name = [](const std::u16string* s) {
    return s == nullptr ? nullptr : reinterpret_cast<LPCWSTR>(s->c_str());
  };
  std::vector<uint8_t> out;
  ULONG size = 0;
  ULONG rc = PfcEnumerateTraceSchemas(name(logger), name(file), nullptr, &size);
  while (rc == ERROR_INSUFFICIENT_BUFFER) {
    out.resize(size);
    rc = PfcEnumerateTraceSchemas(name(logger), name(file),
                                  reinterpret_cast<PPFC_TRACE_SCHEMA_ENUMERATION_INFO>(out.data()),
                                  &size);
  }
  out.resize(rc == ERROR_SUCCESS ? size : 0);
  return out;
}

// The library's answer read back (it fills every offset and count consistently).
class SchemaBytes {
 public:
  explicit SchemaBytes(const std::vector<uint8_t>& bytes) : bytes_(bytes) {}

  template <class T>
  T at(size_t offset) const {
    T v;
    std::memcpy(&v, bytes_.data() + offset, sizeof v);
    return v;
  }
  std::string text(ULONG offset) const {
    return reinterpret_cast<const char*>(bytes_.data() + offset);
  }
  // The fixed fields only: with no schema the answer ends before Schemas[0].
  ULONG count() const {
    return at<ULONG>(offsetof(PFC_TRACE_SCHEMA_ENUMERATION_INFO, NumberOfSchemas));
  }
  ULONG left_out() const {
    return at<ULONG>(offsetof(PFC_TRACE_SCHEMA_ENUMERATION_INFO, SchemasLeftOut));
  }
  PFC_TRACE_SCHEMA_INFO schema(size_t i) const {
    return at<PFC_TRACE_SCHEMA_INFO>(offsetof(PFC_TRACE_SCHEMA_ENUMERATION_INFO, Schemas) +
                                     i * sizeof(PFC_TRACE_SCHEMA_INFO));
  }

 private:
  const std::vector<uint8_t>& bytes_;
};

Extent extent(UCHAR kind, ULONG value) {
  Extent x;
  x.kind = kind == PFC_TRACE_EXTENT_FIXED   ? Extent::Kind::Fixed
           : kind == PFC_TRACE_EXTENT_FIELD ? Extent::Kind::Field
                                            : Extent::Kind::None;
  x.value = x.present() ? value : 0;
  return x;
}

ProviderDef provider_def(const SchemaBytes& b, const PFC_TRACE_SCHEMA_INFO& s) {
  ProviderDef def;
  def.name = b.text(s.NameOffset);
  def.guid = to_pfc(s.ProviderId);
  def.legacy = (s.Flags & PFC_TRACE_SCHEMA_LEGACY) != 0;
  def.tracelogging = (s.Flags & PFC_TRACE_SCHEMA_TRACELOGGING) != 0;
  for (ULONG i = 0; i < s.EventCount; ++i) {
    const auto ev =
        b.at<PFC_TRACE_SCHEMA_EVENT>(s.EventsOffset + i * sizeof(PFC_TRACE_SCHEMA_EVENT));
    EventDef e;
    e.name = b.text(ev.NameOffset);
    e.desc = to_pfc(ev.Descriptor);
    for (ULONG k = 0; k < ev.FieldCount; ++k) {
      const auto f =
          b.at<PFC_TRACE_SCHEMA_FIELD>(ev.FieldsOffset + k * sizeof(PFC_TRACE_SCHEMA_FIELD));
      e.fields.push_back(FieldDef{b.text(f.NameOffset), InType(f.InType),
                                  extent(f.CountKind, f.Count), extent(f.LengthKind, f.Length)});
    }
    def.events.push_back(std::move(e));
  }
  return def;
}

}  // namespace

std::optional<int> load_trace_schemas(const std::vector<std::string>& paths,
                                      std::vector<ProviderDef>& out, std::ostream& err) {
  for (const std::string& path : paths) {
    if (path.ends_with(".man")) {
      if (auto rc = load_manifest(path, out, err)) return rc;
    } else if (path.ends_with(".pfs")) {
      auto script = load_script(path, err);
      if (!script) return script.error();
      const auto& providers = script->checked().schema.providers;
      out.insert(out.end(), providers.begin(), providers.end());
    } else {
      err << "pfc: error: --schema " << path
          << ": expected a filter script (.pfs) or an instrumentation manifest (.man)\n"
          << "Run 'pfc trace --help' for usage.\n";
      return kExitUsage;
    }
  }
  return std::nullopt;
}

std::vector<ProviderDef> published_schemas(const std::string& name) {
  std::u16string wide;
  utf8_to_utf16(name, wide);
  const std::vector<uint8_t> bytes = enumerate_schemas(&wide, nullptr);
  std::vector<ProviderDef> out;
  if (bytes.empty()) return out;
  const SchemaBytes b(bytes);
  for (ULONG i = 0; i < b.count(); ++i) out.push_back(provider_def(b, b.schema(i)));
  return out;
}

std::vector<ProviderDef> log_file_schemas(const std::string& path, std::ostream& err) {
  std::u16string wide;
  utf8_to_utf16(path, wide);
  const std::vector<uint8_t> bytes = enumerate_schemas(nullptr, &wide);
  std::vector<ProviderDef> out;
  if (bytes.empty()) return out;  // not a readable log file: its reader says why
  const SchemaBytes b(bytes);
  for (ULONG i = 0; i < b.count(); ++i) {
    const PFC_TRACE_SCHEMA_INFO s = b.schema(i);
    if ((s.Flags & PFC_TRACE_SCHEMA_UNDECODED) != 0)
      err << "pfc: warning: " << path << ": the schema of provider "
          << to_pfc(s.ProviderId).to_string() << " (kind " << s.Kind
          << ") cannot be decoded; its fields are shown raw\n";
    else out.push_back(provider_def(b, s));
  }
  if (const ULONG n = b.left_out(); n != 0)
    err << "pfc: warning: " << path << ": " << n
        << " provider schema(s) did not fit in the log file; give them with --schema\n";
  return out;
}

}  // namespace pfc::cli
