// etw/enable_ext.h — the pfc enable extension: a pfc-private EVENT_FILTER_DESCRIPTOR type
// carrying what ETW's descriptor types cannot — payload filters as full expressions
// (and / or / not over predicates, any number of them, with every operator of the
// language: ETW's, prefixes, globs, regexes, `.cs` forms, field-to-field; `in` lists as
// the checker expands them) with the payload layouts they
// need, and optionally the provider's schema (event and field names) so consumers can
// decode. Written by `pfc trace enable --script` through the private controller entry
// (etw/private_enable.h), published in the namespace like any descriptor, converted by
// every provider process (convert_enable with private types allowed). The public
// EnableTraceEx2 refuses the type (ERROR_INVALID_PARAMETER), as ETW refuses unknown
// types. Format: docs/etw.md "The pfc enable extension". Pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "pfc/enable.h"
#include "pfc/guid.h"
#include "pfc/schema.h"

namespace pfc::etw {

// The descriptor Type: system-defined (high bit), in bits ETW's types never use.
inline constexpr uint32_t kFilterTypePfcExtension = 0x80FC0001u;
inline constexpr uint32_t kExtMagic = 0x58434650;  // "PFCX"
inline constexpr uint16_t kExtVersion = 2;         // 2: the language's operators too
inline constexpr uint32_t kExtHeaderSize = 64;
inline constexpr uint32_t kExtFilterSize = 28;
inline constexpr uint32_t kExtNodeSize = 12;
inline constexpr uint32_t kExtEventSize = 32;
inline constexpr size_t kExtMaxBytes = 256u << 10;

// What the extension carries for one enable of one provider.
struct ExtContents {
  Guid provider;
  // Payload filters with their expressions; `layout` must be set on each (the event's
  // fields up to the highest one the expression tests). Empty: no payload filter.
  std::vector<PayloadFilter> payload;
  // The provider's schema (names, descriptors, fields), or nullopt.
  std::optional<ProviderDef> schema;
};

// The filters of `provider`'s enable from a checked script: each filter's layout is taken
// from `schema`'s event (fields up to the highest tested one). `schema` is included.
ExtContents ext_from_script(const ProviderDef& schema, const std::vector<PayloadFilter>& payload);

// The descriptor data; nullopt when larger than kExtMaxBytes or when a filter has no layout.
std::optional<std::vector<uint8_t>> encode_ext(const ExtContents& contents);

// Decodes and fully validates `size` untrusted bytes (reads only [data, data + size)):
// header, checksum, tables in bounds and consecutive, predicates (etw/payload_blob.h
// records, resolved against their layouts with the TDH conversion rules; a regex or glob
// that compiles; a field-to-field operator's other field in the layout and comparable),
// expressions (post-order trees: every child before its parent, each node but the root used once,
// Not with one child, And/Or with at least one), layouts (agreeing per event, and with
// `loaded`, the provider's loaded manifest, when it defines the event), schema names
// (non-empty UTF-8; events unique by name and by id+version). nullopt when anything is
// wrong.
std::optional<ExtContents> decode_ext(const uint8_t* data, size_t size, const ProviderDef* loaded);

}  // namespace pfc::etw
