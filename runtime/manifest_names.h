// runtime/manifest_names.h — helpers of the manifest parser: XML namespaces and QNames,
// the winmeta.xml names (win:Informational, win:Start, win:UInt32, …), numbers, positions
// and text encodings. Internal to runtime/.
#pragma once

#include <pugixml.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "pfc/schema.h"

namespace pfc::internal {

inline constexpr std::string_view kEventsNs = "http://schemas.microsoft.com/win/2004/08/events";
inline constexpr std::string_view kWinNs =
    "http://manifests.microsoft.com/win/2004/08/windows/events";

// The namespace URI bound to `prefix` ("" = the default namespace) at `n`, or nullopt.
std::optional<std::string_view> namespace_of(pugi::xml_node n, std::string_view prefix);
// True when `n` is an element with local name `local` in namespace `ns`.
bool is_element(pugi::xml_node n, std::string_view ns, std::string_view local);

// A QName split at its first ':'.
struct QName {
  std::string_view prefix;  // "" when none
  std::string_view local;
};
QName split_qname(std::string_view text);

// winmeta.xml names, by local name within kWinNs.
enum class NameKind : uint8_t { Level, Opcode, Task, Keyword, Channel };
std::optional<uint64_t> winmeta_value(NameKind kind, std::string_view local);
// TDH in-type of a win: inType local name. `supported` is false for in-types pfc's schema
// cannot lay out (counted strings and binaries); nullopt for unknown names.
struct InTypeName {
  std::optional<InType> type;
  bool known = false;
};
InTypeName winmeta_in_type(std::string_view local);
// TDH_OUTTYPE value of an outType local name (win: or xs:, e.g. "HexInt32", "string"), or
// nullopt for an unknown name.
std::optional<uint16_t> out_type_value(std::string_view local);
// The display names of winmeta's levels and opcodes (win:Informational → "Information",
// win:Start → "Start"), by value; nullopt for values winmeta does not name.
std::optional<std::string_view> winmeta_level_text(uint64_t value);
std::optional<std::string_view> winmeta_opcode_text(uint64_t value);
// Well-known Event Log channels an <importChannel> may name (System 8, Application 9,
// Security 10).
std::optional<uint64_t> standard_channel(std::string_view name);

// A non-negative decimal or 0x-hexadecimal number (whitespace around it ignored).
std::optional<uint64_t> parse_number(std::string_view s);
// 1-based line and column of byte `offset` of `text`; a column is one decoding step
// (a well-formed UTF-8 sequence, or one byte that is not), as in script diagnostics.
void line_column(std::string_view text, size_t offset, uint32_t& line, uint32_t& column);
// UTF-8 text as is; UTF-16 (LE or BE, with a byte-order mark) converted; a UTF-8 BOM
// dropped. False for malformed UTF-16.
bool to_utf8_text(std::string_view text, std::string& out);

}  // namespace pfc::internal
