// pfc/guid.h — a 128-bit GUID with Windows' field layout (16 bytes, little-endian
// Data1..Data3 when serialised into a payload), registry-format parsing and printing.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pfc {

struct Guid {
  uint32_t data1 = 0;
  uint16_t data2 = 0;
  uint16_t data3 = 0;
  std::array<uint8_t, 8> data4{};

  friend bool operator==(const Guid&, const Guid&) = default;
  bool is_null() const { return *this == Guid{}; }

  // Parses registry format with braces: "{0E95CFBC-58D4-44BA-BE40-E63A853536DF}" (hex
  // digits of either case). Returns nullopt for anything else (no whitespace trimming).
  static std::optional<Guid> parse(std::string_view text);
  // Upper-case registry format with braces.
  std::string to_string() const;
  // The 16 bytes as they appear in an ETW payload (TDH_INTYPE_GUID): Data1..3 little-endian.
  std::array<uint8_t, 16> to_bytes() const;
  static Guid from_bytes(const uint8_t* bytes16);
  // The provider GUID ETW derives from a provider name (EventSource / TraceLogging
  // convention: SHA-1 over the namespace GUID and the upper-cased UTF-16BE name).
  static Guid from_provider_name(std::string_view name);
};

}  // namespace pfc
