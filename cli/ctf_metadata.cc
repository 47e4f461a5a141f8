// cli/ctf_metadata.cc — see ctf_metadata.h. Every type is byte-aligned and little-endian,
// so the writer lays fields out with plain appends.
#include "cli/ctf_metadata.h"

#include <set>

#include "base/hex.h"
#include "cli/ctf_writer.h"

namespace pfc::cli {
namespace {

std::string int_type(unsigned bits, bool is_signed, unsigned base) {
  std::string t = "integer { size = " + std::to_string(bits) +
                  "; align = 8; signed = " + (is_signed ? "true" : "false");
  if (base != 10) t += "; base = " + std::to_string(base);
  return t + "; }";
}

// The CTF type of one element of a field of TDH in-type `t` (docs/logfile.md "Viewing
// with babeltrace2"); a binary or SID element is a struct holding its length.
std::string element_type(InType t) {
  switch (t) {
    case InType::Int8: return "int8_t";
    case InType::UInt8: return "uint8_t";
    case InType::Int16: return "int16_t";
    case InType::UInt16: return "uint16_t";
    case InType::Int32: return "int32_t";
    case InType::UInt32: return "uint32_t";
    case InType::Int64: return "int64_t";
    case InType::UInt64:
    case InType::FileTime: return "uint64_t";
    case InType::HexInt32: return int_type(32, false, 16);
    case InType::HexInt64:
    case InType::Pointer: return int_type(64, false, 16);
    case InType::Float: return "floating_point { exp_dig = 8; mant_dig = 24; align = 8; }";
    case InType::Double: return "floating_point { exp_dig = 11; mant_dig = 53; align = 8; }";
    case InType::Boolean: return "enum : uint32_t { \"false\" = 0, \"true\" = 1 }";
    case InType::UnicodeString:
    case InType::AnsiString:
    case InType::Guid: return "string { encoding = UTF8; }";
    case InType::SystemTime:
      return "struct { uint16_t _year; uint16_t _month; uint16_t _day_of_week; uint16_t _day; "
             "uint16_t _hour; uint16_t _minute; uint16_t _second; uint16_t _milliseconds; }";
    case InType::Binary:
    case InType::Sid: return "struct { uint32_t _length; uint8_t _data[_length]; }";
  }
  return "uint8_t";  // not reached: every in-type is listed
}

// `id` when no earlier member took it, else id_2, id_3, ...
std::string unique(std::set<std::string>& used, const std::string& id) {
  std::string out = id;
  for (int k = 2; !used.insert(out).second; ++k) out = id + "_" + std::to_string(k);
  return out;
}

}  // namespace

std::string ctf_identifier(std::string_view name) {
  std::string out = "_";
  for (const char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    out += ok ? c : '_';
  }
  return out;
}

std::string ctf_typed_fields(const EventDef& def) {
  std::set<std::string> used;
  std::string out;
  // One member: "    TYPE NAME;" or, with `extent`, the sequence "    TYPE NAME[EXTENT];".
  const auto member = [&out](std::string_view type, std::string_view name,
                             std::string_view extent = {}) {
    out.append("    ").append(type).append(" ").append(name);
    if (!extent.empty()) out.append("[").append(extent).append("]");
    out.append(";\n");
  };
  for (const FieldDef& f : def.fields) {
    const std::string base = ctf_identifier(f.name);
    const bool bytes = f.type == InType::Binary || f.type == InType::Sid;
    if (f.count.present() || bytes) {
      const std::string n = unique(used, base + (f.count.present() ? "_count" : "_length"));
      member("uint32_t", n);
      member(f.count.present() ? element_type(f.type) : "uint8_t", unique(used, base), n);
    } else {
      member(element_type(f.type), unique(used, base));
    }
  }
  return out;
}

std::string ctf_raw_fields() {
  return "    uint32_t _payload_length;\n    " + int_type(8, false, 16) +
         " _payload[_payload_length];\n";
}

std::string tsdl_quote(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || u == 0x7f) {
      out += "\\x";
      out += hex_digit(u >> 4);
      out += hex_digit(u);
    } else {
      out += c;
    }
  }
  return out + '"';
}

namespace {

std::string uuid_text(const std::array<uint8_t, 16>& u) {
  std::string out;
  for (size_t i = 0; i < u.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    out += hex_digit(u[i] >> 4);
    out += hex_digit(u[i]);
  }
  return out;
}

constexpr const char* kTypes =
    "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
    "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
    "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
    "typealias integer { size = 8; align = 8; signed = true; } := int8_t;\n"
    "typealias integer { size = 16; align = 8; signed = true; } := int16_t;\n"
    "typealias integer { size = 32; align = 8; signed = true; } := int32_t;\n"
    "typealias integer { size = 64; align = 8; signed = true; } := int64_t;\n"
    "typealias integer { size = 64; align = 8; signed = false; map = clock.pfc_realtime.value; "
    "} := clock_ns_t;\n\n";

// The packet header/context and event header/context; the writer's layout
// (cli/ctf_writer.cc) follows it member for member.
constexpr const char* kStream =
    "stream {\n"
    "  id = 0;\n"
    "  packet.context := struct {\n"
    "    clock_ns_t timestamp_begin;\n    clock_ns_t timestamp_end;\n"
    "    uint64_t content_size;\n    uint64_t packet_size;\n    uint64_t packet_seq_num;\n"
    "  };\n"
    "  event.header := struct {\n    uint32_t id;\n    clock_ns_t timestamp;\n  };\n"
    "  event.context := struct {\n"
    "    uint32_t _pid;\n    uint32_t _tid;\n    uint16_t _cpu;\n"
    "    string { encoding = UTF8; } _provider_guid;\n"
    "    uint16_t _id;\n    uint8_t _version;\n    uint8_t _channel;\n    uint8_t _level;\n"
    "    uint8_t _opcode;\n    uint16_t _task;\n"
    "    integer { size = 64; align = 8; signed = false; base = 16; } _keyword;\n"
    "  };\n"
    "};\n\n";

}  // namespace

std::string ctf_metadata(const std::array<uint8_t, 16>& uuid, std::string_view source,
                         const std::vector<CtfEventClass>& classes) {
  const std::string id = uuid_text(uuid);
  std::string out = "/* CTF 1.8 */\n\n";
  out += kTypes;
  out += "trace {\n  major = 1;\n  minor = 8;\n  uuid = \"" + id +
         "\";\n  byte_order = le;\n"
         "  packet.header := struct {\n    uint32_t magic;\n    uint8_t uuid[16];\n"
         "    uint32_t stream_id;\n  };\n};\n\n";
  out +=
      "env {\n  tracer_name = \"pfc\";\n  domain = \"etw\";\n  log_file = " + tsdl_quote(source) +
      ";\n};\n\n";
  out +=
      "clock {\n  name = pfc_realtime;\n  description = \"the log file's time stamps (FILETIME, "
      "CLOCK_REALTIME) as ns "
      "since 1970-01-01 UTC\";\n  freq = " +
      std::to_string(kCtfClockHz) +
      ";\n  precision = 100;\n  offset_s = 0;\n  offset = 0;\n  absolute = true;\n};\n\n";
  out += kStream;
  for (size_t i = 0; i < classes.size(); ++i) {
    out += "event {\n  name = " + tsdl_quote(classes[i].name) + ";\n  id = " + std::to_string(i) +
           ";\n  stream_id = 0;\n";
    if (!classes[i].fields.empty()) out += "  fields := struct {\n" + classes[i].fields + "  };\n";
    out += "};\n\n";
  }
  return out;
}

}  // namespace pfc::cli
