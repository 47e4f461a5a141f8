// pfc/schema.h — the event schema: providers, their events (descriptor + payload fields in
// payload order) and each field's TDH in-type. Built from scripts (and, later, manifests);
// read by the payload encoder/decoder, the lowering and both engines. Plain data.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pfc/guid.h"

namespace pfc {

// TDH_INTYPE values (docs/semantics.md §6) for the types of the script language.
enum class InType : uint16_t {
  UnicodeString = 1,  // wstring: UTF-16LE, NUL-terminated unless a length is given (in WCHARs)
  AnsiString = 2,     // string: 8-bit/UTF-8, NUL-terminated unless a length is given (in bytes)
  Int8 = 3,
  UInt8 = 4,
  Int16 = 5,
  UInt16 = 6,
  Int32 = 7,
  UInt32 = 8,
  Int64 = 9,
  UInt64 = 10,
  Float = 11,
  Double = 12,
  Boolean = 13,     // 4 bytes
  Binary = 14,      // needs a length (bytes)
  Guid = 15,        // 16 bytes
  Pointer = 16,     // 8 bytes (64-bit producers only)
  FileTime = 17,    // 8 bytes
  SystemTime = 18,  // 16 bytes
  Sid = 19,         // 8 + 4 * SubAuthorityCount bytes
  HexInt32 = 20,
  HexInt64 = 21,
};
// The largest InType value: every value from 1 (UnicodeString) to it is a type, each with
// its row in the in-type table (base/in_types.h, which checks that at compile time).
inline constexpr InType kLastInType = InType::HexInt64;
// Whether `t` is an InType value (a TDH_INTYPE pfc knows).
constexpr bool in_type_known(uint16_t t) { return t >= 1 && t <= uint16_t(kLastInType); }

// Script spelling of a type ("uint32", "wstring", ...), and the reverse.
std::string_view in_type_name(InType t);
std::optional<InType> in_type_from_name(std::string_view name);
// Byte size of a fixed-size type, 0 for variable-size ones (strings, binary, sid).
uint32_t in_type_fixed_size(InType t);
// True for the types docs/semantics.md §2.2 calls integer-like (ints, bool, hexint,
// filetime, pointer).
bool in_type_is_integer(InType t);
bool in_type_is_signed(InType t);
bool in_type_is_string(InType t);
// True for the types a count or length may be taken from: Int8..UInt64 (manifests and
// scripts also require the field to be a scalar, earlier in the event).
bool in_type_is_count(InType t);

// A count or length: absent, a constant, or the value of an earlier integer field.
struct Extent {
  enum class Kind : uint8_t { None, Fixed, Field };
  Kind kind = Kind::None;
  uint32_t value = 0;  // Fixed: the constant; Field: index of the earlier field in the event
  bool present() const { return kind != Kind::None; }
};

struct FieldDef {
  std::string name;
  InType type = InType::UInt32;
  Extent count;   // present → array of `count` elements
  Extent length;  // strings: characters; binary: bytes
};

struct EventDescriptor {
  uint16_t id = 0;
  uint8_t version = 0;
  uint8_t channel = 0;
  uint8_t level = 0;
  uint8_t opcode = 0;
  uint16_t task = 0;
  uint64_t keyword = 0;
  friend bool operator==(const EventDescriptor&, const EventDescriptor&) = default;
};
static_assert(sizeof(EventDescriptor) == 16, "EVENT_DESCRIPTOR layout");

struct EventDef {
  std::string name;
  EventDescriptor desc;
  std::vector<FieldDef> fields;  // in payload order

  // Index of the field called `name`, or nullopt.
  std::optional<uint32_t> find_field(std::string_view name) const;
};

struct ProviderDef {
  std::string name;
  Guid guid;            // given in the script, or Guid::from_provider_name(name)
  bool legacy = false;  // classic provider: one session, last enabler wins, no filtering
  // TraceLogging provider: every event has id 0 and version 0 and is told apart by its
  // name; payload filters find its fields by name in the event's own metadata
  // (docs/language.md §3 "TraceLogging providers").
  bool tracelogging = false;
  std::vector<EventDef> events;

  const EventDef* find_event(std::string_view name) const;
  const EventDef* find_event(uint16_t id, uint8_t version) const;
};

struct Schema {
  std::vector<ProviderDef> providers;

  const ProviderDef* find_provider(std::string_view name) const;
  const ProviderDef* find_provider(const Guid& guid) const;
};

}  // namespace pfc
