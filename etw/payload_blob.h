// etw/payload_blob.h — the self-contained binary form of aggregated payload filters (the
// data of an EVENT_FILTER_TYPE_PAYLOAD descriptor, TdhAggregatePayloadFilters' result):
// encoding, fully validating decoding (any byte string is safe to decode), and resolution
// against the provider's schema into pfc::PayloadFilter. Pure functions. The format is
// documented in docs/etw.md "Payload filter blob".
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/le.h"
#include "pfc/enable.h"
#include "pfc/guid.h"
#include "pfc/schema.h"

namespace pfc::etw {

// Little-endian layout, no alignment required (read with memcpy):
//   header (48 bytes)
//     @0  u32 magic 0x50434650 ("PFCP")   @4  u16 version (2)    @6  u16 header size (48)
//     @8  u32 total size                  @12 u32 checksum (FNV-1a 32 of the blob with
//                                              these 4 bytes zero)
//     @16 GUID provider (16 bytes, Windows layout)
//     @32 u16 filter count (≥ 1)          @34 u16 predicate count (= sum over filters)
//     @36 u32 string table offset         @40 u32 string table size
//     @44 u32 layout table offset
//   filter table (8 bytes each)
//     @0 u16 event id  @2 u8 event version  @3 u8 flags (bit 0 match-any = predicates OR-ed,
//     bit 1 group-all = EventMatchALLFlags TRUE)  @4 u16 first predicate  @6 u16 count (1..8)
//     (filters' predicate ranges are consecutive: first = sum of the earlier counts)
//   predicate table (24 bytes each)
//     @0 u16 field index  @2 u16 PAYLOAD_OPERATOR  @4 u16 TDH in-type of the field
//     @6 u16 reserved (0)  @8 u64 a  @16 u64 b
//     integers: a = lo, b = hi (BETWEEN / NOTBETWEEN) or 0; GUID: the 16 payload bytes;
//     strings: a = offset into the string table, b = byte length (UTF-8, no terminator)
//   layout table, at 48 + 8·filters + 24·predicates: per filter, in filter order,
//     @0 u16 field count (1..kBlobMaxLayoutFields; covers every field up to the highest
//     one a predicate tests)  @2 u16 reserved (0), then per field 12 bytes:
//     @0 u16 TDH in-type  @2 u8 count kind  @3 u8 length kind (0 none, 1 fixed, 2 field)
//     @4 u32 count value  @8 u32 length value (kind 2: index of an earlier scalar
//     Int8..UInt64 field; lengths only on strings and binary, binary always has one — the
//     rules of manifests) — the event's payload layout as the blob's creator knew it from
//     the manifest, so a process that never loaded the manifest filters correctly
//     (docs/etw.md). Filters on the same event carry layouts that agree as far as both go.
//   string table (UTF-8 bytes), ending the blob.
inline constexpr uint32_t kBlobMagic = 0x50434650;
inline constexpr uint16_t kBlobVersion = 2;
inline constexpr uint32_t kBlobHeaderSize = 48;
inline constexpr uint32_t kBlobFilterSize = 8;
inline constexpr uint32_t kBlobPredicateSize = 24;
inline constexpr uint32_t kBlobChecksumOffset = 12;
inline constexpr uint32_t kBlobMaxPredicates = 8;  // MAX_PAYLOAD_PREDICATES
inline constexpr uint32_t kBlobLayoutFieldSize = 12;
inline constexpr uint32_t kBlobMaxLayoutFields = 1024;

struct BlobPredicate {
  uint16_t field = 0;
  PayloadOp op = PayloadOp::Eq;
  InType type = InType::UInt32;  // the field's type when the filter was built
  PayloadValue value;
};

struct BlobFilter {
  uint16_t event_id = 0;
  uint8_t event_version = 0;
  bool match_any = false;            // EventMatchANY: predicates OR-ed
  bool group_all = false;            // EventMatchALLFlags
  std::vector<BlobPredicate> preds;  // 1..kBlobMaxPredicates
  // The event's fields 0..(highest tested field); names are not stored ("field<N>").
  std::vector<FieldDef> layout;
};

struct BlobContents {
  Guid provider;
  std::vector<BlobFilter> filters;
};

// Bytes encode_blob would produce (no limit applied).
size_t blob_size(const BlobContents& contents);
// The blob; the caller checks blob_size against MAX_EVENT_FILTER_PAYLOAD_SIZE first.
std::vector<uint8_t> encode_blob(const BlobContents& contents);
// FNV-1a 32 over `size` bytes with the checksum field taken as zero.
uint32_t blob_checksum(const uint8_t* data, size_t size);

// Decodes and structurally validates `size` bytes: magic, version, sizes, checksum,
// table bounds, flags, reserved fields, predicate counts, known operators and in-types,
// string references inside the table, and the layouts (fields a manifest could declare,
// every tested field inside, scalar and of the recorded type; filters on one event
// agreeing). String bytes are not checked here: resolve_blob
// checks UTF-8 where the field needs it (wide strings); ANSI strings take any bytes. Reads
// only [data, data + size).
// nullopt when anything is wrong.
std::optional<BlobContents> decode_blob(const uint8_t* data, size_t size);

// The layout a filter carries for `event`: its fields up to the highest one `preds` test.
std::vector<FieldDef> blob_layout(const EventDef& event, const std::vector<BlobPredicate>& preds);

// Resolves decoded filters into PayloadFilters that carry their own layout: each field
// index must name a scalar field of the recorded type in the filter's layout, the operator
// must apply to it and the value must be one TDH conversion can produce (range, MODULO 0,
// BETWEEN order). When `schema` (the provider's loaded manifest) is given and defines the
// event, the layout must agree with it (a blob built against another manifest version is
// refused). nullopt when anything does not fit.
std::optional<std::vector<PayloadFilter>> resolve_blob(const BlobContents& contents,
                                                       const ProviderDef* schema);

// --- parts shared with the pfc enable extension (etw/enable_ext.h) ---------------------
// One 24-byte predicate record at `out[at]` (the predicate table's layout above); string
// values are appended to `strings` and referenced by offset into it.
void put_blob_predicate(std::vector<uint8_t>& out, size_t at, const BlobPredicate& p,
                        std::string& strings);
// Which operators a predicate record may carry: ETW's (the payload blob, the ETW API), or
// every operator of a checked script's EnableParams (the pfc enable extension: ETW's and the
// language's extensions; `in` / `not in` arrive expanded, so never as list operators).
// Field-to-field operators (FieldEq..FieldGe) carry the other field's index as value `a`.
enum class BlobOps : uint8_t { Etw, Script };
// Decodes one predicate record (an operator of `ops`, a known in-type, reserved 0, string
// inside the `strings_size` bytes at `strings`, no hi word unless the operator takes a pair).
bool decode_predicate(const uint8_t* p, const uint8_t* strings, uint32_t strings_size, BlobOps ops,
                      BlobPredicate& out);
// A layout: u16 field count, u16 0, then append_fields.
void append_layout(std::vector<uint8_t>& out, const std::vector<FieldDef>& layout);
// 12 bytes per field (the layout table's field record above).
void append_fields(std::vector<uint8_t>& out, const std::vector<FieldDef>& fields);
// `count` field records at `at` (advanced), before `end`, appended to `out` (whose fields
// are the earlier ones count/length references may name); names are "field<N>".
bool decode_fields(const uint8_t* d, size_t end, size_t& at, uint32_t count,
                   std::vector<FieldDef>& out);
// One layout at `at` (advanced) into bf.layout: 1..kBlobMaxLayoutFields fields covering
// every field bf.preds tests, each scalar and of the recorded type.
bool decode_layout(const uint8_t* d, size_t end, size_t& at, BlobFilter& bf);
// Filters on one event carry layouts that agree as far as both go.
bool blob_layouts_agree(const std::vector<BlobFilter>& filters);
// Same in-type, count and length (names aside).
bool same_field(const FieldDef& a, const FieldDef& b);
// Resolves one filter's predicates against its layout (and `schema`, as resolve_blob):
// fills `preds` in order and out's event id, version, group_all and layout (not expr).
// Beyond resolve_blob's checks: a field-to-field operator's other field must be in the layout
// and comparable (compiler/convert.h field_pair_issue); a `matches` / `regex` pattern must
// compile.
bool resolve_blob_filter(const BlobFilter& bf, const ProviderDef* schema,
                         std::vector<PayloadPredicate>& preds, PayloadFilter& out);

// One filter's predicates as a PayloadExpr: n Pred nodes, then one And (or Or) node over
// them — the shape the script checker produces for `payload E all|any { … }`.
PayloadExpr make_flat_expr(std::vector<PayloadPredicate> preds, bool match_any);

}  // namespace pfc::etw
