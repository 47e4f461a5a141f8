// runtime/encode_value.h — internal: encoding one element of a field (a scalar, or one
// element of an array) for encode_payload (encode.cc).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/error.h"
#include "pfc/schema.h"
#include "runtime/encode.h"

namespace pfc::internal {

// Appends one element of type `type` to `out`. `value` null means the default value;
// `length` is the field's effective length (strings: characters, binary: bytes), if any.
// Errors name the field as `label` ("field 'Items[2]': ...").
Result<void> encode_element(InType type, const FieldValue* value, std::optional<uint64_t> length,
                            const std::string& label, std::vector<uint8_t>& out);

// The element's length in the units `length=` counts (wstring: UTF-16 code units; string,
// binary: bytes), for deriving a length source; nullopt for other types or unusable values.
std::optional<uint64_t> element_length(InType type, const FieldValue& value);

// `value` as a non-negative integer (Int ≥ 0, UInt, or an integer string), if it is one.
std::optional<uint64_t> as_count(const FieldValue& value);

}  // namespace pfc::internal
