// base/in_types.h — the one table of field types (InType, pfc/schema.h): for each TDH in-type
// its script spelling, its winmeta manifest spelling, its byte size, the kind of value a
// payload predicate compares it with and, for integer-like types, the range a value must fit
// (docs/semantics.md §2.2–§2.3, docs/language.md §2). The schema functions
// (in_type_name, in_type_fixed_size, ...), the manifest reader, the checker, value
// conversion and the payload operator table (base/payload_ops.h) all read it.
//
// Adding a field type: its InType value and kLastInType (pfc/schema.h), a row here, its
// mc.exe type (cli/mc_header.cc) and the docs. In base/, not include/pfc/: every layer reads
// it, and include/pfc/ holds only installed headers (docs/architecture.md §2).
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string_view>

#include "pfc/schema.h"

namespace pfc::internal {

// What a predicate value is after conversion, and the kind of field it is compared with.
enum class ValueKind : uint8_t { Integer, String, Guid };

struct InTypeInfo {
  InType type;
  std::string_view name;           // script spelling ("uint32", "wstring", ...)
  std::string_view manifest_name;  // winmeta inType local name ("UInt32", "UnicodeString", ...)
  uint8_t fixed_size;              // bytes; 0 for variable-size types (strings, binary, sid)
  // The kind of value a predicate compares the field with; none: no predicate applies
  // (float, double, binary, sid, systemtime; arrays never take one).
  std::optional<ValueKind> kind;
  // Integer kinds: the range a value must fit (docs/semantics.md §2.3).
  bool is_signed;
  uint64_t max_positive;  // largest value
  uint64_t max_negative;  // largest magnitude of a negative value (0 for unsigned)
};

inline constexpr std::optional<ValueKind> kNoPredicate = std::nullopt;
inline constexpr uint64_t kMax64 = ~uint64_t{0};

// Every InType, in value order (row i is InType i + 1).
inline constexpr InTypeInfo kInTypes[] = {
    {InType::UnicodeString, "wstring", "UnicodeString", 0, ValueKind::String, false, 0, 0},
    {InType::AnsiString, "string", "AnsiString", 0, ValueKind::String, false, 0, 0},
    {InType::Int8, "int8", "Int8", 1, ValueKind::Integer, true, 0x7F, 0x80},
    {InType::UInt8, "uint8", "UInt8", 1, ValueKind::Integer, false, 0xFF, 0},
    {InType::Int16, "int16", "Int16", 2, ValueKind::Integer, true, 0x7FFF, 0x8000},
    {InType::UInt16, "uint16", "UInt16", 2, ValueKind::Integer, false, 0xFFFF, 0},
    {InType::Int32, "int32", "Int32", 4, ValueKind::Integer, true, 0x7FFFFFFF, 0x80000000},
    {InType::UInt32, "uint32", "UInt32", 4, ValueKind::Integer, false, 0xFFFFFFFF, 0},
    {InType::Int64, "int64", "Int64", 8, ValueKind::Integer, true, 0x7FFFFFFFFFFFFFFF,
     0x8000000000000000},
    {InType::UInt64, "uint64", "UInt64", 8, ValueKind::Integer, false, kMax64, 0},
    {InType::Float, "float", "Float", 4, kNoPredicate, false, 0, 0},
    {InType::Double, "double", "Double", 8, kNoPredicate, false, 0, 0},
    {InType::Boolean, "bool", "Boolean", 4, ValueKind::Integer, false, 1, 0},
    {InType::Binary, "binary", "Binary", 0, kNoPredicate, false, 0, 0},
    {InType::Guid, "guid", "GUID", 16, ValueKind::Guid, false, 0, 0},
    {InType::Pointer, "pointer", "Pointer", 8, ValueKind::Integer, false, kMax64, 0},
    {InType::FileTime, "filetime", "FILETIME", 8, ValueKind::Integer, false, kMax64, 0},
    {InType::SystemTime, "systemtime", "SYSTEMTIME", 16, kNoPredicate, false, 0, 0},
    {InType::Sid, "sid", "SID", 0, kNoPredicate, false, 0, 0},
    {InType::HexInt32, "hexint32", "HexInt32", 4, ValueKind::Integer, false, 0xFFFFFFFF, 0},
    {InType::HexInt64, "hexint64", "HexInt64", 8, ValueKind::Integer, false, kMax64, 0},
};

constexpr bool in_types_in_value_order() {
  for (size_t i = 0; i < std::size(kInTypes); ++i)
    if (uint16_t(kInTypes[i].type) != i + 1) return false;
  return true;
}
static_assert(std::size(kInTypes) == size_t(kLastInType), "one row per InType");
static_assert(in_types_in_value_order(), "kInTypes rows in InType value order");

// The row of `type`, or null for a value that is no InType.
constexpr const InTypeInfo* find_in_type(InType type) {
  return in_type_known(uint16_t(type)) ? &kInTypes[uint16_t(type) - 1] : nullptr;
}

}  // namespace pfc::internal
