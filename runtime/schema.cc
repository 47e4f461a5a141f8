// runtime/schema.cc — in-type names and properties, and the schema lookups declared in
// include/pfc/schema.h. Linear lookups: schemas are small and built once.
#include "pfc/schema.h"

#include <array>
#include <utility>

#include "runtime/payload_ops.h"

namespace pfc {
namespace {

constexpr std::array<std::pair<InType, std::string_view>, 21> kTypeNames = {{
    {InType::Int8, "int8"},
    {InType::UInt8, "uint8"},
    {InType::Int16, "int16"},
    {InType::UInt16, "uint16"},
    {InType::Int32, "int32"},
    {InType::UInt32, "uint32"},
    {InType::Int64, "int64"},
    {InType::UInt64, "uint64"},
    {InType::Float, "float"},
    {InType::Double, "double"},
    {InType::Boolean, "bool"},
    {InType::Guid, "guid"},
    {InType::Pointer, "pointer"},
    {InType::FileTime, "filetime"},
    {InType::SystemTime, "systemtime"},
    {InType::Sid, "sid"},
    {InType::HexInt32, "hexint32"},
    {InType::HexInt64, "hexint64"},
    {InType::UnicodeString, "wstring"},
    {InType::AnsiString, "string"},
    {InType::Binary, "binary"},
}};

}  // namespace

std::string_view in_type_name(InType t) {
  for (const auto& [type, name] : kTypeNames) {
    if (type == t) return name;
  }
  return "?";
}

std::optional<InType> in_type_from_name(std::string_view name) {
  for (const auto& [type, n] : kTypeNames) {
    if (n == name) return type;
  }
  return std::nullopt;
}

uint32_t in_type_fixed_size(InType t) {
  switch (t) {
    case InType::Int8:
    case InType::UInt8: return 1;
    case InType::Int16:
    case InType::UInt16: return 2;
    case InType::Int32:
    case InType::UInt32:
    case InType::HexInt32:
    case InType::Float:
    case InType::Boolean: return 4;
    case InType::Int64:
    case InType::UInt64:
    case InType::HexInt64:
    case InType::Double:
    case InType::Pointer:
    case InType::FileTime: return 8;
    case InType::Guid:
    case InType::SystemTime: return 16;
    case InType::UnicodeString:
    case InType::AnsiString:
    case InType::Binary:
    case InType::Sid: return 0;
  }
  return 0;
}

bool in_type_is_count(InType t) { return t >= InType::Int8 && t <= InType::UInt64; }

// Integer-like, signed and string types are those of the operator/type table.
bool in_type_is_integer(InType t) {
  return internal::payload_value_kind(t) == internal::ValueKind::Integer;
}

bool in_type_is_signed(InType t) {
  const internal::FieldTypeInfo* row = internal::find_payload_field_type(t);
  return row != nullptr && row->is_signed;
}

bool in_type_is_string(InType t) {
  return internal::payload_value_kind(t) == internal::ValueKind::String;
}

std::optional<uint32_t> EventDef::find_field(std::string_view field_name) const {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].name == field_name) return static_cast<uint32_t>(i);
  }
  return std::nullopt;
}

const EventDef* ProviderDef::find_event(std::string_view event_name) const {
  for (const EventDef& e : events) {
    if (e.name == event_name) return &e;
  }
  return nullptr;
}

const EventDef* ProviderDef::find_event(uint16_t id, uint8_t version) const {
  for (const EventDef& e : events) {
    if (e.desc.id == id && e.desc.version == version) return &e;
  }
  return nullptr;
}

const ProviderDef* Schema::find_provider(std::string_view provider_name) const {
  for (const ProviderDef& p : providers) {
    if (p.name == provider_name) return &p;
  }
  return nullptr;
}

const ProviderDef* Schema::find_provider(const Guid& guid) const {
  for (const ProviderDef& p : providers) {
    if (p.guid == guid) return &p;
  }
  return nullptr;
}

}  // namespace pfc
