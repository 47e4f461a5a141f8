// cli/trace_export.cc — `pfc trace export FILE --format ctf -o DIR [--schema F ...]`: a log
// file (docs/logfile.md) as a CTF 1.8 trace that babeltrace2 and other CTF viewers read
// (docs/cli.md "pfc trace export"). DIR gets one data stream file per writing process
// (`stream-PID`, packets of at most kPacketBytes) and the TSDL `metadata`, written last, once
// every event class is known. Events come in the log reader's merged order; an event whose
// schema is known (--schema files first, then the file's own schemas) becomes an event class
// "PROVIDER:EVENT" with its decoded fields, any other "PROVIDER:ID/VERSION" with the payload
// as hex. Every event carries tid, cpu, level, keyword and opcode in its context.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

#include "base/le.h"
#include "cli/event_decode.h"
#include "cli/exit_code.h"
#include "cli/trace_options.h"
#include "cli/trace_schemas.h"
#include "trace/logfile.h"
#include "trace/sys.h"

namespace pfc::cli {
namespace {

constexpr uint32_t kCtfMagic = 0xC1FC1FC1;
constexpr size_t kPacketBytes = 1u << 20;
constexpr size_t kPacketHeadBytes = 8 + 8 + 8 + 8 + 8 + 4;  // magic, stream id; context
constexpr int64_t kEpochDelta = 116444736000000000;         // FILETIME 1601 → 1970 (100 ns)

// A field's CTF type, from the kind of its decoded value.
enum class CtfType : uint8_t { Int, UInt, Double, String };

CtfType ctf_type(FieldValue::Kind k) {
  switch (k) {
    case FieldValue::Kind::Int: return CtfType::Int;
    case FieldValue::Kind::UInt:
    case FieldValue::Kind::Bool: return CtfType::UInt;
    case FieldValue::Kind::Double: return CtfType::Double;
    default: return CtfType::String;
  }
}

// A TSDL identifier for a field name: other characters become '_', and a leading
// underscore is doubled (CTF readers strip one).
std::string ctf_identifier(const std::string& name) {
  std::string out;
  for (const char c : name)
    out += (std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_') ? c : '_';
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0])) != 0) out.insert(0, "f_");
  if (out[0] == '_') out.insert(0, "_");
  return out;
}

std::string tsdl_string(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += (static_cast<unsigned char>(c) < 0x20) ? '?' : c;
  }
  return out + "\"";
}

struct EventClass {
  uint32_t id = 0;
  std::string name;
  std::vector<std::pair<std::string, CtfType>> fields;  // empty names: the raw class
};

struct Stream {
  uint32_t pid = 0;
  uint32_t index = 0;
  trace::UniqueFd fd;
  std::vector<uint8_t> events;  // the current packet's events
  uint64_t begin = 0, last = 0;
};

class CtfWriter {
 public:
  CtfWriter(std::string dir, std::vector<ProviderDef> schemas, std::vector<ProviderDef> file)
      : dir_(std::move(dir)), schemas_(std::move(schemas)), file_(std::move(file)) {}

  Result<void> add(const trace::RingReader::View& v) {
    const trace::EventRecord& h = v.header;
    if (!have_clock_) {  // the monotonic clock's offset to real time, from the first event
      have_clock_ = true;
      clock_offset_ = (h.filetime - kEpochDelta) * 100 - static_cast<int64_t>(h.ts);
    }
    Stream* s = stream(h.pid);
    if (s == nullptr)
      return make_error(trace::errno_text("cannot create a stream file in " + dir_, errno));
    const uint64_t ts = std::max(h.ts, s->last);  // a late record keeps the stream monotonic
    if (s->events.empty()) s->begin = ts;
    s->last = ts;
    std::vector<uint8_t>& out = s->events;
    EventView ev;
    ev.desc = {h.id, h.version, h.channel, h.level, h.opcode, h.task, h.keyword};
    ev.payload = v.payload;
    ev.payload_size = h.payload_len;
    ev.pid = h.pid;
    ev.tid = h.tid;
    const auto [provider, def] = lookup(h.provider, ev.desc);
    std::optional<DecodedFields> fields;
    if (def != nullptr) fields = decode_fields(*def, ev);
    const EventClass& c = event_class(h, provider, fields ? def : nullptr, fields);
    put<uint32_t>(out, c.id);
    put<uint64_t>(out, ts);
    put<uint32_t>(out, h.tid);
    put<uint16_t>(out, h.cpu);
    put<uint8_t>(out, h.level);
    put<uint8_t>(out, h.opcode);
    put<uint64_t>(out, h.keyword);
    if (fields) {
      for (const auto& [name, value] : *fields) put_value(out, value);
    } else {
      put_string(out, payload_hex(ev));
    }
    if (out.size() >= kPacketBytes) return flush(*s);
    return {};
  }

