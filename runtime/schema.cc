// runtime/schema.cc — in-type names and properties, and the schema lookups declared in
// include/pfc/schema.h. Linear lookups: schemas are small and built once.
#include "pfc/schema.h"

#include "base/payload_ops.h"

namespace pfc {

// Names, sizes and kinds are those of the in-type table (base/in_types.h).
std::string_view in_type_name(InType t) {
  const internal::InTypeInfo* row = internal::find_in_type(t);
  return row ? row->name : "?";
}

std::optional<InType> in_type_from_name(std::string_view name) {
  for (const internal::InTypeInfo& row : internal::kInTypes) {
    if (row.name == name) return row.type;
  }
  return std::nullopt;
}

uint32_t in_type_fixed_size(InType t) {
  const internal::InTypeInfo* row = internal::find_in_type(t);
  return row ? row->fixed_size : 0;
}

bool in_type_is_count(InType t) { return t >= InType::Int8 && t <= InType::UInt64; }

bool in_type_is_integer(InType t) {
  return internal::payload_value_kind(t) == internal::ValueKind::Integer;
}

bool in_type_is_signed(InType t) {
  const internal::InTypeInfo* row = internal::find_in_type(t);
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
