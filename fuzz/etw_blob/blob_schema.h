// fuzz/etw_blob/blob_schema.h — the provider schema the etw_blob fuzzer resolves blobs
// against, shared with the seed generator (make_seeds.cc) so the seeds resolve. Event 1
// version 0 has one scalar field of every in-type (field index = in-type − 1), then an array
// and a fixed-length string; event 1 version 1 and event 2 version 1 are small.
#pragma once

#include <cstdint>
#include <string>

#include "pfc/guid.h"
#include "pfc/schema.h"

namespace pfc::fuzz {

// Field indices of event 1 version 0 beyond the one-per-type block.
inline constexpr uint16_t kArrayField = 21;        // uint32[2]: never filterable
inline constexpr uint16_t kFixedStringField = 22;  // wstring of 8 characters
inline uint16_t type_field(InType t) { return static_cast<uint16_t>(static_cast<uint16_t>(t) - 1); }

// Built once; read-only afterwards (safe to share between threads).
inline const ProviderDef& blob_schema() {
  static const ProviderDef p = [] {
    ProviderDef d;
    d.name = "Example-Provider";
    d.guid = *Guid::parse("{37A59B93-BB25-4CEE-97AA-8B6ACD0C4DF8}");
    EventDef all{"AllTypes", {}, {}};
    all.desc.id = 1;
    for (uint16_t t = 1; t <= static_cast<uint16_t>(kLastInType); ++t) {
      FieldDef f{"F" + std::to_string(t), static_cast<InType>(t), {}, {}};
      if (f.type == InType::Binary) f.length = {Extent::Kind::Fixed, 4};
      all.fields.push_back(f);
    }
    all.fields.push_back({"Array", InType::UInt32, {Extent::Kind::Fixed, 2}, {}});
    all.fields.push_back({"Fixed", InType::UnicodeString, {}, {Extent::Kind::Fixed, 8}});
    EventDef v1{"AllTypesV1",
                {},
                {{"Initiator", InType::UnicodeString, {}, {}}, {"Level", InType::UInt32, {}, {}}}};
    v1.desc.id = 1;
    v1.desc.version = 1;
    EventDef e2{"Example_Event_2",
                {},
                {{"Title", InType::AnsiString, {}, {}},
                 {"InstanceId", InType::Guid, {}, {}},
                 {"ErrorCode", InType::Int16, {}, {}}}};
    e2.desc.id = 2;
    e2.desc.version = 1;
    d.events = {all, v1, e2};
    return d;
  }();
  return p;
}

}  // namespace pfc::fuzz