  Result<void> finish() {
    for (auto& s : streams_)
      if (auto f = flush(*s); !f) return f;
    std::ofstream meta(dir_ + "/metadata", std::ios::binary | std::ios::trunc);
    meta << metadata();
    meta.close();
    if (!meta) return make_error("cannot write " + dir_ + "/metadata");
    return {};
  }

 private:
  template <typename T>
  static void put(std::vector<uint8_t>& out, T v) {
    append_le(out, v);
  }
  static void put_string(std::vector<uint8_t>& out, const std::string& s) {
    const size_t n = std::min(s.size(), std::strlen(s.c_str()));  // up to a NUL inside
    out.insert(out.end(), s.begin(), s.begin() + static_cast<long>(n));
    out.push_back(0);
  }
  static void put_value(std::vector<uint8_t>& out, const FieldValue& v) {
    switch (v.kind) {
      case FieldValue::Kind::Int: put<int64_t>(out, v.int_value); break;
      case FieldValue::Kind::UInt: put<uint64_t>(out, v.uint_value); break;
      case FieldValue::Kind::Bool: put<uint64_t>(out, v.bool_value ? 1 : 0); break;
      case FieldValue::Kind::Double: put<double>(out, v.double_value); break;
      case FieldValue::Kind::String: put_string(out, v.string_value); break;
      case FieldValue::Kind::Guid: put_string(out, v.guid_value.to_string()); break;
      default: put_string(out, field_value_json(v)); break;
    }
  }

  std::pair<const ProviderDef*, const EventDef*> lookup(const Guid& g, const EventDescriptor& d) {
    const ProviderDef* p = nullptr;
    for (const auto* list : {&schemas_, &file_})
      for (const ProviderDef& def : *list)
        if (p == nullptr && def.guid == g) p = &def;
    return {p, p != nullptr ? p->find_event(d.id, d.version) : nullptr};
  }

  // The class of an event: by provider, id, version and the types of its fields.
  const EventClass& event_class(const trace::EventRecord& h, const ProviderDef* provider,
                                const EventDef* def, const std::optional<DecodedFields>& fields) {
    std::ostringstream key;
    key << h.provider.to_string() << '/' << h.id << '/' << int{h.version};
    std::vector<std::pair<std::string, CtfType>> types;
    if (fields)
      for (const auto& [name, value] : *fields) {
        types.emplace_back(name, ctf_type(value.kind));
        key << '/' << static_cast<int>(types.back().second);
      }
    else key << "/raw";
    auto [it, fresh] = classes_.try_emplace(key.str());
    if (fresh) {
      EventClass& c = it->second;
      c.id = static_cast<uint32_t>(classes_.size() - 1);
      const std::string who = provider != nullptr ? provider->name : h.provider.to_string();
      c.name = def != nullptr ? who + ":" + def->name
                              : who + ":" + std::to_string(h.id) + "/" + std::to_string(h.version);
      c.fields =
          fields ? std::move(types)
                 : std::vector<std::pair<std::string, CtfType>>{{"payload_hex", CtfType::String}};
      order_.push_back(&c);
    }
    return it->second;
  }

