// cli/ctf_writer.cc — see ctf_writer.h. The byte layout follows cli/ctf_metadata.cc's
// declarations member for member: little-endian, byte-aligned, strings NUL-terminated.
#include "cli/ctf_writer.h"

#include <dirent.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <limits>
#include <optional>
#include <unordered_map>
#include <vector>

#include "base/etw_types.h"
#include "base/le.h"
#include "cli/ctf_metadata.h"
#include "cli/output_file.h"
#include "io/event_decode.h"

namespace pfc::cli {
namespace {

using io::decode_fields;
using io::DecodedFields;

constexpr size_t kPacketBytes = size_t{1} << 20;            // a packet is closed once it holds this
constexpr size_t kPacketHeadBytes = 4 + 16 + 4 + 5 * 8;     // packet header + packet context
constexpr int64_t kUnixEpochFiletime = 116444736000000000;  // 1970-01-01 in FILETIME
constexpr int64_t kMaxClockTicks = std::numeric_limits<int64_t>::max() / 100;  // 2262

// The clock value (ns since 1970) of a FILETIME, or nullopt outside 1970–2262.
std::optional<uint64_t> clock_ns(int64_t filetime) {
  if (filetime < kUnixEpochFiletime || filetime - kUnixEpochFiletime > kMaxClockTicks)
    return std::nullopt;
  return uint64_t(filetime - kUnixEpochFiletime) * 100;
}

// "" when `dir` can be the trace directory (created here when absent), else why not.
std::string prepare_directory(const std::string& dir) {
  if (::mkdir(dir.c_str(), 0777) == 0) return "";
  if (errno != EEXIST) return std::strerror(errno);
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) return std::strerror(errno);
  if (!S_ISDIR(st.st_mode)) return "exists and is not a directory";
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return std::strerror(errno);
  bool empty = true;
  while (const dirent* e = ::readdir(d))
    if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0) empty = false;
  ::closedir(d);
  return empty ? "" : "the directory is not empty";
}

std::array<uint8_t, 16> random_uuid() {
  const GUID g = random_guid();
  std::array<uint8_t, 16> out;
  std::memcpy(out.data(), &g, out.size());
  return out;
}

void append_string(std::vector<uint8_t>& out, std::string_view s) {
  out.insert(out.end(), s.begin(), s.end());
  out.push_back(0);
}

// One element of a field of in-type `t` (docs/logfile.md "Viewing with babeltrace2").
void append_element(std::vector<uint8_t>& out, InType t, const FieldValue& v) {
  switch (t) {
    case InType::UnicodeString:
    case InType::AnsiString: append_string(out, v.string_value); return;
    case InType::Guid: append_string(out, v.guid_value.to_string()); return;
    case InType::Float: append_le(out, static_cast<float>(v.double_value)); return;
    case InType::Double: append_le(out, v.double_value); return;
    case InType::Boolean: append_le(out, uint32_t{v.bool_value}); return;
    case InType::Binary:
    case InType::Sid:
      append_le(out, static_cast<uint32_t>(v.bytes.size()));
      out.insert(out.end(), v.bytes.begin(), v.bytes.end());
      return;
    case InType::SystemTime:
      for (const FieldValue& part : v.array) append_le(out, static_cast<uint16_t>(part.uint_value));
      return;
    default: {
      const uint64_t bits = v.kind == FieldValue::Kind::Int ? uint64_t(v.int_value) : v.uint_value;
      append_le(out, bits, in_type_fixed_size(t));
    }
  }
}

void append_typed(std::vector<uint8_t>& out, const EventDef& def, const DecodedFields& fields) {
  for (size_t i = 0; i < def.fields.size(); ++i) {
    const FieldDef& f = def.fields[i];
    const FieldValue& v = fields[i].second;
    if (!f.count.present()) {
      append_element(out, f.type, v);
      continue;
    }
    append_le(out, static_cast<uint32_t>(v.array.size()));
    for (const FieldValue& item : v.array) append_element(out, f.type, item);
  }
}

}  // namespace

struct CtfWriter::State {
  std::string dir;
  std::string source;
  std::array<uint8_t, 16> uuid{};
  std::optional<OutputFile> stream;
  std::vector<CtfEventClass> classes;
  std::unordered_map<std::string, uint32_t> class_ids;  // class_key → id
  std::vector<uint8_t> packet;                          // header, context, events
  uint64_t packet_first_ns = 0;
  uint64_t packets = 0;
  uint64_t last_ns = 0;
  uint64_t events = 0;
  uint64_t adjusted = 0;
  bool finished = false;

  Result<void> write_failed() {
    const std::string why = stream->error_message();
    return make_error(why.empty() ? "cannot write " + stream->name() : why);
  }
  void start_packet();
  Result<void> flush_packet();
};

