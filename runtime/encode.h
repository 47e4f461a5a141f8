// runtime/encode.h — typed field values → TDH payload bytes for one event (the inverse of
// the decoding in tdh.h). Used by the CLI for JSON event files and by tests; not on the
// routing hot path.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/error.h"
#include "pfc/guid.h"
#include "pfc/schema.h"

namespace pfc {

// One field's value as given by the user (a JSON value, or a test literal). Exactly the
// member named by `kind` is meaningful. Plain data; copyable.
struct FieldValue {
  enum class Kind : uint8_t { Null, Int, UInt, Double, Bool, String, Guid, Bytes, Array };
  Kind kind = Kind::Null;
  int64_t int_value = 0;          // Int (JSON negative integers)
  uint64_t uint_value = 0;        // UInt (JSON non-negative integers)
  double double_value = 0;        // Double
  bool bool_value = false;        // Bool
  std::string string_value;       // String, UTF-8
  Guid guid_value;                // Guid
  std::vector<uint8_t> bytes;     // Bytes
  std::vector<FieldValue> array;  // Array

  static FieldValue null() { return {}; }
  static FieldValue of_int(int64_t v);
  static FieldValue of_uint(uint64_t v);
  static FieldValue of_double(double v);
  static FieldValue of_bool(bool v);
  static FieldValue of_string(std::string v);
  static FieldValue of_guid(const Guid& v);
  static FieldValue of_bytes(std::vector<uint8_t> v);
  static FieldValue of_array(std::vector<FieldValue> v);

  // A short rendering for messages: 300, -7, 1.5, true, "text", {GUID}, "4 bytes",
  // "an array of 3 elements", null.
  std::string describe() const;
};

// The largest payload encode_payload builds (docs/limits.md): the whole payload, all
// fields together. (ETW itself caps events at 64 KiB.)
inline constexpr uint64_t kMaxPayloadBytes = uint64_t{16} << 20;

// Encodes `values` (field name → value, any order) as the payload of `event`.
//
// Rules:
// - Fields are written in declaration order, packed, little-endian (docs/semantics.md §6).
// - An unknown or repeated field name is an error naming it. A missing field, or one
//   given as null, takes its default: 0 / 0.0 / false, the empty string, the null GUID,
//   16 zero bytes (systemtime), the SID S-1-0 with no sub-authorities (8 bytes), and for
//   arrays `count` default elements — except that a field that is the count or length
//   source of later fields is derived from them: the array's element count, the string's
//   length (UTF-16 code units for wstring, bytes for string) or the binary's byte count
//   (for arrays of strings/binaries: the longest element). Later fields that share one
//   source must imply the same value.
// - A given count source must equal the array's element count. A given or fixed length
//   is a maximum: shorter strings and binaries are padded with zero bytes (the decoder
//   reads a padded string up to its first NUL), longer ones are errors.
// - Integer types (int8..uint64, hexint32/64, filetime, pointer) take integers, or strings
//   holding a decimal or 0x-hexadecimal integer; values are range-checked per type. bool
//   takes true/false or the integers 0/1 (written as 4 bytes). float/double take numbers
//   (float range-checked).
// - wstring takes a UTF-8 string (invalid UTF-8 is an error) written as UTF-16LE; string
//   takes the UTF-8 bytes as they are. Without a length both get a NUL terminator, and an
//   embedded NUL is an error (it would change the field's size).
// - guid takes a Guid or a "{...}" string; binary and sid take bytes or an array of
//   integers 0..255 (a sid must be 8 + 4 * bytes[1] bytes long); systemtime takes 16 bytes
//   or an array of 8 integers 0..65535 (the SYSTEMTIME members in order).
// - Array fields (with a count) take an array of element values.
//
// - The payload is at most kMaxPayloadBytes: a count or length whose minimum size does not
//   fit in what the earlier fields left is an error before anything is allocated for it.
//
// Errors (user-value problems) name the field: "field 'Level': 300 does not fit uint8",
// "field 'Items[2]': ...". Thread-safe (no shared state).
Result<std::vector<uint8_t>> encode_payload(
    const EventDef& event, const std::vector<std::pair<std::string, FieldValue>>& values);

}  // namespace pfc