  Stream* stream(uint32_t pid) {
    for (auto& s : streams_)
      if (s->pid == pid) return s.get();
    auto s = std::make_unique<Stream>();
    s->pid = pid;
    s->index = static_cast<uint32_t>(streams_.size());
    const std::string path = dir_ + "/stream-" + std::to_string(pid);
    s->fd = trace::UniqueFd(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    if (!s->fd) return nullptr;
    streams_.push_back(std::move(s));
    return streams_.back().get();
  }

  Result<void> flush(Stream& s) {
    if (s.events.empty()) return {};
    std::vector<uint8_t> p;
    const uint64_t bits = 8 * (kPacketHeadBytes + s.events.size());
    put<uint32_t>(p, kCtfMagic);
    put<uint32_t>(p, 0);  // stream class 0
    put<uint64_t>(p, s.begin);
    put<uint64_t>(p, s.last);
    put<uint64_t>(p, bits);  // content_size
    put<uint64_t>(p, bits);  // packet_size
    put<uint32_t>(p, s.pid);
    p.insert(p.end(), s.events.begin(), s.events.end());
    s.events.clear();
    for (size_t done = 0; done < p.size();) {
      const ssize_t n = ::write(s.fd.get(), p.data() + done, p.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0)
        return make_error(trace::errno_text("cannot write a stream file in " + dir_, errno));
      done += static_cast<size_t>(n);
    }
    return {};
  }

  std::string metadata() const {
    std::ostringstream m;
    m << "/* CTF 1.8 */\n\n"
         "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
         "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
         "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
         "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
         "typealias integer { size = 64; align = 8; signed = true; } := int64_t;\n"
         "typealias floating_point { exp_dig = 11; mant_dig = 53; align = 8; } := double_t;\n\n"
         "trace {\n  major = 1;\n  minor = 8;\n  byte_order = le;\n"
         "  packet.header := struct { uint32_t magic; uint32_t stream_id; };\n};\n\n"
         "env {\n  tracer_name = \"pfc\";\n};\n\n";
    const int64_t off = clock_offset_;
    const int64_t secs = off >= 0 ? off / 1'000'000'000 : -((-off + 999'999'999) / 1'000'000'000);
    m << "clock {\n  name = monotonic;\n  description = \"CLOCK_MONOTONIC\";\n"
         "  freq = 1000000000;\n  offset_s = "
      << secs << ";\n  offset = " << (off - secs * 1'000'000'000) << ";\n};\n\n"
      << "typealias integer { size = 64; align = 8; signed = false; "
         "map = clock.monotonic.value; } := clock_t;\n\n"
         "stream {\n  id = 0;\n"
         "  packet.context := struct { clock_t timestamp_begin; clock_t timestamp_end;\n"
         "    uint64_t content_size; uint64_t packet_size; uint32_t pid; };\n"
         "  event.header := struct { uint32_t id; clock_t timestamp; };\n"
         "  event.context := struct { uint32_t tid; uint16_t cpu; uint8_t level;\n"
         "    uint8_t opcode; uint64_t keyword; };\n};\n";
    static constexpr const char* kTypes[] = {"int64_t", "uint64_t", "double_t", "string"};
    for (const EventClass* c : order_) {
      m << "\nevent {\n  name = " << tsdl_string(c->name) << ";\n  id = " << c->id
        << ";\n  stream_id = 0;\n  fields := struct {\n";
      for (const auto& [name, type] : c->fields)
        m << "    " << kTypes[static_cast<int>(type)] << ' ' << ctf_identifier(name) << ";\n";
      m << "  };\n};\n";
    }
    return m.str();
  }

  std::string dir_;
  std::vector<ProviderDef> schemas_;  // --schema files: looked up first
  std::vector<ProviderDef> file_;     // the log file's own
  std::map<std::string, EventClass> classes_;
  std::vector<const EventClass*> order_;  // by id
  std::vector<std::unique_ptr<Stream>> streams_;
  bool have_clock_ = false;
  int64_t clock_offset_ = 0;  // real time - monotonic, ns
};

int export_error(std::ostream& err, const std::string& what) {
  err << "pfc: error: " << what << '\n';
  return kExitInput;
}

}  // namespace

int command_trace_export(const TraceOptions& o, std::ostream& err) {
  if (o.format != "ctf") {
    err << "pfc: error: --format " << o.format
        << ": the export formats are: ctf\nRun 'pfc trace --help' for usage.\n";
    return kExitUsage;
  }
  std::vector<ProviderDef> schemas;
  if (auto bad = load_trace_schemas(o.schemas, schemas, err)) return *bad;
  trace::UniqueFd fd(::open(o.name.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) return export_error(err, trace::errno_text("cannot read " + o.name, errno));
  auto reader = trace::LogReader::open(trace::fd_input(std::move(fd)), o.name);
  if (!reader) return export_error(err, reader.error().message);
  if (::mkdir(o.output.c_str(), 0755) != 0 && errno != EEXIST)
    return export_error(err, trace::errno_text("cannot create " + o.output, errno));
  CtfWriter ctf(o.output, std::move(schemas), log_file_schemas(o.name, err));
  trace::RingReader::View v;
  for (;;) {
    const trace::LogReader::Step step = reader->next(v);
    if (step == trace::LogReader::Step::Event) {
      if (auto a = ctf.add(v); !a) return export_error(err, a.error().message);
      continue;
    }
    if (step == trace::LogReader::Step::Pending && reader->release_held()) continue;
    if (auto f = ctf.finish(); !f) return export_error(err, f.error().message);
    if (step == trace::LogReader::Step::Damaged) return export_error(err, reader->problem());
    if (step == trace::LogReader::Step::Pending)
      err << "pfc: warning: " << reader->not_closed_warning() << '\n';
    return kExitOk;
  }
}

}  // namespace pfc::cli