namespace {

// (provider, id, version, and the definition of a typed class) as a map key.
std::string class_key(const CtfEvent& e, bool typed) {
  std::string key(reinterpret_cast<const char*>(&e.provider), sizeof e.provider);
  key += std::to_string(e.desc.id) + '.' + std::to_string(e.desc.version);
  if (typed) key += '@' + std::to_string(reinterpret_cast<uintptr_t>(e.def));
  if (!e.event_name.empty()) key += '/' + std::string(e.event_name);
  return key;
}

std::string class_name(const CtfEvent& e) {
  std::string name =
      e.provider_name.empty() ? e.provider.to_string() : std::string(e.provider_name);
  name += ':';
  if (e.def != nullptr) return name + e.def->name;
  if (!e.event_name.empty()) return name + std::string(e.event_name);
  return name + "id=" + std::to_string(e.desc.id) + ",version=" + std::to_string(e.desc.version);
}

}  // namespace

void CtfWriter::State::start_packet() {
  State& s = *this;
  s.packet.assign(kPacketHeadBytes, 0);
  store_le(s.packet, 0, kCtfMagic);
  std::memcpy(s.packet.data() + 4, s.uuid.data(), s.uuid.size());
  // stream_id 0 and the context are zero until flush_packet fills the context in.
}

Result<void> CtfWriter::State::flush_packet() {
  State& s = *this;
  if (s.packet.size() == kPacketHeadBytes) return {};  // no event
  const uint64_t bits = uint64_t(s.packet.size()) * 8;
  store_le(s.packet, 24, s.packet_first_ns);
  store_le(s.packet, 32, s.last_ns);
  store_le(s.packet, 40, bits);  // content_size
  store_le(s.packet, 48, bits);  // packet_size: no padding
  store_le(s.packet, 56, s.packets++);
  s.stream->write(
      std::string_view(reinterpret_cast<const char*>(s.packet.data()), s.packet.size()));
  start_packet();
  if (s.stream->failed()) return s.write_failed();
  return {};
}

CtfWriter::CtfWriter(std::unique_ptr<State> s) : s_(std::move(s)) {}
CtfWriter::~CtfWriter() = default;

Result<std::unique_ptr<CtfWriter>> CtfWriter::create(const std::string& dir,
                                                     const std::string& source) {
  if (const std::string why = prepare_directory(dir); !why.empty())
    return make_error("cannot write " + dir + ": " + why);
  auto s = std::make_unique<State>();
  s->dir = dir;
  s->source = source;
  s->uuid = random_uuid();
  auto stream = OutputFile::open(dir + "/stream");
  if (!stream) return std::unexpected(stream.error());
  s->stream.emplace(std::move(*stream));
  s->start_packet();
  return std::unique_ptr<CtfWriter>(new CtfWriter(std::move(s)));
}

Result<void> CtfWriter::add(const CtfEvent& e) {
  State& s = *s_;
  EventView view;
  view.desc = e.desc;
  view.payload = e.payload;
  view.payload_size = e.payload_size;
  const std::optional<DecodedFields> fields =
      e.def != nullptr ? decode_fields(*e.def, view) : std::nullopt;
  const auto [it, added] =
      s.class_ids.try_emplace(class_key(e, fields.has_value()), uint32_t(s.classes.size()));
  if (added)
    s.classes.push_back({class_name(e), fields ? ctf_typed_fields(*e.def) : ctf_raw_fields()});
  const std::optional<uint64_t> ns = clock_ns(e.filetime);
  if (ns && *ns >= s.last_ns) s.last_ns = *ns;
  else ++s.adjusted;  // written at the previous event's time
  if (s.packet.size() == kPacketHeadBytes) s.packet_first_ns = s.last_ns;
  std::vector<uint8_t>& out = s.packet;
  append_le(out, it->second);
  append_le(out, s.last_ns);
  append_le(out, e.pid);
  append_le(out, e.tid);
  append_le(out, e.cpu);
  append_string(out, e.provider.to_string());
  append_le(out, e.desc.id);
  out.push_back(e.desc.version);
  out.push_back(e.desc.channel);
  out.push_back(e.desc.level);
  out.push_back(e.desc.opcode);
  append_le(out, e.desc.task);
  append_le(out, e.desc.keyword);
  if (fields) {
    append_typed(out, *e.def, *fields);
  } else {
    append_le(out, e.payload_size);
    out.insert(out.end(), e.payload, e.payload + e.payload_size);
  }
  ++s.events;
  if (out.size() >= kPacketBytes) return s.flush_packet();
  return {};
}

Result<void> CtfWriter::finish() {
  State& s = *s_;
  if (s.finished) return {};
  s.finished = true;
  if (auto r = s.flush_packet(); !r) return r;
  if (!s.stream->close()) return s.write_failed();
  auto meta = OutputFile::open(s.dir + "/metadata");
  if (!meta) return std::unexpected(meta.error());
  meta->write(ctf_metadata(s.uuid, s.source, s.classes));
  if (!meta->close()) return make_error(meta->error_message());
  return {};
}

uint64_t CtfWriter::events() const { return s_->events; }
uint64_t CtfWriter::times_adjusted() const { return s_->adjusted; }

}  // namespace pfc::cli
