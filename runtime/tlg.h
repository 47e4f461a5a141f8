// runtime/tlg.h — TraceLogging's self-describing events (docs/etw.md "TraceLogging"):
// the provider traits and event metadata blobs `<TraceLoggingProvider.h>` passes to
// EventWriteTransfer, read back for consumers (TDH, `pfc trace show`), the walk of an
// event's data by its metadata, and how pfc carries both blobs behind an event's payload
// in rings and log files. Every reader is bounds-checked, names the byte where a blob is
// wrong, and walks nested structures with an explicit stack (docs/architecture.md §6).
#pragma once

#include <cstddef>
#include <cstdint>
#include <expected>
#include <string>
#include <string_view>
#include <vector>

namespace pfc::tlg {

// The in-types of TraceLogging metadata: the low 5 bits of a field's InMeta byte, with
// TDH_INTYPE's numbers (TraceLoggingDynamic.h `InType`).
enum InType : uint8_t {
  kInNull = 0,
  kInUnicodeString = 1,
  kInAnsiString = 2,
  kInInt8 = 3,
  kInUInt8 = 4,
  kInInt16 = 5,
  kInUInt16 = 6,
  kInInt32 = 7,
  kInUInt32 = 8,
  kInInt64 = 9,
  kInUInt64 = 10,
  kInFloat = 11,
  kInDouble = 12,
  kInBool32 = 13,
  kInBinary = 14,  // UINT16 byte count, then the bytes
  kInGuid = 15,
  kInPointerUnsupported = 16,  // never written: pointers are HexInt32/HexInt64
  kInFileTime = 17,
  kInSystemTime = 18,
  kInSid = 19,
  kInHexInt32 = 20,
  kInHexInt64 = 21,
  kInCountedString = 22,      // UINT16 byte count, then UTF-16
  kInCountedAnsiString = 23,  // UINT16 byte count, then 8-bit characters
  kInStruct = 24,             // the out-type byte holds the member count
  kInCountedBinary = 25,      // as Binary; arrays allowed
  kInTypeCount = 26,
};

// InMeta / OutMeta bits.
constexpr uint8_t kInTypeMask = 0x1F;
constexpr uint8_t kArityMask = 0x60;
constexpr uint8_t kArityCcount = 0x20;  // constant count: UINT16 in the metadata
constexpr uint8_t kArityVcount = 0x40;  // variable count: UINT16 before the elements
constexpr uint8_t kArityCustom = 0x60;  // custom schema: UINT16 size + bytes, data likewise
constexpr uint8_t kInChain = 0x80;      // an OutMeta byte follows
constexpr uint8_t kOutChain = 0x80;     // tags follow

// TraceLogging out-types (TraceLoggingDynamic.h `OutType`; not TDH_OUTTYPE's numbers).
enum OutType : uint8_t {
  kOutDefault = 0,
  kOutNoPrint = 1,
  kOutString = 2,
  kOutBoolean = 3,
  kOutHex = 4,
  kOutPid = 5,
  kOutTid = 6,
  kOutPort = 7,
  kOutIPv4 = 8,
  kOutIPv6 = 9,
  kOutSocketAddress = 10,
  kOutXml = 11,
  kOutJson = 12,
  kOutWin32Error = 13,
  kOutNTStatus = 14,
  kOutHResult = 15,
  kOutFileTime = 16,
  kOutSigned = 17,
  kOutUnsigned = 18,
  kOutDateTimeCultureInsensitive = 33,
  kOutUtf8 = 35,
  kOutPkcs7WithTypeInfo = 36,
  kOutCodePointer = 37,
  kOutDateTimeUtc = 38,
};

// The channel of every TraceLogging event (WINEVENT_CHANNEL_TRACELOGGING).
constexpr uint8_t kChannel = 11;
// The most structure nesting a metadata blob may have (docs/limits.md).
constexpr size_t kMaxDepth = 32;

// One field of an event's metadata, in the blob's order (a structure's members follow it).
struct Field {
  std::string name;
  uint8_t in_type = 0;   // InType
  uint8_t out_type = 0;  // OutType; a structure's member count
  uint8_t arity = 0;     // 0 scalar, kArityCcount, kArityVcount, kArityCustom
  uint16_t ccount = 0;   // kArityCcount: the element count
  uint32_t tags = 0;     // 28 bits
  uint32_t end = 0;      // index after this field's last member (index + 1 for a non-struct)
  uint32_t parent = 0;   // index + 1 of the enclosing structure, 0 at top level
  // kArityCustom (TraceLoggingCustom): the InMeta byte's low 5 bits are the protocol, not
  // an in-type; in_type is then kInBinary (the value is a UINT16 byte count and the
  // bytes) and `schema` holds the metadata's schema bytes.
  uint8_t protocol = 0;
  std::string schema;
};

struct EventMeta {
  std::string name;
  uint32_t tags = 0;
  std::vector<Field> fields;
};

// Parses an event metadata blob (EVENT_DATA_DESCRIPTOR_TYPE_EVENT_METADATA, the
// EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL item): the size word must equal `size`; names
// UTF-8, NUL-terminated; in-types known; structures with 1..127 members that the blob
// holds. The error names the byte offset.
std::expected<EventMeta, std::string> parse_event(const uint8_t* p, size_t size);
// The provider name of a provider traits blob (…_PROVIDER_METADATA, …_PROV_TRAITS), whose
// size word must equal `size`; the traits after the name are checked for their sizes.
std::expected<std::string, std::string> parse_provider(const uint8_t* p, size_t size);

// The event name inside an event metadata blob, found without parsing the fields (the
// write path names every TraceLogging event for EVENT_NAME filters); empty when the blob
// does not hold a NUL-terminated name after its size word and tags.
std::string_view event_name(const uint8_t* p, size_t size);

// The fixed size of one element of `in_type`, 0 when it varies (strings, binary, SID,
// struct). Pointers are 8 bytes (x64).
uint32_t fixed_size(uint8_t in_type);

// A walk over an event's data, by its metadata.
class Walker {
 public:
  Walker(const EventMeta& meta, const uint8_t* data, size_t size)
      : meta_(meta), data_(data), size_(size) {}
  // The offset after field `i`'s value (every element, the count word included) starting
  // at `off`; false when the data does not hold it.
  bool skip_field(uint32_t i, uint64_t off, uint64_t& next) const;
  // The offset after one element of field `i` at `off`.
  bool skip_element(uint32_t i, uint64_t off, uint64_t& next) const;
  // The element count of field `i` whose value starts at `off`; sets `first` to the first
  // element's offset (after a variable count's word).
  bool count(uint32_t i, uint64_t off, uint64_t& n, uint64_t& first) const;

 private:
  bool walk(uint32_t i, uint64_t elements, uint64_t& off) const;

  const EventMeta& meta_;
  const uint8_t* data_;
  size_t size_;
};

// How pfc carries the two blobs with an event through rings and log files: a writer that
// got them sets kRecordFlag in the record's flags and stores `payload, traits, metadata,
// u16 traits size, u16 metadata size` as the record's payload. Readers split it back; the
// flag never reaches an EVENT_RECORD (docs/etw.md "TraceLogging").
constexpr uint16_t kRecordFlag = 0x8000;
struct Split {
  const uint8_t* payload = nullptr;
  uint32_t payload_size = 0;
  const uint8_t* traits = nullptr;
  uint16_t traits_size = 0;
  const uint8_t* meta = nullptr;
  uint16_t meta_size = 0;
};
// The pieces of a record payload written with kRecordFlag; false when it is too short
// for the sizes its trailer gives (a damaged record: readers deliver it without them).
bool split(const uint8_t* p, uint32_t size, Split& out);
// The trailer `split` reads: appended after the payload, traits and metadata.
void append_trailer(std::vector<uint8_t>& out, uint16_t traits_size, uint16_t meta_size);

}  // namespace pfc::tlg
