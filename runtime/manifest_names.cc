// runtime/manifest_names.cc — XML namespace resolution, the winmeta.xml name tables and
// small text helpers of the manifest parser (manifest_names.h).
#include "runtime/manifest_names.h"

#include <array>
#include <utility>

#include "base/ascii.h"
#include "base/in_types.h"
#include "base/integer_text.h"
#include "base/utf8.h"

namespace pfc::internal {
namespace {

using Entry = std::pair<std::string_view, uint64_t>;

// winmeta.xml, the names every manifest may use (docs/etw.md "Manifests").
constexpr std::array<Entry, 16> kLevels = {{
    {"LogAlways", 0},
    {"Critical", 1},
    {"Error", 2},
    {"Warning", 3},
    {"Informational", 4},
    {"Verbose", 5},
    {"ReservedLevel6", 6},
    {"ReservedLevel7", 7},
    {"ReservedLevel8", 8},
    {"ReservedLevel9", 9},
    {"ReservedLevel10", 10},
    {"ReservedLevel11", 11},
    {"ReservedLevel12", 12},
    {"ReservedLevel13", 13},
    {"ReservedLevel14", 14},
    {"ReservedLevel15", 15},
}};
constexpr std::array<Entry, 11> kOpcodes = {{
    {"Info", 0},
    {"Start", 1},
    {"Stop", 2},
    {"DC_Start", 3},
    {"DC_Stop", 4},
    {"Extension", 5},
    {"Reply", 6},
    {"Resume", 7},
    {"Suspend", 8},
    {"Send", 9},
    {"Receive", 240},
}};
constexpr std::array<Entry, 1> kTasks = {{{"None", 0}}};
constexpr std::array<Entry, 9> kKeywords = {{
    {"AnyKeyword", 0},
    {"ResponseTime", 0x0001000000000000},
    {"WDIContext", 0x0002000000000000},
    {"WDIDiag", 0x0004000000000000},
    {"SQM", 0x0008000000000000},
    {"AuditFailure", 0x0010000000000000},
    {"AuditSuccess", 0x0020000000000000},
    {"CorrelationHint", 0x0040000000000000},
    {"EventlogClassic", 0x0080000000000000},
}};
constexpr std::array<Entry, 3> kChannels = {{{"System", 8}, {"Application", 9}, {"Security", 10}}};

template <size_t N>
std::optional<uint64_t> find(const std::array<Entry, N>& table, std::string_view name) {
  for (const auto& [n, v] : table) {
    if (n == name) return v;
  }
  return std::nullopt;
}

// winmeta inType names pfc does not support (the supported ones: base/in_types.h).
constexpr std::array<std::string_view, 3> kUnsupportedInTypes = {
    "CountedUnicodeString", "CountedAnsiString", "CountedBinary"};

// winmeta.xml outType names and their TDH_OUTTYPE values (pfc/etw/tdh.h _TDH_OUT_TYPE).
constexpr std::array<std::pair<std::string_view, uint16_t>, 37> kOutTypes = {{
    {"string", 1},
    {"dateTime", 2},
    {"datetime", 2},
    {"byte", 3},
    {"unsignedByte", 4},
    {"short", 5},
    {"unsignedShort", 6},
    {"int", 7},
    {"unsignedInt", 8},
    {"long", 9},
    {"unsignedLong", 10},
    {"float", 11},
    {"double", 12},
    {"boolean", 13},
    {"GUID", 14},
    {"hexBinary", 15},
    {"HexInt8", 16},
    {"HexInt16", 17},
    {"HexInt32", 18},
    {"HexInt64", 19},
    {"PID", 20},
    {"TID", 21},
    {"Port", 22},
    {"IPv4", 23},
    {"IPv6", 24},
    {"SocketAddress", 25},
    {"CIMDateTime", 26},
    {"ETWTIME", 27},
    {"Xml", 28},
    {"ErrorCode", 29},
    {"Win32Error", 30},
    {"NTSTATUS", 31},
    {"HResult", 32},
    {"DateTimeCultureInsensitive", 33},
    {"Json", 34},
    {"Utf8", 35},
    {"Pkcs7WithTypeInfo", 36},
}};

// The message strings winmeta.xml gives its levels and opcodes.
constexpr std::array<std::pair<uint64_t, std::string_view>, 6> kLevelTexts = {{
    {0, "Log Always"},
    {1, "Critical"},
    {2, "Error"},
    {3, "Warning"},
    {4, "Information"},
    {5, "Verbose"},
}};
constexpr std::array<std::pair<uint64_t, std::string_view>, 11> kOpcodeTexts = {{
    {0, "Info"},
    {1, "Start"},
    {2, "Stop"},
    {3, "DCStart"},
    {4, "DCStop"},
    {5, "Extension"},
    {6, "Reply"},
    {7, "Resume"},
    {8, "Suspend"},
    {9, "Send"},
    {240, "Receive"},
}};

template <size_t N>
std::optional<std::string_view> text_of(
    const std::array<std::pair<uint64_t, std::string_view>, N>& t, uint64_t value) {
  for (const auto& [v, text] : t) {
    if (v == value) return text;
  }
  return std::nullopt;
}

}  // namespace

std::optional<uint16_t> out_type_value(std::string_view local) {
  for (const auto& [name, value] : kOutTypes) {
    if (name == local) return value;
  }
  return std::nullopt;
}

std::optional<std::string_view> winmeta_level_text(uint64_t value) {
  return text_of(kLevelTexts, value);
}

std::optional<std::string_view> winmeta_opcode_text(uint64_t value) {
  return text_of(kOpcodeTexts, value);
}

std::optional<std::string_view> namespace_of(pugi::xml_node n, std::string_view prefix) {
  if (prefix == "xml") return "http://www.w3.org/XML/1998/namespace";
  const std::string attr = prefix.empty() ? "xmlns" : "xmlns:" + std::string(prefix);
  for (; n; n = n.parent()) {  // ancestors: bounded by the (shallow) paths the parser visits
    if (n.type() != pugi::node_element) continue;
    if (const pugi::xml_attribute a = n.attribute(attr.c_str())) return std::string_view(a.value());
  }
  return std::nullopt;
}

bool is_element(pugi::xml_node n, std::string_view ns, std::string_view local) {
  if (n.type() != pugi::node_element) return false;
  const QName q = split_qname(n.name());
  if (q.local != local) return false;
  const std::optional<std::string_view> uri = namespace_of(n, q.prefix);
  return uri && *uri == ns;
}

QName split_qname(std::string_view text) {
  const size_t colon = text.find(':');
  if (colon == std::string_view::npos) return QName{"", text};
  return QName{text.substr(0, colon), text.substr(colon + 1)};
}

std::optional<uint64_t> winmeta_value(NameKind kind, std::string_view local) {
  switch (kind) {
    case NameKind::Level: return find(kLevels, local);
    case NameKind::Opcode: return find(kOpcodes, local);
    case NameKind::Task: return find(kTasks, local);
    case NameKind::Keyword: return find(kKeywords, local);
    case NameKind::Channel: return find(kChannels, local);
  }
  return std::nullopt;
}

InTypeName winmeta_in_type(std::string_view local) {
  for (const InTypeInfo& row : kInTypes) {
    if (row.manifest_name == local) return InTypeName{row.type, true};
  }
  for (std::string_view name : kUnsupportedInTypes) {
    if (name == local) return InTypeName{std::nullopt, true};
  }
  return InTypeName{};
}

std::optional<uint64_t> standard_channel(std::string_view name) { return find(kChannels, name); }

std::optional<uint64_t> parse_number(std::string_view s) {
  const std::optional<ParsedUnsigned> n = parse_unsigned_text(trim_ascii_space(s));
  if (!n || n->overflow) return std::nullopt;
  return n->value;
}

void line_column(std::string_view text, size_t offset, uint32_t& line, uint32_t& column) {
  if (offset > text.size()) offset = text.size();
  line = 1;
  column = 1;
  const auto* p = reinterpret_cast<const uint8_t*>(text.data());
  for (size_t i = 0; i < offset;) {
    if (p[i] == '\n') {
      ++line, column = 1, ++i;
    } else {
      i += utf8_step_length(p + i, text.size() - i);
      ++column;
    }
  }
}

bool to_utf8_text(std::string_view text, std::string& out) {
  const auto* p = reinterpret_cast<const uint8_t*>(text.data());
  const size_t n = text.size();
  const bool le = n >= 2 && p[0] == 0xFF && p[1] == 0xFE;
  const bool be = n >= 2 && p[0] == 0xFE && p[1] == 0xFF;
  if (!le && !be) {
    const bool bom = n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF;
    out.assign(text.substr(bom ? 3 : 0));
    return true;
  }
  if (n % 2 != 0) return false;
  std::string units(text.substr(2));
  if (be) {
    for (size_t i = 0; i + 1 < units.size(); i += 2) std::swap(units[i], units[i + 1]);
  }
  out.clear();
  return utf16le_to_utf8({reinterpret_cast<const uint8_t*>(units.data()), units.size()}, out,
                         Unpaired::Reject);
}

}  // namespace pfc::internal
